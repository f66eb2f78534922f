"""The task store failing is a state a person can act on: the reason in words with the path, a
damaged file moved aside (never silently replaced), and `heybro doctor` saying all of it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from heybro.store import StoreUnwritable, TaskStore
from heybro.store.doctor_check import check_store


def test_a_locked_store_fails_in_words_keeps_the_write_and_writes_it_once_free(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("heybro.store.task_store.BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "tasks.sqlite3"
    store = TaskStore(path)
    tid = store.create_task("goal").id
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    with pytest.raises(StoreUnwritable) as err:
        store.append(tid, "message", {"text": "one"})
    assert str(err.value) == f"heybro cannot write its record at {path}: another program holds it locked"
    with pytest.raises(StoreUnwritable):  # later writes queue behind it, in order
        store.append(tid, "message", {"text": "two"})
    assert store.pending_seq(tid) == 2
    checks = list(check_store(path))
    assert any(not c.ok and "locked" in c.what for c in checks), checks
    other.execute("ROLLBACK")
    store.flush()
    assert [e.data.get("text") for e in store.events(tid)][1:] == ["one", "two"]
    assert store.failure is None
    assert all(c.ok for c in check_store(path)), list(check_store(path))


def test_a_damaged_store_is_moved_aside_and_doctor_says_where(tmp_path: Path) -> None:
    path = tmp_path / "tasks.sqlite3"
    path.write_bytes(b"this is not a database, it was overwritten" * 100)
    store = TaskStore(path)
    assert store.moved_aside is not None and store.moved_aside.exists()
    assert store.moved_aside.read_bytes().startswith(b"this is not a database")
    assert store.create_task("works again").goal == "works again"
    checks = list(check_store(path))
    assert any(c.warn and str(store.moved_aside) in c.what for c in checks), checks


def test_doctor_fails_when_the_store_folder_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    checks = list(check_store(blocker / "tasks.sqlite3"))
    assert len(checks) == 1 and not checks[0].ok and "cannot be written" in checks[0].what
