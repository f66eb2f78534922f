"""Lifecycle in real Chromium: a task started from the side panel on the demo shop, controlled from
the panel, popup and shortcut, and surviving a killed host, a stopped service worker and a closed
browser — with the shop's own count proving the order happened exactly once."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from heybro.demo import DemoSite
from support.browser import host_pids, launch
from support.scripted_llm import ScriptedLLM
from support.shop_policy import CALL_OFF, GOAL, ShopPolicy
from support.shop_rig import Rig, shop_rig, start, wait_status

pytestmark = pytest.mark.browser


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with shop_rig(tmp_path) as r:
        yield r


def test_task_from_the_panel_runs_to_completion_and_is_in_past_tasks(rig: Rig) -> None:
    start(rig)
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1
    expect(rig.panel.locator("#plan > li:not([data-index='-1'])")).to_have_count(1)
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
    # The finished task is in the past tasks; opened, its run reads as a person would read it:
    # each action once with its outcome, the verdict in words, no raw records.
    rig.panel.click("#history summary")
    item = rig.panel.locator("#history-list button").first
    expect(item).to_contain_text("Completed")
    item.click()
    detail = rig.panel.locator("#history-detail")
    expect(detail).to_contain_text('✓ click button "Place order"')
    expect(detail).to_contain_text("Verifier: done (model 95% sure, needs 70%")
    expect(detail).to_contain_text("You: Also tell me the order number")
    expect(detail).to_contain_text("Model use:")
    text = detail.inner_text()
    assert "tool_call" not in text and "{" not in text, text


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
    # Nothing left to control: the popup shows how it ended instead of the buttons.
    expect(popup.locator("#controls")).to_be_hidden()
    expect(popup.locator("#outcome")).to_contain_text("The confirmation page shows the order")


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


def test_a_message_while_paused_keeps_it_paused_and_the_held_order_never_happens(rig: Rig) -> None:
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)  # the model is writing the reply that places the order
    rig.panel.click("#pause")
    rig.policy.release.set()  # ... which arrives after the pause: kept, not acted on
    wait_status(rig.panel, "Paused", 30_000)
    rig.panel.fill("#goal", CALL_OFF)
    rig.panel.press("#goal", "Enter")
    log = rig.panel.locator("#log")
    expect(log.locator(".msg.user").last).to_have_text(CALL_OFF)
    expect(log).to_contain_text("stays paused")
    rig.panel.wait_for_timeout(1500)
    wait_status(rig.panel, "Paused")  # a message never resumes the task by itself
    assert rig.site.orders == []
    rig.panel.click("#resume")
    wait_status(rig.panel, "Completed", 60_000)
    assert rig.site.orders == []
    assert any(f"The user added: {CALL_OFF}" in c for c in rig.policy.scheduler_calls)
    expect(log).to_contain_text("not carried out")


def test_a_message_while_the_model_writes_reaches_the_planner_before_any_action(rig: Rig) -> None:
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)
    rig.panel.fill("#goal", CALL_OFF)
    rig.panel.click("#send")
    expect(rig.panel.locator("#log .msg.user").last).to_have_text(CALL_OFF)
    rig.policy.release.set()  # the reply that would place the order arrives after the message
    wait_status(rig.panel, "Completed", 60_000)
    assert rig.site.orders == []
    assert any(f"The user added: {CALL_OFF}" in c for c in rig.policy.scheduler_calls)


def test_pause_and_stop_show_at_once_and_stop_does_not_wait_for_the_model(rig: Rig) -> None:
    # Bounds well under what waiting for the model would take (it never answers here), with room
    # for a loaded machine.
    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)  # the model will not answer until released
    popup = rig.eb.open_popup()
    rig.panel.bring_to_front()
    rig.panel.click("#pause")
    expect(rig.panel.locator("#task-status")).to_have_text("Pausing…", timeout=2_000)
    expect(rig.panel.locator("#progress")).to_contain_text("Pausing at the next safe point")
    expect(popup.locator("#task-line")).to_contain_text("Pausing…", timeout=2_000)
    expect(rig.panel.locator("#resume")).to_be_visible()  # a pause on its way can be taken back
    began = time.monotonic()
    rig.panel.click("#stop")
    expect(rig.panel.locator("#task-status")).to_have_text("Stopped", timeout=3_000)
    took = time.monotonic() - began
    assert took < 3.0, f"stop took {took:.1f} s"
    assert not rig.policy.release.is_set(), "the model's reply was never needed"
    expect(popup.locator("#task-line")).to_contain_text("Stopped")
    expect(popup.locator("#subtask-line")).to_be_hidden()  # no "Now: …" for a stopped task
    expect(popup.locator("#outcome")).to_contain_text("You stopped the task.")
    rig.policy.release.set()
    rig.panel.wait_for_timeout(1000)
    assert rig.site.orders == []
    # Recorded as stopped in the host's store.
    rig.panel.click("#history summary")
    expect(rig.panel.locator("#history-list button").first).to_contain_text("Stopped")


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
    expect(rig.panel.locator("#task-error")).to_contain_text("Interrupted")
    assert len(rig.site.orders) == 1
    rig.panel.click("#resume")
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1, rig.site.orders
    # The panel's step stream, caught up across the host's restart: the cut-off order click says
    # so (no step is left looking as if it still ran), then the pause, the resume and the end.
    steps = rig.panel.locator("#plan")
    expect(steps.locator("li[data-kind=action]", has_text='click button "Place order" — cut off')).to_have_count(1)
    expect(steps).to_contain_text("Paused — interrupted")
    expect(steps).to_contain_text("Resumed")
    expect(steps.locator("li[data-ok=running]")).to_have_count(0)
    # The worker was told which action was cut off, by the element's name (its id is stale).
    told = [r["messages"][1]["content"] for r in rig.llm.role_requests("worker")]
    assert any("cut off" in str(t) and 'on button "Place order"' in str(t) for t in told), told[-1]
    # The whole history is there: the steps before the crash and after.
    rig.panel.click("#history summary")
    rig.panel.locator("#history-list button").first.click()
    detail = rig.panel.locator("#history-detail")
    expect(detail).to_contain_text("Paused — interrupted")
    expect(detail).to_contain_text("Completed")


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
