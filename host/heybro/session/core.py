"""The host's agent session: one task at a time, started from the extension or the terminal.

The one-task policy, the control of a task (start, pause, resume, stop, a message) and who
follows it. Lifecycle: a task whose host dies (crash, browser closed, service worker stopped)
comes back `paused` with its history; `task.resume` restores it from its last checkpoint and goes
on with the same subtask, with a typed note (`ResumeNote`) saying which actions were cut off, so
the worker checks the page before repeating one.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from shared_schema import ErrorCode, ProtocolError
from shared_schema.events import ControlData, MessageData, dump
from shared_schema.page_text import neutral
from shared_schema.status import FINAL, Pause, meaning_of
from shared_schema.messages import Event, TaskAccepted, TaskDetail, TaskListResult, TaskStart

from .. import config, logs
from ..agent.cutoff import unresolved
from ..agent.models import MemoryItem, ResumeNote, Task, TaskStatus
from ..agent.said_secrets import said_secrets
from ..native.channel import NativeChannel
from ..store import TaskRow, TaskStore, views
from ..store.lease import ask_owner, is_owned, take_request
from . import queries, resume_notes
from ..agent.env import AgentEnv
from ..agent.executor import TaskExecutor
from ..outside.run import OutsideRun
from ..routines.run import executor_for, needs_model
from .launch import BrowserFactory, Executor, Launcher, native_browser
from .outside import OutsideAgents
from .running import Listener, Running

log = logs.get("heybro.session")

RUNNER_DIED = "interrupted: the heybro host running it stopped"
HOW_TO_END = ("One task runs at a time: resume it or stop it first, with Resume or Stop in "
              "heybro's side panel or toolbar popup (the shortcut Ctrl+Shift+U resumes, "
              "Ctrl+Shift+X stops).")


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _resumable(row: TaskRow) -> bool:
    """Whether the task waits in the record for the person's Resume (a paused task)."""
    return bool((meaning := meaning_of(row.status)) and meaning.resumable)


class Session:
    def __init__(self, channel: NativeChannel, store: TaskStore,
                 browsers: BrowserFactory = native_browser) -> None:
        self.channel = channel
        self.store = store
        self.launcher = Launcher(channel, store, browsers)
        self.current: Running | None = None
        self.lease_watch: asyncio.Task[None] | None = None
        # Terminals following a task by id: they hear it through pauses and resumes (each run
        # of the task takes them as listeners).
        self.followers: dict[str, set[Listener]] = {}
        # LLM settings `heybro run` handed over with a task, for its resumes (memory only).
        self.llm_given: dict[str, config.Settings] = {}
        self.outside = OutsideAgents()  # outside agents' tasks (`heybro mcp`)

    # --- what the kinds of runs use (routines, outside agents) --------------------------------

    def live(self, task_id: str) -> Running | None:
        """The task's run in this host, while it goes on."""
        cur = self.current
        return cur if cur is not None and cur.task.id == task_id and not cur.done.is_set() else None

    def row(self, task_id: str) -> TaskRow:
        """The task's row in the store; an unknown task is the caller's error."""
        row = self.store.get_task(task_id)
        if row is None:
            raise ProtocolError(ErrorCode.task_not_found, f"There is no task {task_id!r}.")
        return row

    def refuse_if_busy(self, allow: str | None = None) -> None:
        """One task at a time: refuses while another task runs here, runs in another heybro host,
        or waits paused (e.g. cut off by a crash) for the user to resume or stop it. `allow` is
        the task the caller is about to continue."""
        cur = self.current
        if cur is not None and not cur.done.is_set() and cur.task.id != allow:
            status = TaskStatus.paused if cur.control.paused else cur.task.status
            raise ProtocolError(ErrorCode.busy, f'Task "{_short(cur.task.description)}" is '
                                f"{status.meaning.label.lower()}. " + HOW_TO_END,
                                detail={"task_id": cur.task.id, "status": status, "here": True,
                                        "goal": cur.task.description})
        # Tasks another host started and lost: paused first, so they block as paused ones.
        self.store.pause_interrupted("interrupted: the heybro host stopped", skip=is_owned)
        for row in self.store.unfinished():
            if row.id == allow or (cur is not None and row.id == cur.task.id):
                continue
            # A paused task waits here for anyone; another status is another host's run.
            here = TaskStatus(row.status).meaning.resumable
            where = "" if here else " in another heybro window"
            raise ProtocolError(ErrorCode.busy, f'Task "{_short(row.goal)}" ({row.id}) is '
                                f"{row.status}{where}. {HOW_TO_END}",
                                detail={"task_id": row.id, "status": row.status, "here": here,
                                        "goal": row.goal})

    def settings_for(self, given: dict[str, Any] | None = None, task_id: str | None = None, *,
                     need_model: bool = True) -> config.Settings:
        """The terminal's settings when `heybro run` gave them (now or when it started the task),
        else the host's own (its environment and config file). A run that makes no model call
        (a routine's replay) goes without one: `need_model` False."""
        if given is None and task_id in self.llm_given:
            return self.llm_given[task_id]
        try:
            settings = config.load() if given is None else config.from_dict(given)
        except config.ConfigError as err:
            raise ProtocolError(ErrorCode.no_llm, str(err)) from err
        if need_model and not settings.configured:
            raise ProtocolError(ErrorCode.no_llm, config.NOT_CONFIGURED.format(
                path=config.config_file()))
        return settings

    def launch(self, task: Task, settings: config.Settings, *, resume: ResumeNote | None = None,
               listener: Listener | None = None, executor: Executor | None = None) -> Running:
        """Runs the task here; the terminals following it, and `listener`, hear it. A task
        restored from the store goes on with the executor it ran with (a routine's replay)."""
        listeners = set(self.followers.get(task.id, set())) | ({listener} if listener else set())
        if executor is None and resume is not None:
            executor = (_outside_run if task.outside else executor_for(self.store, task))
        self.current = self.launcher.launch(task, settings, resume=resume, listeners=listeners,
                                            executor=executor)
        return self.current

    def _restore(self, task_id: str) -> Task:
        state = self.store.load_checkpoint(task_id)
        if state is None:
            raise ProtocolError(ErrorCode.invalid_state, f"Task {task_id!r} has no saved state "
                                "to continue from.")
        task = Task.model_validate(state)
        task.status = TaskStatus.paused  # so the first step's status change is recorded
        return task

    # --- commands -------------------------------------------------------------------------

    async def start(self, payload: TaskStart, listener: Listener | None = None) -> TaskAccepted:
        self.refuse_if_busy()
        settings = self.settings_for(payload.llm)
        goal, secrets = _secrets_said(payload.goal, {})
        task = Task(description=goal, url=payload.url, tab_id=payload.tab_id,
                    resources=payload.resources, said_secrets=secrets)
        if payload.llm is not None:
            self.llm_given[task.id] = settings
        self.launch(task, settings, listener=listener)
        log.info("task_start", task_id=task.id, goal=task.description, url=task.url)
        return TaskAccepted(task_id=task.id, status=task.status.value)

    async def pause(self, task_id: str) -> None:
        if (cur := self.live(task_id)):
            if not cur.control.paused and not cur.control.stopped:
                cur.control.pause()
                # Said at once; the pause itself comes at the next safe point (between actions).
                await cur.tell(ControlData(
                    what="pausing", text="Pausing at the next safe point (between actions)…"))
            return
        row = self.row(task_id)
        if row.status in FINAL:
            raise ProtocolError(ErrorCode.invalid_state, f"That task is already {row.status}.")
        if not _resumable(row):
            await self._not_here(task_id, "pause")

    async def _not_here(self, task_id: str, what: Literal["pause", "stop"]) -> None:
        """Pause or stop for a task the record calls running that this host does not run: the
        host that runs it is asked; one that died leaves it paused (or stopped) here at once."""
        if is_owned(task_id):
            ask_owner(task_id, what)
            return
        if what == "stop":
            self.store.set_status(task_id, TaskStatus.stopped, "stopped by the user")
            self.store.interrupt_actions(task_id)
        else:
            self.store.pause_interrupted(RUNNER_DIED, [task_id])
        await self._announce(task_id)

    async def _announce(self, task_id: str) -> None:
        """Sends the task's latest status change (written by this host outside a run) to the
        extension, so the panel and popup show what the record says."""
        for event in views.events(self.store, task_id, kinds=["status"])[-1:]:
            try:
                await self.channel.send("event", event)
            except Exception:  # noqa: BLE001 - the extension may be gone; the store has it
                log.warning("event_not_sent", task_id=task_id, kind=event.kind.value)
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
        if (cur := self.live(task_id)):
            if cur.control.paused and cur.task.status != TaskStatus.paused:
                # Resumed before the pause took effect: the task simply goes on.
                await cur.tell(ControlData(
                    what="resume", text="Going on: resumed before the pause took effect."))
            cur.control.resume()
            return
        row = self.row(task_id)
        if not _resumable(row):
            raise ProtocolError(ErrorCode.invalid_state, f"That task is {row.status}, not paused.")
        self.refuse_if_busy(allow=task_id)
        task = self._restore(task_id)
        settings = self.settings_for(task_id=task_id, need_model=needs_model(task)
                                  and not task.outside)
        if task.held_repeat and row.pause == Pause.held:
            # The user's Resume after heybro asked is their word: the held action may go ahead.
            why = resume_notes.went_ahead(task.held_repeat)
            task.cut_off = [k for k in task.cut_off if k != task.held_repeat]
            task.held_repeat = None
        else:
            why = resume_notes.interrupted(self.store, task_id, row.reason)
            task.cut_off = unresolved(self.store.actions(task_id))
        # What the user said while it was paused reaches the planner first.
        said = resume_notes.said_while_paused(self.store, task_id)
        self.launch(task, settings, resume=ResumeNote(why=why, user_said=said))
        log.info("task_resumed", task_id=task_id, subtask=task.current_subtask_index)

    async def stop(self, task_id: str) -> None:
        if (cur := self.live(task_id)):
            if not cur.control.stopped:
                await cur.tell(ControlData(what="stopping", text="Stopping…"))
                cur.control.stop()  # cancels a model call in flight: the task ends now
            return
        row = self.row(task_id)
        if row.status in FINAL:
            raise ProtocolError(ErrorCode.invalid_state, f"That task is already {row.status}.")
        if not _resumable(row):
            await self._not_here(task_id, "stop")
            return
        # A paused task from an earlier host: end it in the record.
        self.store.set_status(task_id, TaskStatus.stopped, "stopped by the user")
        await self._announce(task_id)

    async def message(self, task_id: str, text: str, agent: str | None = None) -> None:
        """Follow-ups reach the scheduler as new information for the same task, before any
        further action. A message never resumes a paused task: it is recorded and shown, and
        the planner reads it when the user resumes. An outside agent's (`agent`: its name) is
        said as its own, and never answers a confirmation or a secret question: those are the
        user's, in the panel."""
        if agent is not None:
            return await self._agent_says(task_id, text, neutral(agent)[:120] or "an agent")
        if (cur := self.live(task_id)):
            if (asked := cur.task.question) is None or asked.kind != "secret":
                # (a password written in the message is the task's secret: never recorded)
                text, said = _secrets_said(text, cur.task.said_secrets)
                cur.task.said_secrets.update(said)
            if (asked := cur.task.question) is not None and cur.control.answer(text):
                # The answer to heybro's question; a secret is neither recorded nor shown.
                await self._say(cur, "(given — not recorded)" if asked.kind == "secret" else text,
                                who="user", answers=asked.id)
                return
            cur.task.memory.append(MemoryItem(name="user_message", value=text, note=True))
            cur.control.tell(text)
            await self._say(cur, text, who="user")
            if cur.control.paused:
                await self._say(cur, "Noted. The task stays paused: press Resume and the planner "
                                "takes this into account before any further action.")
            return
        text, said = _secrets_said(text, {})
        row = self.row(task_id)
        if said and _resumable(row):
            raise ProtocolError(ErrorCode.invalid_state, "heybro does not keep a password written "
                                "to a task that is not running (it would stay in its record). "
                                "Press Resume, then tell it again.")
        if _resumable(row):
            held: dict[str, Any] = (self.store.load_checkpoint(task_id) or {}).get("question") or {}
            if held.get("kind") == "secret":
                # Asked before heybro restarted: a secret typed now would land in the record.
                raise ProtocolError(ErrorCode.invalid_state, "heybro was asking for a secret when "
                                    "it stopped, and does not keep one typed now. Press Resume: "
                                    "it asks again, with a field that keeps it secret.")
            self._note_while_paused(row, text)
            return
        self.refuse_if_busy(allow=task_id)
        task = self._restore(task_id)
        task.said_secrets.update(said)
        settings = self.settings_for(task_id=task_id, need_model=needs_model(task)
                                  and not task.outside)
        task.memory.append(MemoryItem(name="user_message", value=text, note=True))
        running = self.launch(task, settings, resume=ResumeNote(user_said=[text]))
        await self._say(running, text, who="user")  # stored before the run's first event

    async def _agent_says(self, task_id: str, text: str, agent: str) -> None:
        cur = self.live(task_id)
        if cur is None:
            row = self.row(task_id)
            raise ProtocolError(ErrorCode.invalid_state, f"That task is {row.status}: an outside "
                                "agent's message reaches a running task only.")
        asked = cur.task.question
        if asked is not None and asked.kind in ("confirm", "secret"):
            raise ProtocolError(ErrorCode.not_allowed, (
                "heybro is asking the user to confirm a risky action" if asked.kind == "confirm"
                else "heybro is asking the user for a secret") + ": only they answer that, in "
                "heybro's side panel. Wait for their answer.")
        words = f"{agent} (outside agent): {text}"
        if asked is not None and cur.control.answer(text):  # (the answer itself: a choice's words)
            await self._say(cur, words, answers=asked.id)
            return
        cur.task.memory.append(MemoryItem(name="agent_message", value=words, note=True))
        cur.control.tell(words)
        await self._say(cur, words)

    async def hand_tab(self, task_id: str, tab_id: int, site: str) -> None:
        """A tab the user handed to the task: one of its tabs from now on (the coordinator has
        already let calls reach it), and in the task's memory, so the model knows it may use it —
        without interrupting what it is doing, and without answering a question it asked."""
        note = MemoryItem(name=f"handed_tab_{tab_id}", value=f"The user handed over tab {tab_id} "
                          f"({site}) for this task: switch_tab({tab_id}) to work in it.", note=True)
        if (cur := self.live(task_id)):
            if tab_id not in cur.task.tabs:
                cur.task.tabs.append(tab_id)
            cur.task.memory = [m for m in cur.task.memory if m.name != note.name] + [note]
            await self._say(cur, f"You handed over tab {tab_id} ({site}): heybro may use it now.")
            return
        row = self.row(task_id)
        if not _resumable(row):
            raise ProtocolError(ErrorCode.invalid_state, f"That task is already {row.status}.")
        state = self.store.load_checkpoint(task_id)
        if state is not None:
            if tab_id not in (tabs := state.setdefault("tabs", [])):
                tabs.append(tab_id)
            state["memory"] = [m for m in state.get("memory", []) if m.get("name") != note.name] \
                + [note.model_dump(mode="json")]
            self.store.checkpoint(task_id, state)
        self.store.append(task_id, "message", dump(MessageData(
            text=f"You handed over tab {tab_id} ({site}): heybro may use it once resumed.")))

    async def _say(self, cur: Running, text: str, *, who: Literal["user"] | None = None,
                   answers: str | None = None) -> None:
        """Words about the task from the session itself (the user's, or heybro's reply to them)."""
        said = MessageData(text=text)
        if who is not None:
            said.who = who
        if answers is not None:
            said.answers = answers
        await cur.tell(said)

    def _note_while_paused(self, row: TaskRow, text: str) -> None:
        """A message for a task paused in the record (no run here): kept in its history and its
        memory; it reaches the planner when the task is resumed."""
        state = self.store.load_checkpoint(row.id)
        if state is not None:
            state.setdefault("memory", []).append(
                MemoryItem(name="user_message", value=text, note=True).model_dump(mode="json"))
            self.store.checkpoint(row.id, state)
        self.store.append(row.id, "message", dump(MessageData(text=text, who="user")))
        self.store.append(row.id, "message", dump(MessageData(
            text="Noted. The task stays paused: press Resume and the planner takes this into "
                 "account before any further action.")))

    def watch(self, task_id: str, listener: Listener) -> None:
        cur = self.live(task_id)
        if cur is None:
            raise ProtocolError(ErrorCode.task_not_found, f"No live task {task_id!r}.")
        cur.listeners.add(listener)

    def follow(self, task_id: str, listener: Listener, after_seq: int = -1) -> list[Event]:
        """`listener` hears the task from now on, whether it runs, waits paused or is resumed
        (also by the panel); returns the stored events after `after_seq` it missed."""
        self.row(task_id)
        missed = views.events(self.store, task_id, after_seq)
        self.followers.setdefault(task_id, set()).add(listener)
        if (cur := self.live(task_id)):
            missed += [e for e in cur.unsaved if e.seq > (missed[-1].seq if missed else after_seq)]
            cur.listeners.add(listener)
        return missed

    async def caller_gone(self, listener: Listener) -> None:
        """A terminal's connection closed: it hears nothing more, and an outside agent's task it
        opened ends."""
        self.unwatch(listener)
        await self.outside.caller_gone(self, listener)

    def unwatch(self, listener: Listener) -> None:
        if self.current:
            self.current.listeners.discard(listener)
        for fns in self.followers.values():
            fns.discard(listener)

    def list_tasks(self, limit: int) -> TaskListResult:
        return queries.list_tasks(self.store, limit)

    def detail(self, task_id: str, after_seq: int = -1) -> TaskDetail:
        return queries.detail(self.store, task_id, after_seq, live=self.live(task_id))

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


def _outside_run(env: AgentEnv) -> TaskExecutor:
    """An outside agent's task restored after a restart: its run ends at once (its connection went
    with the host that ran it)."""
    return TaskExecutor(env, OutsideRun(env))


def _secrets_said(text: str, taken: dict[str, tuple[str, str]]) -> tuple[str, dict[str, tuple[str, str]]]:
    """`text` with the passwords written in it as `{{secret:NAME}}`, and those secrets (value, the
    field each goes into) for the task's run (agent/said_secrets.py)."""
    out, found, kinds = said_secrets(text, {n: v for n, (v, _) in taken.items()})
    return out, {n: (v, kinds[n]) for n, v in found.items()}
