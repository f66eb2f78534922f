"""`heybro mcp` as an MCP client uses it: the real CLI started over real stdio by the official SDK's
client, on an event loop of its own thread (the test keeps the main thread for Playwright, which
plays the user at the side panel)."""

from __future__ import annotations

import asyncio
import sys
import threading
from concurrent.futures import Future
from typing import Any

import mcp_types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


class McpClient:
    def __init__(self, env: dict[str, str], name: str = "Test Agent") -> None:
        self.env, self.name = env, name
        self.progress: list[str] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.session: ClientSession | None = None
        self._holder: asyncio.Future[None] | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None

    def __enter__(self) -> McpClient:
        self.thread.start()
        self._holder = asyncio.run_coroutine_threadsafe(self._hold(), self.loop)
        assert self._ready.wait(60), "heybro mcp did not start"
        if self._error is not None:
            raise self._error
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            if self._stop is not None:
                self.loop.call_soon_threadsafe(self._stop.set)
            if self._holder is not None:
                self._holder.result(60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)

    def _run(self, coro: Any, timeout: float) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _hold(self) -> None:
        """The SDK's contexts are entered and left in one task: this one, until told to stop."""
        self._stop = asyncio.Event()
        params = StdioServerParameters(command=sys.executable, args=["-m", "heybro.cli", "mcp"],
                                       env=self.env)
        try:
            async with stdio_client(params) as (read, write), ClientSession(
                    read, write, client_info=types.Implementation(name=self.name,
                                                                  version="1.0")) as session:
                await session.initialize()
                self.session = session
                self._ready.set()
                await self._stop.wait()
        except BaseException as err:
            self._error = err
            raise
        finally:
            self._ready.set()

    def tools(self) -> list[types.Tool]:
        assert self.session is not None
        return self._run(self.session.list_tools(), 30).tools

    def start(self, tool: str, /, **arguments: Any) -> Future[types.CallToolResult]:
        """A call in flight (the test acts meanwhile); `.result(timeout)` is its answer."""
        assert self.session is not None

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            if message:
                self.progress.append(message)

        return asyncio.run_coroutine_threadsafe(
            self.session.call_tool(tool, arguments, progress_callback=on_progress), self.loop)

    def call(self, tool: str, /, timeout: float = 120, **arguments: Any) -> types.CallToolResult:
        return self.start(tool, **arguments).result(timeout)


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
