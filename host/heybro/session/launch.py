"""Starting a run of a task: its recorders, its browser, its model client, and the loop that keeps
it going while the store cannot write (paused, whole in memory, until Resume or Stop).

Every event of the run is appended to the task store first (its sequence number comes from there)
and then sent to the extension and every terminal watching, so a panel that was away can catch up
from the store with exactly the events it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import cast

from shared_schema import ErrorCode, ProtocolError
from shared_schema.events import ErrorData, EventData, MessageData, StatusData, dump
from shared_schema.messages import Event
from shared_schema.status import Pause

from .. import config, logs
from ..agent.browser import Browser
from ..agent.control import RunControl
from ..agent.errors import TaskStopped
from ..agent.env import AgentEnv
from ..agent.executor import TaskExecutor
from ..agent.models import ResumeNote, Task, TaskStatus
from ..agent.native_browser import NativeBrowser
from ..agent.recorder import EventRecorder, FanOut, Recorder
from ..native.channel import NativeChannel
from ..store import StoreUnwritable, TaskStore
from ..store.experiences import StoreExperiences
from ..store.recorder import StoreRecorder
from .running import Emit, Listener, Running

# What runs a task: a TaskExecutor with its run (the model's, a routine's replay, an outside agent's).
Executor = Callable[[AgentEnv], TaskExecutor]

log = logs.get("heybro.session")

# The browser a run acts in: the user's Chrome over native messaging, or a test's fake.
BrowserFactory = Callable[[NativeChannel, str], Browser]
# A store that refused a write is tried again after 0.5 s, 1 s, 2 s, … then every 10 s.
STORE_RETRY_FIRST_S = 0.5
STORE_RETRY_MAX_S = 10.0


def native_browser(channel: NativeChannel, task_id: str) -> Browser:
    return NativeBrowser(channel, task_id)


class Launcher:
    def __init__(self, channel: NativeChannel, store: TaskStore,
                 browsers: BrowserFactory = native_browser) -> None:
        self.channel = channel
        self.store = store
        self.browsers = browsers

    def launch(self, task: Task, settings: config.Settings, *, resume: ResumeNote | None = None,
               listeners: set[Listener], executor: Executor | None = None) -> Running:
        """Runs `task` (from its start, or from its checkpoint with `resume`) with `executor`
        (TaskExecutor unless given: a routine's replay), heard by `listeners`; raises `busy`
        when another host holds the task."""
        running = Running(task, RunControl())
        if not running.lease.acquire():
            raise ProtocolError(ErrorCode.busy, "Another heybro host is running this task.")
        running.listeners |= listeners
        running.emit = self._emitter(running)
        # The store keeps the row and checkpoint before the event about a change goes out.
        recorder = cast(Recorder, FanOut(  # FanOut has every Recorder method, by __getattr__
            StoreRecorder(self.store),
            EventRecorder(running.emit)))
        from ..llm.client import LLMClient  # loads `openai` only once a task runs

        client = LLMClient(settings)
        env = AgentEnv(task=task, llm=client, settings=settings,
                       browser=self.browsers(self.channel, task.id), recorder=recorder,
                       control=running.control, experiences=StoreExperiences(self.store))
        running.delivery = asyncio.create_task(running.deliver())

        async def run() -> None:
            note = resume
            try:
                while True:
                    try:
                        result = await (executor or TaskExecutor)(env).execute(resume=note)
                        if result.status == TaskStatus.paused:  # the browser side went away
                            self.store.interrupt_actions(task.id)
                    except StoreUnwritable as err:
                        note = await self._hold_for_store(running, err)
                        if note is None:
                            break
                        continue
                    log.info("task_end", task_id=task.id, status=result.status.value,
                             reason=result.reason, overhead_ms=env.state.overhead_ms[-20:])
                    break
            finally:
                await client.close()
                running.lease.release()
                await running.outbox.join()  # the terminals see the end before the run is over
                if running.delivery is not None:
                    running.delivery.cancel()
                running.done.set()

        running.runner = asyncio.create_task(run())
        return running

    def _emitter(self, running: Running) -> Emit:
        task = running.task

        async def emit(data: EventData) -> None:
            at, kind = time.time(), data.KIND
            # Stored first, in the loop's own thread: a small SQLite write is ~0.05 ms (WAL), a
            # thread hop costs more than that, and the next step must not start before it is durable.
            failed: StoreUnwritable | None = None
            try:
                seq = self.store.append(task.id, kind.value, dump(data), at)
            except StoreUnwritable as err:  # queued in order; it is written once writing works
                failed, seq = err, self.store.pending_seq(task.id)
            event = Event(task_id=task.id, seq=seq, kind=kind, at=at, data=data)
            try:
                # Posted: it goes out after a tool call the run sends at once (the extension starts
                # that call before it takes in the event), in order with every other event.
                self.channel.post("event", event)
            except Exception:  # noqa: BLE001 - the extension may be gone; the store has it
                log.warning("event_not_sent", task_id=task.id, kind=kind.value)
            if running.listeners:
                running.outbox.put_nowait(event.model_dump(mode="json"))
            if failed is not None:
                running.unsaved.append(event)
                raise failed
        return emit

    async def _hold_for_store(self, running: Running, err: StoreUnwritable) -> ResumeNote | None:
        """The store cannot write: the task waits, paused and whole in memory, saying why. Writing
        is retried by itself meanwhile (`_write_held`, with backoff): once it works, what queued
        up is written in order and the record says Paused (an ended task's record, its end) with
        no one's help. Resume goes on (the note for the run), Stop ends it; None when the run is
        over."""
        task, control = running.task, running.control
        ended = task.status.final
        if not ended:
            task.status = TaskStatus.paused
        running.store_failed = err
        control.on_pause = control.on_resume = None
        log.error("task_paused_store_unwritable", task_id=task.id, path=str(err.path), why=err.why)
        text = (f"{err.message}. The task is paused; nothing is lost meanwhile. Fix that (free "
                "some space, make the folder writable, close what locks it); heybro notices by "
                "itself and writes everything, then press Resume.")
        if not ended:
            await running.tell(StatusData(status=TaskStatus.paused, reason=err.message,
                                          pause=Pause.unwritable))
        await running.tell(ErrorData(text=text))
        retry = asyncio.create_task(self._write_held(running, err, ended))
        try:
            while True:
                control.pause()
                waiting = asyncio.create_task(control.checkpoint())  # until Resume (or Stop)
                done, _ = await asyncio.wait({waiting, retry}, return_when=asyncio.FIRST_COMPLETED)
                if ended and retry in done and waiting not in done:
                    waiting.cancel()  # written by itself: the run's end is in the record now
                    await asyncio.gather(waiting, return_exceptions=True)
                    return None
                try:
                    await waiting
                except TaskStopped:
                    task.status, task.result = TaskStatus.stopped, "stopped by the user"
                    with contextlib.suppress(StoreUnwritable):
                        self.store.flush()
                        self.store.checkpoint(task.id, task.model_dump(mode="json"))
                        self.store.set_status(task.id, TaskStatus.stopped, "stopped by the user")
                    await running.tell(StatusData(status=TaskStatus.stopped, reason="stopped by the user"))
                    return None
                try:
                    self._write(running, ended)
                except StoreUnwritable as again:
                    running.store_failed = again
                    if retry.done():  # it failed again since: tried again by itself too
                        retry = asyncio.create_task(self._write_held(running, again, ended))
                    await running.tell(ErrorData(text=f"Still paused: {again.message}."))
                    await running.tell(StatusData(status=TaskStatus.paused, reason=again.message,
                                                          pause=Pause.unwritable))
                    continue
                if ended:
                    return None
                return ResumeNote(why=(
                    f"heybro could not write its record for a while ({err.why}) and paused; "
                    "everything that happened meanwhile is written now. Look at the page first: "
                    "it may have changed since the last step."))
        finally:
            retry.cancel()
            await asyncio.gather(retry, return_exceptions=True)

    def _write(self, running: Running, ended: bool) -> None:
        """What queued up while the store failed, in order, then the task's state and status."""
        task = running.task
        self.store.flush()
        self.store.checkpoint(task.id, task.model_dump(mode="json"))
        self.store.update_status(task.id, task.status.value, task.result if ended else
                                 "paused while heybro could not write its record",
                                 None if ended else Pause.unwritable)
        if running.store_failed is not None:
            log.info("store_writable_again", task_id=task.id)
        running.store_failed = None
        running.unsaved.clear()

    async def _write_held(self, running: Running, err: StoreUnwritable, ended: bool) -> None:
        """Tries the held writes again with backoff until they go through, then tells the user."""
        delay = STORE_RETRY_FIRST_S
        while True:
            await asyncio.sleep(delay)
            delay = min(delay * 2, STORE_RETRY_MAX_S)
            try:  # off the loop: a locked file makes a write wait (BUSY_TIMEOUT_S) before failing
                await asyncio.to_thread(self._write, running, ended)
            except StoreUnwritable:
                continue
            if not ended:
                await running.tell(MessageData(text=(
                    f"heybro can write its record again ({err.why} is over): everything that "
                    "happened meanwhile is written. The task stays paused; press Resume to go on."),
                    level="info"))
            return
