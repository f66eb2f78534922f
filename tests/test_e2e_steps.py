"""Watching every step, in real Chromium with the real host: the side panel streams the run
grouped by subtask — each action with the element's name and its outcome, the verdicts with their
confidence — live while the task runs, and the same in a panel opened mid-run (read from the
host's record) and after the end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from support.shop_rig import Rig, shop_rig, start, wait_status

pytestmark = pytest.mark.browser
CURRENT = "#plan > li[aria-current=step]"


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with shop_rig(tmp_path) as r:
        yield r


def done_actions(page: Page) -> list[str]:
    return page.locator("#plan li[data-kind=action][data-ok=true]").all_inner_texts()


def test_the_panel_streams_each_step_live_and_after_reopening(rig: Rig) -> None:
    errors: list[str] = []
    rig.panel.on("pageerror", lambda e: errors.append(str(e)))
    rig.policy.hold_before_order.set()
    start(rig)
    # Live: the current subtask is open, its finished actions named by their elements.
    expect(rig.panel.locator(f"{CURRENT} details[open]")).to_have_count(1, timeout=60_000)
    expect(rig.panel.locator(f"{CURRENT} li[data-kind=action]",
                             has_text='click link "Blue Kettle"')).to_have_count(1, timeout=60_000)
    assert rig.policy.waiting.wait(60)
    before = done_actions(rig.panel)
    assert any('click link "Buy now"' in a for a in before), before
    # A panel opened now (as after a reconnect) reads the same steps from the host's record.
    other = rig.eb.open_panel()
    expect(other.locator("#plan li[data-kind=action][data-ok=true]")).to_have_count(len(before))
    assert done_actions(other) == before
    rig.policy.release.set()
    for page in (rig.panel, other):
        wait_status(page, "Completed", 60_000)
        steps = page.locator("#plan")
        expect(steps).to_contain_text('✓ click button "Place order"')
        expect(steps).to_contain_text("Verifier: done (model 95% sure, needs 70%")
        expect(steps.locator("li[data-kind=verdict] .chip").last).to_have_text("95%")
        expect(page.locator("#plan > li[data-state=done] .count").last).to_contain_text("actions")
    # The subtask's heading can be closed and stays closed while updates come in.
    assert errors == []
    summary = rig.panel.locator("#plan > li[data-state=done] summary").last
    summary.click()
    expect(rig.panel.locator("#plan > li[data-state=done] details").last).not_to_have_attribute("open", "")
    other.close()


def test_a_finished_task_notifies_and_badges_unless_turned_off(rig: Rig) -> None:
    start(rig)
    wait_status(rig.panel, "Completed", 60_000)
    sw = rig.eb.sw
    notes = sw.evaluate("new Promise((r) => chrome.notifications.getAll(r))")
    assert len(notes) == 1 and next(iter(notes)).startswith("heybro-"), notes
    assert sw.evaluate("chrome.action.getBadgeText({})") == "✓"
    # Turned off in the settings: the next task ends quietly.
    sw.evaluate("chrome.storage.local.set({heybro_prefs: {notify: false}})")
    sw.evaluate("(async () => { for (const id of Object.keys(await new Promise((r) => "
                "chrome.notifications.getAll(r)))) await chrome.notifications.clear(id); })()")
    rig.panel.click("#dismiss")
    for _ in range(50):  # the badge is cleared once the panel's New task reaches the coordinator
        if sw.evaluate("chrome.action.getBadgeText({})") == "":
            break
        rig.panel.wait_for_timeout(100)
    assert sw.evaluate("chrome.action.getBadgeText({})") == ""
    start(rig)
    wait_status(rig.panel, "Completed", 60_000)
    rig.panel.wait_for_timeout(500)
    assert sw.evaluate("new Promise((r) => chrome.notifications.getAll(r))") == {}
    assert sw.evaluate("chrome.action.getBadgeText({})") == ""
