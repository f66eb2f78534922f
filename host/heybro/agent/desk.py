"""The roles that work without the page (seed 004): the Analyst answers and computes from what was
gathered; the Technician does system-side work with host tools. Both see the goal, their
assignment, memory and history — never the page — and leave by their transition tool."""

from __future__ import annotations

import time
from collections.abc import Sequence

from pydantic import BaseModel

from . import history, learnings
from .act import hold
from .models import Iteration, ProposedToolCall, ToolCall
from .pipeline import Pipeline
from .role import WorkingRole
from .toolbox import Answer, MarkDone, any_result_text

RESULT_CHARS = 2500  # what the next prompt shows of a host tool's latest result


class DeskRole(WorkingRole):
    """A role with no page: context from the task's record, host tools, a transition."""

    async def context(self) -> str:
        t = self.env.task
        parts = [f"ASSIGNMENT: {self.assignment}"]
        if self.correction:
            parts.append(f"CORRECTION FROM THE VERIFIER: {self.correction}")
        if self.assignment.strip() != t.description.strip():  # (said once when they are the same)
            parts.append(f"OVERALL GOAL (context only): {t.description}")
        parts += [f"MEMORY (facts gathered so far):\n{history.memory(t)}",
                  f"HISTORY:\n{history.cycles(t, last=6)}"]
        if t.resources:
            parts.append(f"RESOURCES (files): {history.resources(t)}")
        if self.done:
            lines = []
            for c in self.done[-8:]:
                lines.append(f"- {history.call_line(c)}")
                got = any_result_text(c, RESULT_CHARS)
                if got:
                    lines.append("  result:\n" + "\n".join(f"    {x}" for x in got.splitlines()))
            parts.append("DONE IN THIS ASSIGNMENT:\n" + "\n".join(lines))
        parts += self.warnings
        return "\n\n".join(parts)

    async def execute(self, iteration: Iteration, calls: Sequence[ProposedToolCall],
                      args: Sequence[BaseModel]) -> ToolCall | None:
        env = self.env
        acts = Pipeline(self, self.by_name, "model")
        for i, (call, a) in enumerate(zip(calls, args, strict=True)):
            if self.by_name[call.tool].kind == "transition":
                await hold(env.life, calls[i:])  # a reply held through a pause is not acted on
                tc = await self.record_call(call)
                iteration.tool_calls.append(tc)
                tc.success = True
                await self.record_result(tc, time.perf_counter())
                if isinstance(a, Answer):
                    await env.user.give_answer(self.name, a.text)
                    self.summary = f"Answer: {a.text}"
                elif isinstance(a, MarkDone):
                    self.summary = a.summary
                    await learnings.learn(env, a.learned)
                return tc
            tc = (await acts.act(call, a, left=calls[i:])).tc
            iteration.tool_calls.append(tc)
            self.done.append(tc)
            if tc.success is False:
                rest = [c.tool for c in calls[i + 1:]]
                if rest:
                    self.warnings.append(f"NOT RUN: {call.tool} failed, so these were not run: "
                                         f"{', '.join(rest)}.")
                break
        return None
