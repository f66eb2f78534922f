"""Lifecycle in real Chromium: a task started from the side panel on the demo shop, controlled from
the panel, popup and shortcut, and surviving a killed host, a stopped service worker and a closed
browser — with the shop's own count proving the order happened exactly once."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from heybro.demo import DemoSite
from support.browser import ExtBrowser, host_pids, launch
from support.scripted_llm import ScriptedLLM
from support.shop_policy import GOAL, ShopPolicy

pytestmark = pytest.mark.browser


@dataclass
class Rig:
    eb: ExtBrowser
    site: DemoSite
    policy: ShopPolicy
    llm: ScriptedLLM
    panel: Page
    shop: Page


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    policy = ShopPolicy()
    with DemoSite() as site, ScriptedLLM({}, default=policy.defaults()) as llm, \
            launch(env_extra=llm.env(), home=tmp_path / "home",
                   user_data_dir=tmp_path / "profile") as eb:
        shop = eb.ctx.new_page()
        shop.goto(site.url)
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host connected")
        yield Rig(eb, site, policy, llm, panel, shop)
        policy.release.set()


def start(r: Rig) -> None:
    r.panel.fill("#goal", GOAL)
    r.panel.click("#send")
    expect(r.panel.locator("#task-goal")).to_have_text(GOAL)


def wait_status(page: Page, want: str, timeout: float = 60_000) -> None:
    """Waits for the panel's status badge; on failure says what the panel showed instead."""
    try:
        expect(page.locator("#task-status")).to_have_text(want, timeout=timeout)
    except AssertionError:
        shown = page.evaluate("() => [document.querySelector('#task-status').textContent, "
                              "document.querySelector('#task-error').textContent, "
                              "document.querySelector('#log').innerText]")
        raise AssertionError(f"wanted {want!r}, the panel shows {shown}") from None


def test_task_from_the_panel_runs_to_completion_and_is_in_past_tasks(rig: Rig) -> None:
    start(rig)
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1
    expect(rig.panel.locator("#plan li")).to_have_count(1)
    expect(rig.panel.locator("#verdict")).to_contain_text("Verifier: done")
    expect(rig.panel.locator("#usage")).to_contain_text("tokens in")
    # A follow-up after the end goes to the scheduler of the same task, which runs again.
    rig.panel.fill("#goal", "Also tell me the order number")
    rig.panel.click("#send")
    # The same task plans again, finishes again, and says so after the follow-up.
    expect(rig.panel.locator("#log .msg").last).to_contain_text("Done.", timeout=60_000)
    expect(rig.panel.locator("#log .msg")).to_have_count(4)
    wait_status(rig.panel, "Completed")
    assert any("Also tell me the order number" in c for c in rig.policy.scheduler_calls)
    assert len(rig.site.orders) == 1
    # A second task is refused while... nothing runs now, so the finished one is listed instead.
    rig.panel.click("#history summary")
    item = rig.panel.locator("#history-list button").first
    expect(item).to_contain_text("Completed")
    item.click()
    expect(rig.panel.locator("#history-detail")).to_contain_text("tool_call")


def test_pause_resume_and_stop_from_panel_and_popup(rig: Rig) -> None:
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60), "the task never reached the checkout form"
    # The panel names the element the last action took, as the page names it.
    expect(rig.panel.locator("#current-action")).to_have_text('click link "Buy now"')
    rig.panel.click("#pause")  # takes effect at the next safe point: after this reply
    rig.policy.release.set()
    wait_status(rig.panel, "Paused", 30_000)
    # The reply that arrived after pause is kept, not acted on: no order yet.
    rig.panel.wait_for_timeout(1000)
    assert rig.site.orders == []
    popup = rig.eb.open_popup()
    expect(popup.locator("#task-line")).to_contain_text("Paused")
    expect(popup.locator("#resume")).to_be_enabled()
    popup.click("#resume")
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1
    expect(popup.locator("#stop")).to_be_disabled()


def test_second_task_is_refused_while_one_runs_and_stop_ends_it(rig: Rig) -> None:
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)
    reply = rig.panel.evaluate(
        "heybroPanel.client.call('start_task', {goal: 'another'}).then(() => 'ok', e => e.message)")
    assert "already" in reply
    popup = rig.eb.open_popup()
    popup.click("#stop")
    rig.policy.release.set()
    wait_status(rig.panel, "Stopped", 30_000)
    rig.panel.wait_for_timeout(1000)
    assert rig.site.orders == []
    expect(rig.panel.locator("#dismiss")).to_be_visible()


def test_follow_up_message_reaches_the_scheduler(rig: Rig) -> None:
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)
    rig.panel.fill("#goal", "Use the gift wrap option if there is one")
    rig.panel.click("#send")
    rig.policy.release.set()
    wait_status(rig.panel, "Completed", 60_000)
    assert any("The user added: Use the gift wrap option" in c for c in rig.policy.scheduler_calls)
    assert len(rig.site.orders) == 1


def test_host_killed_mid_task_comes_back_paused_and_orders_once(rig: Rig) -> None:
    # The worst moment: the shop has taken the order, the host dies before it hears the result.
    def crash(order: dict) -> None:
        for pid in host_pids(rig.eb.home):
            os.kill(pid, signal.SIGKILL)
    rig.site.on_order = crash
    start(rig)
    expect(rig.panel.locator("#log")).to_contain_text("Host disconnected", timeout=60_000)
    rig.site.on_order = None
    expect(rig.panel.locator("#host-pill")).to_have_text("Host connected", timeout=20_000)
    wait_status(rig.panel, "Paused", 20_000)
    expect(rig.panel.locator("#task-error")).to_contain_text("interrupted")
    assert len(rig.site.orders) == 1
    rig.panel.click("#resume")
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1, rig.site.orders
    # The worker was told which action was cut off, by the element's name (its id is stale).
    told = [r["messages"][1]["content"] for r in rig.llm.role_requests("worker")]
    assert any("cut off" in str(t) and 'on button "Place order"' in str(t) for t in told), told[-1]
    # The whole history is there: the steps before the crash and after.
    rig.panel.click("#history summary")
    rig.panel.locator("#history-list button").first.click()
    detail = rig.panel.locator("#history-detail")
    expect(detail).to_contain_text("interrupted")
    expect(detail).to_contain_text("completed")


def test_service_worker_stopped_mid_task_pauses_cleanly_then_finishes(rig: Rig) -> None:
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)
    cdp = rig.eb.ctx.new_cdp_session(rig.shop)
    cdp.send("ServiceWorker.enable")
    cdp.send("ServiceWorker.stopAllWorkers")
    rig.policy.release.set()
    # The panel reconnects, the coordinator wakes with heybro_state and catches up from the host.
    wait_status(rig.panel, "Paused", 30_000)
    state = rig.eb.sw.evaluate("globalThis.heybro.store.state.taskContext.status")
    assert state == "paused"
    rig.panel.click("#resume")
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1


def test_browser_closed_mid_task_is_resumable_after_reopening(tmp_path: Path) -> None:
    policy = ShopPolicy()
    policy.hold_before_order.set()
    home, profile = tmp_path / "home", tmp_path / "profile"
    with DemoSite() as site, ScriptedLLM({}, default=policy.defaults()) as llm:
        with launch(env_extra=llm.env(), home=home, user_data_dir=profile) as eb:
            shop = eb.ctx.new_page()
            shop.goto(site.url)
            panel = eb.open_panel()
            panel.fill("#goal", GOAL)
            panel.click("#send")
            assert policy.waiting.wait(60)
        policy.release.set()  # the browser is gone; the late reply finds no host
        assert site.orders == []
        with launch(env_extra=llm.env(), home=home, user_data_dir=profile) as eb:
            panel = eb.open_panel()
            wait_status(panel, "Paused", 20_000)
            expect(panel.locator("#resume")).to_be_visible()
            panel.click("#resume")
            # The shop tab is gone with the old browser: heybro reopens the page and finishes.
            wait_status(panel, "Completed", 90_000)
        assert len(site.orders) == 1, site.orders


def test_task_from_the_terminal_shows_in_the_panel_and_obeys_it(rig: Rig) -> None:
    import subprocess
    import sys

    rig.policy.hold_before_order.set()
    cli = subprocess.Popen([sys.executable, "-m", "heybro.cli", "run", GOAL, "--url", rig.site.url],
                           env=rig.eb.env | rig.llm.env(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        if not rig.policy.waiting.wait(90):
            cli.kill()
            raise AssertionError(f"the terminal's task never reached the checkout: "
                                 f"{cli.communicate()[0]}")
        expect(rig.panel.locator("#task-goal")).to_have_text(GOAL)
        rig.panel.click("#pause")
        rig.policy.release.set()
        wait_status(rig.panel, "Paused", 30_000)
        rig.panel.click("#resume")
        wait_status(rig.panel, "Completed")
        out, _ = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 0, out
    assert "paused" in out.lower() and "completed" in out.lower()
    assert len(rig.site.orders) == 1
