"""A task's course in words the host, its store, the CLI and the extension share (the extension
reads them from the generated `extension/shared/vocabulary.js`): its status, the verifier's decision
on a subtask, and the kind of a tool a role calls."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


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


class Decision(StrEnum):
    """The verifier's decision on a subtask: the name of the move it leaves by (its transition
    tools are named from here)."""
    mark_complete = "mark_complete"  # done
    continue_work = "continue_work"  # back to the worker with a correction
    request_reschedule = "request_reschedule"  # the plan must change
    fail_task = "fail_task"  # the goal cannot be met: the task ends failed, with the reason


# What a tool is: plan and transition are the roles' own moves (the plan and the verdict already
# tell them); browser and tab act on pages; local runs in the host for the role (memory, the user,
# waiting); host: the host's own tools (calculate, fetch, the user's MCP tools).
ToolKind = Literal["plan", "transition", "browser", "tab", "local", "host"]
OWN_MOVES: frozenset[ToolKind] = frozenset({"plan", "transition"})
