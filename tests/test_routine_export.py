"""The Playwright export of a routine, read as code: Playwright's own locators chosen from each
signature (best first), expectations as assertions, parameters as arguments, secrets from the
environment — and the module compiles. (The demo order's export runs in
tests/test_e2e_routines.py.)"""

from __future__ import annotations

import ast

from heybro.agent.models import ExpectedOutcome
from heybro.routines.export import locator, script
from heybro.routines.model import Outcome, Parameter, Routine, Step


def test_locators_are_chosen_from_the_signature_best_first() -> None:
    assert locator({"tag": "button", "role": "button", "name": "Pay",
                    "attrs": {"data-testid": "pay-btn"}}) == "page.get_by_test_id('pay-btn')"
    assert locator({"tag": "button", "role": "button", "name": "Pay",
                    "attrs": {"data-qa": "pay"}}) == "page.locator('[data-qa=\"pay\"]')"
    assert locator({"tag": "a", "role": "link", "name": "Blue  Kettle"}) == \
        "page.get_by_role('link', name='Blue Kettle', exact=True)"
    # No role Playwright knows: the label, then the placeholder, then the text, then CSS.
    assert locator({"tag": "input", "role": "", "name": "", "label": "Card number",
                    "attrs": {"placeholder": "1234"}}) == \
        "page.get_by_label('Card number', exact=True)"
    assert locator({"tag": "input", "attrs": {"placeholder": "Search…"}}) == \
        "page.get_by_placeholder('Search…', exact=True)"
    assert locator({"tag": "div", "role": "generic", "text": "Close"}) == \
        "page.get_by_text('Close', exact=True)"
    assert locator({"tag": "input", "attrs": {"id": "qty"}}) == "page.locator('input[id=\"qty\"]')"
    assert locator({"tag": "input", "attrs": {"id": "react-123456", "name": "qty"}}) == \
        "page.locator('input[name=\"qty\"]')"
    # Lookalikes: the recorded one by its place; a long name matched by its start.
    assert locator({"tag": "button", "role": "button", "name": "Edit",
                    "twins": {"k": 1, "n": 3}}).endswith(".nth(1)")
    long = "Read more about the terms and conditions of the annual subscription plan here"
    assert locator({"tag": "a", "role": "link", "name": long}) == \
        "page.get_by_role('link', name='Read more about the terms and conditions of the annual')"
    assert locator(None) is None


def test_the_script_has_parameters_as_arguments_secrets_from_the_environment_and_compiles() -> None:
    field = {"tag": "input", "role": "textbox", "name": "Email"}
    routine = Routine(
        name="2fa-login", goal="Log in as {{param:email}}", start_url="https://app.test/login?x=1",
        parameters=[Parameter(name="email", default="ann@x.io"),
                    Parameter(name="page", default="1")],
        subtasks=[Outcome(text="Log in", done_when=ExpectedOutcome(url_contains="/home"))],
        steps=[
            Step(tool="fill", args={"value": "{{param:email}}"}, signature=field,
                 expect=ExpectedOutcome(value="{{param:email}}"), intent='fill textbox "Email"'),
            Step(tool="type", args={"text": "{{secret:password}}"},
                 signature={"tag": "input", "label": "Password"}),
            Step(tool="select", args={"value": "Page {{param:page}}"},
                 signature={"tag": "select", "role": "combobox", "name": "Page"}),
            Step(tool="press", args={"keys": "Enter"}),
            Step(tool="click", signature={"tag": "button", "role": "button", "name": "Sign in"},
                 expect=ExpectedOutcome(text_appears="Welcome {{param:email}}",
                                        element_disappears='button "Sign in"')),
            Step(tool="wait_for", args={"text": "Inbox", "seconds": 5}),
        ])
    text = script(routine)
    ast.parse(text)  # a module Python reads
    assert "def routine_2fa_login(page: Page, email: str = 'ann@x.io', page_: str = '1', " \
           "start_url: str = START_URL) -> None:" in text
    assert "page.get_by_role('textbox', name='Email', exact=True).fill(email)" in text
    # (a value compared as heybro compares it: the whole value, any case)
    assert ("expect(page.get_by_role('textbox', name='Email', exact=True)).to_have_value("
            "re.compile('^' + re.escape(email) + '$', re.IGNORECASE))") in text
    assert "page.get_by_label('Password', exact=True).press_sequentially(secret('password'))" \
        in text
    assert "HEYBRO_SECRET_PASSWORD" in text and "import os" in text  # never a value in the file
    assert ".select_option('Page ' + page_)" in text
    assert "page.keyboard.press('Enter')" in text
    assert "expect(page.get_by_text('Welcome ' + email).first).to_be_visible()" in text
    assert "expect(page.get_by_role('button', name='Sign in').filter(visible=True))" \
           ".to_have_count(0)" in text
    assert "expect(page.get_by_text('Inbox').first).to_be_visible(timeout=5000)" in text
    # The subtask's declared outcome is asserted where it ends.
    assert text.rstrip().split("def test_")[0].rstrip().endswith(
        "expect(page).to_have_url(re.compile(re.escape('/home')))")
    assert "def test_routine_2fa_login(page: Page, base_url: str | None) -> None:" in text
