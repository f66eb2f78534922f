"""What a host tool runs with: the task's workspace and the user's tool settings (`ToolContext`), and
the argument model of a tool whose parameters are a JSON Schema (an MCP server's: `RawArgs`). A host
tool itself is a `RoleTool` of kind "host" (heybro.tool_def)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ConfigDict

from .. import paths
from ..tool_def import Args
from .settings import ToolSettings


@dataclass(frozen=True)
class ToolContext:
    """What a call may touch: the task's workspace folder, the task's resources (the files the user
    handed it and those it made, by name), and the user's tool settings."""
    workspace: Path
    settings: ToolSettings
    confirmed: bool = False  # the user said yes to this very call (a tool that needs it)
    resources: Mapping[str, str] = field(default_factory=dict)  # the task's own, kept current

    @classmethod
    def for_task(cls, task_id: str, settings: ToolSettings,
                 resources: Mapping[str, str] | None = None) -> ToolContext:
        """The task's workspace under heybro's data dir (created on first use by the tools)."""
        return cls(workspace=workspaces_dir() / task_id, settings=settings,
                   resources=resources if resources is not None else {})


def workspaces_dir() -> Path:
    return paths.data_dir() / "workspaces"


class RawArgs(Args):
    """Arguments checked against a JSON Schema rather than a model (MCP tools): passed through."""
    model_config = ConfigDict(extra="allow")
