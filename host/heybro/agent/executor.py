"""TaskExecutor: a task's life from start to end, whatever runs its steps — the model's run
(`ModelRun`: plan, work, verify), a routine's replay, an outside agent's calls. It sets the
statuses, keeps the wall clock (stopped while paused), turns every way a run ends into the task's
outcome, and reopens the task's page after a restart."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Protocol

from shared_schema.status import Pause

from .. import logs
from ..llm import LLMError
from ..store.errors import StoreUnwritable
from .browser_tools import OBSERVE
from .env import AgentEnv
from .errors import BrowserLost, GuardrailHit, RepeatHeld, TaskStopped, ToolFailed
from .model_run import ModelRun, open_page
from .models import ResumeNote, TaskStatus
from .steps import Done

log = logs.get("heybro.agent")


@dataclass
class TaskResult:
    task_id: str
    status: TaskStatus
    reason: str | None

    @property
    def completed(self) -> bool:
        return self.status == TaskStatus.completed


class Run(Protocol):
    """What runs a task's steps (the executor runs one; the model's run unless given another)."""

    async def opening(self) -> None:
        """Before the first step of a new run (the task's page, when it names one)."""

    async def steps(self, resume: ResumeNote | None) -> Done:
        """The steps until the task is done; returns how it ended: the goal met (completed) or
        judged not to be met (failed), with the reason the user reads. With `resume`, goes on with
        a task restored from the store, the note handed to whoever picks it up."""


class _Clock:
    """The wall-clock limit's deadline, counting running time only (`stop` while paused)."""

    def __init__(self, seconds: float) -> None:
        self.deadline: asyncio.Timeout | None = None
        self.left = seconds
        self.loop = asyncio.get_running_loop()

    def stop(self) -> None:
        if (d := self.deadline) is not None and (when := d.when()) is not None:
            self.left = max(0.0, when - self.loop.time())
            d.reschedule(None)

    def start(self) -> None:
        if (d := self.deadline) is not None and d.when() is None:
            d.reschedule(self.loop.time() + self.left)


class TaskExecutor:
    def __init__(self, env: AgentEnv, run: Run | None = None) -> None:
        self.env = env
        self.task = env.task
        self.task.max_steps = env.services.settings.limits.max_steps
        self.run = run or ModelRun(env)

    async def execute(self, *, resume: ResumeNote | None = None) -> TaskResult:
        """Runs the task to an end. With `resume`, continues a task restored from the store
        (its plan and position kept) and hands the note to the role that picks it up."""
        env, task = self.env, self.task
        if resume is None:
            await env.services.recorder.task_created(task)
            await env.services.recorder.status_changed(task, task.status, None)
        clock = self._clock_held_through_pauses()
        try:
            async with asyncio.timeout(env.services.settings.limits.task_timeout_s) as cm:
                clock.deadline = cm
                if resume is None:
                    await self.run.opening()
                else:
                    await self._reopen()
                ended = await self.run.steps(resume)
            await self._ended(ended)
        except StoreUnwritable:
            raise  # the session pauses the task and keeps it until writing works again
        except Exception as err:  # noqa: BLE001 - a task must end with a reason, never hang
            await self._cut_short(err)
        finally:
            await env.host.close()  # the task's MCP servers end with it
        return TaskResult(task.id, task.status, task.result)

    def _clock_held_through_pauses(self) -> _Clock:
        """The wall clock, stopped while the task is paused or waits for the user's answer; a
        pause and a resume recorded as the task's statuses (a resume goes back to where it was)."""
        env, task = self.env, self.task
        clock = _Clock(float(env.services.settings.limits.task_timeout_s))
        resume_status = [TaskStatus.planning]

        async def on_pause() -> None:
            clock.stop()
            resume_status[0] = task.status
            await env.life.set_status(TaskStatus.paused, "paused by the user", Pause.asked)

        async def on_resume() -> None:
            clock.start()
            await env.life.set_status(resume_status[0], "resumed")

        control = env.services.control
        control.on_pause, control.on_resume = on_pause, on_resume
        control.on_hold, control.on_release = clock.stop, clock.start
        return clock

    async def _ended(self, ended: Done) -> None:
        """The run's own end: the goal met (completed), or judged not to be met (failed)."""
        if ended.failed:  # the planner or the verifier judged the goal cannot be met
            await self._fail(ended.reason)
        else:
            self.task.result = ended.reason
            await self.env.life.set_status(TaskStatus.completed, ended.reason)

    async def _cut_short(self, err: Exception) -> None:
        """Every other way a run ends, as the task's outcome: stopped by the user, failed with the
        reason the user reads, or paused for the user's word (a browser gone mid-action, an action
        a fault cut off proposed again)."""
        env, task = self.env, self.task
        limits = env.services.settings.limits
        if isinstance(err, TaskStopped):
            task.result = str(err)
            await env.life.set_status(TaskStatus.stopped, str(err))
        elif isinstance(err, GuardrailHit):
            await self._fail(f"Guardrail ({err.limit}): {err}")
        elif isinstance(err, LLMError):
            await self._fail(str(err))
        elif isinstance(err, TimeoutError):
            await self._fail(f"Guardrail (task_timeout): the task ran longer than its limit of "
                             f"{limits.task_timeout_s:.0f} s.")
        elif isinstance(err, ToolFailed):
            await self._fail(f"Browser error ({err.code}): {err.message}")
        elif isinstance(err, BrowserLost):
            # Never retried: the task waits, paused, for the user; on resume the worker is told
            # what was cut off and looks at the page first (the host-crash path).
            task.result = None
            await env.services.recorder.message(
                task, f"The browser side went away: {err}. That action may or may not have "
                "happened; the task is paused. Press Resume and heybro looks at the page before "
                "repeating anything.", "warning")
            await env.life.set_status(TaskStatus.paused, f"interrupted: {err}", Pause.cut_off)
        elif isinstance(err, RepeatHeld):
            task.held_repeat = err.key
            await env.services.recorder.message(
                task, f"Not repeating {err.key} by itself: a fault cut it off earlier and it may "
                "have happened. Check the page, then Resume to let it go ahead, or Stop.", "warning")
            await env.life.set_status(TaskStatus.paused, err.reason, Pause.held)
        else:
            log.exception("task_crashed", task_id=task.id)
            await self._fail(f"Internal error: {type(err).__name__}: {err}")

    async def _fail(self, reason: str) -> None:
        self.task.result = reason
        await self.env.services.recorder.message(self.task, reason, "error")
        await self.env.life.set_status(TaskStatus.failed, reason)

    async def _reopen(self) -> None:
        """After a restart the task's tab may be gone (the browser was closed): reopen its page."""
        env, task = self.env, self.task
        try:
            await env.calls.call(OBSERVE, {"max_tokens": 200})
            return
        except ToolFailed as err:
            # (not_allowed: after a browser restart the old tab id is no longer the task's.)
            if err.code not in ("no_tab", "detached", "navigation", "not_allowed"):
                raise
        url = self._last_url() or task.last_url or task.url
        if not url:
            raise ToolFailed("no_tab", "The task's tab is gone and no page address was recorded "
                             "to reopen; start the task again from the page.")
        env.state.tab_id = None
        await open_page(env, url)
        await env.services.recorder.message(task, f"The task's tab was gone; reopened {url}.")

    def _last_url(self) -> str | None:
        """The page the last browser action reported being on (acts and navigations carry it)."""
        for cycle in reversed(self.task.execution_history):
            for result in (cycle.worker, cycle.verifier):
                for it in reversed(result.iterations if result else []):
                    for call in reversed(it.tool_calls):
                        url = call.result.get("url") if isinstance(call.result, dict) else None
                        if isinstance(url, str):
                            return url
        return None
