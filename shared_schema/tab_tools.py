"""Tools the coordinator runs on tabs: navigate, back, open, switch, list, screenshot."""

from __future__ import annotations

from .tool_spec import ToolSpec

TAB_TOOLS: dict[str, ToolSpec] = {}
