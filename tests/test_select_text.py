"""select_text in real Chromium: words of an editor's text selected, then the editor's Bold button
(whose handler acts on the selection) clicked — in a rich-text editor (contenteditable: the words
wrapped in <b>) and in a Markdown textarea (the words wrapped in **) — checked in the page's HTML.
Words the element does not hold are refused, and the worker is offered the tool from its
declaration."""

from __future__ import annotations

from typing import Any

import pytest

from support.browser import ExtBrowser
from support.dom_rig import browser, find_id, ok, open_page, page, site, tool  # noqa: F401 (fixtures)

from heybro.agent.toolbox import ROLE_TOOLS


@pytest.mark.browser
def test_words_selected_in_a_rich_text_editor_are_made_bold_by_its_button(browser: ExtBrowser, page: Any,
                                                                          site: str) -> None:
    open_page(page, site + "/editor.html")
    obs = ok(browser, "observe")
    r = ok(browser, "select_text", {"element_id": find_id(obs, "Note text"), "text": "brown  fox"})
    assert r["selected"] == "brown fox" and r["action"] == "select_text"
    assert page.evaluate("() => document.getSelection().toString()") == "brown fox"
    ok(browser, "click", {"element_id": find_id(obs, "Bold")})
    assert page.inner_html("#doc") == "The quick <b>brown fox</b> jumps over the lazy dog."


@pytest.mark.browser
def test_words_selected_across_a_line_break_of_a_textarea_are_made_bold(browser: ExtBrowser, page: Any,
                                                                        site: str) -> None:
    open_page(page, site + "/editor.html")
    obs = ok(browser, "observe")
    r = ok(browser, "select_text", {"element_id": find_id(obs, "Release notes"), "text": "faster and fixes"})
    assert r["selected"] == "faster\nand fixes"
    ok(browser, "click", {"element_id": find_id(obs, "Bold (Markdown)")})
    assert page.input_value("#md") == "Version two makes exports **faster\nand fixes** the login page."
    err = tool(browser, "select_text", {"element_id": find_id(obs, "Note text"), "text": "purple cow"})
    assert not err["ok"] and err["error"]["code"] == "not_found"


def test_the_worker_is_offered_select_text() -> None:
    tool_ = {t.name: t for t in ROLE_TOOLS["worker"]}["select_text"]
    assert tool_.kind == "browser" and set(tool_.args.model_fields) == {"element_id", "text", "expect"}
