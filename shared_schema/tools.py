"""Argument and result models of every tool the host runs in the browser through `tool.call`.

`tool.call.payload.args` must match TOOLS[tool].args and `tool.result.payload.result` must match
TOOLS[tool].result; both sides check it (the host with these models, the extension with the
generated schema). The DOM agent's tools live in dom_tools.py, the tab tools in tab_tools.py,
each declared once (tool_spec.PageTool); TOOLS is derived from the declarations.
"""

from __future__ import annotations

from pydantic import BaseModel

from .dom_tools import DOM_DECLARED
from .tab_tools import NAVIGATE, TAB_DECLARED
from .tool_spec import PageTool, ToolSpec

# Every tool the browser runs, in the order the worker is offered those it may call: navigate, the
# page's actions, then the tabs'.
DECLARED: dict[str, PageTool] = {t.name: t for t in (NAVIGATE, *DOM_DECLARED, *TAB_DECLARED)}
TOOLS: dict[str, ToolSpec] = {name: t.spec for name, t in DECLARED.items()}


def args_model(tool: str) -> type[BaseModel] | None:
    spec = TOOLS.get(tool)
    return spec.args if spec else None


__all__ = ["DECLARED", "TOOLS", "PageTool", "ToolSpec", "args_model"]
