"""MCP servers the user listed, over stdio, through the official `mcp` SDK.

Each server is started lazily (the first time a role that gets its tools runs), kept for the task,
and closed with it. The SDK's context managers must be entered and left in one asyncio task, so
each server lives in its own task that holds them open until it is told to stop; calls reach its
session from any task. A server that will not start, crashes, times out or answers isError gives
a ToolFailed in words (with the end of its stderr), never an exception that ends the task; a
crashed server is started again on its next call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import tempfile
from pathlib import Path
from typing import Any, TextIO, cast

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import (CONNECTION_CLOSED, CallToolResult, PaginatedRequestParams, TextContent,
                       Tool)

from .. import logs
from ..tool_def.errors import ToolFailed
from .outcome import ToolOk
from .settings import McpServer

log = logs.get("heybro.tools.mcp")

STOP_GRACE_S = 5.0


def _flatten(err: BaseException) -> BaseException:
    """The first real error inside the task groups' exception groups."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    return err


class McpConnection:
    """One running server: its tools, and calls to them."""

    def __init__(self, name: str, config: McpServer, cwd: Path) -> None:
        self.name, self.config, self.cwd = name, config, cwd
        self.tools: list[Tool] = []
        self._session: ClientSession | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._error: BaseException | None = None
        self._stderr = cast(TextIO, tempfile.TemporaryFile("w+", encoding="utf-8",
                                                           errors="replace"))
        self._task: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        return self._task is not None and not self._task.done() and self._session is not None

    def stderr_tail(self, chars: int = 600) -> str:
        try:
            self._stderr.flush()
            self._stderr.seek(0)
            text = self._stderr.read()[-chars:].strip()
        except (OSError, ValueError):
            return ""
        return f"; its stderr ends: {text}" if text else ""

    async def start(self) -> None:
        self._task = asyncio.create_task(self._hold(), name=f"mcp-{self.name}")
        try:
            async with asyncio.timeout(self.config.start_timeout_s):
                await self._ready.wait()
        except TimeoutError:
            problem = f"did not start within {self.config.start_timeout_s:g} s"
        else:
            if self._session is not None:
                return
            err = _flatten(self._error) if self._error else None
            problem = f"could not start ({type(err).__name__ if err else 'exited'}: {err})"
        tail = self.stderr_tail()
        await self.close(grace_s=0)
        raise ToolFailed("unavailable", f"MCP server {self.name!r} {problem}{tail}")

    async def _hold(self) -> None:
        params = StdioServerParameters(command=self.config.command, args=self.config.args,
                                       env=self.config.env or None,
                                       cwd=self.config.cwd or self.cwd)
        try:
            async with stdio_client(params, errlog=self._stderr) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                self.tools = await _all_tools(session)
                self._session = session
                self._ready.set()
                await self._stop.wait()
        except Exception as err:  # noqa: BLE001 — reported in words by start() and call()
            self._error = err
            log.warning("mcp_server_ended", server=self.name, error=repr(_flatten(err))[:300])
        finally:
            self._session = None
            self._ready.set()

    async def call(self, tool: str, arguments: dict[str, Any], timeout_s: float) -> ToolOk:
        session = self._session
        if session is None or not self.alive:
            raise ToolFailed("unavailable", f"MCP server {self.name!r} has stopped"
                              f"{self.stderr_tail()}")
        try:
            async with asyncio.timeout(timeout_s):
                result = await session.call_tool(tool, arguments)
        except TimeoutError:
            raise ToolFailed("timeout", f"{tool} on MCP server {self.name!r} did not answer "
                              f"within {timeout_s:g} s") from None
        except MCPError as err:
            if err.code != CONNECTION_CLOSED:
                raise ToolFailed("tool_error", f"{tool} on MCP server {self.name!r}: "
                                  f"{err.message}") from None
            self._session = None  # the process is gone: the next call starts it again
            self._stop.set()
            raise ToolFailed("unavailable", f"MCP server {self.name!r} stopped during {tool} "
                              f"(its connection closed){self.stderr_tail()}") from None
        return _outcome(self.name, tool, result)

    async def close(self, grace_s: float = STOP_GRACE_S) -> None:
        self._stop.set()
        if self._task is not None and not self._task.done():
            try:
                async with asyncio.timeout(grace_s):
                    await asyncio.shield(self._task)
            except TimeoutError:
                self._task.cancel()
                with contextlib.suppress(BaseException):
                    await self._task
        self._stderr.close()


async def _all_tools(session: ClientSession) -> list[Tool]:
    listing = await session.list_tools()
    tools = list(listing.tools)
    pages = 0
    while listing.next_cursor and pages < 20:  # bounded: a server looping its cursor
        listing = await session.list_tools(params=PaginatedRequestParams(cursor=listing.next_cursor))
        tools += listing.tools
        pages += 1
    return tools


def _outcome(server: str, tool: str, result: CallToolResult) -> ToolOk:
    parts = [block.text if isinstance(block, TextContent) else f"[{block.type}]"
             for block in result.content]
    text = "\n".join(parts).strip()
    if not text and result.structured_content is not None:
        text = json.dumps(result.structured_content, ensure_ascii=False)
    if result.is_error:
        raise ToolFailed("tool_error", f"{tool} on MCP server {server!r} reported an error: "
                          f"{text or 'no details'}")
    data = result.structured_content if isinstance(result.structured_content, dict) else None
    return ToolOk(tool=tool, text=text or "(no output)", data=data)


def exposed_name(server: str, tool: str) -> str:
    """The name the model sees: the server's name first (tools of two servers may share a name),
    in the characters and length function-calling APIs accept."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"{server}_{tool}")[:64]
