"""Host tools: what a role can do beyond the page (calculate, now, files in the task's workspace,
fetch, shell if the user turns it on, and the tools of the user's MCP servers).

    tools = HostTools(settings.tools)
    ctx = ToolContext.for_task(task.id, settings.tools)
    offered = await tools.for_role("analyst", ctx)        # list[RoleTool], kind "host"
    outcome = await tools.call("calculate", {"expression": "2*21"}, ctx)
    outcome.ok, outcome.for_model()                        # ToolOk | ToolError (code, message)
    await tools.aclose()                                   # stops the task's MCP servers
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .outcome import ErrorCode, ToolError, ToolOk, ToolOutcome
    from .registry import HostTools
    from .settings import McpServer, ShellSettings, ToolSettings
    from ..tool_def import Effects
    from .tool import ToolContext

# Loaded on first use: heybro.config imports .settings, and every command would otherwise pay for
# the tools' own imports (an HTTP client, JSON Schema).
_WHERE = {"ErrorCode": "outcome", "ToolError": "outcome", "ToolOk": "outcome",
          "ToolOutcome": "outcome", "HostTools": "registry", "McpServer": "settings",
          "ShellSettings": "settings", "ToolSettings": "settings", "ToolContext": "tool"}


def __getattr__(name: str) -> Any:
    if name == "Effects":
        return importlib.import_module("..tool_def", __name__).Effects
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Effects", "ErrorCode", "HostTools", "McpServer", "ShellSettings",
           "ToolContext", "ToolError", "ToolOk", "ToolOutcome", "ToolSettings"]
