"""Everything heybro keeps on disk is its user's alone (goals, typed values, page text, the key):
folders 0700 and files 0600 — the task store with its WAL and shared-memory files, the logs (the
rotated ones too), leases, exports — and an older install's looser folders and files are tightened
when heybro opens them."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from heybro import logs, paths
from heybro.store import lease
from heybro.store.task_store import TaskStore

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes")


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_the_store_logs_and_exports_are_readable_by_their_user_alone(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HEYBRO_HOME", str(home))
    monkeypatch.delenv("HEYBRO_DB", raising=False)
    monkeypatch.setattr(logs, "_configured", None)
    store = TaskStore()
    task = store.create_task("Pay the rent to account 12345678").id
    store.append(task, "message", {"text": "typed: hunter2"})
    db = store.path
    assert db.with_name(db.name + "-wal").exists()
    target = logs.setup("test.log")
    logging.getLogger("heybro.test").warning("a goal that is nobody else's business")
    lease.ask_owner(task, "pause")
    export = tmp_path / "routine_test.py"
    paths.write_private(export, "# a routine's steps")
    store.close()
    files = [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"), Path(str(target.path)),
             *Path(paths.state_dir() / "leases").iterdir(), export]
    assert {str(f): oct(mode(f)) for f in files if f.exists()} == {str(f): "0o600" for f in files if f.exists()}
    folders = [home, paths.data_dir(), paths.log_dir(), paths.state_dir(), paths.state_dir() / "leases"]
    assert {str(d): oct(mode(d)) for d in folders} == {str(d): "0o700" for d in folders}


def test_an_older_installs_open_files_are_tightened(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HEYBRO_HOME", str(home))
    monkeypatch.delenv("HEYBRO_DB", raising=False)
    data = home / "data"
    data.mkdir(parents=True)
    os.chmod(home, 0o755)
    os.chmod(data, 0o755)
    TaskStore().close()  # made as an older heybro made it
    db = data / "tasks.sqlite3"
    os.chmod(db, 0o644)
    store = TaskStore()
    store.create_task("goal")
    store.close()
    assert (oct(mode(home)), oct(mode(data)), oct(mode(db))) == ("0o700", "0o700", "0o600")


def test_heybros_folders_are_private_where_the_system_keeps_them_too(tmp_path: Path, monkeypatch) -> None:
    """Without $HEYBRO_HOME, heybro's folders under the XDG ones (not those folders themselves)."""
    monkeypatch.delenv("HEYBRO_HOME", raising=False)
    monkeypatch.delenv("HEYBRO_DB", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    lease.ask_owner("t1", "stop")
    TaskStore().close()
    assert oct(mode(paths.state_dir())) == "0o700" and oct(mode(paths.data_dir())) == "0o700"
    assert oct(mode(tmp_path / "state")) == oct(0o777 & ~_umask())


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
