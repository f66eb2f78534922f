"""A task's course in words the host, its store, the CLI and the extension share (the extension
reads them from the generated `extension/shared/vocabulary.js`): its status and what each status
means, why a paused task is paused, the verifier's decision on a subtask, and the kind of a tool a
role calls.

A status's meaning is written here once, in `MEANING`, and read everywhere else: whether the task
has ended (`final`), whether heybro is at work on it (`running`), whether it waits for the person
(`awaits_user`), the word a person sees (`label`) and what heybro is busy with while no action is
shown (`busy`). A new status is one member of `TaskStatus` and its `Meaning` here; every view and
rule reads them, so nothing else changes by hand (the extension's copy is generated).
"""

from __future__ import annotations

from dataclasses import dataclass
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
    def meaning(self) -> Meaning:
        return MEANING[self]

    @property
    def final(self) -> bool:
        return MEANING[self].final

    @property
    def running(self) -> bool:
        return MEANING[self].running


# What a person is told when a task reaches the status: it finished, it failed, or it needs them.
Notice = Literal["completed", "failed", "needs_you"]


@dataclass(frozen=True)
class Meaning:
    """What a status says of its task."""
    label: str  # the word a person sees for it (the panel's badge, the popup, the task lists)
    final: bool = False  # the task has ended: nothing more happens to it
    running: bool = False  # heybro is at work on it (planning, acting, checking)
    awaits_user: bool = False  # it waits for the person: their answer, or their word to go on
    resumable: bool = False  # Resume continues it (and a new task may not start beside it)
    busy: str = ""  # what heybro is busy with, said while no action of its own is shown
    notice: Notice | None = None  # what the person is told when the task reaches it


MEANING: dict[TaskStatus, Meaning] = {
    TaskStatus.planning: Meaning("Planning", running=True, busy="Planning the steps…"),
    TaskStatus.executing: Meaning("Working", running=True),
    TaskStatus.verifying: Meaning("Checking its work", running=True, busy="Checking its work…"),
    TaskStatus.correcting: Meaning("Correcting", running=True),
    TaskStatus.paused: Meaning("Paused", resumable=True),
    TaskStatus.waiting: Meaning("Waiting for you", awaits_user=True, notice="needs_you"),
    TaskStatus.completed: Meaning("Completed", final=True, notice="completed"),
    TaskStatus.failed: Meaning("Failed", final=True, notice="failed"),
    TaskStatus.stopped: Meaning("Stopped", final=True),
}
assert set(MEANING) == set(TaskStatus), "every status says what it means"
assert all(not (m.final and (m.running or m.resumable)) for m in MEANING.values())

FINAL = frozenset(s for s in TaskStatus if s.final)
RUNNING = frozenset(s for s in TaskStatus if s.running)
# A status compares, and hashes, as its word ("paused" in FINAL): names and values are the same.
assert all(s.name == s.value for s in TaskStatus)


class Pause(StrEnum):
    """Why a paused task is paused (a status event's `pause`): who it waits for and what they can
    do. Read from here, never from the words of the reason."""
    asked = "asked"  # the person paused it: nothing to tell them
    cut_off = "cut_off"  # a fault (the host, the browser side) cut it off: Resume goes on
    held = "held"  # heybro holds an action a fault cut off, which may have happened: Resume lets it go ahead
    unwritable = "unwritable"  # heybro cannot write its record: Resume once that is fixed

    @property
    def meaning(self) -> PauseMeaning:
        return PAUSE_MEANING[self]


@dataclass(frozen=True)
class PauseMeaning:
    awaits_user: bool  # the person is needed to go on (they are told)
    advice: str  # what they can do about it
    asks: bool = False  # heybro asks them a question (the run's stream shows it as one)


PAUSE_MEANING: dict[Pause, PauseMeaning] = {
    Pause.asked: PauseMeaning(False, "Press Resume to continue from where it stopped."),
    Pause.cut_off: PauseMeaning(True, "Press Resume to continue from where it stopped."),
    Pause.held: PauseMeaning(True, "Resume lets heybro do it again; Stop ends the task.", asks=True),
    Pause.unwritable: PauseMeaning(True, "Fix that (free some space, make the folder writable, close "
                                   "what locks it), then press Resume: nothing is lost meanwhile."),
}
assert set(PAUSE_MEANING) == set(Pause)


def meaning_of(word: str | None) -> Meaning | None:
    """The meaning of a status's word, None for a word that is not one (an older or newer
    record's)."""
    return MEANING.get(TaskStatus(word)) if word in _WORDS else None


_WORDS = frozenset(s.value for s in TaskStatus)


def awaits_user(status: str, pause: str | None = None) -> bool:
    """Whether a task in `status` (paused for `pause`) waits for the person."""
    if status == TaskStatus.paused and pause:
        return PAUSE_MEANING[Pause(pause)].awaits_user
    return MEANING[TaskStatus(status)].awaits_user


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
