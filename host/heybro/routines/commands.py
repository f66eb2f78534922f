"""The host's answers to routine.save, routine.list and routine.delete (the panel's routine list
and the terminal), entries of the session's command table (session/commands.py). Replaying
(routine.run) is the replay module's."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from shared_schema import ErrorCode, ProtocolError
from shared_schema.messages import Ack
from shared_schema.routines import (RoutineList, RoutineListResult, RoutineRef, RoutineSave,
                                    RoutineSaved, RoutineSummary)

from ..store.routines import StoreRoutines
from ..store.task_store import TaskStore
from .save import SaveRefused, save_task

if TYPE_CHECKING:
    from ..session.api import Reply, SessionApi
    from ..session.running import Listener


def summary(store: TaskStore, name: str) -> RoutineSummary:
    return next(s for s in StoreRoutines(store).listing() if s.name == name)


def save(store: TaskStore, payload: RoutineSave) -> RoutineSaved:
    try:
        routine = save_task(store, payload.task_id, payload.name, replace=payload.replace)
    except SaveRefused as err:
        raise ProtocolError(ErrorCode(err.code), f"Not saved: {err}.") from err
    return RoutineSaved(routine=summary(store, routine.name))


def delete(store: TaskStore, name: str) -> None:
    if not StoreRoutines(store).delete(name):
        raise ProtocolError(ErrorCode.not_found, f"There is no routine named {name!r}.")


async def on_save(session: SessionApi, payload: RoutineSave, listener: Listener | None) -> Reply:
    return "routine.saved", await asyncio.to_thread(save, session.store, payload)


async def on_list(session: SessionApi, payload: RoutineList, listener: Listener | None) -> Reply:
    routines = await asyncio.to_thread(StoreRoutines(session.store).listing)
    return "routine.list_result", RoutineListResult(routines=routines)


async def on_delete(session: SessionApi, payload: RoutineRef, listener: Listener | None) -> Reply:
    await asyncio.to_thread(delete, session.store, payload.name)
    return "ack", Ack()
