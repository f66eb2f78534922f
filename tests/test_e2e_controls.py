"""Every control a person can use, driven in real Chromium as they would: the panel with the keyboard
alone (focus never falls to the page when a control is replaced), what a screen reader is given,
the popup's buttons, the host banner's Copy and Try again, the coordinator's runtime messages and
tab registry, and the outline on the element being acted on (on the screen, not in the page)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from heybro.demo import DemoSite
from support.browser import ExtBrowser, launch
from support.screen import OverlayWatch, outline_box, outline_pixels
from support.scripted_llm import ScriptedLLM, call, calls
from support.shop_policy import GOAL
from support.shop_rig import Rig, shop_rig, start, wait_status

pytestmark = pytest.mark.browser

# Roles a person operates: each needs a name a screen reader can say.
OPERABLE = {"button", "textbox", "link", "checkbox", "combobox", "DisclosureTriangle", "meter",
            "menuitem", "tab", "slider", "spinbutton", "searchbox", "listbox", "radio"}


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with shop_rig(tmp_path) as r:
        yield r


def focused(page: Page) -> str:
    return page.evaluate("document.activeElement ? (document.activeElement.id || "
                         "document.activeElement.tagName) : ''")


def wait_focus(page: Page, want: str, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while focused(page) != want:
        if time.monotonic() > deadline:
            raise AssertionError(f"focus is on {focused(page)!r}, not {want!r}")
        page.wait_for_timeout(50)


def tab_to(page: Page, want: str, key: str = "Tab", limit: int = 30) -> None:
    """Presses Tab (or Shift+Tab) until `want` has focus, as a keyboard user would."""
    for _ in range(limit):
        if focused(page) == want:
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached #{want}")


def unnamed_controls(page: Page) -> list[str]:
    """Operable nodes of the page's accessibility tree (as Chrome gives it to screen readers)
    without an accessible name."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    bad = []
    for n in nodes:
        if n.get("ignored"):
            continue
        role = (n.get("role") or {}).get("value")
        name = ((n.get("name") or {}).get("value") or "").strip()
        if role in OPERABLE and not name:
            bad.append(f"{role} (backend node {n.get('backendDOMNodeId')})")
    return bad


def live_regions(page: Page) -> dict[str, str]:
    """Elements that announce changes: id → politeness."""
    return page.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll(
        '[aria-live], [role=status], [role=log], [role=alert]')).filter((e) => e.id).map((e) =>
        [e.id, e.getAttribute('aria-live') || ({status: 'polite', log: 'polite', alert: 'assertive'})[e.getAttribute('role')]]))""")


def test_the_panel_works_with_the_keyboard_alone(rig: Rig) -> None:
    p, policy = rig.panel, rig.policy
    policy.hold_before_order.set()
    p.evaluate("document.activeElement && document.activeElement.blur()")
    tab_to(p, "goal")
    p.keyboard.type(GOAL)
    p.keyboard.press("Shift+Enter")  # a new line, not a send
    assert p.locator("#task").is_hidden()
    p.keyboard.press("Backspace")
    p.keyboard.press("Enter")  # Enter sends
    expect(p.locator("#task-goal")).to_have_text(GOAL)
    assert policy.waiting.wait(60)
    tab_to(p, "pause", "Shift+Tab")
    p.keyboard.press("Enter")
    # Pause hides itself: focus moves to Resume, which took its place — not to the page.
    wait_focus(p, "resume")
    expect(p.locator("#task-status")).to_have_text("Pausing…")
    policy.release.set()
    wait_status(p, "Paused", 30_000)
    assert focused(p) == "resume"
    policy.release.clear()  # the model will hold its next reply too
    policy.waiting.clear()
    p.keyboard.press("Enter")
    wait_focus(p, "pause")
    assert policy.waiting.wait(60)
    tab_to(p, "stop")
    p.keyboard.press("Enter")
    wait_status(p, "Stopped", 5_000)
    wait_focus(p, "dismiss")  # New task takes Stop's place
    p.keyboard.press("Enter")
    expect(p.locator("#task")).to_be_hidden()
    wait_focus(p, "goal")
    expect(p.locator("#send")).to_have_text("Start")
    assert rig.site.orders == []


def test_every_control_has_a_name_and_progress_is_announced(rig: Rig) -> None:
    p = rig.panel
    assert unnamed_controls(p) == []
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)
    p.click("#history summary")
    assert unnamed_controls(p) == [], "running"
    regions = live_regions(p)
    assert regions.get("task-status") == "polite"  # the status badge: Planning, Working, Paused …
    assert regions.get("log") == "polite"  # the conversation
    assert regions.get("current-action") == "polite"  # the action being taken
    assert p.get_attribute("#log", "role") == "log"
    assert p.locator("#goal").evaluate("e => e.labels[0].textContent") == "Message for this task"
    rig.panel.click("#pause")
    rig.policy.release.set()
    wait_status(p, "Paused", 30_000)
    assert unnamed_controls(p) == [], "paused"
    popup = rig.eb.open_popup()
    expect(popup.locator("#task-line")).to_contain_text("Paused")
    assert unnamed_controls(popup) == [], "popup"
    assert live_regions(popup).get("task-line") == "polite"


def test_popup_pause_and_resume_reach_the_task(rig: Rig) -> None:
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)
    popup = rig.eb.open_popup()
    expect(popup.locator("#subtask-line")).to_contain_text(f"Now: {GOAL}")
    popup.click("#pause")
    expect(popup.locator("#task-line")).to_contain_text("Pausing…", timeout=2_000)
    expect(rig.panel.locator("#task-status")).to_have_text("Pausing…", timeout=2_000)
    rig.policy.release.set()
    wait_status(rig.panel, "Paused", 30_000)
    expect(popup.locator("#pause")).to_be_hidden()
    expect(popup.locator("#subtask-line")).to_contain_text(f"Next: {GOAL}")
    popup.click("#resume")
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1


def test_new_task_clears_the_finished_one_and_starts_afresh(rig: Rig) -> None:
    start(rig)
    wait_status(rig.panel, "Completed", 60_000)
    rig.panel.click("#dismiss")
    expect(rig.panel.locator("#task")).to_be_hidden()
    expect(rig.panel.locator("#send")).to_have_text("Start")
    expect(rig.panel.locator("#log .msg[data-n]")).to_have_count(0)
    wait_focus(rig.panel, "goal")
    assert rig.eb.sw.evaluate("globalThis.heybro.store.state.taskContext") is None
    # The finished task is kept by the host: it is in the past tasks.
    rig.panel.click("#history summary")
    expect(rig.panel.locator("#history-list button").first).to_contain_text("Completed")
    rig.shop.goto(rig.site.url)
    start(rig, "Buy one Blue Kettle again")
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 2


def test_runtime_messages_and_the_tab_registry(tmp_path: Path) -> None:
    """GET_STATE and TASK_ADD_RELEVANT_TAB, the seed's runtime messages; and a task that opens a
    second tab has both tabs in the registry."""
    with DemoSite() as site:
        script = {
            "scheduler": [calls(("set_subtasks", {"subtasks": ["Open the kettle in a new tab"]}),
                                ("start_work", {}))],
            "worker": [call("new_tab", url=site.url + "product/p1"),
                       call("mark_done", summary="The kettle's page is open in a new tab")],
            "verifier": [call("mark_complete", reason="The product page is open", confidence=0.9)],
        }
        with ScriptedLLM(script) as llm, \
                launch(env_extra=llm.env(), home=tmp_path / "home") as eb:
            shop = eb.ctx.new_page()
            shop.goto(site.url)
            panel = eb.open_panel()
            expect(panel.locator("#host-pill")).to_have_text("Host connected")
            panel.fill("#goal", "Open the Blue Kettle in a new tab")
            panel.click("#send")
            wait_status(panel, "Completed", 60_000)
            tabs = eb.sw.evaluate("chrome.tabs.query({}).then((ts) => ts.map((t) => [t.id, t.url]))")
            shop_tab = next(i for i, u in tabs if u == site.url)
            new_tab = next(i for i, u in tabs if u.endswith("/product/p1"))
            state = panel.evaluate("chrome.runtime.sendMessage({type: 'GET_STATE'})")
            assert state["taskContext"]["status"] == "completed"
            registry = [t["tabId"] for t in state["tabRegistry"]]
            assert shop_tab in registry and new_tab in registry, (registry, tabs)
            # Another tab the task should know about, added by message.
            other = eb.ctx.new_page()
            other.goto(site.url + "search?q=red")
            other_tab = next(i for i, u in eb.sw.evaluate(
                "chrome.tabs.query({}).then((ts) => ts.map((t) => [t.id, t.url]))") if "q=red" in u)
            reply = panel.evaluate("(id) => chrome.runtime.sendMessage({type: 'TASK_ADD_RELEVANT_TAB', "
                                   "tabId: id})", other_tab)
            assert reply == {"ok": True}
            state = panel.evaluate("chrome.runtime.sendMessage({type: 'GET_STATE'})")
            entry = next(t for t in state["tabRegistry"] if t["tabId"] == other_tab)
            assert entry["url"].endswith("search?q=red")
            # Saved: the coordinator's stored state has it too (it survives a restart).
            stored = eb.sw.evaluate("chrome.storage.local.get('heybro_state')")
            assert other_tab in [t["tabId"] for t in stored["heybro_state"]["tabRegistry"]]


def test_host_banner_copy_and_try_again(tmp_path: Path) -> None:
    with launch(home=tmp_path / "home") as eb:
        eb.heybro("uninstall", "--user-data-dir", str(eb.user_data_dir))
        panel = eb.open_panel()
        eb.sw.evaluate("globalThis.heybro.commands.reconnect().catch(() => null)")
        expect(panel.locator("#host-pill")).to_have_text("Host not installed")
        expect(panel.locator("#host-banner [data-field=fix]")).to_have_text("heybro install")
        panel.evaluate("() => { window.__copied = []; navigator.clipboard.writeText = "
                       "async (t) => { window.__copied.push(t); }; }")
        panel.click("#copy-fix")
        expect(panel.locator("#copy-fix")).to_have_text("Copied")
        assert panel.evaluate("window.__copied") == ["heybro install"]
        # Fixed in a terminal; Try again connects at once (the press reaches the coordinator).
        eb.install_host()
        eb.sw.evaluate("""() => { globalThis.__tries = 0; const c = globalThis.heybro.commands;
            const orig = c.reconnect; c.reconnect = (a) => { globalThis.__tries++; return orig(a); }; }""")
        panel.click("#reconnect")
        expect(panel.locator("#host-pill")).to_have_text("Host connected", timeout=5_000)
        expect(panel.locator("#host-banner")).to_be_hidden()
        assert eb.sw.evaluate("globalThis.__tries") == 1
        # The popup offers the same fix when the host is missing.
        eb.heybro("uninstall", "--user-data-dir", str(eb.user_data_dir))
        eb.sw.evaluate("globalThis.heybro.commands.reconnect().catch(() => null)")
        popup = eb.open_popup()
        expect(popup.locator("#host-pill")).to_have_text("Host not installed")
        expect(popup.locator("#host-banner")).to_contain_text("heybro install")
        expect(popup.locator("#open-panel")).to_be_visible()


def side_panel_open(eb: ExtBrowser) -> bool:
    """Whether Chrome shows heybro's real side panel (not a tab with the panel's page)."""
    browser = eb.ctx.browser
    assert browser is not None
    session = browser.new_browser_cdp_session()
    try:
        targets = session.send("Target.getTargets")["targetInfos"]
    finally:
        session.detach()
    tab_urls = {p.url for p in eb.ctx.pages}
    return any(t["url"].endswith("/extension/pages/panel/panel.html") and t["url"] not in tab_urls
               for t in targets)


def test_popup_open_heybro_opens_the_side_panel(tmp_path: Path) -> None:
    with launch(home=tmp_path / "home") as eb:
        popup = eb.open_popup()
        expect(popup.locator("#host-pill")).to_have_text("Host connected")
        assert not side_panel_open(eb)
        popup.click("#open-panel")
        deadline = time.monotonic() + 10
        while not side_panel_open(eb):
            assert time.monotonic() < deadline, "the side panel did not open"
            eb.ctx.pages[0].wait_for_timeout(100)


# Installed by the page itself at the start of each of its documents: every change to the document
# after it has loaded (the shop's pages have no script: none is the page's own), every popover shown.
PAGE_WATCH = """(() => {
  const keep = (line) => {
    const seen = JSON.parse(sessionStorage.getItem('changes') || '[]');
    seen.push(line);
    sessionStorage.setItem('changes', JSON.stringify(seen));
  };
  let loaded = false;
  const watch = new MutationObserver((records) => {
    if (!loaded) return;
    for (const r of records) keep([r.type, r.target.nodeName, r.attributeName || '',
      [...r.addedNodes].map((n) => n.nodeName).join(',')].join(' '));
  });
  watch.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  // (What the parser built is the page's own: dropped once it is done.)
  document.addEventListener('DOMContentLoaded', () => { watch.takeRecords(); loaded = true; });
  document.addEventListener('toggle', (e) => keep('toggle ' + e.target.nodeName), true);
})()"""


def test_the_element_acted_on_is_outlined_on_screen_and_nothing_of_heybro_is_in_the_page(rig: Rig) -> None:
    """While the worker fills the checkout's fields, a person sees the field acted on outlined on
    the screen (a screenshot of the page shows it), while the page's own observer, installed at
    the start of each of its documents, sees nothing of heybro's during the whole task: no node,
    attribute or popover. The outline never enters the page map, and is gone after."""
    rig.eb.ctx.add_init_script(PAGE_WATCH)
    shop = rig.shop
    shop.reload()
    shop.bring_to_front()
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)
    # The checkout: where the outline of each control the worker acts on goes.
    controls = [outline_box(shop, sel) for sel in ("input[name=name]", "input[name=email]", "button[type=submit]")]
    tab = shop_tab_id(rig)
    run = ("(c) => globalThis.heybro.runTool({tool: c[0], args: c[1], tab_id: c[2], "
           "timeout_ms: 5000})")
    plain = rig.eb.sw.evaluate(run, ["observe", {}, tab])
    # The fills and the click follow at once: the screen is looked at as each outline is drawn.
    overlay = OverlayWatch(rig.eb.sw)
    rig.policy.release.set()
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1
    drawn = [i for i, m in enumerate(overlay.wait(overlay.count())) if m == "Overlay.highlightRect"]
    seen = max((outline_pixels(overlay.screen(i), box) for i in drawn for box in controls), default=0)
    assert seen > 100, seen
    assert plain["ok"] and "heybro" not in json.dumps(plain["result"]["elements"])
    # Nothing of heybro's was ever in the page's documents, and the outline is gone.
    shop.wait_for_timeout(800)
    assert shop.evaluate("sessionStorage.getItem('changes')") is None, shop.evaluate("sessionStorage.getItem('changes')")
    assert shop.evaluate("document.querySelector('[data-heybro-overlay], [data-heybro-acting], :popover-open')") is None


def shop_tab_id(rig: Rig) -> int:
    tabs = rig.eb.sw.evaluate("chrome.tabs.query({}).then((ts) => ts.map((t) => [t.id, t.url]))")
    return next(i for i, u in tabs if u.startswith(rig.site.url) and "checkout" in u)


def test_a_task_a_crash_paused_blocks_a_new_start_and_is_shown_to_resume_or_stop(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A task cut off by a crash, that this panel never showed (started from a terminal): a new
    start is refused with its name, and the panel brings it up with its Resume and Stop."""
    from heybro.store import TaskStore

    monkeypatch.setenv("HEYBRO_HOME", str(rig.eb.home))
    store = TaskStore()
    old = store.create_task("Order the red kettle from the terminal", url=rig.site.url)
    store.checkpoint(old.id, {"id": old.id, "description": old.goal, "url": rig.site.url})
    store.set_status(old.id, "paused", "interrupted: the heybro host stopped")
    store.close()
    start_goal = "Buy one Blue Kettle for Ann Lee"
    rig.panel.fill("#goal", start_goal)
    rig.panel.click("#send")
    log = rig.panel.locator("#log")
    expect(log.locator(".note")).to_contain_text('Task "Order the red kettle from the terminal"')
    expect(log.locator(".note")).to_contain_text("resume it or stop it first")
    expect(rig.panel.locator("#task-goal")).to_have_text("Order the red kettle from the terminal")
    wait_status(rig.panel, "Paused", 5_000)
    expect(rig.panel.locator("#resume")).to_be_visible()
    rig.panel.click("#stop")
    wait_status(rig.panel, "Stopped", 5_000)
    rig.panel.click("#dismiss")
    start(rig, start_goal)
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1
