"""What the LLM client hands back, kept apart from the client so that importing them does not
load the `openai` package (the host starts faster; the client loads when a task starts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..agent.models import ProposedToolCall, Usage


class LLMError(Exception):
    """The LLM could not be reached or kept failing after retries."""


@dataclass
class LLMReply:
    text: str
    calls: list[ProposedToolCall]
    call_ids: list[str]
    usage: Usage
    mode: Literal["native", "json"]
    format_error: str | None = None  # set when the reply could not be read at all
    raw_content: str = ""
    switched: str | None = None  # why the client moved to JSON mode with this reply, if it did


@dataclass
class Turn:
    """A repair exchange appended to a prompt: the model's bad reply and our feedback."""

    reply: LLMReply
    feedback: str
    extra: dict[str, Any] = field(default_factory=dict)
