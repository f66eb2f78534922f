"""Asking the person, end to end in real Chromium with the real extension and host: a risky click
waits for the person's Yes in the side panel (the demo shop counts its orders), a question is
answered with the panel's buttons, and a question's answer is shown first. The scripted model reads
ids off the page map in its prompt."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from heybro.demo import DemoSite
from support.browser import ExtBrowser, launch
from support.scripted_llm import ScriptedLLM, call, calls, find_id, user_text
from support.shop_policy import GOAL, ShopPolicy
from support.shop_rig import wait_status

pytestmark = pytest.mark.browser


@contextmanager
def ordering_with_confirmations(tmp_path: Path) -> Iterator[tuple[DemoSite, ExtBrowser, Page]]:
    """The demo order started in the panel, with ask-first for risky actions on."""
    policy = ShopPolicy()
    with DemoSite() as site, ScriptedLLM({}, default=policy.defaults()) as llm, \
            launch(env_extra=llm.env(HEYBRO_CONFIRM="1"), home=tmp_path / "home") as eb:
        eb.ctx.new_page().goto(site.url)
        panel = eb.open_panel()
        panel.fill("#goal", GOAL)
        panel.click("#send")
        yield site, eb, panel


def test_a_risky_click_waits_for_yes_in_the_panel_and_no_order_happens_before(tmp_path: Path) -> None:
    with ordering_with_confirmations(tmp_path) as (site, eb, panel):
        question = panel.locator("#question")
        # "Buy now" is a link to the shop's checkout page: followed without a question (it leads
        # there, it spends nothing). "Place order" spends money: asked, and nothing is ordered
        # before the Yes.
        expect(question).to_contain_text('button "Place order"', timeout=60_000)
        wait_status(panel, "Waiting for you")
        expect(question).to_contain_text("spend money")
        panel.wait_for_timeout(500)
        assert site.orders == []
        popup = eb.open_popup()
        expect(popup.locator("#outcome")).to_contain_text("Place order")
        panel.bring_to_front()
        question.get_by_role("button", name="Yes").click()
        wait_status(panel, "Completed", 60_000)
        assert len(site.orders) == 1
        expect(panel.locator("#log .msg.user").filter(has_text="Yes")).to_have_count(1)


def test_a_no_means_no_order(tmp_path: Path) -> None:
    with ordering_with_confirmations(tmp_path) as (site, _eb, panel):
        question = panel.locator("#question")
        expect(question).to_contain_text('button "Place order"', timeout=60_000)
        question.get_by_role("button", name="No").click()
        # The worker hears the no; the shop's policy asks to place it again, and heybro asks again.
        expect(question).to_contain_text('button "Place order"', timeout=60_000)
        panel.click("#stop")
        wait_status(panel, "Stopped", 30_000)
        assert site.orders == []


def _price(body: dict[str, Any]) -> str:
    m = re.search(r"\$\d+\.\d\d", user_text(body).split("PAGE (untrusted", 1)[-1])
    assert m, "no price on the page"
    return m.group(0)


def test_roles_a_question_answered_with_a_button_and_the_answer_shown_first(tmp_path: Path) -> None:
    def worker(body: dict[str, Any]) -> Any:
        page = user_text(body).split("PAGE (untrusted", 1)[-1]
        if "Price:" in page:
            return calls(("extract", {"name": "blue_kettle_price", "value": _price(body)}),
                         ("mark_done", {"summary": "Price saved"}))
        if "Blue Kettle" in page and "Search products" in page and "/search" in user_text(body):
            return call("click", element_id=find_id(body, 'link "Blue Kettle"'))
        return calls(("fill", {"element_id": find_id(body, "Search products"), "value": "blue kettle"}),
                     ("click", {"element_id": find_id(body, 'button "Search"')}))

    def analyst(body: dict[str, Any]) -> Any:
        text = user_text(body)
        if "the user answered: 2" not in text:
            return call("ask_user", question="How many kettles?", kind="choice", choices=["1", "2"])
        price = float(re.search(r"blue_kettle_price: \$(\d+\.\d\d)", text).group(1))  # type: ignore[union-attr]
        return call("answer", text=f"Two Blue Kettles cost ${2 * price:.2f}.")

    script = {"scheduler": [calls(("set_subtasks", {"subtasks": [
        {"subtask": "Open the Blue Kettle's page", "done_when": "text:Price:"},
        "Save the Blue Kettle's price",
        {"subtask": "Work out what the kettles the user wants cost", "role": "analyst"}]}),
        ("start_work", {}))]}
    verifier = call("mark_complete", reason="2 × $24.00 from the saved price", confidence=0.95)
    with DemoSite() as site, ScriptedLLM(script, default={"worker": worker, "analyst": analyst,
                                                          "verifier": verifier}) as llm, \
            launch(env_extra=llm.env(), home=tmp_path / "home") as eb:
        eb.ctx.new_page().goto(site.url)
        panel = eb.open_panel()
        panel.fill("#goal", "What do the Blue Kettles I want cost?")
        panel.click("#send")
        question = panel.locator("#question")
        expect(question).to_contain_text("How many kettles?", timeout=90_000)
        wait_status(panel, "Waiting for you")
        question.get_by_role("button", name="2").click()
        wait_status(panel, "Completed", 60_000)
        expect(panel.locator("#answer")).to_have_text("Answer Two Blue Kettles cost $48.00.")
        # The analyst never saw the page.
        assert all("PAGE (untrusted" not in user_text(b) for b in llm.role_requests("analyst"))
        popup = eb.open_popup()
        expect(popup.locator("#outcome")).to_contain_text("Answer: Two Blue Kettles cost $48.00.")
