"""TaskExecutor: moves between Scheduler, Worker and Verifier only through their transition tools."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .. import logs
from ..llm import LLMError
from .browser import ToolFailed
from .control import TaskStopped
from .env import AgentEnv
from .guardrails import GuardrailHit
from .models import ExecutionCycle, TaskStatus
from .scheduler import Scheduler
from .verifier import Verifier
from .worker import Worker

log = logs.get("heybro.agent")


@dataclass
class TaskResult:
    task_id: str
    status: TaskStatus
    reason: str | None

    @property
    def completed(self) -> bool:
        return self.status == TaskStatus.completed


class TaskExecutor:
    def __init__(self, env: AgentEnv) -> None:
        self.env = env
        self.task = env.task
        self.task.max_steps = env.limits.max_steps
        self.replans = 0

    async def _status(self, status: TaskStatus, reason: str | None = None) -> None:
        if self.task.status == status and reason is None:
            return
        self.task.status = status
        await self.env.recorder.status_changed(self.task, status, reason)

    async def execute(self, *, resume: str | None = None) -> TaskResult:
        """Runs the task to an end. With `resume`, continues a task restored from the store
        (its plan and position kept) and hands the note to the role that picks it up."""
        env, task = self.env, self.task
        if resume is None:
            await env.recorder.task_created(task)
            await env.recorder.status_changed(task, task.status, None)
        resume_status = [TaskStatus.planning]

        async def on_pause() -> None:
            resume_status[0] = task.status
            await self._status(TaskStatus.paused, "paused by the user")

        async def on_resume() -> None:
            await self._status(resume_status[0], "resumed")

        env.control.on_pause, env.control.on_resume = on_pause, on_resume
        try:
            async with asyncio.timeout(env.limits.task_timeout_s):
                if resume is None:
                    await self._open_start()
                else:
                    await self._reopen()
                reason = await self._loop(resume)
            task.result = reason
            await self._status(TaskStatus.completed, reason)
        except TaskStopped as err:
            task.result = str(err)
            await self._status(TaskStatus.stopped, str(err))
        except GuardrailHit as err:
            await self._fail(f"Guardrail ({err.limit}): {err}")
        except LLMError as err:
            await self._fail(str(err))
        except TimeoutError:
            await self._fail(f"Guardrail (task_timeout): the task ran longer than its limit of "
                             f"{env.limits.task_timeout_s:.0f} s.")
        except ToolFailed as err:
            await self._fail(f"Browser error ({err.code}): {err.message}")
        except Exception as err:  # noqa: BLE001 - a task must end with a reason, never hang
            log.exception("task_crashed", task_id=task.id)
            await self._fail(f"Internal error: {type(err).__name__}: {err}")
        return TaskResult(task.id, task.status, task.result)

    async def _fail(self, reason: str) -> None:
        self.task.result = reason
        await self.env.recorder.message(self.task, reason, "error")
        await self._status(TaskStatus.failed, reason)

    async def _open_start(self) -> None:
        env, task = self.env, self.task
        if task.url:
            result = await env.call("navigate", {"url": task.url}, timeout_ms=30_000)
            if isinstance(result.get("tab_id"), int):
                env.tab_id = task.tab_id = result["tab_id"]

    async def _reopen(self) -> None:
        """After a restart the task's tab may be gone (the browser was closed): reopen its page."""
        env, task = self.env, self.task
        try:
            await env.call("observe", {"max_tokens": 200})
            return
        except ToolFailed as err:
            if err.code not in ("no_tab", "detached", "navigation"):
                raise
        url = self._last_url() or task.last_url or task.url
        if not url:
            raise ToolFailed("no_tab", "The task's tab is gone and no page address was recorded "
                             "to reopen; start the task again from the page.")
        env.tab_id = None
        result = await env.call("navigate", {"url": url}, timeout_ms=30_000)
        if isinstance(result.get("tab_id"), int):
            env.tab_id = task.tab_id = result["tab_id"]
        await env.recorder.message(task, f"The task's tab was gone; reopened {url}.")

    def _last_url(self) -> str | None:
        """The page the last browser action reported being on (acts and navigations carry it)."""
        for cycle in reversed(self.task.execution_history):
            for result in (cycle.worker, cycle.verifier):
                for it in reversed(result.iterations if result else []):
                    for call in reversed(it.tool_calls):
                        if isinstance(call.result, dict) and isinstance(call.result.get("url"), str):
                            return call.result["url"]
        return None

    def _new_cycle(self, assignment: str) -> ExecutionCycle:
        cycle = ExecutionCycle(index=len(self.task.execution_history) + 1, assignment=assignment,
                               subtask_index=self.task.current_subtask_index)
        self.task.execution_history.append(cycle)
        return cycle

    async def _loop(self, resume: str | None = None) -> str:
        env, task, limits = self.env, self.task, self.env.limits
        role = "scheduler"
        reschedule_reason: str | None = None
        correction: str | None = None
        if resume is not None:
            # A plan in progress goes on with the same subtask; otherwise the scheduler replans.
            if task.current_subtask is not None and not resume.startswith("The user added"):
                role, correction = "worker", resume
            else:
                reschedule_reason = resume
        attempts = 0
        scheduler_result = None
        while True:
            await env.checkpoint()
            task.tab_id = env.tab_id
            if env.snapshot is not None and env.snapshot.url:
                task.last_url = env.snapshot.url
            said = env.control.take_messages() if role != "verifier" else []
            if said:
                # New information from the user goes to the planner for the same task.
                reschedule_reason = "The user added: " + " / ".join(said)
                await env.recorder.message(task, reschedule_reason)
                role = "scheduler"
            if role == "scheduler":
                await self._status(TaskStatus.planning)
                scheduler_result = await Scheduler(env, reschedule_reason).run()
                await env.recorder.plan_changed(task)
                attempts, correction, role = 0, None, "worker"
                continue
            if role == "worker":
                assignment = task.current_subtask or task.description
                await self._status(TaskStatus.correcting if correction else TaskStatus.executing)
                cycle = self._new_cycle(assignment)
                cycle.scheduler, scheduler_result = scheduler_result, None
                worker = Worker(env, assignment, correction)
                cycle.worker = await worker.run()
                cycle.worker_summary = worker.summary
                attempts += 1
                role = "verifier"
                continue
            await self._status(TaskStatus.verifying)
            verifier = Verifier(env, cycle)
            cycle.verifier = await verifier.run()
            verdict = cycle.verdict = verifier.verdict
            assert verdict is not None
            if verdict.decision == "mark_complete" and verdict.accepted:
                task.current_subtask_index += 1
                await env.recorder.plan_changed(task)
                if task.current_subtask is None and not env.control.has_messages:
                    return verdict.reason
                if task.current_subtask is None:  # the user said more: plan for it first
                    role = "scheduler"
                    continue
                attempts, correction, role = 0, None, "worker"
                continue
            if verdict.decision == "request_reschedule":
                reschedule_reason, role = verdict.reason, "scheduler"
            else:
                correction = verdict.reason if verdict.decision == "continue_work" else (
                    f"The verifier was not confident enough that this is done ({verdict.confidence:.2f} "
                    f"< {verdict.threshold:.2f}): {verdict.reason}. Make sure the assignment is "
                    "really achieved on the page, then report.")
                role = "worker"
                if attempts >= limits.max_retries:
                    reschedule_reason = (f"The subtask {cycle.assignment!r} failed {attempts} times; "
                                         f"last verdict: {verdict.reason}")
                    await env.recorder.message(task, reschedule_reason, "warning")
                    role = "scheduler"
            if role == "scheduler":
                self.replans += 1
                if self.replans > limits.max_replans:
                    raise GuardrailHit("max_replans", f"The plan was changed {self.replans - 1} "
                                       f"times without finishing; last reason: {reschedule_reason}")
