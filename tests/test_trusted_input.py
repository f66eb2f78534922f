"""Trusted input in real Chromium: where a page refuses what a script dispatches — a CSS :hover menu,
a click handler that checks `isTrusted`, a rich editor that takes only the browser's own input —
the DOM agent's action falls back to the browser's mouse and keyboard through chrome.debugger,
once, and only then. Another debugger on the tab is a clear typed error; script input still works."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.browser import ExtBrowser
from support.dom_rig import browser, error, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

SETTING = "heybro_trusted_input"


@pytest.fixture
def trusted_page(browser: ExtBrowser, page: Any, site: str) -> Iterator[Any]:
    open_page(page, site + "/trusted.html")
    yield page
    browser.sw.evaluate(f"chrome.storage.local.remove('{SETTING}')")


def counts(page: Any) -> tuple[str, str]:
    return page.eval_on_selector("#orders", "e => e.textContent"), \
        page.eval_on_selector("#plains", "e => e.textContent")


def tab_target(browser: ExtBrowser) -> dict[str, int]:
    return browser.sw.evaluate("async () => ({tabId: (await chrome.tabs.query({active: true}))[0].id})")


def test_a_css_hover_menu_opens_under_the_browsers_pointer(browser, trusted_page) -> None:
    obs = ok(browser, "observe")
    r = ok(browser, "hover", {"element_id": find_id(obs, "Products")})
    assert r["input"] == "trusted"
    assert trusted_page.eval_on_selector(".sub", "e => getComputedStyle(e).display") == "block"
    after = ok(browser, "observe")
    ok(browser, "click", {"element_id": find_id(after, "Teapots", "link")})
    assert trusted_page.url.endswith("#teapots")


def test_a_click_handler_that_checks_is_trusted_fires_once(browser, trusted_page) -> None:
    obs = ok(browser, "observe")
    r = ok(browser, "click", {"element_id": find_id(obs, "Place order")})
    assert r["input"] == "trusted" and counts(trusted_page) == ("1", "0")
    # A button that takes script clicks gets exactly one, and no debugger.
    r = ok(browser, "click", {"element_id": find_id(obs, "Plain button")})
    assert r.get("input") is None and counts(trusted_page) == ("1", "1")


def test_typing_into_a_rich_editor_that_takes_only_browser_input(browser, trusted_page) -> None:
    obs = ok(browser, "observe")
    r = ok(browser, "type", {"element_id": find_id(obs, "Message"), "text": "Hello, world. (Tea & cake!)"})
    assert r["input"] == "trusted"
    assert trusted_page.eval_on_selector("#model", "e => e.textContent") == "Hello, world. (Tea & cake!)"


def test_filling_a_rich_editor_that_crashes_on_script_edits_goes_by_the_browsers_input(browser, trusted_page) -> None:
    # An editable region is an editor's (Draft.js, ProseMirror, Lexical…): its text is replaced by the
    # browser's own keys, as a person's, never by a script editing the editor's DOM behind its back.
    obs = ok(browser, "observe")
    r = ok(browser, "fill", {"element_id": find_id(obs, "Notes"), "value": "Call the supplier (urgent)"})
    assert r["input"] == "trusted"
    assert trusted_page.text_content("#notes-model") == "Call the supplier (urgent)"
    assert trusted_page.text_content("#crash") == ""


def test_another_debugger_on_the_tab_is_a_clear_error_and_script_input_still_works(
        browser, trusted_page) -> None:
    target = tab_target(browser)
    browser.sw.evaluate("(t) => chrome.debugger.attach(t, '1.3')", target)  # another client holds it
    try:
        obs = ok(browser, "observe")
        err = error(browser, "click", {"element_id": find_id(obs, "Place order")})
        assert err["code"] == "debugger_busy"
        assert "another debugger holds" in err["message"] and "Close DevTools" in err["message"]
        ok(browser, "click", {"element_id": find_id(obs, "Plain button")})
        assert counts(trusted_page) == ("0", "1")
    finally:
        browser.sw.evaluate("(t) => chrome.debugger.detach(t)", target)
    # Once the other debugger is gone, the refused click goes through (once).
    ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "Place order")})
    assert counts(trusted_page) == ("1", "1")


def test_the_setting_turns_trusted_input_off_or_always_on(browser, trusted_page) -> None:
    browser.sw.evaluate(f"chrome.storage.local.set({{{SETTING}: 'off'}})")
    obs = ok(browser, "observe")
    r = ok(browser, "click", {"element_id": find_id(obs, "Place order")})
    assert r.get("input") is None and r["mutations"]["summary"] == "no change"
    assert counts(trusted_page) == ("0", "0")
    browser.sw.evaluate(f"chrome.storage.local.set({{{SETTING}: 'always'}})")
    r = ok(browser, "click", {"element_id": find_id(obs, "Plain button")})
    assert r["input"] == "trusted" and counts(trusted_page) == ("0", "1")
