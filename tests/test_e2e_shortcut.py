"""The keyboard shortcuts, pressed for real on a virtual display (Chrome ignores synthesized keys
for extension commands): Ctrl+Shift+Y opens the panel with the goal box ready (prefilled with the
page's selection); Ctrl+Shift+U pauses and resumes a running task; Ctrl+Shift+X stops it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import expect

from heybro.demo import DemoSite
from support.browser import ExtBrowser, launch
from support.display import press_keys, virtual_display
from support.scripted_llm import ScriptedLLM
from support.shop_policy import GOAL, ShopPolicy

pytestmark = pytest.mark.browser


def side_panel_eval(eb: ExtBrowser, page: Any, expr: str) -> Any:
    """Evaluates `expr` in the real side panel (Playwright does not list it among its pages)
    through a browser-level CDP session, the way TESTING.md describes."""
    browser = eb.ctx.browser
    assert browser is not None
    session = browser.new_browser_cdp_session()
    try:
        targets = session.send("Target.getTargets")["targetInfos"]
        panel = [t for t in targets if t["url"].endswith("/extension/pages/panel/panel.html")]
        if not panel:
            return None
        replies: list[dict[str, Any]] = []
        session.on("Target.receivedMessageFromTarget",
                   lambda e: replies.append(json.loads(e["message"])))
        sid = session.send("Target.attachToTarget", {"targetId": panel[0]["targetId"],
                                                     "flatten": False})["sessionId"]
        session.send("Target.sendMessageToTarget", {"sessionId": sid, "message": json.dumps(
            {"id": 1, "method": "Runtime.evaluate",
             "params": {"expression": expr, "returnByValue": True}})})
        for _ in range(50):
            done = [r for r in replies if r.get("id") == 1]
            if done:
                return done[0]["result"]["result"].get("value")
            page.wait_for_timeout(100)
        raise AssertionError("the side panel did not answer")
    finally:
        session.detach()


def panel_targets(eb: ExtBrowser, page: Any) -> list[str]:
    session = eb.ctx.new_cdp_session(page)
    try:
        targets = session.send("Target.getTargets")["targetInfos"]
    finally:
        session.detach()
    return [t["targetId"] for t in targets if t["url"].endswith("/extension/pages/panel/panel.html")]


def wait_for_panel(eb: ExtBrowser, page: Any) -> None:
    for _ in range(50):
        if panel_targets(eb, page):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the side panel did not open")


def test_ctrl_shift_y_opens_the_panel_with_the_selection_as_goal() -> None:
    with virtual_display() as display, DemoSite() as site, \
            launch(headless=False, env_extra={"DISPLAY": display}) as eb:
        page = eb.ctx.pages[0] if eb.ctx.pages else eb.ctx.new_page()
        page.goto(site.url + "product/p1")
        page.bring_to_front()
        page.evaluate("""() => { const r = document.createRange();
            r.selectNodeContents(document.querySelector('h1'));
            getSelection().removeAllRanges(); getSelection().addRange(r); }""")
        assert panel_targets(eb, page) == []
        press_keys(display, "ctrl+shift+y")
        wait_for_panel(eb, page)
        # What the person sees: the goal box holds the selected text, focused, ready to send.
        for _ in range(50):
            shown = side_panel_eval(eb, page, "[document.querySelector('#goal').value, "
                                    "document.activeElement && document.activeElement.id]")
            if shown and shown[0]:
                break
            page.wait_for_timeout(100)
        assert shown == ["Blue Kettle", "goal"]


@contextmanager
def task_held_before_order() -> Iterator[tuple[str, DemoSite, ShopPolicy, Any]]:
    """A task sent from the panel, its model writing the reply that places the order (held until
    `policy.release` is set), the shop page in front: (display, site, policy, panel)."""
    policy = ShopPolicy()
    policy.hold_before_order.set()
    with virtual_display() as display, DemoSite() as site, \
            ScriptedLLM({}, default=policy.defaults()) as llm, \
            launch(headless=False, env_extra={"DISPLAY": display} | llm.env()) as eb:
        shop = eb.ctx.pages[0] if eb.ctx.pages else eb.ctx.new_page()
        shop.goto(site.url)
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host connected")
        panel.fill("#goal", GOAL)
        panel.click("#send")
        assert policy.waiting.wait(60)
        shop.bring_to_front()
        yield display, site, policy, panel


def test_ctrl_shift_u_pauses_and_resumes_a_running_task() -> None:
    with task_held_before_order() as (display, site, policy, panel):
        press_keys(display, "ctrl+shift+u")
        policy.release.set()
        expect(panel.locator("#task-status")).to_have_text("Paused", timeout=30_000)
        assert site.orders == []
        press_keys(display, "ctrl+shift+u")
        expect(panel.locator("#task-status")).to_have_text("Completed", timeout=60_000)
        assert len(site.orders) == 1


def test_the_three_shortcuts_are_bound_as_the_manifest_suggests() -> None:
    """Chrome drops a suggested key it will not give (a reserved or taken one) without a word:
    the bound shortcuts are read back from Chrome itself."""
    with virtual_display() as display, launch(headless=False, env_extra={"DISPLAY": display}) as eb:
        bound = dict(eb.sw.evaluate(
            "chrome.commands.getAll().then((cs) => cs.map((c) => [c.name, c.shortcut]))"))
    assert bound["start-task"] == "Ctrl+Shift+Y"
    assert bound["pause-resume"] == "Ctrl+Shift+U"
    assert bound["stop-task"] == "Ctrl+Shift+X"


def test_ctrl_shift_x_stops_a_running_task() -> None:
    with task_held_before_order() as (display, site, policy, panel):
        press_keys(display, "ctrl+shift+x")
        # Stopped at once: the model's reply is not waited for.
        expect(panel.locator("#task-status")).to_have_text("Stopped", timeout=5_000)
        assert not policy.release.is_set()
        policy.release.set()
        panel.wait_for_timeout(1000)
        assert site.orders == []
        # A second press with nothing running does nothing.
        press_keys(display, "ctrl+shift+x")
        panel.wait_for_timeout(500)
        expect(panel.locator("#task-status")).to_have_text("Stopped")
