"""A run's course: its status as recorded, its safe points (pause, stop, the user's new
information, the wall clock) and how long it has run."""

from __future__ import annotations

import time

from shared_schema.status import Pause

from .errors import GuardrailHit, HeldReplySetAside, NewInformation
from .models import Task, TaskStatus
from .run_state import RunState, Services


class Lifecycle:
    """The task's status and its safe points, for every phase that waits or reports."""

    __slots__ = ("task", "services", "state")

    def __init__(self, task: Task, services: Services, state: RunState) -> None:
        self.task, self.services, self.state = task, services, state

    @property
    def running_s(self) -> float:
        """How long the task has run, pauses not counted (the wall-clock limit's measure)."""
        return time.monotonic() - self.state.started - self.services.control.paused_s

    async def set_status(self, status: TaskStatus, reason: str | None = None,
                         pause: Pause | None = None) -> None:
        """The task's status, recorded (the same status again says nothing without a reason);
        a pause says why (`pause`)."""
        if self.task.status == status and reason is None:
            return
        self.task.status = status
        await self.services.recorder.status_changed(self.task, status, reason, pause)

    async def checkpoint(self, *, holding: bool = False, interrupt: bool = True) -> None:
        """A safe point. Waits while paused; raises TaskStopped when stopped. With `interrupt`,
        raises NewInformation while a follow-up from the user waits for the scheduler; with
        `holding` (the worker about to carry out a model reply), raises HeldReplySetAside when it
        had to wait at a pause: a reply that arrived after the pause is never acted on."""
        control, limits = self.services.control, self.services.settings.limits
        waited = await control.checkpoint()
        self.state.secrets.take_said(self.task)
        if interrupt and control.has_messages:
            raise NewInformation("the user added information")
        if holding and waited:
            raise HeldReplySetAside("the task was paused while holding a model reply")
        if self.running_s > limits.task_timeout_s:
            raise GuardrailHit("task_timeout", f"The task ran longer than its limit of "
                               f"{limits.task_timeout_s:.0f} s.")
