"""Schema versions of the task store: several processes opening a fresh file at once (Chrome starts
a host per connection), and an upgrade from an older version with a next migration."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from heybro.store import TaskStore
from heybro.store.migrations import MIGRATIONS, migrate, statements

NEXT = """
    ALTER TABLE tasks ADD COLUMN note TEXT;
    CREATE TABLE notes (task_id TEXT NOT NULL, text TEXT NOT NULL);
    CREATE TRIGGER notes_no_delete BEFORE DELETE ON notes
        BEGIN SELECT RAISE(ABORT, 'notes stay'); END;
"""


def _open(path: str, barrier: multiprocessing.synchronize.Barrier, out: multiprocessing.Queue) -> None:  # type: ignore[name-defined]
    try:
        barrier.wait(10)
        store = TaskStore(Path(path))
        out.put(("ok", store.version))
        store.close()
    except BaseException as err:  # noqa: BLE001 - reported to the test
        out.put(("error", f"{type(err).__name__}: {err}"))


def test_three_processes_opening_a_fresh_file_at_once_all_succeed(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    failures: list[str] = []
    for run in range(20):
        path = tmp_path / f"run{run}.sqlite3"
        barrier, out = ctx.Barrier(3), ctx.Queue()
        procs = [ctx.Process(target=_open, args=(str(path), barrier, out)) for _ in range(3)]
        for p in procs:
            p.start()
        results = [out.get(timeout=30) for _ in procs]
        for p in procs:
            p.join(30)
        failures += [f"run {run}: {msg}" for kind, msg in results if kind != "ok"]
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert failures == []


def test_an_older_store_is_upgraded_in_place_and_keeps_its_tasks(tmp_path: Path) -> None:
    path = tmp_path / "tasks.sqlite3"
    old = TaskStore(path)
    task = old.create_task("Buy a kettle")
    old.set_status(task.id, "paused", "interrupted")
    old.close()
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, [*MIGRATIONS, NEXT]) == len(MIGRATIONS) + 1
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1
    assert conn.execute("SELECT goal, status, note FROM tasks").fetchall() == [
        ("Buy a kettle", "paused", None)]
    assert [r[0] for r in conn.execute("SELECT kind FROM events ORDER BY seq")] == [
        "status", "status"]
    conn.execute("INSERT INTO notes VALUES (?, 'n')", (task.id,))
    with pytest.raises(sqlite3.IntegrityError, match="notes stay"):
        conn.execute("DELETE FROM notes")
    # Running it again finds nothing to do.
    assert migrate(conn, [*MIGRATIONS, NEXT]) == len(MIGRATIONS) + 1
    conn.close()


def test_a_failing_migration_leaves_the_store_at_the_version_before(tmp_path: Path) -> None:
    path = tmp_path / "tasks.sqlite3"
    TaskStore(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    broken = "ALTER TABLE tasks ADD COLUMN note TEXT;\nCREATE TABLE tasks (id TEXT);"
    with pytest.raises(sqlite3.OperationalError, match="already exists"):
        migrate(conn, [*MIGRATIONS, broken])
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    columns = [r[1] for r in conn.execute("PRAGMA table_info(tasks)")]
    assert "note" not in columns
    conn.close()


def test_a_newer_store_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "tasks.sqlite3"
    TaskStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    with pytest.raises(RuntimeError, match="newer than this heybro"):
        TaskStore(path)


def test_statements_keep_a_trigger_body_whole() -> None:
    parts = statements(NEXT)
    assert len(parts) == 3 and parts[2].startswith("CREATE TRIGGER") and parts[2].endswith("END;")
