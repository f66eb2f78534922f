"""click at a point of an element and with keys held, in real Chromium: a canvas records the point
of its box it was clicked at (the browser's own click there, once); Ctrl+click on a link opens it in
a new tab that is the task's, while the task's page stays where it was."""

from __future__ import annotations

from typing import Any

import pytest

from support.browser import ExtBrowser
from support.dom_rig import browser, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

from heybro.agent.toolbox import ROLE_TOOLS
from heybro.tool_def.playwright_forms import Exported

TASK_TOOL = """async ([name, args, since]) => {
  const [tab] = await chrome.tabs.query({active: true});
  return await globalThis.heybro.runTool({tool: name, args, tab_id: tab.id, timeout_ms: 15000,
    task_tabs: [tab.id], task_since: since});
}"""


@pytest.mark.browser
def test_a_canvas_records_the_point_of_its_box_it_was_clicked_at_once(
        browser: ExtBrowser, page: Any, site: str) -> None:
    open_page(page, site + "/context_menu.html")
    obs = ok(browser, "observe")
    board = find_id(obs, "Drawing board")
    r = ok(browser, "click", {"element_id": board, "x": 0.25, "y": 0.75})
    assert r["input"] == "trusted"
    ok(browser, "click", {"element_id": board, "x": 0.9, "y": 0.1})
    points = [tuple(map(int, p.split(","))) for p in (page.text_content("#points") or "").split()]
    # (a 300 × 200 canvas; the browser's pointer lands on whole pixels of the viewport)
    assert len(points) == 2 and all(abs(a - b) <= 1 for got, want in zip(points, [(75, 150), (270, 20)])
                                    for a, b in zip(got, want)), points


@pytest.mark.browser
def test_a_point_another_element_covers_is_refused(browser: ExtBrowser, page: Any, site: str) -> None:
    open_page(page, site + "/context_menu.html")
    page.evaluate("""() => { const c = document.createElement('div');
      c.style.cssText = 'position:absolute;width:40px;height:40px;background:red';
      const r = document.getElementById('board').getBoundingClientRect();
      c.style.left = (r.left + scrollX) + 'px'; c.style.top = (r.top + scrollY) + 'px';
      document.body.appendChild(c); }""")
    obs = ok(browser, "observe")
    r = browser.sw.evaluate(TASK_TOOL, ["click", {"element_id": find_id(obs, "Drawing board"),
                                                  "x": 0.02, "y": 0.02}, 0])
    assert not r["ok"] and r["error"]["code"] == "covered", r
    assert page.text_content("#points") == ""


@pytest.mark.browser
def test_control_click_opens_the_link_in_a_new_tab_of_the_task(browser: ExtBrowser, page: Any,
                                                              site: str) -> None:
    open_page(page, site + "/context_menu.html")
    since = browser.sw.evaluate("() => Date.now()")
    obs = ok(browser, "observe")
    with browser.ctx.expect_page() as opened:
        r = browser.sw.evaluate(TASK_TOOL, ["click", {"element_id": find_id(obs, "Open the docs"),
                                                      "modifiers": ["Control"]}, since])
    assert r["ok"], r
    assert r["result"]["input"] == "trusted" and not r["result"]["url_changed"]
    new = opened.value
    new.wait_for_load_state("load")
    assert new.url.endswith("/form.html") and page.url.endswith("/context_menu.html")
    tabs = browser.sw.evaluate(TASK_TOOL, ["list_tabs", {}, since])["result"]["tabs"]
    assert sorted(t["url"].rsplit("/", 1)[-1] for t in tabs) == ["context_menu.html", "form.html"]
    new.close()


def test_the_worker_may_click_at_a_point_with_keys_held_and_the_export_says_so() -> None:
    tool = {t.name: t for t in ROLE_TOOLS["worker"]}["click"]
    a = tool.args.model_validate({"element_id": "e1", "modifiers": ["Control", "Shift"]})
    assert a.modifiers == ["Control", "Shift"]  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        tool.args.model_validate({"element_id": "e1", "modifiers": ["Hyper"]})
    assert tool.playwright is not None
    step = Exported({"element_id": "e3", "modifiers": ["Control"]}, "page.get_by_role('link')", repr)
    assert tool.playwright(step) == ["page.get_by_role('link').click(modifiers=['Control'])"]
    plain = Exported({"element_id": "e3"}, "page.get_by_role('link')", repr)
    assert tool.playwright(plain) == ["page.get_by_role('link').click()"]
