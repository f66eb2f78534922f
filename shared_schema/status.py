"""A task's status: the one vocabulary the host, its store, the CLI and the extension share (the
extension reads it from the generated schema: `extension/lib/status.js`)."""

from __future__ import annotations

from enum import StrEnum


class TaskStatus(StrEnum):  # (a StrEnum reads as its word: f"{status}" is "paused")
    planning = "planning"
    executing = "executing"
    verifying = "verifying"
    correcting = "correcting"
    paused = "paused"
    waiting = "waiting"  # for the user's answer to a question heybro asked (not a failure)
    completed = "completed"
    failed = "failed"
    stopped = "stopped"

    @property
    def final(self) -> bool:
        return self in FINAL


FINAL = frozenset({TaskStatus.completed, TaskStatus.failed, TaskStatus.stopped})
# A status compares, and hashes, as its word ("paused" in FINAL): names and values are the same.
assert all(s.name == s.value for s in TaskStatus)
