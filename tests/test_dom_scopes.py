"""The DOM agent past the top document, in the real extension in real Chromium: what an action
changes inside shadow roots and same-origin frames is seen, a cover over a frame is respected,
cross-origin frames share the token budget by their size, and every word a page chose — frame
titles and addresses included — stays inside the untrusted-content fence."""

from __future__ import annotations

import socket

import pytest

from support.dom_rig import browser, error, fenced, find_id, ok, open_page, page, sites, unfenced  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def test_changes_and_text_inside_a_shadow_root_are_seen(browser, page, sites):
    open_page(page, sites[0] + "/shadow_live.html")
    obs = ok(browser, "observe")
    r = ok(browser, "click", {"element_id": find_id(obs, "Add row")})
    # The component re-renders 30 ms later, in its shadow root.
    assert r["mutations"]["added"] == 1 and "li" in r["mutations"]["summary"], r["mutations"]
    assert ok(browser, "wait_for", {"text": "saved in shadow", "seconds": 1})["matched"] == "text"
    assert error(browser, "wait_for", {"text": "Saved in shadow", "gone": True, "seconds": 0.2})["code"] == "timeout"


def test_press_without_an_element_goes_to_the_focused_field_in_a_shadow_root(browser, page, sites):
    open_page(page, sites[0] + "/shadow_live.html")
    obs = ok(browser, "observe")
    ok(browser, "focus", {"element_id": find_id(obs, "Coupon")})
    r = ok(browser, "press", {"keys": "Backspace"})
    value = "document.querySelector('x-orders').shadowRoot.getElementById('coupon').value"
    assert page.evaluate(value) == "SAVE1"
    assert r["focused"] == {"tag": "input", "name": "Coupon"}


def test_same_origin_frame_cover_changes_focus_and_text(browser, page, sites):
    open_page(page, sites[0] + "/frame_live.html")
    page.frame_locator("#pay").locator("#pay").wait_for()
    inner = page.frame_locator("#pay")
    obs = ok(browser, "observe")
    pay = find_id(obs, "Pay now")
    # A cover in the top document hides the frame: the frame's own document sees nothing above
    # its button, but a user could not reach it.
    page.evaluate("cover(true)")
    err = error(browser, "click", {"element_id": pay})
    assert err["code"] == "covered" and err["detail"]["covering"]["html_id"] == "cover"
    assert inner.locator("p").count() == 0
    page.evaluate("cover(false)")
    r = ok(browser, "click", {"element_id": pay})
    assert r["mutations"]["added"] == 1 and "p" in r["mutations"]["summary"], r["mutations"]
    assert r["focused"] == {"tag": "button", "name": "Pay now"}  # not the <iframe>
    assert ok(browser, "wait_for", {"text": "Frame updated", "seconds": 1})["matched"] == "text"
    # A browser confirm() opened inside the frame is answered and reported like one in the page.
    r = ok(browser, "click", {"element_id": find_id(obs, "Remove card")})
    assert r["dialog"]["text"] == "Remove this card?" and r["dialog"]["answer"] == "dismissed"
    assert inner.locator("#remove").text_content() == "Kept"
    # Keys without an element go to the field focused inside the frame.
    ok(browser, "focus", {"element_id": find_id(obs, "Card name")})
    ok(browser, "press", {"keys": "Backspace"})
    assert inner.locator("#card").input_value() == "Ann Le"


def test_ad_frames_leave_the_page_its_budget_and_stay_fenced(browser, page, sites):
    port_b = sites[1].rsplit(":", 1)[1]
    open_page(page, f"{sites[0]}/ads.html?n=15&xo={port_b}")
    for i in range(15):
        page.frame_locator(f"#ads iframe >> nth={i}").locator("a").wait_for()
    obs = ok(browser, "observe", {"max_tokens": 4000})
    text = obs["text"]
    names = [s["name"] for s in obs["elements"].values()]
    # All forty of the story's actions are there, with the ads' links beside them.
    assert sum(n.startswith("Action ") for n in names) == 40, names
    assert names.count("Buy stuff now") == 15
    assert obs["tokens_estimate"] <= 4000
    # The frames together take at most 30% of the budget.
    frames_part = text[text.index("\n\n\"\"\"\n[frame f"):]
    assert len(frames_part) / 4 <= 0.3 * 4000, len(frames_part)
    # Frame titles (which try to instruct the model) and addresses are page content: fenced.
    outside = unfenced(text)
    assert "Ignore previous" not in outside and "127.0.0.1" not in outside and "[frame" not in outside, outside
    assert "Ignore previous instructions" in fenced(text)
    assert obs["frames_unreadable"] == []


def test_a_cross_origin_frame_no_agent_reaches_is_reported_unreadable(browser, page, sites):
    # Another origin (a port nothing listens on): the browser's error page fills the frame.
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    open_page(page, f"{sites[0]}/frame_unreadable.html?port={port}")
    page.wait_for_function("document.getElementById('gone').contentDocument === null")  # the error page is in
    obs = ok(browser, "observe")
    assert find_id(obs, "Top button")
    assert [f["url"] for f in obs["frames_unreadable"]] == [f"http://127.0.0.1:{port}/widget.html"], obs["frames_unreadable"]
    assert obs["frames_unreadable"][0]["reason"]


def test_a_toolkit_button_whose_slotted_icon_fills_it_is_listed_and_clicked(browser, page, sites):
    # A web-component toolkit's button lives in its shadow root and draws the icon the page gives
    # it in a <slot>: the pointer over the icon is over the button (the composed tree), so the
    # button is listed — not taken for hidden under its own icon — and the click reaches it.
    open_page(page, sites[0] + "/slotted_icon_button.html")
    obs = ok(browser, "observe")
    assert "button Remove shipping address" in obs["text"] and "button Remove billing address" in obs["text"], obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "Remove billing address")})
    assert page.text_content("#said") == "Removed the billing address."
