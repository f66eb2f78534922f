"""The LLM client: any OpenAI-compatible server, native tool calling or JSON mode.

`LLMClient` is imported on first use: it brings in the `openai` package, which the host does not
need until a task starts.
"""

from typing import Any

from .types import LLMError, LLMReply, Turn

__all__ = ["LLMClient", "LLMError", "LLMReply", "Turn"]


def __getattr__(name: str) -> Any:
    if name == "LLMClient":
        from .client import LLMClient
        return LLMClient
    raise AttributeError(name)
