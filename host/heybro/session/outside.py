"""The session's side of an outside agent (`heybro mcp`): its task opened, each page call handed to
the task's run and answered, the task closed when the agent is done or its connection ends.

One task runs at a time, whoever started it: an outside agent is refused while another task runs
(and the user sees its task in the panel, where they pause or stop it like their own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared_schema.messages import TaskAccepted
from shared_schema.outside import OutsideAct, OutsideActed, OutsideOpen
from shared_schema.page_text import neutral

from .. import logs
from ..agent.models import Task, TaskStatus
from ..agent.executor import TaskExecutor
from ..outside.run import OutsideRun
from ..outside.inbox import Inbox
from .running import Listener

if TYPE_CHECKING:
    from .api import SessionApi

log = logs.get("heybro.session")


class OutsideAgents:
    """The outside agents' open tasks: task id → its inbox, and the connection that opened it."""

    def __init__(self) -> None:
        self.inboxes: dict[str, Inbox] = {}
        self.callers: dict[str, Listener | None] = {}

    async def open(self, session: SessionApi, payload: OutsideOpen,
                   listener: Listener | None) -> TaskAccepted:
        session.refuse_if_busy()
        settings = session.settings_for(need_model=False)  # the agent decides: no model is asked
        client = neutral(payload.client).strip()[:120] or "an outside agent"
        task = Task(description=f"{client} acting in your browser (through heybro mcp)",
                    url=payload.url, outside=client)
        inbox = Inbox()
        self.inboxes[task.id], self.callers[task.id] = inbox, listener
        session.launch(task, settings, listener=listener,
                        executor=lambda env: TaskExecutor(env, OutsideRun(env, inbox)))
        log.info("outside_open", task_id=task.id, client=client)
        return TaskAccepted(task_id=task.id, status=task.status.value)

    async def act(self, session: SessionApi, payload: OutsideAct) -> OutsideActed:
        cur, inbox = session.live(payload.task_id), self.inboxes.get(payload.task_id)
        if cur is None or inbox is None or inbox.closed:
            row = session.row(payload.task_id)
            by = " by the user in heybro's panel" if row.status == TaskStatus.stopped else ""
            return OutsideActed(success=False, status=row.status, error_code="ended", error=(
                f"This task is {row.status}{by}" + (f": {row.reason}" if row.reason else "")
                + ". Not run."))
        if cur.control.paused or cur.task.status == TaskStatus.paused:
            return OutsideActed(success=False, status="paused", error_code="paused", error=(
                "Not run: the user paused this task in heybro's panel. Wait until they resume "
                "it (task_status says), or ask them."))
        if cur.control.asking:
            return OutsideActed(success=False, status=cur.task.status.value,
                                error_code="waiting", error=(
                                    "Not run: heybro is waiting for the user's word in its panel "
                                    "on the action before (a risky action needs their yes)."))
        return await inbox.send(payload.tool, payload.parameters)

    async def close(self, session: SessionApi, task_id: str) -> None:
        inbox = self.inboxes.pop(task_id, None)
        self.callers.pop(task_id, None)
        if inbox is None:
            session.row(task_id)  # (an unknown id is an error; an ended task is closed already)
            return
        inbox.close()
        cur = session.live(task_id)
        if cur is not None and cur.control.paused:
            cur.control.stop("the outside agent finished while the task was paused")

    async def caller_gone(self, session: SessionApi, listener: Listener) -> None:
        """A connection closed: the tasks it opened end (the agent can no longer call them)."""
        for task_id, caller in list(self.callers.items()):
            if caller is listener:
                await self.close(session, task_id)
