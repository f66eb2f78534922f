"""The host's answers to routine.save, routine.list and routine.delete (the panel's routine list
and the terminal), added to the session's command table. Replaying (routine.run) is the replay
module's."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from shared_schema import ErrorCode, ProtocolError
from shared_schema.routines import (RoutineList, RoutineListResult, RoutineRef, RoutineSave,
                                    RoutineSaved, RoutineSummary)

from ..store.routines import StoreRoutines
from ..store.task_store import TaskStore
from .save import SaveRefused, save_task

Command = Callable[[Any], Awaitable[tuple[str, Any]]]
ROUTINE_COMMANDS = ("routine.save", "routine.list", "routine.delete")


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


def routine_commands(store: TaskStore) -> dict[str, Command]:
    async def on_save(payload: RoutineSave) -> tuple[str, Any]:
        return "routine.saved", await asyncio.to_thread(save, store, payload)

    async def on_list(payload: RoutineList) -> tuple[str, Any]:
        routines = await asyncio.to_thread(StoreRoutines(store).listing)
        return "routine.list_result", RoutineListResult(routines=routines)

    async def on_delete(payload: RoutineRef) -> tuple[str, Any]:
        await asyncio.to_thread(delete, store, payload.name)
        return "ack", {}

    return {"routine.save": on_save, "routine.list": on_list, "routine.delete": on_delete}
