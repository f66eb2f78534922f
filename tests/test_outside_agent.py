"""An outside agent's task in the host's session (what `heybro mcp` asks for), over the in-memory
shop and a real SQLite store: its calls run in order through the worker's act path, with no
model; the one-task policy holds for it; it ends when the agent is done, gone or silent, and a
host restart never leaves it running calls nobody sends."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from shared_schema import ProtocolError
from shared_schema.messages import TaskStart
from shared_schema.outside import OutsideAct, OutsideOpen

from heybro.outside import run as outside_executor
from heybro.session import Session
from heybro.store import TaskStore
from support.fake_browser import FakeBrowser, shop
from support.session_rig import FakeChannel


def session_over(tmp_path: Path, browser: FakeBrowser) -> tuple[Session, TaskStore]:
    store = TaskStore(tmp_path / "tasks.db")
    return Session(FakeChannel(), store, lambda channel, task_id: browser), store  # type: ignore[arg-type]


async def settled(session: Session, task_id: str) -> str:
    cur = session.current
    assert cur is not None and cur.task.id == task_id
    await asyncio.wait_for(cur.done.wait(), 10)
    row = session.store.get_task(task_id)
    assert row is not None
    return row.status


def test_calls_run_in_order_without_a_model_and_the_task_ends_when_the_agent_closes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("HEYBRO_LLM_BASE_URL", "HEYBRO_MODEL", "HEYBRO_LLM_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))  # no config file: no model at all
    browser = shop()

    async def main() -> None:
        session, store = session_over(tmp_path, browser)
        opened = await session.outside.open(session, OutsideOpen(client="Cursor"), None)
        tid = opened.task_id

        def act(tool: str, **params: object) -> OutsideAct:
            return OutsideAct(task_id=tid, tool=tool, parameters=params)

        # No tab yet: nothing reaches the browser, not even a look.
        first = await session.outside.act(session, act("observe"))
        assert first.error_code == "no_tab" and browser.calls == []
        moved = await session.outside.act(session, act("navigate", url="http://shop.test/"))
        assert moved.success and moved.page_changed
        page = await session.outside.act(session, act("observe"))
        assert page.success and page.page and "PAGE (untrusted content" in page.page
        bad = await session.outside.act(session, act("click", element_id="e999"))
        assert bad.error_code == "invalid_arguments" and "not on the current page" in bad.error
        unknown = await session.outside.act(session, act("mark_done", summary="x"))
        assert unknown.error_code == "unknown_tool"
        # One task at a time: the user's own task is refused while the agent's runs.
        with pytest.raises(ProtocolError) as busy:
            await session.start(TaskStart(goal="Something else"))
        assert busy.value.code.value == "busy"
        await session.outside.close(session, tid)
        assert await settled(session, tid) == "completed"
        after = await session.outside.act(session, act("observe"))
        assert after.error_code == "ended" and after.status == "completed"
        row = store.get_task(tid)
        assert row is not None and row.goal.startswith("Cursor acting in your browser")
        assert row.llm_calls == 0
        events = store.events(tid)
        # Each call is in the record: run ones as actions (the look too), refused ones in words.
        assert [e.data["tool"] for e in events if e.kind == "tool_call"] == ["navigate", "observe"]
        refused = [e.data["text"] for e in events if e.kind == "message"
                   and "was not run" in e.data["text"]]
        assert len(refused) == 3 and "Cursor's click was not run" in refused[1]

    asyncio.run(main())


def test_a_silent_agent_frees_the_one_task_slot(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(outside_executor, "IDLE_S", 0.6)

    async def main() -> None:
        session, store = session_over(tmp_path, shop())
        tid = (await session.outside.open(session, OutsideOpen(client="A script"), None)).task_id
        assert await settled(session, tid) == "completed"
        row = store.get_task(tid)
        assert row is not None and "sent nothing for" in (row.reason or "")

    asyncio.run(main())


def test_the_connection_closing_ends_the_agents_task(tmp_path: Path) -> None:
    async def main() -> None:
        session, _ = session_over(tmp_path, shop())

        async def listener(event: dict) -> None:
            pass

        tid = (await session.outside.open(session, OutsideOpen(), listener)).task_id
        await session.caller_gone(listener)
        assert await settled(session, tid) == "completed"

    asyncio.run(main())


def test_resumed_after_a_host_restart_it_ends_rather_than_waiting_for_calls(tmp_path: Path) -> None:
    async def main() -> None:
        browser = shop()
        session, store = session_over(tmp_path, browser)
        tid = (await session.outside.open(session, OutsideOpen(client="Claude"), None)).task_id
        await session.outside.act(session, OutsideAct(task_id=tid, tool="navigate",
                                                      parameters={"url": "http://shop.test/"}))
        await session.shutdown("the browser closed")  # the host dies: the task is paused
        assert store.get_task(tid).status == "paused"  # type: ignore[union-attr]
        later, _ = session_over(tmp_path, browser)
        await later.resume(tid)  # no model is needed, and no call will ever come
        cur = later.current
        assert cur is not None
        await asyncio.wait_for(cur.done.wait(), 10)
        row = store.get_task(tid)
        assert row is not None and row.status == "completed"
        assert "connection ended with the heybro host" in (row.reason or "")

    asyncio.run(main())
