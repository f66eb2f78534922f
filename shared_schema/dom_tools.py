"""Tools the DOM agent (content script) runs: observing a page and acting on its elements."""

from __future__ import annotations

from .tool_spec import ToolSpec

DOM_TOOLS: dict[str, ToolSpec] = {}
