"""The browser's tools by their wire name (shared_schema.tools): their effects, read from the
roles' tool definitions, and one way to run a tool with typed wire arguments — for the agent's
env and for anything else that replays steps (routines).

    effects = effects_of("click")                         # Effects(may_navigate=True, …)
    result = await call_browser_tool(browser, "click", ClickArgs(element_id="e3", signature=sig),
                                     tab_id=7)
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from pydantic import BaseModel

from shared_schema.sites import SiteGate
from shared_schema import dom_tools as dom, tab_tools as tabs
from shared_schema.tools import DECLARED, TOOLS

from .browser import Browser
from .errors import ToolFailed
from .control import RunControl
from ..tool_def import Effects, Wire
from .toolbox import ROLE_TOOLS
from .wire import DEFAULT_TIMEOUT_MS, wire_json

# Tools the host calls itself, not on a model's behalf (declared with no kind): they read the page
# or draw on it.
OBSERVE, SCREENSHOT, HIGHLIGHT = dom.OBSERVE.name, tabs.SCREENSHOT.name, dom.HIGHLIGHT.name
HOST_CALLED: dict[str, Effects] = {name: t.effects for name, t in DECLARED.items() if t.kind is None}


def _wires() -> dict[str, Wire[Any, Any]]:
    out: dict[str, Wire[Any, Any]] = {}
    for tools in ROLE_TOOLS.values():
        for t in tools:
            if t.wire is not None:
                out.setdefault(t.wire.tool, t.wire)
    return out


def _effects() -> dict[str, Effects]:
    out = dict(HOST_CALLED)
    for tools in ROLE_TOOLS.values():
        for t in tools:
            if t.wire is not None:
                out.setdefault(t.wire.tool, t.effects)
    return out


WIRES = _wires()  # wire tool → how the roles' tools reach it (its timeout)
EFFECTS = _effects()  # wire tool → what it does


def effects_of(tool: str) -> Effects:
    """What a browser tool does; an unknown one is taken to act (never read-only)."""
    return EFFECTS.get(tool, Effects())


def timeout_of(tool: str, args: BaseModel) -> int:
    wire = WIRES.get(tool)
    return wire.timeout(args) if wire is not None else DEFAULT_TIMEOUT_MS


async def call_browser_tool(browser: Browser, tool: str, args: BaseModel, *, tab_id: int | None,
                            control: RunControl | None = None,
                            timeout_ms: int | None = None) -> dict[str, Any]:
    """Runs `tool` in the browser with its wire arguments (an instance of TOOLS[tool].args). With
    `control`, a tool that only waits is cut short by a stop; an act runs to its end, so the
    record says whether it happened. Raises ToolFailed (typed errors) or BrowserLost."""
    spec = TOOLS.get(tool)
    if spec is None:
        raise ToolFailed("unsupported", f"the browser has no tool named {tool!r}")
    if not isinstance(args, spec.args):
        raise TypeError(f"{tool} takes {spec.args.__name__}, not {type(args).__name__}")
    return await send(browser, tool, wire_json(args), tab_id=tab_id, control=control,
                      timeout_ms=timeout_ms if timeout_ms is not None else timeout_of(tool, args))


async def send(browser: Browser, tool: str, args: dict[str, Any], *, tab_id: int | None,
               control: RunControl | None, timeout_ms: int,
               sites: SiteGate | None = None) -> dict[str, Any]:
    """The call itself, with arguments already in wire form."""
    call: Awaitable[dict[str, Any]] = browser.call(tool, args, tab_id=tab_id, timeout_ms=timeout_ms,
                                                   sites=sites)
    if control is not None and effects_of(tool).interruptible:
        return await control.interruptible(call)
    return await call
