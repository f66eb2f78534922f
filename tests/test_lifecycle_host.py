"""Pause, resume, stop and follow-ups in the host's Session, with the semantics a person relies on:
a message never resumes a paused task and never lets a held reply act; pause and stop say so at
once; stop does not wait for the model; pauses do not count towards the time limit; one task at a
time, paused ones included."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from shared_schema import ProtocolError
from shared_schema.messages import TaskStart

from support.scripted_llm import call
from support.session_rig import HOLD_OFF, SessionRig, session_rig, until, wait_thread

GOAL = "Book the blue kettle for Ann (ann@x.io)"
STOP_WORDS = f"Actually {HOLD_OFF}, just stop at the booking form"


async def start(rig: SessionRig) -> str:
    accepted = await rig.session.start(TaskStart(goal=GOAL, url="http://shop/"))
    return accepted.task_id


async def finished(rig: SessionRig) -> None:
    cur = rig.session.current
    assert cur is not None
    await asyncio.wait_for(cur.done.wait(), 20)


async def start_held(rig: SessionRig) -> str:
    """Starts the task and returns once the model is writing a reply that is held until released."""
    rig.policy.hold.set()
    tid = await start(rig)
    await wait_thread(rig.policy.waiting)
    return tid


async def pause_as_the_reply_arrives(rig: SessionRig, tid: str) -> None:
    """Pauses while the reply is held, lets the reply arrive after the pause, waits for paused."""
    await rig.session.pause(tid)
    rig.policy.release.set()
    await until(lambda: rig.status(tid) == "paused", what="paused")


def test_message_while_paused_does_not_resume_and_the_held_reply_never_acts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start_held(rig)  # the reply that books is being written ...
            await pause_as_the_reply_arrives(rig, tid)  # ... and arrives after the pause: kept, not acted on
            await rig.session.message(tid, STOP_WORDS)
            await asyncio.sleep(0.5)
            assert rig.status(tid) == "paused", "a message must not resume a paused task"
            assert rig.browser.bookings == []
            said = rig.messages(tid)
            assert any(m.get("who") == "user" and m["text"] == STOP_WORDS for m in said)
            assert any("stays paused" in m["text"] for m in said)
            await rig.session.resume(tid)
            await finished(rig)
            assert rig.status(tid) == "completed"
            assert rig.browser.bookings == []
            # The planner heard it before any further action, and the held actions are named.
            assert any(STOP_WORDS in c for c in rig.policy.scheduler_calls[1:])
            assert not [t for t, a in rig.browser.calls if t in ("fill", "click")
                        and a.get("element_id") == "e3"]
            assert any("set aside" in m["text"].lower() and 'button "Book"' in m["text"]
                       for m in rig.messages(tid))
    asyncio.run(main())


def test_message_while_running_reaches_the_planner_before_the_held_reply_acts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start_held(rig)
            await rig.session.message(tid, STOP_WORDS)
            rig.policy.release.set()
            await finished(rig)
            assert rig.status(tid) == "completed"
            assert rig.browser.bookings == []
            assert any(f"The user added: {STOP_WORDS}" in c for c in rig.policy.scheduler_calls)
    asyncio.run(main())


def test_pause_then_resume_sets_the_late_reply_aside_and_asks_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start_held(rig)
            asked = rig.policy.worker_calls
            await rig.session.pause(tid)
            # Said at once, before the model has answered.
            assert "pausing" in rig.controls(tid)
            assert rig.status(tid) != "paused"
            rig.policy.release.set()
            await until(lambda: rig.status(tid) == "paused", what="paused")
            await asyncio.sleep(0.3)
            assert rig.browser.bookings == []
            await rig.session.resume(tid)
            await finished(rig)
            assert rig.status(tid) == "completed"
            assert len(rig.browser.bookings) == 1  # booked once, by a reply asked for after resume
            assert rig.policy.worker_calls > asked + 1
            assert any("not acted on" in m["text"] for m in rig.messages(tid))
    asyncio.run(main())


def test_resume_before_the_pause_took_effect_just_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start_held(rig)
            await rig.session.pause(tid)
            await rig.session.resume(tid)
            assert rig.controls(tid) == [
                "pausing", "resume"]
            rig.policy.release.set()
            await finished(rig)
            assert "paused" not in rig.statuses(tid)
            assert len(rig.browser.bookings) == 1
    asyncio.run(main())


def test_stop_cancels_the_model_call_and_ends_the_task_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start_held(rig)  # the model is writing; it will not finish
            began = time.monotonic()
            await rig.session.stop(tid)
            assert "stopping" in rig.controls(tid)
            await finished(rig)
            took = time.monotonic() - began
            assert took < 2.0, f"stop waited {took:.1f} s for the model"
            assert rig.status(tid) == "stopped"
            assert rig.statuses(tid)[-1] == "stopped"
            assert rig.browser.bookings == []
            assert not rig.policy.release.is_set()
    asyncio.run(main())


def test_stop_ends_a_wait_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            waits: list[str] = []

            def worker(body: dict) -> object:  # type: ignore[type-arg]
                waits.append("asked")
                return call("wait", seconds=30)
            rig.llm.default["worker"] = worker
            tid = await start(rig)
            await until(lambda: bool(waits) and "executing" in rig.statuses(tid), what="the wait")
            await asyncio.sleep(0.3)  # well inside the 30 s wait
            began = time.monotonic()
            await rig.session.stop(tid)
            await finished(rig)
            took = time.monotonic() - began
            assert took < 2.0, f"stop waited {took:.1f} s for the wait to end"
            assert rig.status(tid) == "stopped"
    asyncio.run(main())


def test_stop_while_paused_ends_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start_held(rig)
            await pause_as_the_reply_arrives(rig, tid)
            await rig.session.stop(tid)
            await finished(rig)
            assert rig.status(tid) == "stopped" and rig.browser.bookings == []
    asyncio.run(main())


def test_time_paused_does_not_count_towards_the_time_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch, env={"HEYBRO_TASK_TIMEOUT": "2"}) as rig:
            tid = await start_held(rig)
            await pause_as_the_reply_arrives(rig, tid)
            await asyncio.sleep(3)  # longer than the whole limit
            assert rig.status(tid) == "paused"
            await rig.session.resume(tid)
            await finished(rig)
            row = rig.store.get_task(tid)
            assert row is not None and row.status == "completed", row.reason
    asyncio.run(main())


def test_the_time_limit_still_ends_a_task_that_runs_too_long(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch, env={"HEYBRO_TASK_TIMEOUT": "1"}) as rig:
            rig.policy.delay_s = 0.4
            tid = await start(rig)
            await finished(rig)
            row = rig.store.get_task(tid)
            assert row is not None and row.status == "failed"
            assert "task_timeout" in (row.reason or "")
    asyncio.run(main())


def test_a_task_paused_by_a_crash_blocks_a_new_start_and_says_how_to_go_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            old = rig.store.create_task("Order the red kettle", url="http://shop/")
            rig.store.checkpoint(old.id, {"id": old.id, "description": old.goal,
                                          "url": "http://shop/"})
            # The host that ran it died: the next host finds it active, unowned.
            with pytest.raises(ProtocolError) as refused:
                await start(rig)
            err = refused.value
            assert err.code.value == "busy"
            assert "Order the red kettle" in str(err) and old.id in str(err)
            assert "resume it or stop it" in str(err).lower()
            assert rig.status(old.id) == "paused"
            # A message to it is kept and shown, and does not resume it either.
            await rig.session.message(old.id, STOP_WORDS)
            assert rig.status(old.id) == "paused" and rig.session.current is None
            said = [e.data for e in rig.store.events(old.id, kinds=["message"])]
            assert any(d.get("who") == "user" and d["text"] == STOP_WORDS for d in said)
            # Once it is stopped, a new task may start.
            await rig.session.stop(old.id)
            tid = await start(rig)
            await finished(rig)
            assert rig.status(tid) == "completed"
    asyncio.run(main())


def test_a_second_start_while_one_is_paused_here_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start_held(rig)
            await pause_as_the_reply_arrives(rig, tid)
            with pytest.raises(ProtocolError) as refused:
                await start(rig)
            assert "is paused" in str(refused.value) and GOAL in str(refused.value)
            await rig.session.stop(tid)
            await finished(rig)
    asyncio.run(main())


def test_resuming_a_crash_paused_task_hands_the_waiting_message_to_the_planner(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start_held(rig)
            await rig.session.shutdown("the browser disconnected")  # as when Chrome goes away
            rig.policy.release.set()
            assert rig.status(tid) == "paused"
            await rig.session.message(tid, STOP_WORDS)
            assert rig.status(tid) == "paused"
            before = len(rig.policy.scheduler_calls)
            await rig.session.resume(tid)
            await finished(rig)
            assert rig.status(tid) == "completed" and rig.browser.bookings == []
            assert any(STOP_WORDS in c for c in rig.policy.scheduler_calls[before:])
    asyncio.run(main())


def test_the_history_holds_what_each_action_did(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        with session_rig(tmp_path, monkeypatch) as rig:
            tid = await start(rig)
            await finished(rig)
            results = [e.data for e in rig.store.events(tid, kinds=["tool_result"])]
            fill = next(r for r in results if r["tool"] == "fill")
            assert fill["result"]["value"] == "kettle" and fill["target"] == 'input "Search"'
            click = [r for r in results if r["tool"] == "click"][-1]
            assert click["success"] is True and click["target"] == 'button "Book"'
            assert click["result"]["url"].startswith("http://shop/") and click["result"]["found_by"]
    asyncio.run(main())


def test_a_large_tool_result_is_kept_bounded() -> None:
    from heybro.agent.recorder import RESULT_CHARS, bounded_result

    small = {"url": "http://shop/", "value": "Ann"}
    assert bounded_result(small) is small
    big = bounded_result({"url": "http://shop/", "text": "x" * 50_000, "n": 3})
    assert big["url"] == "http://shop/" and big["n"] == 3 and big["text"].endswith("…")
    import json
    assert len(json.dumps(big)) < RESULT_CHARS + 200
    assert len(bounded_result(["y" * 9000])) <= RESULT_CHARS + 1


def test_a_resume_note_sends_the_users_words_to_the_planner_and_a_fault_to_the_worker() -> None:
    from heybro.agent.models import ResumeNote

    cut = ResumeNote(why="heybro was interrupted (the browser closed) and is continuing.")
    assert not cut.replan and cut.text() == cut.why
    said = ResumeNote(why=cut.why, user_said=["for three", "at 8"])
    assert said.replan
    assert said.text() == "The user added: for three / at 8\n(" + str(cut.why) + ")"
    assert ResumeNote(user_said=["for three"]).text() == "The user added: for three"
