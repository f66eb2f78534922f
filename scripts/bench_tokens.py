"""Prompt tokens of a chat-completions request, counted offline with OpenAI's o200k_base BPE
(`bpe-openai`, in the `bench` extra; its vocabulary ships inside the package, so nothing is
downloaded).

What is counted is what the model is sent: every message's text (and a tool call's name and
arguments), about 3 tokens of framing per message and 3 to start the reply, as OpenAI documents
for its chat models; offered tools are rendered the way OpenAI describes functions to the model (a
TypeScript-like signature with the description as a comment) and counted the same way. Images are
not counted (the benchmark runs without vision).
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.scripted_llm import _ts  # noqa: E402  the tools as signatures

PER_MESSAGE = 3
REPLY_PRIMING = 3


@functools.cache
def _encoding() -> Any:
    import bpe_openai

    return bpe_openai.get_encoding("o200k_base")


def count(text: str) -> int:
    return len(_encoding().encode(text))


def tools_text(tools: list[dict[str, Any]]) -> str:
    lines = ["namespace functions {"]
    for t in tools:
        f = t["function"]
        lines.append(f"// {f.get('description', '')}\ntype {f['name']} = (_: "
                     f"{_ts(f.get('parameters') or {})}) => any;")
    lines.append("} // namespace functions")
    return "\n".join(lines)


def prompt_tokens(body: dict[str, Any]) -> int:
    """The prompt tokens of one recorded request body."""
    n = REPLY_PRIMING
    for m in body.get("messages", []):
        n += PER_MESSAGE
        content = m.get("content")
        if isinstance(content, str):
            n += count(content)
        elif isinstance(content, list):
            n += sum(count(p.get("text", "")) for p in content if p.get("type") == "text")
        for call in m.get("tool_calls") or []:
            n += count(call["function"]["name"]) + count(call["function"]["arguments"])
    if body.get("tools"):
        n += count(tools_text(body["tools"]))
    if body.get("response_format"):
        n += count(json.dumps(body["response_format"]))
    return n
