"""close_tab in real Chromium: a tab the task's page opened is closed and the task keeps working
where it was; closing the tab it works in moves it to the tab that opened that one; the user's own
tab (one they had before the task) is never closed, nor the task's last tab. And the worker is
offered it, from its declaration alone."""

from __future__ import annotations

from typing import Any

import pytest

from support.browser import ExtBrowser
from support.dom_rig import browser, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

from heybro.agent.toolbox import ROLE_TOOLS

# The call as the coordinator makes it for a task: its tabs, and when it started.
TASK_TOOL = """async ([name, args, tabId, since]) => {
  return await globalThis.heybro.runTool({tool: name, args, tab_id: tabId, timeout_ms: 15000,
    task_tabs: [tabId], task_since: since});
}"""


def task_tool(browser: ExtBrowser, name: str, args: dict[str, Any], tab: int, since: int) -> dict[str, Any]:
    r: dict[str, Any] = browser.sw.evaluate(TASK_TOOL, [name, args, tab, since])
    return r


def tab_ids(browser: ExtBrowser) -> list[int]:
    return list(browser.sw.evaluate("async () => (await chrome.tabs.query({})).map((t) => t.id)"))


def opened_by_the_task(browser: ExtBrowser, page: Any, site: str) -> tuple[int, int, int]:
    """The user's page, a task started on it, and a tab its link opened: (page tab, new tab, since)."""
    open_page(page, site + "/context_menu.html")
    me = int(browser.sw.evaluate("async () => (await chrome.tabs.query({active: true}))[0].id"))
    since = int(browser.sw.evaluate("() => Date.now()"))
    obs = ok(browser, "observe")
    before = set(tab_ids(browser))
    with browser.ctx.expect_page() as opened:
        r = task_tool(browser, "click", {"element_id": find_id(obs, "Open the docs"),
                                         "modifiers": ["Control"]}, me, since)
    assert r["ok"], r
    opened.value.wait_for_load_state("load")
    [new] = set(tab_ids(browser)) - before
    return me, new, since


@pytest.mark.browser
def test_a_tab_the_task_s_page_opened_is_closed_and_the_task_stays_where_it_was(
        browser: ExtBrowser, page: Any, site: str) -> None:
    me, new, since = opened_by_the_task(browser, page, site)
    r = task_tool(browser, "close_tab", {"tab_id": new}, me, since)
    assert r["ok"], r
    assert r["result"]["closed"] == new and r["result"]["tab_id"] == me
    assert new not in tab_ids(browser) and me in tab_ids(browser)


@pytest.mark.browser
def test_closing_the_tab_the_task_works_in_moves_it_to_the_tab_that_opened_it(
        browser: ExtBrowser, page: Any, site: str) -> None:
    me, new, since = opened_by_the_task(browser, page, site)
    r = browser.sw.evaluate("""async ([tabId, me, since]) => globalThis.heybro.runTool({
        tool: "close_tab", args: {tab_id: tabId}, tab_id: tabId, timeout_ms: 15000,
        task_tabs: [me, tabId], task_since: since})""", [new, me, since])
    assert r["ok"], r
    assert r["result"]["tab_id"] == me and r["result"]["active"] and r["result"]["closed"] == new


@pytest.mark.browser
def test_the_user_s_own_tab_and_the_task_s_last_tab_are_never_closed(
        browser: ExtBrowser, page: Any, site: str) -> None:
    me, new, since = opened_by_the_task(browser, page, site)
    # The page the user started the task on is the task's, but was theirs before it started.
    r = browser.sw.evaluate("""async ([tabId, me, since]) => globalThis.heybro.runTool({
        tool: "close_tab", args: {tab_id: me}, tab_id: tabId, timeout_ms: 15000,
        task_tabs: [me, tabId], task_since: since})""", [new, me, since])
    assert not r["ok"] and r["error"]["code"] == "not_allowed", r
    assert "user" in r["error"]["message"]
    r = browser.sw.evaluate("""async ([tabId, since]) => globalThis.heybro.runTool({
        tool: "close_tab", args: {tab_id: tabId}, tab_id: tabId, timeout_ms: 15000,
        task_tabs: [tabId], task_since: since})""", [new, since])
    assert not r["ok"] and "last tab" in r["error"]["message"], r
    assert {me, new} <= set(tab_ids(browser))
    ok_ = task_tool(browser, "close_tab", {"tab_id": new}, me, since)
    assert ok_["ok"], ok_


def test_the_worker_is_offered_close_tab_by_the_tab_s_number_and_it_moves_the_task() -> None:
    tool = {t.name: t for t in ROLE_TOOLS["worker"]}["close_tab"]
    assert tool.kind == "tab" and tool.effects.changes_tab and tool.effects.ends_batch
    assert set(tool.args.model_fields) == {"tab_id"}
    assert tool.result_text is not None
    assert tool.result_text({"tab_id": 7, "url": "https://a.example/", "title": "A",
                             "closed": 9}) == "now in [tab 7] A — https://a.example/"
