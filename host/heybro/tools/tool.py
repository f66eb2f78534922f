"""A host tool is one definition: name, parameters, description, effects, timeout and handler."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from .. import paths
from ..agent.tool_def import Args, Effects, RoleTool
from .outcome import ToolOk
from .settings import ToolSettings


@dataclass(frozen=True)
class ToolContext:
    """What a call may touch: the task's workspace folder, and the user's tool settings."""
    workspace: Path
    settings: ToolSettings
    confirmed: bool = False  # the user said yes to this very call (a tool that needs it)

    @classmethod
    def for_task(cls, task_id: str, settings: ToolSettings) -> ToolContext:
        """The task's workspace under heybro's data dir (created on first use by the tools)."""
        return cls(workspace=workspaces_dir() / task_id, settings=settings)


def workspaces_dir() -> Path:
    return paths.data_dir() / "workspaces"


class RawArgs(Args):
    """Arguments checked against a JSON Schema rather than a model (MCP tools): passed through."""
    model_config = ConfigDict(extra="allow")


Handler = Callable[[Any, ToolContext], Awaitable[ToolOk | str]]


@dataclass(frozen=True)
class HostTool:
    name: str
    args: type[BaseModel]
    description: str
    handler: Handler
    effects: Effects = Effects(read_only=True)
    timeout_s: float | None = None  # None: the settings' timeout for built-ins
    parameters: dict[str, Any] | None = field(default=None, compare=False, hash=False)

    def role_tool(self) -> RoleTool:
        """How a role's loop offers it to the model (kind "host")."""
        args = self.args if issubclass(self.args, Args) else RawArgs
        return RoleTool(self.name, args, self.description, "host", self.effects,
                        parameters=self.parameters)
