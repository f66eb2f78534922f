"""The executor's next step, as a closed union: each step carries what it needs and nothing is left
in loose variables between them.

    Plan(reason)                     the scheduler (re)plans, told why
    Work(correction, attempts, plan) the current subtask's role works it (again, with a correction)
    Verify(cycle, attempts)          the host or the verifier judges what the cycle did
    Done(reason, failed)             every subtask is achieved — or the planner or the verifier
                                     judged the goal cannot be met (failed, with the reason)
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import ExecutionCycle, RoleResult


@dataclass(frozen=True)
class Plan:
    reason: str | None = None  # why (re)plan: a verdict, a failed subtask, what the user added


@dataclass(frozen=True)
class Work:
    correction: str | None = None  # what the verifier (or a resume) asks to do differently
    attempts: int = 0  # cycles already spent on this subtask
    plan: RoleResult | None = None  # the scheduler's run that led here, kept with the cycle


@dataclass(frozen=True)
class Verify:
    cycle: ExecutionCycle
    attempts: int  # cycles spent on this subtask, this one included


@dataclass(frozen=True)
class Done:
    reason: str  # what the user reads: how the goal was met, or why it cannot be
    failed: bool = False  # the goal is not met: the task ends failed


Next = Plan | Work | Verify | Done


def note_of(step: Next) -> str | None:
    """What the step was to tell its role (kept when the user's new words replace the step)."""
    if isinstance(step, Plan):
        return step.reason
    if isinstance(step, Work):
        return step.correction
    return None
