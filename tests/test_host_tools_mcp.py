"""Tools from an MCP server the user lists: a real server process over stdio, the real protocol."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from heybro.agent.models import ProposedToolCall
from heybro.agent.validation import validate_reply
from heybro.tools import HostTools, McpServer, ToolContext, ToolError, ToolOk, ToolSettings

SERVER = Path(__file__).parent / "support" / "mcp_demo_server.py"


def settings(**server: object) -> ToolSettings:
    config = {"command": sys.executable, "args": [str(SERVER)], "roles": ["analyst"],
              "env": {"DEMO_GREETING": "hello"}, "timeout_s": 3.0, **server}
    return ToolSettings(mcp_servers={"demo": McpServer.model_validate(config)})


def test_a_listed_servers_tools_are_offered_to_its_roles_answer_and_stop_with_the_task(
        tmp_path: Path) -> None:
    async def scenario() -> int:
        s = settings()
        ctx = ToolContext(workspace=tmp_path / "ws", settings=s)
        async with HostTools(s) as tools:
            analyst = {t.name: t for t in await tools.for_role("analyst", ctx)}
            worker = [t.name for t in await tools.for_role("worker", ctx)]
            assert {"demo_add", "demo_refuse", "demo_slow", "demo_crash"} <= set(analyst)
            assert "calculate" in analyst and not any(n.startswith("demo_") for n in worker)
            role_tool = analyst["demo_add"]
            assert role_tool.kind == "host"
            # How JSON mode lists it, and the schema native tool calling sends: the server's own.
            assert role_tool.signature() == ("demo_add(a: integer, b: integer) — Add two integers. "
                                             "(MCP server demo)")
            assert role_tool.openai()["function"]["parameters"]["required"] == ["a", "b"]
            # The role loop's strict reply check takes the server's arguments as they are.
            call = ProposedToolCall(tool="demo_add", parameters={"a": 2, "b": 40})
            validate_reply([call], [role_tool], element_ids=None, resources=(), max_batch=3,
                           transition_last_ok=False)
            out = await tools.call("demo_add", {"a": 2, "b": 40}, ctx)
            assert isinstance(out, ToolOk) and out.text == "42" and out.tool == "demo_add"
            where = await tools.call("demo_whereami", {}, ctx)
            folder, greeting, pid = where.text.split("|") if isinstance(where, ToolOk) else "???"
            assert Path(folder) == (tmp_path / "ws").resolve() and greeting == "hello"
            assert tools.problems == []
        return int(pid)

    pid = asyncio.run(scenario())
    try:  # closing the task's tools stopped the server's process
        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive


def test_server_failures_are_errors_in_words_and_a_crashed_server_starts_again(tmp_path: Path
                                                                               ) -> None:
    async def scenario() -> None:
        s = settings()
        ctx = ToolContext(workspace=tmp_path, settings=s)
        async with HostTools(s) as tools:
            await tools.for_role("analyst", ctx)
            bad = await tools.call("demo_add", {"a": "two", "b": 2}, ctx)
            assert isinstance(bad, ToolError) and bad.code == "invalid_arguments"
            assert bad.message == "a: 'two' is not of type 'integer'"
            refused = await tools.call("demo_refuse", {"reason": "no stock"}, ctx)
            assert isinstance(refused, ToolError) and refused.code == "tool_error"
            assert "reported an error" in refused.message and "cannot do that: no stock" in refused.message
            slow = await tools.call("demo_slow", {"seconds": 30}, ctx)
            assert isinstance(slow, ToolError) and slow.code == "timeout"
            assert "did not answer within 3 s" in slow.message
            crash = await tools.call("demo_crash", {}, ctx)
            assert isinstance(crash, ToolError) and crash.code == "unavailable"
            assert "MCP server 'demo' stopped during crash" in crash.message
            again = await tools.call("demo_add", {"a": 1, "b": 1}, ctx)
            assert isinstance(again, ToolOk) and again.text == "2"

    asyncio.run(scenario())


def test_servers_that_cannot_start_leave_the_other_tools_working(tmp_path: Path) -> None:
    async def scenario() -> None:
        s = ToolSettings(mcp_servers={
            "missing": McpServer(command=str(tmp_path / "no-such-program"), roles=["analyst"]),
            "dies": McpServer(command=sys.executable, roles=["analyst"], args=[
                "-c", "import sys; sys.stderr.write('config file not found'); sys.exit(2)"]),
            "mute": McpServer(command=sys.executable, args=["-c", "import time; time.sleep(60)"],
                              roles=["analyst"], start_timeout_s=1.0)})
        ctx = ToolContext(workspace=tmp_path, settings=s)
        async with HostTools(s) as tools:
            names = [t.name for t in await tools.for_role("analyst", ctx)]
            assert names == s.roles["analyst"]  # the built-ins, nothing from the three servers
            problems = {p.tool: p for p in tools.problems}
            assert {p.code for p in problems.values()} == {"unavailable"}
            assert "MCP server 'missing' could not start" in problems["missing"].message
            assert "config file not found" in problems["dies"].message
            assert "did not start within 1 s" in problems["mute"].message
            out = await tools.call("calculate", {"expression": "6*7"}, ctx)
            assert isinstance(out, ToolOk)
            # Not retried on every role run of the task.
            await tools.for_role("analyst", ctx)
            assert len(tools.problems) == 3

    asyncio.run(scenario())
