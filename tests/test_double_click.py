"""double_click in real Chromium: the page's dblclick handler fires once, by script events where the
page takes them, by the browser's own two presses where its handler checks `isTrusted`. And the
worker is offered it, from its declaration alone."""

from __future__ import annotations

from typing import Any

import pytest

from support.browser import ExtBrowser
from support.dom_rig import browser, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

from heybro.agent.toolbox import ROLE_TOOLS
from heybro.tool_def.playwright_forms import Exported

PAGE = """
<button id="rename">Rename file</button> <span id="renames">0</span> <span id="clicks">0</span>
<button id="open">Open folder</button> <span id="opens">0</span>
"""
HANDLERS = """() => {
  const add = (id) => { const e = document.getElementById(id); e.textContent = String(+e.textContent + 1); };
  document.getElementById("rename").addEventListener("dblclick", () => add("renames"));
  document.getElementById("rename").addEventListener("click", () => add("clicks"));
  // Only a person's double click (the browser's own input) opens the folder.
  document.getElementById("open").addEventListener("dblclick", (e) => { if (e.isTrusted) add("opens"); });
}"""


def on_page(page: Any, site: str) -> None:
    open_page(page, site + "/form.html")
    page.evaluate("(html) => { document.body.innerHTML = html; }", PAGE)
    page.evaluate(HANDLERS)


@pytest.mark.browser
def test_a_double_click_fires_the_page_s_dblclick_handler_once(browser: ExtBrowser, page: Any,
                                                                site: str) -> None:
    on_page(page, site)
    obs = ok(browser, "observe")
    r = ok(browser, "double_click", {"element_id": find_id(obs, "Rename file")})
    assert r["ok"] and r["action"] == "double_click" and r.get("input") is None
    assert (page.text_content("#renames"), page.text_content("#clicks")) == ("1", "2")


@pytest.mark.browser
def test_a_handler_that_checks_is_trusted_gets_the_browser_s_own_double_click(
        browser: ExtBrowser, page: Any, site: str) -> None:
    on_page(page, site)
    obs = ok(browser, "observe")
    r = ok(browser, "double_click", {"element_id": find_id(obs, "Open folder")})
    assert r["input"] == "trusted"
    assert page.text_content("#opens") == "1"


def test_the_worker_is_offered_double_click_with_an_expect_and_a_playwright_form() -> None:
    tool = {t.name: t for t in ROLE_TOOLS["worker"]}["double_click"]
    assert tool.kind == "browser" and tool.effects.held_on_repeat and tool.effects.may_navigate
    assert set(tool.args.model_fields) == {"element_id", "x", "y", "expect"}
    assert tool.wire is not None and tool.wire.tool == "double_click"
    assert tool.playwright is not None
    step = Exported({"element_id": "e3"}, "page.get_by_role('button', name='Rename file')", repr)
    assert tool.playwright(step) == ["page.get_by_role('button', name='Rename file').dblclick()"]
