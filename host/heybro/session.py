"""The host's agent session: one task at a time, started from the extension or the terminal.

Registers the task-control handlers on the native channel and starts the local websocket endpoint
that `heybro run` uses. Every event of the running task is appended to the task store first (its
sequence number comes from there) and then sent to the extension and every terminal watching, so
a panel that was away can catch up from the store with exactly the events it missed.

Lifecycle: a task whose host dies (crash, browser closed, service worker stopped) comes back
`paused` with its history; `task.resume` restores it from its last checkpoint and goes on with the
same subtask, telling the worker which actions were cut off so it checks the page before
repeating one.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from shared_schema import ErrorCode, ProtocolError
from shared_schema.messages import (Event, HistoryEntry, TaskAccepted, TaskDetail, TaskGet,
                                    TaskList, TaskListResult, TaskMessage, TaskRef, TaskStart)

from . import config, logs
from .agent.control import RunControl, TaskStopped
from .agent.cutoff import WAITING_FOR_YOU, ledger_key, unresolved
from .agent.env import AgentEnv
from .agent.executor import TaskExecutor
from .agent.models import MemoryItem, Task, TaskStatus
from .store.experiences import StoreExperiences
from .agent.native_browser import NativeBrowser
from .agent.recorder import EventRecorder, FanOut, Recorder
from .native.channel import NativeChannel
from .routines import run as routine_run
from .routines.run import executor_for
from .native.host import add_installer
from .store import StoreUnwritable, TaskRow, TaskStore, default_path, views
from .store.errors import explain
from .store.lease import TaskLease, ask_owner, is_owned, take_request
from .store.recorder import StoreRecorder

log = logs.get("heybro.session")

# Other capabilities may add recorders here: fn(task) -> Recorder.
RECORDER_FACTORIES: list[Callable[[Task], Recorder]] = []

Listener = Callable[[dict[str, Any]], Awaitable[None]]
Command = Callable[[Any], Awaitable[tuple[str, Any]]]  # payload -> (reply type, reply)
FINAL = ("completed", "failed", "stopped")
LEASE_CHECK_S = 2.0  # how often a host looks for tasks whose runner died, and for requests
RUNNER_DIED = "interrupted: the heybro host running it stopped"
HOW_TO_END = ("One task runs at a time: resume it or stop it first, with Resume or Stop in "
              "heybro's side panel or toolbar popup (the shortcut Ctrl+Shift+U resumes, "
              "Ctrl+Shift+X stops).")


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Running:
    def __init__(self, task: Task, control: RunControl) -> None:
        self.task = task
        self.control = control
        self.listeners: set[Listener] = set()
        self.runner: asyncio.Task[Any] | None = None
        self.lease = TaskLease(task.id)
        self.done = asyncio.Event()
        # Events for the terminals watching, delivered beside the run: a slow terminal never
        # holds up the next step (they can catch up from the store like the panel).
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.delivery: asyncio.Task[None] | None = None
        # While the store cannot write: why, and the events sent but not yet stored.
        self.store_failed: StoreUnwritable | None = None
        self.unsaved: list[Event] = []
        # Stores an event and sends it to the extension and the terminals (set by _launch).
        self.emit: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None

    async def deliver(self) -> None:
        while True:
            event = await self.outbox.get()
            for fn in list(self.listeners):
                try:
                    await fn(event)
                except Exception:  # noqa: BLE001 - a closed terminal stops listening
                    self.listeners.discard(fn)
            self.outbox.task_done()


class Session:
    def __init__(self, channel: NativeChannel, store: TaskStore) -> None:
        self.channel = channel
        self.store = store
        self.current: Running | None = None
        self.lease_watch: asyncio.Task[None] | None = None
        # Terminals following a task by id: they hear it through pauses and resumes (each run
        # of the task takes them as listeners).
        self.followers: dict[str, set[Listener]] = {}
        # LLM settings `heybro run` handed over with a task, for its resumes (memory only).
        self.llm_given: dict[str, config.Settings] = {}
        self.commands: dict[str, Command] = {}  # set by install(): command_table(self)

    # --- helpers --------------------------------------------------------------------------

    def _live(self, task_id: str) -> Running | None:
        cur = self.current
        return cur if cur is not None and cur.task.id == task_id and not cur.done.is_set() else None

    def _row(self, task_id: str) -> TaskRow:
        row = self.store.get_task(task_id)
        if row is None:
            raise ProtocolError(ErrorCode.task_not_found, f"There is no task {task_id!r}.")
        return row

    def _busy(self, allow: str | None = None) -> None:
        """One task at a time: refuses while another task runs here, runs in another heybro host,
        or waits paused (e.g. cut off by a crash) for the user to resume or stop it. `allow` is
        the task the caller is about to continue."""
        cur = self.current
        if cur is not None and not cur.done.is_set() and cur.task.id != allow:
            word = "paused" if cur.control.paused else "running"
            raise ProtocolError(ErrorCode.busy, f'Task "{_short(cur.task.description)}" is {word}. '
                                + HOW_TO_END, detail={"task_id": cur.task.id, "status": word,
                                                      "goal": cur.task.description})
        # Tasks another host started and lost: paused first, so they block as paused ones.
        self.store.pause_interrupted("interrupted: the heybro host stopped", skip=is_owned)
        for row in self.store.unfinished():
            if row.id == allow or (cur is not None and row.id == cur.task.id):
                continue
            where = "" if row.status == "paused" else " in another heybro window"
            raise ProtocolError(ErrorCode.busy, f'Task "{_short(row.goal)}" ({row.id}) is '
                                f"{row.status}{where}. {HOW_TO_END}",
                                detail={"task_id": row.id, "status": row.status,
                                        "goal": row.goal})

    def _settings(self, given: dict[str, Any] | None = None,
                  task_id: str | None = None) -> config.Settings:
        """The terminal's settings when `heybro run` gave them (now or when it started the task),
        else the host's own (its environment and config file)."""
        if given is None and task_id in self.llm_given:
            return self.llm_given[task_id]
        try:
            settings = config.load() if given is None else config.from_dict(given)
        except config.ConfigError as err:
            raise ProtocolError(ErrorCode.no_llm, str(err)) from err
        if not settings.configured:
            raise ProtocolError(ErrorCode.no_llm, config.NOT_CONFIGURED.format(
                path=config.config_file()))
        return settings

    def _launch(self, task: Task, settings: config.Settings, *, resume: str | None = None,
                listener: Listener | None = None,
                executor: Callable[[AgentEnv], TaskExecutor] | None = None) -> Running:
        running = Running(task, RunControl())
        if not running.lease.acquire():
            raise ProtocolError(ErrorCode.busy, "Another heybro host is running this task.")
        if listener:
            running.listeners.add(listener)
        running.listeners |= self.followers.get(task.id, set())
        self.current = running

        async def emit(kind: str, data: dict[str, Any]) -> None:
            at = time.time()
            # Stored first, in the loop's own thread: a small SQLite write is ~0.05 ms (WAL), a
            # thread hop costs more than that, and the next step must not start before it is durable.
            failed: StoreUnwritable | None = None
            try:
                seq = self.store.append(task.id, kind, data, at)
            except StoreUnwritable as err:  # queued in order; it is written once writing works
                failed, seq = err, self.store.pending_seq(task.id)
            event = Event(task_id=task.id, seq=seq, kind=kind, at=at, data=data)  # type: ignore[arg-type]
            try:
                # Sent inline, so events and the tool calls that follow them reach the extension in order.
                await self.channel.send("event", event)
            except Exception:  # noqa: BLE001 - the extension may be gone; the store has it
                log.warning("event_not_sent", task_id=task.id, kind=kind)
            if running.listeners:
                running.outbox.put_nowait(event.model_dump(mode="json"))
            if failed is not None:
                running.unsaved.append(event)
                raise failed

        # The store keeps the row and checkpoint before the event about a change goes out.
        recorder = FanOut(StoreRecorder(self.store), *(f(task) for f in RECORDER_FACTORIES),
                          EventRecorder(emit))
        from .llm.client import LLMClient  # loads `openai` only once a task runs

        client = LLMClient(settings)
        env = AgentEnv(task=task, llm=client, settings=settings,
                       browser=NativeBrowser(self.channel, task.id), recorder=recorder,
                       control=running.control, experiences=StoreExperiences(self.store))

        running.emit = emit
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
                             reason=result.reason, overhead_ms=env.overhead_ms[-20:])
                    break
            finally:
                await client.close()
                running.lease.release()
                await running.outbox.join()  # the terminals see the end before the run is over
                running.delivery.cancel()
                running.done.set()

        running.runner = asyncio.create_task(run())
        return running

    async def _hold_for_store(self, running: Running, err: StoreUnwritable) -> str | None:
        """The store cannot write: the task waits, paused and whole in memory, saying why.
        Resume writes what queued up and goes on (the note for the run), Stop ends it; None when
        the run is over."""
        task, control = running.task, running.control
        ended = task.status.value in FINAL
        if not ended:
            task.status = TaskStatus.paused
        running.store_failed = err
        control.on_pause = control.on_resume = None
        log.error("task_paused_store_unwritable", task_id=task.id, path=str(err.path), why=err.why)
        text = (f"{err.message}. The task is paused; nothing is lost meanwhile. Fix that (free "
                "some space, make the folder writable, close what locks it), then press Resume.")
        if not ended:
            await self._tell(running, "status", {"status": "paused", "reason": err.message})
        await self._tell(running, "error", {"text": text, "level": "error"})
        while True:
            control.pause()
            try:
                await control.checkpoint()  # until Resume (or Stop)
            except TaskStopped:
                task.status, task.result = TaskStatus.stopped, "stopped by the user"
                with contextlib.suppress(StoreUnwritable):
                    self.store.flush()
                    self.store.checkpoint(task.id, task.model_dump(mode="json"))
                    self.store.set_status(task.id, "stopped", "stopped by the user")
                await self._tell(running, "status", {"status": "stopped",
                                                     "reason": "stopped by the user"})
                return None
            try:
                self.store.flush()
                self.store.checkpoint(task.id, task.model_dump(mode="json"))
            except StoreUnwritable as again:
                running.store_failed = again
                await self._tell(running, "error", {
                    "text": f"Still paused: {again.message}.", "level": "error"})
                await self._tell(running, "status", {"status": "paused", "reason": again.message})
                continue
            running.store_failed = None
            running.unsaved.clear()
            log.info("store_writable_again", task_id=task.id)
            if ended:
                self.store.update_status(task.id, task.status.value, task.result)
                return None
            return (f"heybro could not write its record for a while ({err.why}) and paused; "
                    "everything that happened meanwhile is written now. Look at the page first: "
                    "it may have changed since the last step.")

    async def _tell(self, running: Running, kind: str, data: dict[str, Any]) -> None:
        """An event from the session that must reach the user even while the store fails."""
        if running.emit is not None:
            with contextlib.suppress(StoreUnwritable):
                await running.emit(kind, data)

    def _restore(self, task_id: str) -> Task:
        state = self.store.load_checkpoint(task_id)
        if state is None:
            raise ProtocolError(ErrorCode.invalid_state, f"Task {task_id!r} has no saved state "
                                "to continue from.")
        task = Task.model_validate(state)
        task.status = TaskStatus.paused  # so the first step's status change is recorded
        return task

    def _interrupted_note(self, task_id: str, reason: str | None) -> str:
        cut = [a for a in self.store.actions(task_id, "interrupted")][-3:]
        note = f"heybro was interrupted ({reason or 'paused'}) and is continuing this subtask. "
        if cut:
            what = "; ".join(ledger_key(a) for a in cut)
            note += (f"These actions were cut off and may or may not have happened: {what}. "
                     "Look at the page first and do not repeat one whose effect is visible; "
                     "heybro asks the user before repeating one of them.")
        else:
            note += "Look at the page first: it may have changed since the last step."
        return note

    # --- commands -------------------------------------------------------------------------

    async def start(self, payload: TaskStart, listener: Listener | None = None) -> TaskAccepted:
        self._busy()
        settings = self._settings(payload.llm)
        task = Task(description=payload.goal, url=payload.url, tab_id=payload.tab_id,
                    resources=payload.resources)
        if payload.llm is not None:
            self.llm_given[task.id] = settings
        self._launch(task, settings, listener=listener)
        log.info("task_start", task_id=task.id, goal=task.description, url=task.url)
        return TaskAccepted(task_id=task.id, status=task.status.value)

    async def pause(self, task_id: str) -> None:
        if (cur := self._live(task_id)):
            if not cur.control.paused and not cur.control.stopped:
                cur.control.pause()
                # Said at once; the pause itself comes at the next safe point (between actions).
                await self._say(cur, "Pausing at the next safe point (between actions)…",
                                control="pausing")
            return
        row = self._row(task_id)
        if row.status in FINAL:
            raise ProtocolError(ErrorCode.invalid_state, f"That task is already {row.status}.")
        if row.status != "paused":
            await self._not_here(task_id, "pause")

    async def _not_here(self, task_id: str, what: Literal["pause", "stop"]) -> None:
        """Pause or stop for a task the record calls running that this host does not run: the
        host that runs it is asked; one that died leaves it paused (or stopped) here at once."""
        if is_owned(task_id):
            ask_owner(task_id, what)
            return
        if what == "stop":
            self.store.set_status(task_id, "stopped", "stopped by the user")
            self.store.interrupt_actions(task_id)
        else:
            self.store.pause_interrupted(RUNNER_DIED, [task_id])
        await self._announce(task_id)

    async def _announce(self, task_id: str) -> None:
        """Sends the task's latest status change (written by this host outside a run) to the
        extension, so the panel and popup show what the record says."""
        for e in self.store.events(task_id, kinds=["status"])[-1:]:
            event = Event(task_id=task_id, seq=e.seq, kind=e.kind, at=e.at, data=e.data)  # type: ignore[arg-type]
            try:
                await self.channel.send("event", event)
            except Exception:  # noqa: BLE001 - the extension may be gone; the store has it
                log.warning("event_not_sent", task_id=task_id, kind=e.kind)
            for fn in list(self.followers.get(task_id, ())):
                try:
                    await fn(event.model_dump(mode="json"))
                except Exception:  # noqa: BLE001 - a closed terminal stops listening
                    self.followers[task_id].discard(fn)

    async def check_leases(self) -> None:
        """Every few seconds: a task whose runner died (its lease is gone) is paused with the
        reason, and a pause or stop another host left for the task running here is carried out."""
        if self.store.failure is not None:
            return  # nothing can be written now; the task here waits for the user
        cur = self.current if self.current and not self.current.done.is_set() else None
        if cur is not None and (what := take_request(cur.task.id)):
            await (self.pause if what == "pause" else self.stop)(cur.task.id)
        mine = cur.task.id if cur else None
        for task_id in self.store.pause_interrupted(
                RUNNER_DIED, skip=lambda i: i == mine or is_owned(i)):
            log.info("task_runner_gone", task_id=task_id)
            await self._announce(task_id)

    async def resume(self, task_id: str) -> None:
        if (cur := self._live(task_id)):
            if cur.control.paused and cur.task.status != TaskStatus.paused:
                # Resumed before the pause took effect: the task simply goes on.
                await self._say(cur, "Going on: resumed before the pause took effect.",
                                control="resume")
            cur.control.resume()
            return
        row = self._row(task_id)
        if row.status != "paused":
            raise ProtocolError(ErrorCode.invalid_state, f"That task is {row.status}, not paused.")
        self._busy(allow=task_id)
        settings = self._settings(task_id=task_id)
        task = self._restore(task_id)
        if task.held_repeat and (row.reason or "").startswith(WAITING_FOR_YOU):
            # The user's Resume after heybro asked is their word: the held action may go ahead.
            note = (f"The user checked and lets heybro go ahead: {task.held_repeat} (cut off by a "
                    "fault earlier) may be done again if the page still calls for it.")
            task.cut_off = [k for k in task.cut_off if k != task.held_repeat]
            task.held_repeat = None
        else:
            note = self._interrupted_note(task_id, row.reason)
            task.cut_off = unresolved(self.store.actions(task_id))
        said = self._pending_messages(task_id)
        if said:  # what the user said while it was paused reaches the planner first
            note = "The user added: " + " / ".join(said) + f"\n({note})"
        self._launch(task, settings, resume=note, executor=executor_for(self.store, task))
        log.info("task_resumed", task_id=task_id, subtask=task.current_subtask_index)

    async def stop(self, task_id: str) -> None:
        if (cur := self._live(task_id)):
            if not cur.control.stopped:
                await self._say(cur, "Stopping…", control="stopping")
                cur.control.stop()  # cancels a model call in flight: the task ends now
            return
        row = self._row(task_id)
        if row.status in FINAL:
            raise ProtocolError(ErrorCode.invalid_state, f"That task is already {row.status}.")
        if row.status != "paused":
            await self._not_here(task_id, "stop")
            return
        # A paused task from an earlier host: end it in the record.
        self.store.set_status(task_id, "stopped", "stopped by the user")
        await self._announce(task_id)

    async def message(self, task_id: str, text: str) -> None:
        """Follow-ups reach the scheduler as new information for the same task, before any
        further action. A message never resumes a paused task: it is recorded and shown, and
        the planner reads it when the user resumes."""
        if (cur := self._live(task_id)):
            if (asked := cur.task.question) is not None and cur.control.answer(text):
                # The answer to heybro's question; a secret is neither recorded nor shown.
                await self._say(cur, "(given — not recorded)" if asked.kind == "secret" else text,
                                who="user", answers=asked.id)
                return
            cur.task.memory.append(MemoryItem(name="user_message", value=text))
            cur.control.tell(text)
            await self._say(cur, text, who="user")
            if cur.control.paused:
                await self._say(cur, "Noted. The task stays paused: press Resume and the planner "
                                "takes this into account before any further action.")
            return
        row = self._row(task_id)
        if row.status == "paused":
            asked = (self.store.load_checkpoint(task_id) or {}).get("question") or {}
            if asked.get("kind") == "secret":
                # Asked before heybro restarted: a secret typed now would land in the record.
                raise ProtocolError(ErrorCode.invalid_state, "heybro was asking for a secret when "
                                    "it stopped, and does not keep one typed now. Press Resume: "
                                    "it asks again, with a field that keeps it secret.")
            self._note_while_paused(row, text)
            return
        self._busy(allow=task_id)
        settings = self._settings(task_id=task_id)
        task = self._restore(task_id)
        task.memory.append(MemoryItem(name="user_message", value=text))
        running = self._launch(task, settings, resume=f"The user added: {text}",
                               executor=executor_for(self.store, task))
        await self._say(running, text, who="user")  # stored before the run's first event

    async def _say(self, cur: Running, text: str, **extra: Any) -> None:
        """An event about the task from the session itself (a control request, the user's words)."""
        await self._tell(cur, "message", {"text": text, **extra})

    def _note_while_paused(self, row: TaskRow, text: str) -> None:
        """A message for a task paused in the record (no run here): kept in its history and its
        memory; it reaches the planner when the task is resumed."""
        state = self.store.load_checkpoint(row.id)
        if state is not None:
            state.setdefault("memory", []).append(
                MemoryItem(name="user_message", value=text).model_dump(mode="json"))
            self.store.checkpoint(row.id, state)
        self.store.append(row.id, "message", {"text": text, "who": "user"})
        self.store.append(row.id, "message", {
            "text": "Noted. The task stays paused: press Resume and the planner takes this into "
                    "account before any further action."})

    def _pending_messages(self, task_id: str) -> list[str]:
        """What the user said since the planner last ran (to hand it over on resume)."""
        said: list[str] = []
        for e in reversed(self.store.events(task_id, kinds=["message", "status"])):
            if e.kind == "status" and e.data.get("status") == "planning":
                break
            if e.kind == "message" and e.data.get("who") == "user" and e.data.get("text"):
                said.append(str(e.data["text"]))
        return said[::-1]

    def watch(self, task_id: str, listener: Listener) -> None:
        cur = self._live(task_id)
        if cur is None:
            raise ProtocolError(ErrorCode.task_not_found, f"No live task {task_id!r}.")
        cur.listeners.add(listener)

    def follow(self, task_id: str, listener: Listener, after_seq: int = -1) -> list[Event]:
        """`listener` hears the task from now on, whether it runs, waits paused or is resumed
        (also by the panel); returns the stored events after `after_seq` it missed."""
        self._row(task_id)
        missed = [Event(task_id=task_id, seq=e.seq, kind=e.kind, at=e.at, data=e.data)  # type: ignore[arg-type]
                  for e in self.store.events(task_id, after=after_seq)]
        self.followers.setdefault(task_id, set()).add(listener)
        if (cur := self._live(task_id)):
            missed += [e for e in cur.unsaved if e.seq > (missed[-1].seq if missed else after_seq)]
            cur.listeners.add(listener)
        return missed

    def unwatch(self, listener: Listener) -> None:
        if self.current:
            self.current.listeners.discard(listener)
        for fns in self.followers.values():
            fns.discard(listener)

    def list_tasks(self, limit: int) -> TaskListResult:
        return TaskListResult(tasks=[views.summary(r) for r in self.store.list_tasks(limit)])

    def detail(self, task_id: str, after_seq: int = -1) -> TaskDetail:
        found = views.detail(self.store, task_id, after_seq)
        if found is None:
            self._row(task_id)  # raises task_not_found
        assert found is not None
        if (cur := self._live(task_id)) and cur.unsaved:
            # Not written yet (the store fails): what the panel was sent, from memory.
            stored = found.history[-1].seq if found.history else after_seq
            history = found.history + [
                HistoryEntry(seq=e.seq, kind=e.kind, at=e.at, data=e.data)
                for e in cur.unsaved if e.seq > max(stored, after_seq)]
            task = found.task.model_copy(update={"status": cur.task.status.value, "reason": (
                cur.store_failed.message if cur.store_failed else found.task.reason)})
            state = cur.task
            return TaskDetail(task=task, subtasks=[s.text for s in state.subtasks],
                              current_subtask=state.current_subtask_index, history=history)
        return found

    async def shutdown(self, reason: str) -> None:
        """The browser side is gone: the running task stops here and comes back paused."""
        cur = self.current
        if cur is None or cur.done.is_set() or cur.runner is None:
            return
        # A run waiting on the browser ends by itself (BrowserLost); one waiting on the model is
        # cancelled after a moment.
        await asyncio.wait({cur.runner}, timeout=1.0)
        cur.runner.cancel()
        try:
            await cur.runner
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - ending anyway
            pass
        await asyncio.to_thread(self.store.pause_interrupted, f"interrupted: {reason}",
                                [cur.task.id])
        await asyncio.to_thread(self.store.interrupt_actions, cur.task.id)
        log.info("task_interrupted", task_id=cur.task.id, reason=reason)


def command_table(session: Session) -> dict[str, Command]:
    """What the extension and the terminal may ask of the session besides starting a task (which
    also subscribes the caller): one table for the native channel and the websocket."""
    def control(fn: Callable[[str], Awaitable[None]]) -> Command:
        async def handler(payload: TaskRef) -> tuple[str, Any]:
            await fn(payload.task_id)
            return "ack", {}
        return handler

    async def on_message(payload: TaskMessage) -> tuple[str, Any]:
        await session.message(payload.task_id, payload.text)
        return "ack", {}

    async def on_list(payload: TaskList) -> tuple[str, Any]:
        return "task.list_result", await asyncio.to_thread(session.list_tasks, payload.limit)

    async def on_get(payload: TaskGet) -> tuple[str, Any]:
        return "task.detail", await asyncio.to_thread(session.detail, payload.task_id,
                                                      payload.after_seq)

    return {"task.pause": control(session.pause), "task.resume": control(session.resume),
            "task.stop": control(session.stop), "task.message": on_message,
            "task.list": on_list, "task.get": on_get,
            "routine.run": lambda payload: routine_run.start(session, payload)}


TASK_COMMANDS = ("task.start", "task.pause", "task.resume", "task.stop", "task.message",
                 "task.list", "task.get", "routine.run")


def _open_store(channel: NativeChannel) -> TaskStore | None:
    """The task store, or None when it cannot be opened at all: every task command is then
    answered with the reason in words (the host keeps serving, so the panel can say it)."""
    path = default_path()
    try:
        store = TaskStore(path)
    except (sqlite3.Error, OSError) as err:
        why = explain(err, path) if isinstance(err, sqlite3.Error) else (err.strerror or str(err))
        failure = StoreUnwritable(path, why)
        log.error("store_unavailable", path=str(path), why=why, error=str(err))

        async def refuse(env, payload):  # type: ignore[no-untyped-def]
            raise failure
        for type_ in TASK_COMMANDS:
            channel.on(type_, refuse)
        return None
    if store.moved_aside is not None:
        log.warning("store_damaged_moved_aside", path=str(path), moved_to=str(store.moved_aside))
    return store


def install(channel: NativeChannel) -> None:
    store = _open_store(channel)
    if store is None:
        return
    # Tasks cut off by a host that died (and not still run by another live host) come back paused.
    paused = store.pause_interrupted("interrupted: the heybro host stopped", skip=is_owned)
    if paused:
        log.info("tasks_paused_after_restart", tasks=paused)
    session = Session(channel, store)

    async def on_start(env, payload: TaskStart):  # type: ignore[no-untyped-def]
        return "task.accepted", await session.start(payload)

    channel.on("task.start", on_start)
    session.commands = command_table(session)
    for type_, fn in session.commands.items():
        channel.on(type_, lambda env, payload, fn=fn: fn(payload))
    channel.on_close(lambda: session.shutdown("the browser disconnected"))

    async def watch_leases() -> None:
        while not channel.ended:
            await asyncio.sleep(LEASE_CHECK_S)
            try:
                await session.check_leases()
            except Exception:  # noqa: BLE001 - checked again in a moment
                log.exception("lease_check_failed")

    session.lease_watch = asyncio.get_running_loop().create_task(watch_leases())
    from .endpoint.server import start_endpoint
    channel.session = session  # type: ignore[attr-defined]
    start_endpoint(session, channel)


add_installer(install)
