"""Which host process owns a running task: an OS file lock held for as long as the task runs.

A crashed host's locks vanish with it, so a host can tell the tasks that were cut off (no lock)
from tasks another live host is still running (locked) — Chrome starts one host per connection,
and a user may run several browsers. Every host checks this every few seconds, so a task whose
runner died is paused with the reason within seconds. A host asked to pause or stop a task that
another live host runs leaves the request beside the lock, and the owner carries it out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from .. import paths

try:
    import fcntl
except ImportError:  # Windows: no advisory locks here; every task counts as unowned
    fcntl = None  # type: ignore[assignment]


def _path(task_id: str, suffix: str = ".lock") -> Path:
    d = paths.private_dir(paths.state_dir() / "leases")
    return d / f"{task_id}{suffix}"


Request = Literal["pause", "stop"]


def ask_owner(task_id: str, what: Request) -> None:
    """Leaves a pause or stop request for the host that owns the task (a stop outranks a pause)."""
    path = _path(task_id, ".request")
    if what == "pause" and path.exists() and path.read_text() == "stop":
        return
    paths.write_private(path, what)


def take_request(task_id: str) -> Request | None:
    """The request left for this task, if any (taken: it is carried out once)."""
    path = _path(task_id, ".request")
    try:
        what = path.read_text().strip()
        path.unlink()
    except OSError:
        return None
    return "stop" if what == "stop" else "pause" if what == "pause" else None


class TaskLease:
    def __init__(self, task_id: str) -> None:
        self.task_id = task_id
        self._fd: int | None = None

    def acquire(self) -> bool:
        fd = os.open(_path(self.task_id), os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the lock
            self._fd = None
            _path(self.task_id).unlink(missing_ok=True)


def is_owned(task_id: str) -> bool:
    """True while some live process holds the task's lease."""
    if fcntl is None:
        return False
    path = _path(task_id)
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False
