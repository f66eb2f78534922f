"""The loop every role shares: prompt → LLM → strict validation (with repair turns) → execute,
until the role calls its transition tool."""

from __future__ import annotations

import time
from collections.abc import Sequence

from pydantic import BaseModel

from .. import logs
from ..llm import LLMReply, Turn
from .env import AgentEnv
from .errors import GuardrailHit
from .pipeline import new_call
from .models import Iteration, ProposedToolCall, RoleName, RoleResult, ToolCall
from ..tool_def import RoleTool
from .local_tools import LocalContext
from .toolbox import ROLE_TOOLS
from .validation import ReplyInvalid, validate_reply

log = logs.get("heybro.agent")


class Role:
    name: RoleName
    system: str
    transition_last_ok = False
    work_kind: str | None = None  # worker / analyst / technician: which host tools it gets

    def __init__(self, env: AgentEnv) -> None:
        self.env = env
        self.tools: list[RoleTool] = ROLE_TOOLS[self.name]
        self.by_name = {t.name: t for t in self.tools}
        self.warnings: list[str] = []
        self.reply_at: float | None = None

    # --- what subclasses provide ----------------------------------------------------------------
    async def context(self) -> str:
        raise NotImplementedError

    def element_ids(self) -> set[str] | None:
        return None

    def images(self) -> list[str] | None:
        return None

    def check_batch(self, calls: Sequence[ProposedToolCall], args: Sequence[BaseModel]) -> None:
        """A role's own rule for a whole reply, beyond each call's arguments: raises ReplyInvalid
        with what to do instead."""

    async def execute(self, iteration: Iteration, calls: Sequence[ProposedToolCall],
                      args: Sequence[BaseModel]) -> ToolCall | None:
        """Runs the calls; returns the transition call when the role is done."""
        raise NotImplementedError

    # --- the loop -------------------------------------------------------------------------------
    async def ask(self, user: str) -> tuple[LLMReply, list[BaseModel], int]:
        env = self.env
        turns: list[Turn] = []
        while True:
            self.llm_calls += 1
            if self.llm_calls > env.services.settings.limits.max_llm_calls:
                raise GuardrailHit("llm_calls", f"The {self.name} used its limit of "
                                   f"{env.services.settings.limits.max_llm_calls} LLM calls without finishing.")
            reply = await env.services.llm.complete(self.name, self.system, user, self.tools, turns,
                                                    self.images())
            self.reply_at = time.perf_counter()
            env.task.usage.append(reply.usage)
            await env.services.recorder.usage(env.task, reply.usage)
            if reply.switched:
                await env.services.recorder.message(env.task, f"The model gave no tool calls ({reply.switched}): "
                                                    "heybro asks it for JSON replies for the rest of this "
                                                    "task.", "warning")
            try:
                if reply.format_error:
                    raise ReplyInvalid(reply.format_error)
                args = validate_reply(reply.calls, self.tools, element_ids=self.element_ids(),
                                      resources=env.task.resources.keys(),
                                      max_batch=env.services.settings.limits.max_batch,
                                      transition_last_ok=self.transition_last_ok)
                self.check_batch(reply.calls, args)
                return reply, args, len(turns)
            except ReplyInvalid as err:
                log.warning("reply_invalid", role=self.name, error=str(err)[:500],
                            calls=[c.tool for c in reply.calls])
                await env.services.recorder.message(env.task, f"{self.name}: rejected a reply — {err}",
                                                    "warning")
                if len(turns) >= env.services.settings.limits.max_repairs:
                    raise GuardrailHit("invalid_replies", f"The model's {self.name} replies stayed "
                                       f"invalid after {len(turns)} repair turns: {err}") from err
                turns.append(Turn(reply, f"{err} Reply again with valid tool calls."))

    async def run(self) -> RoleResult:
        env = self.env
        result = RoleResult(role=self.name)
        self.llm_calls = 0
        if self.work_kind is not None:
            self.tools = self.tools + await env.host.for_role(self.work_kind)
            self.by_name = {t.name: t for t in self.tools}
        while True:
            await env.life.checkpoint()
            user = await self.context()
            overhead = None
            if self.reply_at is not None:
                overhead = (time.perf_counter() - self.reply_at) * 1000
                env.state.overhead_ms.append(overhead)
                self.reply_at = None
            reply, args, repairs = await self.ask(user)
            iteration = Iteration(role=self.name, reasoning=reply.text, usage=reply.usage,
                                  repairs=repairs, warnings=list(self.warnings),
                                  overhead_ms=overhead)
            self.warnings.clear()
            transition = await self.execute(iteration, reply.calls, args)
            result.iterations.append(iteration)
            await env.services.recorder.iteration(env.task, iteration)
            if transition is not None:
                result.transition = transition
                return result

    async def record_call(self, call: ProposedToolCall) -> ToolCall:
        tc = new_call(self.env.state.snapshot, self.by_name.get(call.tool), call)
        await self.env.services.recorder.tool_call(self.env.task, self.name, tc)
        return tc

    async def record_result(self, tc: ToolCall, started: float) -> None:
        tc.duration_ms = (time.perf_counter() - started) * 1000
        await self.env.services.recorder.tool_result(self.env.task, self.name, tc)


class WorkingRole(Role):
    """A role that works one assignment of the plan (the worker, the analyst, the technician):
    what it did, the report it leaves with, and the host's facts about this cycle (fresh)."""

    def __init__(self, env: AgentEnv, assignment: str, correction: str | None = None) -> None:
        super().__init__(env)
        self.assignment = assignment
        self.correction = correction
        self.done: list[ToolCall] = []
        self.summary: str | None = None
        env.state.facts = []


def _runs_local_tools(role: Role) -> LocalContext:
    """(For the type checker: a role is what a local tool's handler is handed.)"""
    return role
