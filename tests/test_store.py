"""The task store: a real SQLite file, append-only history, resume state, crash recovery."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
from pathlib import Path

import pytest

from heybro.store import TaskStore
from heybro.store.migrations import MIGRATIONS


@pytest.fixture
def store(tmp_path: Path) -> TaskStore:
    return TaskStore(tmp_path / "tasks.sqlite3")


def test_task_history_is_kept_in_order(store: TaskStore) -> None:
    t = store.create_task("Buy a kettle", url="http://127.0.0.1/shop", resources={"a.pdf": "/x/a.pdf"})
    assert t.status == "planning" and t.resources == {"a.pdf": "/x/a.pdf"}
    store.append(t.id, "plan", {"subtasks": ["search", "buy"]})
    store.set_status(t.id, "executing")
    store.append(t.id, "tool_call", {"tool": "click", "parameters": {"element_id": "e3"}})
    store.add_usage(t.id, prompt_tokens=900, completion_tokens=40, cost_usd=0.001)
    events = store.events(t.id)
    assert [e.kind for e in events] == ["status", "plan", "status", "tool_call"]
    assert [e.seq for e in events] == [0, 1, 2, 3]
    assert store.events(t.id, after=1, kinds=["status"])[0].data["status"] == "executing"
    row = store.get_task(t.id)
    assert row and row.status == "executing" and row.prompt_tokens == 900 and row.llm_calls == 1


def test_history_cannot_be_rewritten(store: TaskStore, tmp_path: Path) -> None:
    t = store.create_task("x")
    raw = sqlite3.connect(tmp_path / "tasks.sqlite3")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute("UPDATE events SET kind = 'forged'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute("DELETE FROM events")
    raw.close()
    assert store.events(t.id)[0].kind == "status"


def test_checkpoint_round_trip_and_listing(store: TaskStore) -> None:
    a = store.create_task("first")
    b = store.create_task("second")
    store.checkpoint(a.id, {"subtasks": ["s1"], "current_subtask_index": 0})
    store.checkpoint(a.id, {"subtasks": ["s1", "s2"], "current_subtask_index": 1})
    assert store.load_checkpoint(a.id) == {"subtasks": ["s1", "s2"], "current_subtask_index": 1}
    assert store.load_checkpoint(b.id) is None
    assert [t.goal for t in store.list_tasks()] == ["second", "first"]


def test_wal_file_survives_a_killed_writer(tmp_path: Path) -> None:
    path = tmp_path / "tasks.sqlite3"
    ready = multiprocessing.Event()

    def writer() -> None:
        s = TaskStore(path)
        t = s.create_task("long task")
        s.set_status(t.id, "executing")
        for i in range(5):
            s.append(t.id, "iteration", {"i": i})
        ready.set()
        while True:  # keeps writing until killed
            s.append(t.id, "iteration", {"i": "more"})

    proc = multiprocessing.get_context("fork").Process(target=writer)
    proc.start()
    assert ready.wait(20)
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    s = TaskStore(path)
    [t] = s.list_tasks()
    assert len(s.events(t.id)) >= 7  # everything committed before the kill is there
    assert s.pause_interrupted() == [t.id]
    after = s.get_task(t.id)
    assert after and after.status == "paused" and "restarted" in (after.reason or "")


def test_action_ledger_marks_interrupted_actions(store: TaskStore) -> None:
    t = store.create_task("order")
    store.set_status(t.id, "executing")
    store.action_started(t.id, "c1-i1-a0", "click", {"element_id": "e1"})
    store.action_finished(t.id, "c1-i1-a0", True, {"url": "/cart"})
    store.action_started(t.id, "c1-i2-a0", "click", {"element_id": "e9"})  # host dies here
    store.pause_interrupted()
    states = {a.key: a.state for a in store.actions(t.id)}
    assert states == {"c1-i1-a0": "done", "c1-i2-a0": "interrupted"}


def test_reopening_migrates_once_and_refuses_a_newer_file(tmp_path: Path) -> None:
    path = tmp_path / "tasks.sqlite3"
    assert TaskStore(path).version == len(MIGRATIONS)
    assert TaskStore(path).version == len(MIGRATIONS)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    raw.close()
    with pytest.raises(RuntimeError, match="update heybro"):
        TaskStore(path)


def test_wal_mode_is_on(store: TaskStore, tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "tasks.sqlite3")
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_cost_estimates_follow_the_price_table() -> None:
    from heybro.llm.pricing import cost_usd, price_of
    assert price_of("gpt-4o-mini-2024-07-18") == (0.15, 0.60)  # dated names match their family
    assert price_of("gpt-4o-2024-08-06") == (2.50, 10.00)
    assert cost_usd("gpt-4o-mini", 1_000_000, 0) == pytest.approx(0.15)
    assert cost_usd("qwen2.5:7b", 5000, 500) == 0.0  # unknown: not guessed
    assert cost_usd("gpt-4o", 1000, 100, base_url="http://localhost:11434/v1") == 0.0
    assert cost_usd("my-model", 1_000_000, 1_000_000, {"my-model": [1.0, 2.0]},
                    "http://localhost:8000/v1") == pytest.approx(3.0)


def test_default_location_is_overridable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from heybro.store import default_path
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEYBRO_DB", raising=False)
    assert default_path() == tmp_path / "home" / "data" / "tasks.sqlite3"
    monkeypatch.setenv("HEYBRO_DB", str(tmp_path / "elsewhere.db"))
    assert default_path() == tmp_path / "elsewhere.db"
