"""A small MCP server over stdio (the SDK's MCPServer, formerly FastMCP) for the host-tool tests:
a tool that works, one that reports an error, one that hangs, one that kills the server, and ones
that show its environment, folder and process id."""

from __future__ import annotations

import os
import time

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

app = MCPServer("demo")


@app.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@app.tool()
def refuse(reason: str) -> str:
    """Always reports an error."""
    raise ToolError(f"cannot do that: {reason}")


@app.tool()
def slow(seconds: float) -> str:
    """Answers after some seconds."""
    time.sleep(seconds)
    return "awake"


@app.tool()
def crash() -> str:
    """Ends the server's process at once."""
    os._exit(3)


@app.tool()
def whereami() -> str:
    """The server's working folder, its greeting variable and its process id."""
    return f"{os.getcwd()}|{os.environ.get('DEMO_GREETING', '')}|{os.getpid()}"


if __name__ == "__main__":
    app.run()
