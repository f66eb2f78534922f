"""Verifier: judges the worker's result on the page, with the host's expectation facts."""

from __future__ import annotations

import time
from collections.abc import Sequence

from pydantic import BaseModel

from shared_schema.page_text import one_line

from . import history
from .facts import lines, share_met
from .models import (Decision, ExecutionCycle, ExpectationCheck, Iteration, ProposedToolCall,
                     ToolCall, Verdict)
from .role import Role
from .toolbox import MARK_COMPLETE, MARK_DONE, Confidence, any_result_text, reports
from .verifier_prompt import SYSTEM


def dom_confidence(cycle: ExecutionCycle, facts: list[ExpectationCheck]) -> float:
    """What the DOM checks say: the share of checks whose latest reading holds (facts.py),
    lowered when the last action failed."""
    share = share_met(facts)
    score = 1.0 if share is None else share
    calls = [tc for it in (cycle.worker.iterations if cycle.worker else []) for tc in it.tool_calls
             if tc.tool != MARK_DONE.name]
    if calls and calls[-1].success is False:
        score = min(score, 0.5)
    return score


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
        snap = await self.env.observe()
        return answer + snap.page_section()

    def images(self) -> list[str] | None:
        return [self.env.state.screenshot] if self.env.state.screenshot and not self.desk_work else None

    async def execute(self, iteration: Iteration, calls: Sequence[ProposedToolCall],
                      args: Sequence[BaseModel]) -> ToolCall | None:
        env = self.env
        call, a = calls[0], args[0]
        tc = await self.record_call(call)
        tc.success = True
        iteration.tool_calls.append(tc)
        await self.record_result(tc, time.perf_counter())
        assert isinstance(a, Confidence)  # every verifier tool requires it (validated)
        llm_conf = a.confidence
        dom = dom_confidence(self.cycle, env.state.facts)
        combined = llm_conf if not env.state.facts else 0.6 * llm_conf + 0.4 * dom
        if self.cycle.worker and dom < 1.0 and not env.state.facts:
            combined = min(llm_conf, dom)
        threshold = env.settings.confidence_threshold
        reason = str(getattr(a, "reason", None) or getattr(a, "instructions", ""))
        self.verdict = Verdict(decision=Decision(call.tool), reason=reason,
                               llm_confidence=llm_conf, dom_confidence=dom,
                               confidence=round(combined, 3), threshold=threshold,
                               accepted=call.tool != MARK_COMPLETE.name or combined >= threshold,
                               facts=list(env.state.facts))
        await env.recorder.verdict(env.task, self.verdict)
        await env.learn(a.learned)
        return tc
