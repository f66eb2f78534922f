"""The model's run of a task: the scheduler plans, the worker (or the role the plan names) works a
subtask, the verifier judges it — moving between them only through their transition tools — until
the last subtask is achieved. The executor runs it; a routine's replay hands over to it."""

from __future__ import annotations

import dataclasses

from .. import logs
from .env import AgentEnv
from .errors import GuardrailHit, HeldReplySetAside, Interrupted, NewInformation
from .proof import others_hold, prove
from .models import Decision, ExecutionCycle, ResumeNote, TaskStatus, Verdict
from .scheduler import Scheduler
from .steps import Done, Next, Plan, Verify, Work, note_of
from .verifier import Verifier, last_action_failed, page_confidence
from .analyst import Analyst
from .technician import Technician
from .toolbox import FAIL_TASK, NAVIGATE
from .worker import Worker

# Who works a subtask, by the role the plan gives it.
WORKERS = {"worker": Worker, "analyst": Analyst, "technician": Technician}

log = logs.get("heybro.agent")


async def open_page(env: AgentEnv, url: str) -> None:
    """Opens `url` in the task's tab (a new one when it has none), which becomes its tab."""
    result = await env.calls.call(NAVIGATE.name, {"url": url}, timeout_ms=30_000)
    if isinstance(result.get("tab_id"), int):
        env.state.tab_id = env.task.tab_id = result["tab_id"]


async def open_task_page(env: AgentEnv) -> None:
    """Before the first step of a new run: the task's page, when it names one."""
    if env.task.url:
        await open_page(env, env.task.url)


class ModelRun:
    def __init__(self, env: AgentEnv) -> None:
        self.env = env
        self.task = env.task
        self.replans = 0

    async def opening(self) -> None:
        await open_task_page(self.env)

    def _first_step(self, resume: ResumeNote | None) -> Next:
        """Where a run starts: planning, or, resuming a plan in progress, the same subtask."""
        if resume is None:
            return Plan()
        if self.task.current_subtask is not None and not resume.replan:
            return Work(correction=resume.text())
        return Plan(reason=resume.text())

    async def steps(self, resume: ResumeNote | None = None) -> Done:
        """The run's steps until it is done; returns how it ended. Plans, works and verifies until
        the last subtask is achieved, or the planner or the verifier judges the goal cannot be."""
        env, task = self.env, self.task
        step = self._first_step(resume)
        while not isinstance(step, Done):
            await env.life.checkpoint(interrupt=False)
            task.tab_id = env.state.tab_id
            if env.state.snapshot is not None and env.state.snapshot.url:
                task.last_url = env.state.snapshot.url
            step = await self._heard(step)
            try:
                match step:
                    case Plan():
                        step = await self._plan(step)
                    case Work():
                        step = await self._work(step)
                    case Verify():
                        step = await self._judged(step, await self._verify(step))
            except Interrupted as err:
                await self._interrupted(err, step)
                if isinstance(err, NewInformation):
                    step = Plan(reason=note_of(step))
                elif isinstance(step, Work):  # the same subtask again; the plan is recorded once
                    step = dataclasses.replace(step, plan=None)
        return step

    async def _heard(self, step: Next) -> Next:
        """New information from the user goes to the planner for the same task, before any further
        action (with the note the step was to pass on)."""
        said = self.env.services.control.take_messages()
        if not said:
            return step
        reason = "The user added: " + " / ".join(said)
        if (earlier := note_of(step)):
            reason += f"\n(Before that: {earlier})"
        await self.env.services.recorder.message(self.task, "Replanning with what you said, before any "
                                                 "further action.")
        return Plan(reason=reason)

    async def _plan(self, step: Plan) -> Next:
        await self.env.life.set_status(TaskStatus.planning)
        planned = await Scheduler(self.env, step.reason).run()
        await self.env.services.recorder.plan_changed(self.task)
        if planned.transition is not None and planned.transition.tool == FAIL_TASK.name:
            why = str(planned.transition.parameters.get("reason") or "").strip()
            return Done(f"The planner ended the task: the goal cannot be met — {why}", failed=True)
        return Work(plan=planned)

    async def _work(self, step: Work) -> Next:
        """One cycle of the current subtask by the role the plan gives it."""
        env, task = self.env, self.task
        assignment = task.current_subtask or task.description
        await self.env.life.set_status(TaskStatus.correcting if step.correction else TaskStatus.executing)
        cycle = self.task.new_cycle(assignment)
        cycle.scheduler = step.plan
        current = task.current_step
        worker = WORKERS[current.role if current else "worker"](env, assignment, step.correction)
        try:
            cycle.worker = await worker.run()
        except Interrupted as err:  # the planner's history shows where it stopped
            cycle.worker_summary = ("(interrupted before finishing: the user added information)"
                                    if isinstance(err, NewInformation) else
                                    "(paused before finishing; continued in the next cycle)")
            raise
        cycle.worker_summary = worker.summary
        return Verify(cycle, step.attempts + 1)

    async def _verify(self, step: Verify) -> Verdict:
        verdict = await self._host_proof(step.cycle)
        if verdict is None:
            await self.env.life.set_status(TaskStatus.verifying)
            verifier = Verifier(self.env, step.cycle)
            step.cycle.verifier = await verifier.run()
            verdict = verifier.verdict
        assert verdict is not None
        step.cycle.verdict = verdict
        return verdict

    async def _judged(self, step: Verify, verdict: Verdict) -> Next:
        """The step after a verdict: the next subtask (or the end), the same one again, or a new
        plan."""
        env, task, limits = self.env, self.task, self.env.services.settings.limits
        if verdict.decision == Decision.mark_complete and verdict.accepted:
            task.current_subtask_index += 1
            await env.services.recorder.plan_changed(task)
            if task.current_subtask is not None:
                return Work()
            if not env.services.control.has_messages:
                return Done(verdict.reason)
            return Plan()  # the user said more: plan for it first
        if verdict.decision == Decision.fail_task:
            if verdict.accepted:
                return Done(f"The verifier judged that the goal cannot be met — {verdict.reason}",
                            failed=True)
            return self._replan(f"The verifier thinks the goal cannot be met, but is not sure "
                                f"({verdict.confidence:.2f} < {verdict.threshold:.2f}): {verdict.reason}")
        if verdict.decision == Decision.request_reschedule:
            return self._replan(verdict.reason)
        correction = verdict.reason if verdict.decision == Decision.continue_work else \
            not_taken(verdict)
        if step.attempts < limits.max_retries:
            return Work(correction=correction, attempts=step.attempts)
        reason = (f"The subtask {step.cycle.assignment!r} failed {step.attempts} times; "
                  f"last verdict: {verdict.reason}")
        await env.services.recorder.message(task, reason, "warning")
        return self._replan(reason)

    def _replan(self, reason: str) -> Plan:
        self.replans += 1
        if self.replans > self.env.services.settings.limits.max_replans:
            raise GuardrailHit("max_replans", f"The plan was changed {self.replans - 1} "
                               f"times without finishing; last reason: {reason}")
        return Plan(reason=reason)

    async def _host_proof(self, cycle: ExecutionCycle) -> Verdict | None:
        """The subtask's declared outcome, checked by the host on the page the worker left: when
        it holds, the subtask is proven without a model call (proof.py says when it is tried;
        not after a failed action)."""
        env, task = self.env, self.task
        if last_action_failed(cycle) is not None:
            return None
        # (read again now: the verifier, where it is asked, hears the page as it is, not as an
        # earlier batch of this cycle left it; the task's last subtask it always judges)
        fact = await prove(env, last=True, read_anyway=True)
        if fact is None or not fact.met or task.on_last_subtask or not others_hold(env):
            return None  # the verifier hears it among the facts
        page, checks = page_confidence(env.state.facts)
        verdict = Verdict(decision=Decision.mark_complete, by="host", reason=f"the page shows it: "
                          f"{fact.detail}", llm_confidence=None, dom_confidence=round(page, 3),
                          confidence=1.0, threshold=env.services.settings.confidence_threshold, accepted=True,
                          facts=list(env.state.facts), checks=checks)
        await env.services.recorder.verdict(task, verdict)
        return verdict

    async def _interrupted(self, err: Interrupted, step: Next) -> None:
        """Records what an interruption left undone: the proposed actions set aside (never carried
        out)."""
        env, task = self.env, self.task
        names = ", ".join(self._describe(c) for c in err.set_aside)
        if isinstance(err, HeldReplySetAside):
            text = ("Resumed. The reply the model gave while the task was paused is kept in the "
                    "record, not acted on" + (f" (it proposed: {names})" if names else "") +
                    "; heybro looks at the page again first.")
        else:
            text = ("Set aside the actions proposed before your message, not carried out: "
                    f"{names}." if names else "")
        if text:
            await env.services.recorder.message(task, text)
        log.info("task_interrupted_step", task_id=task.id, step=type(step).__name__,
                 kind=type(err).__name__, set_aside=[getattr(c, "tool", "?") for c in err.set_aside])

    def _describe(self, call: object) -> str:
        tool = getattr(call, "tool", "?")
        params: dict[str, object] = getattr(call, "parameters", {}) or {}
        snap = self.env.state.snapshot
        target = snap.describe(params.get("element_id")) if snap is not None else None
        rest = ", ".join(f"{k}={v!r}" for k, v in params.items()
                         if k not in ("element_id", "expect", "signature"))
        return f"{tool}{' ' + target if target else ''}{f' ({rest})' if rest else ''}"


def not_taken(verdict: Verdict) -> str:
    """Why a "done" was not taken, for the worker sent back: the model unsure, or the checks that
    held it back, by name."""
    if verdict.confidence < verdict.threshold:
        return (f"The verifier was not confident enough that this is done ({verdict.confidence:.2f} "
                f"< {verdict.threshold:.2f}): {verdict.reason}. Make sure the assignment is really "
                "achieved on the page, then report.")
    return (f"The verifier judged this done ({verdict.reason}), but what heybro checked does not "
            f"agree: {'; '.join(verdict.held_back)}. Make the page show it; if it already does, "
            "say in your report what on the page shows it.")
