"""Faults under the host's Session (fake channel, in-memory shop): an action whose answer never
comes back has an unknown outcome — the task pauses naming it, nothing retries it, the step it
took counts, and on resume the worker is told and looks at the page first."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from shared_schema.events import dump
from heybro import session as session_mod
from heybro.agent.errors import BrowserLost
from shared_schema.messages import TaskStart

from support.fake_browser import FakeBrowser
from support.scripted_llm import user_text
from support.session_rig import session_rig, until

GOAL = "Book the blue kettle for Ann (ann@x.io)"


class LosesTheAnswer:
    """The shop, except that the booking click happens and its answer is lost with the channel
    (as when the service worker or the browser dies while the submit is in flight)."""

    def __init__(self, inner: FakeBrowser, page_lost: bool = False) -> None:
        self.inner = inner
        self.armed = True
        self.page_lost = page_lost  # the tab went too: reopened, it shows the form again

    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000, sites: Any = None) -> dict[str, Any]:
        result = await self.inner.call(tool, args, tab_id=tab_id, timeout_ms=timeout_ms, sites=sites)
        if self.armed and tool == "click" and self.inner.bookings:
            self.armed = False
            if self.page_lost:
                self.inner.url = "http://shop/form"
            raise BrowserLost(tool, "the browser connection closed")
        return result


def test_an_action_cut_off_pauses_the_task_names_it_counts_it_and_is_never_repeated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            lossy = LosesTheAnswer(rig.browser)
            rig.act_in(lossy)
            tid = (await rig.session.start(TaskStart(goal=GOAL, url="http://shop/"))).task_id
            await until(lambda: getattr(rig.store.get_task(tid), "status", None) == "paused",
                        what="paused")
            row = rig.store.get_task(tid)
            assert row is not None and row.reason is not None
            assert "click on button \"Book\"" in row.reason and "in flight" in row.reason
            assert len(rig.browser.bookings) == 1
            # Nothing retried it: the click is the last thing the browser was asked to do.
            assert rig.browser.calls[-1][0] == "click"
            assert [a.state for a in rig.store.actions(tid) if a.tool == "click"][-1] == "interrupted"
            # The cut-off click counts towards the step limit like every action the worker took
            # (the task's opening navigate is not a step).
            state = rig.store.load_checkpoint(tid)
            assert state is not None
            acted = [t for t, _ in rig.browser.calls if t not in ("observe", "screenshot")][1:]
            assert state["steps"] == len(acted), (state["steps"], acted)
            await rig.session.resume(tid)
            cur = rig.session.current
            assert cur is not None
            await asyncio.wait_for(cur.done.wait(), 20)
            assert rig.status(tid) == "completed"
            assert len(rig.browser.bookings) == 1
            told = [user_text(r) for r in rig.llm.role_requests("worker")]
            assert any("cut off" in t and 'on button "Book"' in t for t in told), told[-1]
    asyncio.run(main())


def test_a_cut_off_action_the_page_cannot_vouch_for_is_repeated_only_after_the_user_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            lossy = LosesTheAnswer(rig.browser, page_lost=True)
            rig.act_in(lossy)

            def status(tid: str) -> str | None:
                return getattr(rig.store.get_task(tid), "status", None)

            tid = (await rig.session.start(TaskStart(goal=GOAL, url="http://shop/"))).task_id
            await until(lambda: status(tid) == "paused", what="paused")
            assert rig.store.get_task(tid).pause == "cut_off"  # (a fault: Resume goes on)
            await rig.session.resume(tid)  # the form is back: the worker proposes the click again
            await until(lambda: rig.store.get_task(tid).pause == "held", what="the question")
            assert status(tid) == "paused"
            assert "waiting for you" in (rig.store.get_task(tid).reason or "")
            assert len(rig.browser.bookings) == 1  # held, not repeated
            assert 'click on button "Book"' in (rig.store.get_task(tid).reason or "")
            await rig.session.resume(tid)  # the user's word: go ahead
            cur = rig.session.current
            assert cur is not None
            await asyncio.wait_for(cur.done.wait(), 20)
            assert status(tid) == "completed"
            assert len(rig.browser.bookings) == 2
    asyncio.run(main())


def test_a_task_whose_runner_died_is_paused_within_seconds_and_pause_and_stop_always_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from heybro.store.lease import TaskLease, take_request

    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            # Three tasks the record calls running, whose hosts died (no lease held).
            dead = [rig.store.create_task(f"task {i}", status="executing").id for i in range(3)]
            await rig.session.check_leases()  # what every host does every LEASE_CHECK_S
            row = rig.store.get_task(dead[0])
            assert row is not None and row.status == "paused"
            assert row.reason == session_mod.RUNNER_DIED
            # … and the extension is told, so the panel shows what the record says.
            assert rig.statuses(dead[0]) == ["paused"]
            # Pause and Stop work on a task whatever state the record has it in.
            rig.store.set_status(dead[1], "executing")
            await rig.session.pause(dead[1])
            assert rig.status(dead[1]) == "paused"
            rig.store.set_status(dead[2], "verifying")
            await rig.session.stop(dead[2])
            assert rig.status(dead[2]) == "stopped"
            # A task another live host runs is left to it: that host is asked to pause it.
            other = rig.store.create_task("elsewhere", status="executing").id
            lease = TaskLease(other)
            assert lease.acquire()
            try:
                await rig.session.check_leases()
                assert rig.status(other) == "executing"
                await rig.session.pause(other)
                assert take_request(other) == "pause"
            finally:
                lease.release()
    asyncio.run(main())


def test_a_full_disk_pauses_the_task_saying_so_and_resume_writes_everything(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from support.session_rig import wait_thread

    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            rig.policy.hold.set()
            tid = (await rig.session.start(TaskStart(goal=GOAL, url="http://shop/"))).task_id
            await wait_thread(rig.policy.waiting)  # the model writes the reply that books
            conn = rig.store._conn  # the disk fills up: the file cannot grow by a page
            (pages,) = conn.execute("PRAGMA page_count").fetchone()
            conn.execute(f"PRAGMA max_page_count = {pages}")
            rig.policy.release.set()
            await until(lambda: "paused" in rig.statuses(tid), what="paused")
            why = f"heybro cannot write its record at {rig.store.path}: the disk is full"
            paused = [e for e in rig.channel.events(tid) if e.kind.value == "status"][-1]
            assert dump(paused.data) == {"status": "paused", "reason": why, "pause": "unwritable"}
            # The panel's catch-up (and the CLI's) read the same from the host.
            detail = rig.session.detail(tid)
            assert (detail.task.status, detail.task.reason) == ("paused", why)
            assert detail.history[-1].seq == rig.channel.events(tid)[-1].seq
            await asyncio.sleep(0.3)
            assert rig.statuses(tid)[-1] == "paused"  # it waits; nothing crashed
            # Resume while the disk is still full: it says so and stays paused.
            await rig.session.resume(tid)
            await until(lambda: "Still paused" in str(rig.messages(tid)[-1:]) or any(
                "Still paused" in str(e.data) for e in rig.channel.events(tid)), what="still")
            conn.execute("PRAGMA max_page_count = 1073741823")  # space again
            await rig.session.resume(tid)
            cur = rig.session.current
            assert cur is not None
            await asyncio.wait_for(cur.done.wait(), 20)
            assert rig.status(tid) == "completed"
            assert len(rig.browser.bookings) == 1
            # The record is whole: every event the panel was sent is stored, in the same order.
            sent = [(e.seq, e.kind.value) for e in rig.channel.events(tid)]
            stored = [(e.seq, e.kind) for e in rig.store.events(tid)]
            assert [s for s in stored if s[0] >= sent[0][0]] == sent
            assert any(e.data.get("reason") == why for e in rig.store.events(tid, kinds=["status"]))
    asyncio.run(main())
