"""`routine.run`: a routine's replay started as a task of the session (one task at a time, the
same events, controls and crash recovery), and the executor a resumed run goes on with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shared_schema import ErrorCode, ProtocolError
from shared_schema.messages import TaskAccepted
from shared_schema.routines import RoutineRun

from .. import logs
from ..store import TaskStore
from ..store.routines import StoreRoutines
from ..agent.executor import TaskExecutor
from .model import Routine
from .replay import RoutineReplay, RunSettings, new_task

if TYPE_CHECKING:
    from ..session.api import Reply, SessionApi
    from ..session.launch import Executor
    from ..session.running import Listener

log = logs.get("heybro.routines")

async def start(session: SessionApi, payload: RoutineRun, listener: Listener | None) -> Reply:
    """routine.run: the replay starts as a new task; the caller (a terminal) hears its events."""
    runs = StoreRoutines(session.store)
    routine = runs.get(payload.name)
    if routine is None:
        known = ", ".join(r.name for r in runs.listing()) or "none saved yet"
        raise ProtocolError(ErrorCode.invalid_state, f"There is no routine named "
                            f"{payload.name!r} (routines: {known}).")
    try:
        values = routine.values(payload.params)
    except ValueError as err:
        raise ProtocolError(ErrorCode.invalid_settings, f"Routine {routine.name!r}: {err}.") from err
    session.refuse_if_busy()
    settings = session.settings_for(need_model=False)  # healing asks for one when it must
    task = new_task(routine, values, url=payload.url, tab_id=payload.tab_id,
                    on_heal_failure=payload.on_heal_failure)
    session.launch(task, settings, listener=listener,
                    executor=lambda env: TaskExecutor(env, RoutineReplay(env, routine, runs)))
    log.info("routine_run", task_id=task.id, routine=routine.name, params=sorted(payload.params))
    return "task.accepted", TaskAccepted(task_id=task.id, status=task.status.value)


def needs_model(task: Any) -> bool:
    """Whether going on with `task` needs a model: not while a routine's run replays."""
    settings = RunSettings.of(task)
    return settings is None or settings.mode == "model"


def executor_for(store: TaskStore, task: Any) -> Executor | None:
    """The executor a resumed task goes on with: the replay for a routine's run (at the step
    after the last one done), None for an ordinary task."""
    settings = RunSettings.of(task)
    if settings is None:
        return None
    runs = StoreRoutines(store)
    routine = runs.get(settings.routine)
    if routine is None:  # deleted meanwhile: the model finishes the task
        settings.mode = "model"
        settings.keep(task)
        routine = Routine(name=settings.routine, goal=task.description)
    return lambda env: TaskExecutor(env, RoutineReplay(env, routine, runs))
