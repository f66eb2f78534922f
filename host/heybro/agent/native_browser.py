"""The browser behind the native channel: tool calls go to the extension as `tool.call`.

A typed error the extension answers is a ToolFailed the worker may work around. No answer at all —
the channel closed (service worker stopped, browser killed) or nothing came back in time — is
BrowserLost: the call's outcome is unknown, so nothing here or above retries it."""

from __future__ import annotations

import asyncio
from typing import Any

from shared_schema.messages import ToolCall, ToolResult
from shared_schema.sites import SiteGate

from ..native.channel import NativeChannel, RemoteError
from .errors import BrowserLost, ToolFailed


class NativeBrowser:
    def __init__(self, channel: NativeChannel, task_id: str | None = None) -> None:
        self.channel = channel
        self.task_id = task_id

    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000, sites: SiteGate | None = None) -> dict[str, Any]:
        if self.channel.ended:
            raise BrowserLost(tool, "the browser connection had closed", sent=False)
        payload = ToolCall(tool=tool, args=args, task_id=self.task_id, tab_id=tab_id,
                           timeout_ms=timeout_ms, sites=sites)
        try:
            _, reply = await self.channel.request("tool.call", payload,
                                                  timeout=timeout_ms / 1000 + 5)
        except RemoteError as err:
            raise ToolFailed(err.code, str(err), err.detail) from err
        except (asyncio.TimeoutError, TimeoutError) as err:
            raise BrowserLost(tool, f"the browser did not answer within "
                              f"{timeout_ms / 1000 + 5:.0f} s") from err
        except (ConnectionError, OSError) as err:
            raise BrowserLost(tool, "the browser connection closed") from err
        if not isinstance(reply, ToolResult):
            raise ToolFailed("internal", f"Unexpected reply to {tool}.")
        if not reply.ok and reply.error and reply.error.code.value == "cut_off":
            raise BrowserLost(tool, "its tab closed")
        if not reply.ok:
            e = reply.error
            raise ToolFailed(e.code.value if e else "internal", e.message if e else "failed",
                             (e.detail if e else None) or {})
        return reply.result or {}
