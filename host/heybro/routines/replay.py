"""Replaying a routine as a task: each step re-finds its element by signature, acts, and checks its
expectation — no model call while the page matches. Where re-finding abstains or the expectation
fails, the worker heals THAT step (heal.py) and replay goes on; where healing fails, the task goes
on as a normal task from that subtask (the model takes over through the executor) or stops, as
the user chose. Healed steps go into the routine only once the whole run has verified.

A run is an ordinary task (history, events, pause/resume/stop, the same risk confirmations). Its
steps go through the recorder like the worker's actions, each carrying `routine_step` in its
parameters, so the store's action ledger says which steps are done: a restarted host resumes at
the first step not done, and a step a fault cut off is not repeated by itself (held for the
user's word, as the worker's actions are) unless the page already shows its outcome.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Literal

from .. import logs
from shared_schema.status import Decision

from ..agent.browser import describe_signature
from ..agent.cutoff import action_key
from ..agent.env import AgentEnv
from ..agent.run_state import Aim
from ..agent.errors import GuardrailHit, Interrupted, NewInformation
from ..agent.pipeline import Pipeline
from ..agent.model_run import ModelRun, open_task_page
from ..agent.expect import expect_text
from ..agent.settle import on_page
from ..agent.models import (ExpectedOutcome, MemoryItem, ProposedToolCall, ResumeNote,
                            RoleName, Subtask, Task, TaskStatus, Verdict)
from ..agent.steps import Done
from ..agent.toolbox import definition
from ..store.routines import StoreRoutines
from .heal import heal, proves
from .model import Routine, Step, fill

log = logs.get("heybro.routines")

OnHealFailure = Literal["continue", "stop"]
# The run's own settings, kept in the task (its checkpoint) so a restarted host resumes it alike.
RUN_MEMORY = "routine_run"
WAIT_MS = 3_000  # how long a step's expected URL or text may take to come after its action


@dataclass
class RunSettings:
    routine: str
    values: dict[str, str]
    on_heal_failure: OnHealFailure = "continue"
    mode: Literal["replay", "model"] = "replay"  # "model": healing failed and the model took over

    def item(self) -> MemoryItem:
        return MemoryItem(name=RUN_MEMORY, value=json.dumps(self.__dict__), note=True)

    @classmethod
    def of(cls, task: Task) -> RunSettings | None:
        for m in task.memory:
            if m.name == RUN_MEMORY:
                return cls(**json.loads(m.value))
        return None

    def keep(self, task: Task) -> None:
        task.memory = [m for m in task.memory if m.name != RUN_MEMORY] + [self.item()]


def new_task(routine: Routine, values: dict[str, str], *, url: str | None, tab_id: int | None,
             on_heal_failure: OnHealFailure) -> Task:
    """The task a run of `routine` is: its goal and plan filled with the run's values."""
    subtasks = [Subtask(text=fill(o.text, values), done_when=_filled(o.done_when, values))
                for o in routine.subtasks]
    task = Task(description=fill(routine.goal, values), url=url or fill(routine.start_url, values),
                tab_id=tab_id, subtasks=subtasks or [Subtask(text=fill(routine.goal, values))])
    RunSettings(routine.name, values, on_heal_failure).keep(task)
    return task


class HealFailed(Exception):
    """A step could not be replayed nor healed (the reason in words)."""


class RoutineReplay:
    """A routine's run (agent.executor.Run): its recorded steps replayed without the model, each
    through the same act phases as the worker's; the model's run takes over from the current
    subtask when a step cannot be healed or the user says something new."""

    def __init__(self, env: AgentEnv, routine: Routine, runs: StoreRoutines) -> None:
        self.env = env
        self.task = env.task
        self.model = ModelRun(env)
        self.routine = routine
        self.runs = runs
        settings = RunSettings.of(env.task)
        assert settings is not None, "a routine run's task carries its settings"
        self.settings = settings
        self.values = settings.values
        # Expectations with this run's values, and signatures with its values where the recorded
        # ones stood (a form's address naming the recorded page is this run's page's form).
        self.recorded = [s.model_copy(update={"expect": _filled(s.expect, self.values),
                                           "signature": _rebased(s.signature, routine, self.values)})
                      for s in routine.steps]
        self.healed: dict[int, list[Step]] = {}
        self.counted = len(env.task.usage)  # model calls already counted in routine_runs

    async def opening(self) -> None:
        # The task's row exists now: the run is listed with its routine from its first moment.
        self.runs.start_run(self.routine.name, self.task.id)
        await open_task_page(self.env)

    # --- the loop ------------------------------------------------------------------------------
    async def steps(self, resume: ResumeNote | None = None) -> Done:
        if self.settings.mode == "model":
            self._need_model("The model was finishing this run", "going on")
            return await self._model_loop(resume)
        env, task = self.env, self.task
        if resume is not None and resume.replan:
            return await self._hand_over(None, "you added information", resume)
        first = self._first_replay_step() if resume is not None else 0
        await self.env.life.set_status(TaskStatus.executing)
        await env.services.recorder.plan_changed(task)
        try:
            for n in range(first, len(self.recorded)):
                step = self.recorded[n]
                await self._enter_subtask(step.subtask)
                await env.life.checkpoint(interrupt=False)
                if env.services.control.has_messages:  # the user said something new: the model plans it
                    return await self._hand_over(None, "you added information")
                await self._replay(n, step)
            await self._enter_subtask(len(task.subtasks))
        except HealFailed as err:
            if self.settings.on_heal_failure == "stop":
                raise _stopped(str(err)) from None
            return await self._hand_over(str(err), "a step could not be healed")
        except NewInformation:
            return await self._hand_over(None, "you added information")
        finally:
            self._count()
        return await self._finish()

    async def _hand_over(self, why: str | None, short: str, said: ResumeNote | None = None) -> Done:
        """The rest of the task goes to the model (scheduler/worker/verifier) from the current
        subtask; the routine is not updated by this run."""
        env, task = self.env, self.task
        self._need_model(why or short, "finishing the task without the routine")
        self.settings.mode = "model"
        self.settings.keep(task)
        await env.services.recorder.message(
            task, f"Replay handed over to the model ({short}): it goes on with "
            f"\"{task.current_subtask or task.description}\"."
            + (" The routine is not changed by this run." if self.healed else ""),
            "warning" if why else "info")
        note = said if why is None else ResumeNote(why=(
            f"heybro was replaying the saved routine {self.routine.name!r} without the model and "
            f"could not go on: {why}. Continue the task from the current subtask on the page as "
            "it is; earlier subtasks are done."))
        return await self._model_loop(note)

    async def _model_loop(self, note: ResumeNote | None) -> Done:
        try:
            return await self.model.steps(note)
        finally:
            self._count()

    # --- one step ------------------------------------------------------------------------------
    async def _replay(self, n: int, step: Step) -> None:
        env, task = self.env, self.task
        args = fill(step.args, self.values)
        tool = definition(step.tool)
        if tool is None or not _replayable(step):
            await env.services.recorder.message(task, f"Step {n + 1} ({step.tool}) does not act on the page "
                                                "by an element; replay skips it.")
            return
        aim = Aim(step.signature, _describe(step.signature))
        params: dict[str, Any] = {"routine_step": n, **args}
        key = action_key(step.tool, params, aim.target)
        if key in task.cut_off and await self._shows(step):
            task.cut_off = [k for k in task.cut_off if k != key]
            return  # it happened before the fault: the page shows its outcome
        # (an element id only to satisfy the arguments: the call is aimed by the signature)
        given = {"element_id": "_", **args} if "element_id" in tool.args.model_fields else args
        try:
            a = tool.args.model_validate(given)
        except ValueError as err:
            return await self._heal(n, step, aim.target, args, f"schema_violation: the step's "
                                    f"arguments do not fit {step.tool}: {err}")
        # The worker's own path (pipeline.py): held through a pause, guarded, recorded as the
        # worker's actions are (so a run can be saved in turn), asked about, checked.
        done = await Pipeline(self, {tool.name: tool}, "replay").act(
            ProposedToolCall(tool=step.tool, parameters=params, reason=step.intent), a, aim=aim,
            expect=step.expect, settle_ms=WAIT_MS)
        env.page.changed()
        tc = done.tc
        if tc.success is False:
            why: str | None = f"{tc.error_code}: {tc.error}"
        elif step.expect is not None and tc.expectation is not None and not tc.expectation.met:
            why = f"its expectation failed: {tc.expectation.detail}"
        else:
            why = None
        if why is not None:
            await self._heal(n, step, aim.target, args, why)

    @property
    def name(self) -> RoleName:
        """Replayed steps are recorded as the worker's actions."""
        return "worker"

    async def _heal(self, n: int, step: Step, target: str | None, args: dict[str, Any],
                    why: str) -> None:
        env, task = self.env, self.task
        named = f"step {n + 1} ({step.tool}{' on ' + target if target else ''})"
        self._need_model(f"{named} does not match the page ({why})", "healing it")
        await env.services.recorder.message(task, f"{named[0].upper()}{named[1:]} does not match the page "
                                            f"({why}); asking the model for this step only.")
        while True:
            try:
                got = await heal(env, self.routine.name, n + 1, step, target, args, self.values, why)
                break
            except Interrupted as err:
                if isinstance(err, NewInformation):
                    raise
                continue  # paused while the model answered: that reply is set aside; ask again
        self._count()
        if got.ok and not got.steps:
            await env.services.recorder.message(task, f"Step {n + 1}: the page already shows its outcome "
                                                f"({got.why}).")
            return
        if not got.ok:
            raise HealFailed(f"step {n + 1} ({step.tool}{' on ' + target if target else ''}) did "
                             f"not match the page ({why}) and healing failed: {got.why}")
        self.healed[n] = got.steps
        self.runs.count_run(task.id, heals=1)
        await env.services.recorder.message(task, f"Step {n + 1} healed with {got.model_calls} model "
                                            f"call(s): {got.why}")

    def _need_model(self, situation: str, act: str) -> None:
        """Replay needs no model while the page matches; what needs one ends the run saying so
        (nothing on the page is done by a guess), recorded as any failed run."""
        if not self.env.services.settings.configured:
            raise GuardrailHit("no_model", f"{situation[:1].upper()}{situation[1:]}: {act} needs "
                               "a model, and none is configured. Set one with `heybro config "
                               "--model NAME [--base-url URL] [--api-key]` (any OpenAI-compatible "
                               "server; see `heybro config --help`), then run the routine again")

    # --- subtasks and the end -----------------------------------------------------------------
    async def _enter_subtask(self, index: int) -> None:
        """Moving on to subtask `index`. A subtask's declared outcome is checked on the way (a
        verdict in the record), but only the routine's final outcome decides: a redesign may
        change what a midway check names (a link now a button) while every step still found its
        element and met its expectation, and a step that really went astray fails on its own."""
        env, task = self.env, self.task
        index = min(index, len(task.subtasks))
        while task.current_subtask_index < index:
            current = task.current_step
            if current is not None and current.done_when is not None:
                try:
                    await self._prove(current.done_when, "done_when")
                except HealFailed as err:
                    await env.services.recorder.message(task, f"Going on: {err}; the steps' own checks "
                                                        "held, and the routine's outcome is checked at "
                                                        "the end.", "warning")
            task.current_subtask_index += 1
            await env.services.recorder.plan_changed(task)

    async def _prove(self, outcome: ExpectedOutcome, what: str) -> str:
        env = self.env
        env.page.changed()
        fact = await on_page(env, what, outcome, {}, None, await env.page.observe())
        fact.about = "the routine's outcome" if what == "outcome" else \
            f"done_when of subtask {self.task.current_subtask_index + 1}"
        verdict = Verdict(decision=Decision.mark_complete if fact.met else Decision.continue_work,
                          by="host",
                          reason=f"the page {'shows' if fact.met else 'does not show'} it: "
                                 f"{fact.detail}", llm_confidence=None,
                          dom_confidence=1.0 if fact.met else 0.0,
                          confidence=1.0 if fact.met else 0.0,
                          threshold=env.services.settings.confidence_threshold, accepted=fact.met,
                          facts=[fact])
        await env.services.recorder.verdict(self.task, verdict)
        if not fact.met:
            raise HealFailed(f"after the replayed steps the page does not show "
                             f"{expect_text(outcome)!r} ({fact.detail})")
        return fact.detail

    async def _finish(self) -> Done:
        """Every step ran: the routine's recorded outcome is checked on the page (the run
        verifies), and only then do the healed steps go into the routine."""
        env, task = self.env, self.task
        await self.env.life.set_status(TaskStatus.verifying)
        final = next((_filled(o.done_when, self.values) for o in reversed(self.routine.subtasks)
                      if o.done_when), None)
        last = next((s.expect for s in reversed(self.recorded) if s.expect), None)
        outcome = final or last
        try:
            shown = await self._prove(outcome, "outcome") if outcome is not None else \
                "every step ran (the routine declares no outcome to check)"
        except HealFailed as err:
            if self.settings.on_heal_failure == "stop":
                raise _stopped(str(err)) from None
            task.current_subtask_index = max(0, len(task.subtasks) - 1)
            return await self._hand_over(str(err), "the outcome is not on the page")
        steps = len(self.recorded)
        heals = len(self.healed)
        if heals:
            self._update_routine()
            await env.services.recorder.message(task, f"Routine {self.routine.name!r} updated: "
                                                f"{heals} step(s) healed into it.")
        calls = len(task.usage)
        return Done(f"Replayed routine {self.routine.name!r}: {steps} steps, {heals} healed, "
                    f"{calls} model call(s); {shown}.")

    def _update_routine(self) -> None:
        stored = self.runs.get(self.routine.name)
        if stored is None:
            return  # deleted meanwhile: nothing to update
        steps = list(stored.steps)
        for n in sorted(self.healed, reverse=True):
            if n < len(steps):  # the expectation as saved (parameters, not this run's values)
                new = [s.model_copy(update={"expect": None}) for s in self.healed[n]]
                new[-1] = new[-1].model_copy(update={"expect": steps[n].expect})
                steps[n:n + 1] = new
        updated = stored.model_copy(update={"steps": steps, "heals": stored.heals + len(self.healed),
                                            "updated_at": time.time()})
        self.runs.save(Routine.model_validate(updated.model_dump()), replace=True)
        log.info("routine_healed", routine=stored.name, steps=sorted(self.healed))

    # --- resuming and counting ------------------------------------------------------------------
    def _first_replay_step(self) -> int:
        """After a restart: the step after the last one the ledger records as done."""
        done = [int(a.params["routine_step"]) for a in self.runs.store.actions(self.task.id)
                if a.state == "done" and isinstance(a.params.get("routine_step"), int)]
        return max(done) + 1 if done else 0

    async def _shows(self, step: Step) -> bool:
        if step.expect is None or not proves(step.expect):
            return False
        self.env.page.changed()
        return (await on_page(self.env, step.tool, step.expect, {}, None, await self.env.page.observe())).met

    def _count(self) -> None:
        calls = len(self.task.usage) - self.counted
        if calls:
            self.runs.count_run(self.task.id, model_calls=calls)
            self.counted += calls


def _stopped(why: str) -> GuardrailHit:
    """The end of a run whose user chose to stop when healing fails: failed, with the reason."""
    return GuardrailHit("heal_failed", f"{why}. The replay stopped there, as asked "
                        "(on heal failure: stop).")


def _replayable(step: Step) -> bool:
    """Whether replay can do the step again: an act on the page, or a reading of one element
    (extract) that the browser does by the step's signature."""
    tool = definition(step.tool)
    return tool is not None and (tool.acts_on_page or (tool.wire is not None and step.signature is not None))


MIN_REBASED = 4  # shorter recorded values ("1", "en") would be replaced where they are not meant


def _rebased(sig: dict[str, Any] | None, routine: Routine,
             values: dict[str, str]) -> dict[str, Any] | None:
    """`sig` as the element stands in this run: each parameter's recorded value in it (a form's
    address, a link's, a neighbour's words) replaced by the run's value."""
    swaps = [(p.default, values[p.name]) for p in routine.parameters
             if len(p.default) >= MIN_REBASED and values.get(p.name, p.default) != p.default]
    if sig is None or not swaps:
        return sig
    text = json.dumps(sig)
    for old, new in swaps:
        text = text.replace(json.dumps(old)[1:-1], json.dumps(new)[1:-1])
    rebased: dict[str, Any] = json.loads(text)
    return rebased


def _filled(outcome: ExpectedOutcome | None, values: dict[str, str]) -> ExpectedOutcome | None:
    return None if outcome is None else outcome.mapped(lambda s: fill(s, values))


def _describe(sig: dict[str, Any] | None) -> str | None:
    return describe_signature(sig) if isinstance(sig, dict) else None

