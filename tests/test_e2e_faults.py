"""Faults on the browser side in real Chromium, with the real extension and host: the service
worker stopped or the whole browser killed while an action is in flight. Such an action has an
unknown outcome: the task pauses naming it, nothing retries it, and after Resume the worker looks
at the page first — the shop's own count proves every order happened exactly once."""

from __future__ import annotations

import errno
import os
import signal
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

from heybro.demo import DemoSite
from support.browser import launch
from support.scripted_llm import ScriptedLLM, user_text
from support.shop_policy import GOAL, ShopPolicy
from support.shop_rig import Rig, shop_rig, start, wait_status

pytestmark = pytest.mark.browser


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    with shop_rig(tmp_path) as r:
        yield r


class Held:
    """Holds the shop's answer to the first request `when(method, path)` picks until released,
    so the action that sent it (a click that submits or navigates) is in flight meanwhile."""

    def __init__(self, site: DemoSite, when: Callable[[str, str], bool]) -> None:
        self.arrived, self.release = threading.Event(), threading.Event()

        def hook(method: str, path: str) -> None:
            if not self.arrived.is_set() and when(method, path):
                self.arrived.set()
                self.release.wait(30)
        site.on_request = hook


def resume_and_finish_once(rig: Rig, cut: str) -> None:
    """Resume; the worker is told what was cut off, looks at the page, and the task completes
    with exactly one order."""
    rig.panel.click("#resume")
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1, rig.site.orders
    told = [user_text(r) for r in rig.llm.role_requests("worker")]
    assert any("cut off" in t and cut in t for t in told), told[-1]


@pytest.mark.parametrize("moment, cut", [
    ("the order submit", 'on button "Place order"'),
    ("the click to the checkout page", 'on link "Buy now"'),
])
def test_service_worker_stopped_while_an_action_is_in_flight(rig: Rig, moment: str, cut: str) -> None:
    want = ("POST", "/order") if "order" in moment else ("GET", "/checkout/")
    held = Held(rig.site, lambda m, p: m == want[0] and p.startswith(want[1]))
    start(rig)
    assert held.arrived.wait(60), f"{moment} never reached the shop"
    cdp = rig.eb.ctx.new_cdp_session(rig.shop)
    cdp.send("ServiceWorker.enable")
    cdp.send("ServiceWorker.stopAllWorkers")
    rig.panel.wait_for_timeout(500)
    held.release.set()  # the shop answers; the extension that asked is gone
    wait_status(rig.panel, "Paused", 30_000)
    expect(rig.panel.locator("#task-error")).to_contain_text("in flight")
    expect(rig.panel.locator("#task-error")).to_contain_text(cut.removeprefix("on "))
    assert len(rig.site.orders) == (1 if "order" in moment else 0)
    rig.panel.wait_for_timeout(1000)  # nothing goes on by itself
    wait_status(rig.panel, "Paused")
    resume_and_finish_once(rig, cut)


def test_tab_closed_while_the_order_submit_is_in_flight(rig: Rig) -> None:
    held = Held(rig.site, lambda m, p: m == "POST" and p == "/order")
    start(rig)
    assert held.arrived.wait(60)
    rig.shop.close()
    held.release.set()
    wait_status(rig.panel, "Paused", 30_000)
    expect(rig.panel.locator("#task-error")).to_contain_text('tab closed while click on button "Place order"')
    rig.panel.click("#resume")
    # The page is reopened where it was; it cannot vouch for the order, so heybro asks first.
    expect(rig.panel.locator("#task-error")).to_contain_text("does not repeat it by itself",
                                                             timeout=60_000)
    assert len(rig.site.orders) == 1, rig.site.orders


def _chromium_pid(profile: Path) -> int:
    for proc in Path("/proc").iterdir():
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if (f"--user-data-dir={profile}".encode() in cmd
                and not any(c.startswith(b"--type=") for c in cmd)):
            return int(proc.name)
    raise AssertionError("no Chromium runs on that profile")


def test_browser_killed_during_the_order_submit_then_reopened_orders_once(tmp_path: Path) -> None:
    policy = ShopPolicy()
    home, profile = tmp_path / "home", tmp_path / "profile"
    with DemoSite() as site, ScriptedLLM({}, default=policy.defaults()) as llm:
        held = Held(site, lambda m, p: m == "POST" and p == "/order")
        try:
            with launch(env_extra=llm.env(), home=home, user_data_dir=profile) as eb:
                eb.ctx.new_page().goto(site.url)
                panel = eb.open_panel()
                panel.fill("#goal", GOAL)
                panel.click("#send")
                assert held.arrived.wait(60)
                os.kill(_chromium_pid(profile), signal.SIGKILL)
        except Exception:  # noqa: BLE001 - Playwright's hold on a killed browser ends in errors
            pass
        held.release.set()  # the shop takes the order; the browser that sent it is gone
        for _ in range(50):
            if site.orders:
                break
            threading.Event().wait(0.1)
        assert len(site.orders) == 1
        with launch(env_extra=llm.env(), home=home, user_data_dir=profile) as eb:
            panel = eb.open_panel()
            wait_status(panel, "Paused", 20_000)
            expect(panel.locator("#task-error")).to_contain_text("Place order")
            panel.click("#resume")
            # The tab died with the browser: the reopened checkout cannot show whether the order
            # went through, so the model proposes the click again — and heybro asks first.
            expect(panel.locator("#task-error")).to_contain_text("does not repeat it by itself",
                                                                 timeout=60_000)
            wait_status(panel, "Paused")
            assert len(site.orders) == 1, site.orders
            panel.click("#stop")
            wait_status(panel, "Stopped", 20_000)
        assert len(site.orders) == 1, site.orders
        told = [user_text(r) for r in llm.role_requests("worker")]
        assert any("cut off" in t and 'on button "Place order"' in t for t in told), told[-1]


def test_store_unwritable_mid_task_pauses_saying_so_then_resumes_and_orders_once(rig: Rig) -> None:
    import sqlite3

    rig.policy.hold_before_order.set()
    start(rig)
    assert rig.policy.waiting.wait(60)
    db = rig.eb.home / "data" / "tasks.sqlite3"
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program takes the record's write lock
    try:
        rig.policy.release.set()  # the reply that orders arrives; its record cannot be written
        wait_status(rig.panel, "Paused", 30_000)
        said = f"heybro cannot write its record at {db}: another program holds it locked"
        expect(rig.panel.locator("#task-error")).to_contain_text(said)
        popup = rig.eb.open_popup()
        expect(popup.locator("#outcome")).to_contain_text(said)
        assert rig.site.orders == []
    finally:
        other.execute("ROLLBACK")
        other.close()
    rig.panel.bring_to_front()
    rig.panel.click("#resume")
    wait_status(rig.panel, "Completed", 60_000)
    assert len(rig.site.orders) == 1, rig.site.orders
    # The record is whole: the pause and its reason were written once writing worked again.
    rig.panel.click("#history summary")
    rig.panel.locator("#history-list button").first.click()
    expect(rig.panel.locator("#history-detail")).to_contain_text("another program holds it locked")


@contextmanager
def small_disk(where: Path, size: str = "4m") -> Iterator[Path]:
    """A real filesystem of a few MB (tmpfs), so that a full disk is a full disk."""
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Writes a file until the disk has no room left; returns it (deleting it frees the disk)."""
    filler = disk / "filler"
    with filler.open("wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError as err:
            assert err.errno == errno.ENOSPC, err
    return filler


def test_disk_full_mid_task_pauses_then_recovers_by_itself_once_space_is_freed(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk, \
            shop_rig(tmp_path, env={"HEYBRO_DB": str(disk / "tasks.sqlite3")}) as rig:
        rig.policy.hold_before_order.set()
        start(rig)
        assert rig.policy.waiting.wait(60)
        filler = fill(disk)
        rig.policy.release.set()  # the reply that orders arrives; its record cannot be written
        wait_status(rig.panel, "Paused", 30_000)
        expect(rig.panel.locator("#task-error")).to_contain_text("the disk is full")
        assert rig.site.orders == []
        db = sqlite3.connect(disk / "tasks.sqlite3")
        (before,) = db.execute("SELECT MAX(seq) FROM events").fetchone()
        assert db.execute("SELECT status FROM tasks").fetchone()[0] != "paused"

        filler.unlink()  # space comes back; nobody touches heybro
        expect(rig.panel.locator("#log")).to_contain_text("heybro can write its record again",
                                                          timeout=30_000)
        status, reason = db.execute("SELECT status, reason FROM tasks").fetchone()
        assert status == "paused", (status, reason)
        # What the panel was shown meanwhile reached the record, in order, after what came before.
        rows = db.execute("SELECT seq, kind, data FROM events WHERE seq > ? ORDER BY seq",
                          (before,)).fetchall()
        assert [r[0] for r in rows] == list(range(before + 1, before + 1 + len(rows)))
        kinds = [r[1] for r in rows]
        assert kinds.index("status") < kinds.index("error"), kinds
        assert "paused" in rows[kinds.index("status")][2]
        assert "the disk is full" in rows[kinds.index("error")][2]
        db.close()

        rig.panel.click("#resume")
        wait_status(rig.panel, "Completed", 60_000)
        assert len(rig.site.orders) == 1, rig.site.orders


def test_host_killed_while_heybro_run_watches_it_follows_the_new_host_to_the_end(rig: Rig) -> None:
    import subprocess
    import sys

    from support.browser import host_pids

    rig.policy.hold_before_order.set()
    cli = subprocess.Popen([sys.executable, "-m", "heybro.cli", "run", GOAL, "--url", rig.site.url],
                           env=rig.eb.env | rig.llm.env(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        assert rig.policy.waiting.wait(90), "the terminal's task never reached the checkout"
        for pid in host_pids(rig.eb.home):
            os.kill(pid, signal.SIGKILL)
        rig.policy.release.set()
        # The extension starts a new host; the task comes back paused; the terminal hears it.
        wait_status(rig.panel, "Paused", 30_000)
        rig.panel.click("#resume")
        wait_status(rig.panel, "Completed", 60_000)
        out, _ = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 0, out
    assert "waiting for it to come back" in out and "reconnected" in out, out
    assert "● paused — interrupted" in out and "✓ completed" in out, out
    assert len(rig.site.orders) == 1, rig.site.orders
