"""The LLM client: any OpenAI-compatible server, native tool calling or JSON mode."""

from .client import LLMClient, LLMError, LLMReply, Turn

__all__ = ["LLMClient", "LLMError", "LLMReply", "Turn"]
