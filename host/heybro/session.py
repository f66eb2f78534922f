"""The host's agent session: one task at a time, started from the extension or the terminal.

Registers the task-control handlers on the native channel and starts the local websocket endpoint
that `heybro run` uses. Events of the running task go to the extension and to every terminal
client watching it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from shared_schema import ErrorCode, ProtocolError
from shared_schema.messages import Event, TaskAccepted, TaskMessage, TaskRef, TaskStart

from . import config, logs
from .agent.control import RunControl
from .agent.env import AgentEnv
from .agent.executor import TaskExecutor
from .agent.models import Task
from .agent.native_browser import NativeBrowser
from .agent.recorder import EventRecorder, FanOut, Recorder
from .llm import LLMClient
from .native.channel import NativeChannel
from .native.host import add_installer

log = logs.get("heybro.session")

# Other capabilities (the task store) add recorders here: fn(task) -> Recorder.
RECORDER_FACTORIES: list[Callable[[Task], Recorder]] = []

Listener = Callable[[dict[str, Any]], Awaitable[None]]


class Running:
    def __init__(self, task: Task, control: RunControl) -> None:
        self.task = task
        self.control = control
        self.seq = 0
        self.listeners: set[Listener] = set()
        self.runner: asyncio.Task[Any] | None = None
        self.done = asyncio.Event()


class Session:
    def __init__(self, channel: NativeChannel) -> None:
        self.channel = channel
        self.current: Running | None = None

    def _get(self, task_id: str) -> Running:
        if self.current is None or self.current.task.id != task_id:
            raise ProtocolError(ErrorCode.task_not_found, f"No live task {task_id!r}.")
        return self.current

    async def start(self, payload: TaskStart, listener: Listener | None = None) -> TaskAccepted:
        if self.current is not None and not self.current.done.is_set():
            raise ProtocolError(ErrorCode.busy, "A task is already running: stop it or wait for "
                                "it to finish.", detail={"task_id": self.current.task.id})
        try:
            settings = config.load()
        except config.ConfigError as err:
            raise ProtocolError(ErrorCode.no_llm, str(err)) from err
        if not settings.configured:
            raise ProtocolError(ErrorCode.no_llm, config.NOT_CONFIGURED.format(
                path=config.config_file()))
        task = Task(description=payload.goal, url=payload.url, tab_id=payload.tab_id,
                    resources=payload.resources)
        running = Running(task, RunControl())
        if listener:
            running.listeners.add(listener)
        self.current = running

        async def emit(kind: str, data: dict[str, Any]) -> None:
            event = Event(task_id=task.id, seq=running.seq, kind=kind, at=time.time(),  # type: ignore[arg-type]
                          data=data)
            running.seq += 1
            try:
                await self.channel.send("event", event)
            except Exception:  # noqa: BLE001 - the extension may be gone; the task goes on
                log.warning("event_not_sent", task_id=task.id, kind=kind)
            for fn in list(running.listeners):
                try:
                    await fn(event.model_dump(mode="json"))
                except Exception:  # noqa: BLE001 - a closed terminal stops listening
                    running.listeners.discard(fn)

        recorder = FanOut(*(f(task) for f in RECORDER_FACTORIES), EventRecorder(emit))
        client = LLMClient(settings)
        env = AgentEnv(task=task, llm=client, settings=settings,
                       browser=NativeBrowser(self.channel, task.id), recorder=recorder,
                       control=running.control)

        async def run() -> None:
            try:
                result = await TaskExecutor(env).execute()
                log.info("task_end", task_id=task.id, status=result.status.value,
                         reason=result.reason, overhead_ms=env.overhead_ms[-20:])
            finally:
                await client.close()
                running.done.set()

        running.runner = asyncio.create_task(run())
        log.info("task_start", task_id=task.id, goal=task.description, url=task.url)
        return TaskAccepted(task_id=task.id, status=task.status.value)

    def pause(self, task_id: str) -> None:
        self._get(task_id).control.pause()

    def resume(self, task_id: str) -> None:
        self._get(task_id).control.resume()

    def stop(self, task_id: str) -> None:
        self._get(task_id).control.stop()

    def watch(self, task_id: str, listener: Listener) -> None:
        self._get(task_id).listeners.add(listener)

    def unwatch(self, listener: Listener) -> None:
        if self.current:
            self.current.listeners.discard(listener)


def install(channel: NativeChannel) -> None:
    session = Session(channel)

    async def on_start(env, payload: TaskStart):  # type: ignore[no-untyped-def]
        return "task.accepted", await session.start(payload)

    def control(fn: Callable[[str], None]):  # type: ignore[no-untyped-def]
        async def handler(env, payload: TaskRef):  # type: ignore[no-untyped-def]
            fn(payload.task_id)
            return "ack", {}
        return handler

    async def on_message(env, payload: TaskMessage):  # type: ignore[no-untyped-def]
        running = session._get(payload.task_id)
        from .agent.models import MemoryItem
        running.task.memory.append(MemoryItem(name="user_message", value=payload.text))
        return "ack", {}

    channel.on("task.start", on_start)
    channel.on("task.pause", control(session.pause))
    channel.on("task.resume", control(session.resume))
    channel.on("task.stop", control(session.stop))
    channel.on("task.message", on_message)
    from .endpoint.server import start_endpoint
    channel.session = session  # type: ignore[attr-defined]
    start_endpoint(session, channel)


add_installer(install)
