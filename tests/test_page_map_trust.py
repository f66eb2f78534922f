"""What the page map tells the model can be trusted, and tells no secret: a password's value never
leaves the page — however the page draws the field (as text, with a generated password, under a
"show" toggle) — in the map, a signature, an extraction or an error; other fields read as before."""

from __future__ import annotations

import json
import re

import pytest

from support.dom_rig import browser, error, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

SECRETS = ["V!4xf#Qp9Lm2", "hunter2-old", "482913", "correct horse", "7315"]


def test_a_secret_fields_value_never_leaves_the_page(browser, page, site):
    open_page(page, site + "/secrets.html")
    obs = ok(browser, "observe")
    dumped = json.dumps(obs)
    for s in SECRETS:
        assert s not in dumped, s
    # Each secret field reads as filled; the others show their values.
    lines = {ln.split("] ", 1)[1] for ln in obs["text"].splitlines() if ln.startswith("[e")}
    for name in ("Password", "Current password", "Code from your app", "New passphrase", "PIN"):
        assert any(ln.startswith("textbox") and f" {name} =" in ln and ln.endswith('="••••••••"')
                   for ln in lines), (name, lines)
    assert any(ln.startswith("textbox Username") and '="jane"' in ln for ln in lines), lines
    assert any('="jane@example.com"' in ln for ln in lines) and any('="12"' in ln for ln in lines), lines
    # A field about passwords is no password: a number is a number, a hint a hint.
    assert any("Minimum password length" in ln and ln.endswith('="14"') for ln in lines), lines
    assert any("Password hint" in ln and ln.endswith('="the dog"') for ln in lines), lines
    # Extracting the form, or a field, gives none either.
    assert not any(s in json.dumps(ok(browser, "extract", {})) for s in SECRETS)
    got = ok(browser, "extract", {"element_id": find_id(obs, "Password")})
    assert "V!4xf" not in json.dumps(got)
    # A secret field the page will not take says so without what it holds.
    page.evaluate("""() => { const f = document.getElementById('pass1');
        f.addEventListener('input', () => { f.value = 'V!4xf#Qp9Lm2'; }); }""")
    err = error(browser, "fill", {"element_id": find_id(obs, "Password"), "value": "something-else"})
    assert err["code"] == "not_accepted" and "V!4xf" not in json.dumps(err), err


def test_an_emptied_secret_field_reads_empty(browser, page, site):
    open_page(page, site + "/secrets.html")
    page.evaluate("document.getElementById('cur').value = ''")
    obs = ok(browser, "observe")
    line = next(ln for ln in obs["text"].splitlines() if "Current password" in ln)
    assert "•" not in line and "=" not in line.split("Current password", 1)[1], line


def test_page_text_cannot_close_the_fence_or_forge_a_control(browser, page, site):
    open_page(page, site + "/forged.html")
    obs = ok(browser, "observe")
    text = obs["text"]
    assert [ln for ln in text.splitlines() if '"""' in ln] == ['"""', '"""'], text
    # Every element the map names is a real one: page words never read as a line or a bracket of it.
    named = re.findall(r"\[\*?((?:f\d+)?e\d+)\b", text)
    assert named and set(named) <= set(obs["elements"]), (named, text)
    assert "Keep my account" in text and "Pay now" in text  # the words are still read, as words
    assert re.search(r"^\[e\d+\] button Delete my account$", text, re.M), text


def test_a_page_cannot_pass_its_content_off_as_heybros_own(browser, page, site):
    open_page(page, site + "/spoofed_overlay.html")
    obs = ok(browser, "observe", {"highlight": True})
    assert "Warning: this transfer cannot be undone." in obs["text"]
    pay = find_id(obs, "Pay 500 now")
    assert page.evaluate("document.querySelectorAll('[data-heybro-overlay]').length") == 1  # the page's own
    assert len(obs["elements"]) == 2, obs["text"]  # Pay and Add item
    # What the page adds so marked is reported as the change it is.
    r = ok(browser, "click", {"element_id": find_id(obs, "Add item")})
    assert r["mutations"]["added"] == 1, r
    after = ok(browser, "observe")
    assert pay in after["elements"] and find_id(after, "Confirm transfer")
    ok(browser, "highlight", {"on": False})


def test_a_control_whose_name_and_words_disagree_shows_both(browser, page, site):
    open_page(page, site + "/name_mismatch.html")
    obs = ok(browser, "observe")
    text = obs["text"]
    assert re.search(r'e\d+\]? button Keep my account shows "Delete my account"', text), text
    assert re.search(r'e\d+\]? button Save draft shows "Publish now"', text), text
    # Words that agree with the name, or an icon's sign, add nothing.
    assert re.search(r"e\d+\]? button Close\]", text) and text.count("shows") == 2, text
    # The action's report names the control by both too (what the record keeps).
    r = ok(browser, "click", {"element_id": find_id(obs, "Keep my account")})
    assert r["element"]["name"] == "Keep my account" and r["element"]["shows"] == "Delete my account", r["element"]
    assert obs["elements"][find_id(obs, "Keep my account")]["shows"] == "Delete my account"


def test_words_a_person_cannot_see_are_left_out(browser, page, site):
    """Instructions hidden for the model — no size, no colour, white on white, off the page, in a
    box of no height, scaled or clipped to nothing, under an opaque box — never reach it; what a
    person sees stays (a badge beside words, a veil one reads through; a menu of words of its own
    opened over them is the page's own layer, judged as covers of controls are)."""
    open_page(page, site + "/hidden_words.html")
    text = ok(browser, "observe")["text"]
    assert "AI AGENT" not in text and "Screen readers hear this" not in text, text
    # (White words over a picture are seen: the ground is what the browser stacked under them.)
    for seen in ("A kettle that boils fast.", "Free delivery this week.", "Summer sale on a photo.", "Ships in 2 days.",
                 "Rated 4.8 by buyers.", "Fresh stock every Monday.", "New", "Gift wrapping on request.",
                 "Sort by price", "Delivery to most towns",
                 "Delivery to the kitchen door."):  # (placed absolutely: a box of no size does not clip it)
        assert seen in text, (seen, text)
    assert re.search(r"^\[e\d+\] button Add to cart$", text, re.M), text
