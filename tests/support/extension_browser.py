"""The agent's Browser backed by the real extension in a real Chromium: each tool call runs the
coordinator's own `runTool` (what a `tool.call` from the host runs) in the service worker, through
Playwright's async API — the whole extension side, without the native-messaging hop."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, Playwright, Worker

from heybro.agent.errors import ToolFailed
from heybro.browser.chromium import EXTENSION_ROOT, QUIET_FLAGS, extension_flags, find_chromium
from heybro.native.identity import EXTENSION_ID
from shared_schema.tools import TOOLS


@asynccontextmanager
async def with_extension(p: Playwright, profile: Path) -> AsyncIterator[tuple[BrowserContext, Worker]]:
    """Headless Chromium with the extension loaded, and its service worker (the coordinator)."""
    ctx = await p.chromium.launch_persistent_context(
        str(profile), executable_path=find_chromium(), headless=True,
        args=[*QUIET_FLAGS, *extension_flags(EXTENSION_ROOT)])
    try:
        sw = next((w for w in ctx.service_workers if EXTENSION_ID in w.url), None) or \
            await ctx.wait_for_event("serviceworker", predicate=lambda w: EXTENSION_ID in w.url)
        yield ctx, sw
    finally:
        await ctx.close()


class ExtensionBrowser:
    """Calls carry what the coordinator adds to a host's call: when the task started (its first
    call: a tab its pages open after that is the task's) and the user's site rules."""

    def __init__(self, sw: Worker) -> None:
        self.sw = sw
        self.calls: list[tuple[str, dict[str, Any], int | None]] = []
        self.since: int | None = None

    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000, sites: Any = None) -> dict[str, Any]:
        self.calls.append((tool, args, tab_id))
        TOOLS[tool].args.model_validate(args)  # what the host's tool.call schema check enforces
        if self.since is None:
            self.since = int(await self.sw.evaluate("Date.now()"))
        payload: dict[str, Any] = {"tool": tool, "args": args, "timeout_ms": timeout_ms, "task_since": self.since}
        if sites is not None:
            payload["sites"] = sites.model_dump(mode="json") if hasattr(sites, "model_dump") else sites
        if tab_id is not None:
            payload["tab_id"] = tab_id
        res = await self.sw.evaluate("(call) => globalThis.heybro.runTool(call)", payload)
        if not res["ok"]:
            e = res["error"]
            raise ToolFailed(e["code"], e["message"], e.get("detail") or {})
        TOOLS[tool].result.model_validate(res["result"])
        return res["result"]
