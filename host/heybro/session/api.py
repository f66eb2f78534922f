"""The session as the commands outside its core see it: what a command answers (`Reply`) and what
it may ask of the session (`SessionApi`): the task store, a task's row or its live run, the refusal
while another task runs, the settings a run takes, and running a task. The routines' commands, the
outside agents' tasks and the learned-site listing are written against this, never against
`core.Session`: the session imports them, and they never import it back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from shared_schema.payload import Payload

if TYPE_CHECKING:
    from .. import config
    from ..agent.models import ResumeNote, Task
    from ..store import TaskRow, TaskStore
    from .launch import Executor
    from .running import Listener, Running

# A command's answer: the reply's message type and its payload.
Reply = tuple[str, Payload]


class SessionApi(Protocol):
    store: TaskStore

    def live(self, task_id: str) -> Running | None:
        """The task's run in this host, while it goes on."""

    def row(self, task_id: str) -> TaskRow:
        """The task's row in the store; an unknown task is the caller's error."""

    def refuse_if_busy(self, allow: str | None = None) -> None:
        """One task at a time: refuses (`busy`) while another task runs or waits."""

    def settings_for(self, given: dict[str, Any] | None = None, task_id: str | None = None, *,
                     need_model: bool = True) -> config.Settings:
        """The settings a run takes (the terminal's, or the host's own)."""

    def launch(self, task: Task, settings: config.Settings, *, resume: ResumeNote | None = None,
               listener: Listener | None = None, executor: Executor | None = None) -> Running:
        """Runs the task here, heard by `listener` too."""
