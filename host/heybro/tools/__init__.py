"""Host tools: what a role can do beyond the page (calculate, now, files in the task's workspace,
fetch, shell if the user turns it on, and the tools of the user's MCP servers).

    tools = HostTools(settings.tools)
    ctx = ToolContext.for_task(task.id, settings.tools)
    offered = await tools.for_role("analyst", ctx)        # list[HostTool]
    role_tools = [t.role_tool() for t in offered]          # RoleTool(kind="host") for the LLM
    outcome = await tools.call("calculate", {"expression": "2*21"}, ctx)
    outcome.ok, outcome.for_model()                        # ToolOk | ToolError (code, message)
    await tools.aclose()                                   # stops the task's MCP servers
"""

from .outcome import ErrorCode, ToolError, ToolOk, ToolOutcome
from .registry import HostTools
from .settings import McpServer, ShellSettings, ToolSettings
from .tool import Effects, HostTool, ToolContext

__all__ = ["Effects", "ErrorCode", "HostTool", "HostTools", "McpServer", "ShellSettings",
           "ToolContext", "ToolError", "ToolOk", "ToolOutcome", "ToolSettings"]
