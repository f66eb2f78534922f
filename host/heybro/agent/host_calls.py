"""The host tools of one task (calculate, fetch, the workspace's files, the user's MCP tools): made
when a role first asks for its tools, each call's outgoing arguments weighed (sinks.py) and, where
its declaration says so, asked about (gate.py) before it runs."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from . import gate, sinks
from .errors import ToolFailed
from .models import Task
from .run_state import RunState, Services
from .user import User

if TYPE_CHECKING:
    from ..tool_def import RoleTool
    from ..tools import HostTools, ToolContext


class HostCalls:
    """What the roles run on this machine."""

    __slots__ = ("task", "services", "state", "user")

    def __init__(self, task: Task, services: Services, state: RunState, user: User) -> None:
        self.task, self.services, self.state, self.user = task, services, state, user

    def _tools(self) -> tuple[HostTools, ToolContext]:
        svc = self.services
        if svc.host_tools is None or svc.tool_ctx is None:
            from ..tools import HostTools, ToolContext  # loaded once a role needs them
            svc.host_tools = HostTools(svc.settings.tools)
            svc.tool_ctx = ToolContext.for_task(self.task.id, svc.settings.tools, self.task.resources)
        return svc.host_tools, svc.tool_ctx

    async def for_role(self, kind: str) -> list[RoleTool]:
        """The host tools the settings give a kind of worker (built-ins, the user's MCP tools)."""
        tools, ctx = self._tools()
        known = len(tools.problems)
        offered = await tools.for_role(kind, ctx)
        for problem in tools.problems[known:]:  # a server of the user's would not start
            await self.services.recorder.message(self.task, problem.for_model(), "warning")
        return offered

    async def call(self, name: str, params: dict[str, Any]) -> str:
        """A host tool's output for the model; raises ToolFailed with its typed error. What its
        arguments carry out of this machine is weighed first (sinks.py)."""
        tools, ctx = self._tools()
        tool = tools.definition(name)
        await sinks.host_tool_may_send(self, name, tool.effects.sends if tool else None, params)
        # The tool's declaration says when a call needs the user's yes (a shell command off the
        # allow-list): asked before it runs, the yes given to that very call.
        if tool is not None and tool.asks is not None and (why := tool.asks(params, ctx)):
            shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
            await gate.ask(self.user, gate.Approval(
                "host_tool", f"May heybro run {name}({shown})? {why}.", f"{name}({shown})",
                f"heybro asked before running {name}"))
            ctx = dataclasses.replace(ctx, confirmed=True)
        outcome = await tools.call(name, params, ctx)
        if not outcome.ok:
            raise ToolFailed(outcome.code, self.state.secrets.scrub(outcome.message))
        data = outcome.data or {}
        if isinstance(data.get("file"), str) and isinstance(data.get("name"), str):  # a file it made
            await self.user.add_resource(data["name"], data["file"], f"written by {outcome.tool}")
        return str(self.state.secrets.scrub(outcome.for_model()))

    async def close(self) -> None:
        if self.services.host_tools is not None:
            await self.services.host_tools.aclose()
