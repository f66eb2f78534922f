"""Verifier: judges the worker's result on the page, with the host's expectation facts."""

from __future__ import annotations

import time
from collections.abc import Sequence

from pydantic import BaseModel

from shared_schema.page_text import one_line

from . import history, learnings
from ..flow.atoms import normal
from .facts import latest, lines
from .models import (Decision, ExecutionCycle, ExpectationCheck, Iteration, ProposedToolCall,
                     ToolCall, Verdict)
from .role import Role
from .toolbox import MARK_COMPLETE, Confidence, any_result_text, reports
from .verifier_prompt import SYSTEM

ENDINGS = (MARK_COMPLETE.name, Decision.fail_task.value)


def last_action_failed(cycle: ExecutionCycle) -> ToolCall | None:
    """The worker's last action of the cycle, when it failed (its report aside)."""
    calls = [tc for it in (cycle.worker.iterations if cycle.worker else []) for tc in it.tool_calls
             if not tc.transition]
    return calls[-1] if calls and calls[-1].success is False else None


def page_confidence(facts: list[ExpectationCheck]) -> tuple[float, int]:
    """The page's confidence: the share of the host's checks whose latest reading holds (facts.py),
    and how many checks that is of (1.0 of 0 when nothing was checked)."""
    now = latest(facts)
    return (sum(p.met for _, p in now) / len(now) if now else 1.0), len(now)


def held_back(cycle: ExecutionCycle, facts: list[ExpectationCheck]) -> list[str]:
    """What speaks against "done", in words: each check whose latest reading does not hold, and
    a last action that failed."""
    out = [f"{p.clause} NOT MET ({p.detail})" for _, p in latest(facts) if not p.met]
    if (failed := last_action_failed(cycle)) is not None:
        out.append(f"the last action failed: {failed.tool}"
                   + (f" {failed.target}" if failed.target else "") + f" ({failed.error_code})")
    return out


def overrules(text: str | None, facts: list[ExpectationCheck]) -> bool:
    """Whether the verifier's `overrule` names each check that does not hold (by its words) and
    says why the goal is met all the same."""
    said = normal(text or "")
    if not said:
        return False
    unmet = [p.clause for _, p in latest(facts) if not p.met]
    return all(normal(c.split(":", 1)[-1]) in said for c in unmet)  # (its words, however quoted)


class Verifier(Role):
    name = "verifier"
    system = SYSTEM

    def __init__(self, env, cycle: ExecutionCycle) -> None:  # type: ignore[no-untyped-def]
        super().__init__(env)
        self.cycle = cycle
        self.verdict: Verdict | None = None

    @property
    def desk_work(self) -> bool:
        """The cycle's work was done without the page (an analyst's answer, a technician's job):
        it is judged against the facts and the tools' results, not a page."""
        result = self.cycle.worker
        return result is not None and result.role in ("analyst", "technician")

    async def context(self) -> str:
        env, t = self.env, self.env.task
        facts = lines(env.state.facts) or "(no expectations were declared)"
        decided = history.decisions(self._calls())
        if decided:
            facts += "\nWHAT THE USER DECIDED:\n" + decided
        last = t.on_last_subtask
        return "\n\n".join([
            f"GOAL: {t.description}",
            f"QUEUE:\n{history.queue(t)}" + ("\n(the CURRENT subtask is the last one)" if last else ""),
            f"ASSIGNMENT: {one_line(self.cycle.assignment, 600)}",
            f"WORKER SUMMARY (a claim to check): {one_line(self.cycle.worker_summary or '', 1200)}",
            "ACTIONS THIS CYCLE:\n" + self._actions(),
            f"FACTS CHECKED BY THE HOST:\n{facts}",
            f"MEMORY:\n{history.memory(t)}",
            f"HISTORY:\n{history.cycles(t, detail=self.desk_work)}",
            await self._evidence()])

    def _calls(self) -> list[ToolCall]:
        return [tc for it in (self.cycle.worker.iterations if self.cycle.worker else [])
                for tc in it.tool_calls]

    def _actions(self) -> str:
        out = []
        for tc in self._calls():
            if reports(tc.tool):  # the summary and the answer are shown apart
                continue
            out.append(f"- {history.call_line(tc)}")
            got = any_result_text(tc, 1500) if self.desk_work else None
            if got:
                out.append("  result: " + got.replace("\n", "\n    "))
        return "\n".join(out) or "(none)"

    async def _evidence(self) -> str:
        answer = (f"ANSWER GIVEN TO THE USER: {one_line(self.env.task.answer, 2000)}\n\n"
                  if self.env.task.answer else "")
        if self.desk_work:
            role = self.cycle.worker.role if self.cycle.worker else "worker"
            return (f"{answer}WORK DONE WITHOUT THE PAGE by the {role}: judge it against MEMORY, "
                    "HISTORY and the tools' results above.")
        snap = await self.env.page.observe()
        return answer + snap.page_section()

    def images(self) -> list[str] | None:
        return [self.env.state.screenshot] if self.env.state.screenshot and not self.desk_work else None

    def judged(self, decision: Decision, a: Confidence) -> Verdict:
        """The verdict in its two numbers. An ending (done, or the goal cannot be met) needs the
        model sure of it; "done" also needs the page to agree — every check of this cycle holding
        at its latest reading and no last action failed — or the verifier's `overrule` naming each
        check that does not, with why the goal is met all the same."""
        facts, threshold = list(self.env.state.facts), self.env.services.settings.confidence_threshold
        page, checks = page_confidence(facts)
        against = held_back(self.cycle, facts) if decision == Decision.mark_complete else []
        overrule = getattr(a, "overrule", None)
        overruled = bool(against) and overrules(overrule, facts)
        accepted = decision.value not in ENDINGS or (
            a.confidence >= threshold and (not against or overruled))
        reason = str(getattr(a, "reason", None) or getattr(a, "instructions", ""))
        return Verdict(decision=decision, reason=reason, llm_confidence=a.confidence,
                       dom_confidence=round(page, 3), confidence=a.confidence, threshold=threshold,
                       accepted=accepted, facts=facts, checks=checks,
                       held_back=[] if overruled else against,
                       overruled=overrule if overruled else None)

    async def execute(self, iteration: Iteration, calls: Sequence[ProposedToolCall],
                      args: Sequence[BaseModel]) -> ToolCall | None:
        env = self.env
        call, a = calls[0], args[0]
        tc = await self.record_call(call)
        tc.success = True
        iteration.tool_calls.append(tc)
        await self.record_result(tc, time.perf_counter())
        assert isinstance(a, Confidence)  # every verifier tool requires it (validated)
        self.verdict = self.judged(Decision(call.tool), a)
        await env.services.recorder.verdict(env.task, self.verdict)
        await learnings.learn(env, a.learned)
        return tc
