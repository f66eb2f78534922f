"""Argument and result models of every tool the host runs in the browser through `tool.call`.

`tool.call.payload.args` must match TOOLS[tool].args and `tool.result.payload.result` must match
TOOLS[tool].result; both sides check it (the host with these models, the extension with the
generated schema). The DOM agent's tools live in dom_tools.py, the tab tools in tab_tools.py.
"""

from __future__ import annotations

from pydantic import BaseModel

from .dom_tools import DOM_TOOLS
from .tab_tools import TAB_TOOLS
from .tool_spec import ToolSpec

TOOLS: dict[str, ToolSpec] = {**DOM_TOOLS, **TAB_TOOLS}


def args_model(tool: str) -> type[BaseModel] | None:
    spec = TOOLS.get(tool)
    return spec.args if spec else None


__all__ = ["TOOLS", "ToolSpec", "args_model"]
