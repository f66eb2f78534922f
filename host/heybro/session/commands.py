"""THE command table: what the extension (native messaging) and the terminal (the websocket
endpoint) may ask of the host's session, one handler per message type, served on both; and the
native boundary's whole table (`NATIVE`: these and the settings page's).

A new command: its messages in shared_schema/ (request and reply, with golden examples), then one
entry in `COMMANDS` below — `async def handler(session, payload, listener) -> (reply type,
reply)`; `listener` is the websocket caller's event listener (None on native messaging), for a
command that subscribes its caller. Nothing else registers it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from shared_schema.messages import (Ack, TaskAccepted, TaskGet, TaskHandTab, TaskList, TaskMessage,
                                    TaskRef, TaskStart)
from shared_schema.outside import OutsideAct, OutsideOpen

from .. import settings_channel
from ..routines import commands as routines
from ..routines import run as routine_run
from . import experiences
from .api import Reply
from .running import Listener

if TYPE_CHECKING:
    from .core import Session

Command = Callable[["Session", Any, Listener | None], Awaitable[Reply]]


async def start(session: Session, payload: TaskStart, listener: Listener | None) -> Reply:
    """Starts a task; the caller (a terminal) hears its events."""
    accepted: TaskAccepted = await session.start(payload, listener)
    return "task.accepted", accepted


async def pause(session: Session, payload: TaskRef, listener: Listener | None) -> Reply:
    await session.pause(payload.task_id)
    return "ack", Ack()


async def resume(session: Session, payload: TaskRef, listener: Listener | None) -> Reply:
    await session.resume(payload.task_id)
    return "ack", Ack()


async def stop(session: Session, payload: TaskRef, listener: Listener | None) -> Reply:
    await session.stop(payload.task_id)
    return "ack", Ack()


async def message(session: Session, payload: TaskMessage, listener: Listener | None) -> Reply:
    await session.message(payload.task_id, payload.text, agent=payload.agent)
    return "ack", Ack()


async def hand_tab(session: Session, payload: TaskHandTab, listener: Listener | None) -> Reply:
    await session.hand_tab(payload.task_id, payload.tab_id, payload.site)
    return "ack", Ack()


async def list_tasks(session: Session, payload: TaskList, listener: Listener | None) -> Reply:
    return "task.list_result", await asyncio.to_thread(session.list_tasks, payload.limit)


async def get(session: Session, payload: TaskGet, listener: Listener | None) -> Reply:
    return "task.detail", await asyncio.to_thread(session.detail, payload.task_id,
                                                  payload.after_seq)


async def outside_open(session: Session, payload: OutsideOpen, listener: Listener | None) -> Reply:
    """An outside agent's task (`heybro mcp`); its caller hears it."""
    return "task.accepted", await session.outside.open(session, payload, listener)


async def outside_act(session: Session, payload: OutsideAct, listener: Listener | None) -> Reply:
    return "outside.acted", await session.outside.act(session, payload)


async def outside_close(session: Session, payload: TaskRef, listener: Listener | None) -> Reply:
    await session.outside.close(session, payload.task_id)
    return "ack", Ack()


COMMANDS: dict[str, Command] = {
    "task.start": start,
    "task.pause": pause,
    "task.resume": resume,
    "task.stop": stop,
    "task.message": message,
    "task.hand_tab": hand_tab,
    "task.list": list_tasks,
    "task.get": get,
    "routine.save": routines.on_save,
    "routine.list": routines.on_list,
    "routine.delete": routines.on_delete,
    "routine.run": routine_run.start,
    "experience.list": experiences.on_list,
    "experience.forget": experiences.on_forget,
    "outside.open": outside_open,
    "outside.act": outside_act,
    "outside.close": outside_close,
}
# What the extension may ask over native messaging (beside the handshake, native/host.py): the
# session's commands and the settings page's, which need no task store. The terminal's websocket
# serves `COMMANDS`, its ping, and `task.watch`, the stream of a task's events (endpoint/server.py).
NATIVE: dict[str, Command] = COMMANDS | settings_channel.COMMANDS
# Answered whenever they are done, the caller's connection going on meanwhile: an outside agent's
# call may wait for a page, or for the user's yes in the panel, while it asks for the task's status.
CONCURRENT = {"outside.act"}
