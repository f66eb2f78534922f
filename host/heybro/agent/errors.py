"""The errors that end or redirect the agent's run, drawn once. The executor turns each into the
task's next state; nothing else catches them.

    TaskStopped          the user stopped the task                      → stopped
    GuardrailHit         a limit was reached (steps, LLM calls, time …) → failed, with the limit
    Interrupted          the step in progress must not go on as planned → the executor decides
      NewInformation       the user said something new                  → the scheduler replans
      HeldReplySetAside    a reply held through a pause                 → the step runs again
    RepeatHeld           an action a fault cut off was proposed again   → paused, for the user
    BrowserLost          the browser side went away mid-call            → paused (never retried)
    ToolFailed           a tool answered with a typed error (heybro.tool_def.errors)
                                                                        → the role works around it;
                         one the executor meets itself (reopening a tab) fails the task

From elsewhere: heybro.llm.LLMError (the model cannot be reached: failed) and
heybro.store.errors.StoreUnwritable (the record cannot be written: the session pauses the task).
"""

from __future__ import annotations

from typing import Any

from ..tool_def.errors import ToolFailed
from .cutoff import RepeatHeld


class BrowserLost(Exception):
    """The browser side went away (the native channel closed, or it stopped answering) while a
    call was in flight or about to go out. What that call did is unknown — a click may have placed
    an order — so it is never retried: the run ends and the task pauses with the call named, and
    on resume the worker is told and looks at the page first."""

    def __init__(self, tool: str, why: str, *, sent: bool = True) -> None:
        super().__init__(why)
        self.tool = tool
        self.why = why
        self.sent = sent  # False: it never left, so it surely did not happen
        self.what = tool  # the worker names the action by its element when it knows it

    def __str__(self) -> str:
        if not self.sent:
            return f"{self.why} before {self.what} was sent (it was not done)"
        return f"{self.why} while {self.what} was in flight"


class TaskStopped(Exception):
    """The user stopped the task."""


class GuardrailHit(Exception):
    """A limit was reached; the task fails with this message."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit


class Interrupted(Exception):
    """The step in progress must not go on as planned; the executor decides what comes next.
    `set_aside` names the proposed actions that were not carried out (filled in by the worker)."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.set_aside: list[Any] = []


class NewInformation(Interrupted):
    """The user said something new: the scheduler hears it before any further action."""


class HeldReplySetAside(Interrupted):
    """The task was paused while holding a model reply: on resume that reply is not acted on."""


__all__ = ["BrowserLost", "GuardrailHit", "HeldReplySetAside", "Interrupted", "NewInformation",
           "RepeatHeld", "TaskStopped", "ToolFailed"]


__all__ = ["BrowserLost", "GuardrailHit", "HeldReplySetAside", "Interrupted", "NewInformation",
           "RepeatHeld", "TaskStopped", "ToolFailed"]
