"""Prompt tokens of a chat-completions request, counted offline with OpenAI's o200k_base BPE
(`bpe-openai`, in the `test` and `bench` extras; its vocabulary ships inside the package, so
nothing is downloaded). The benchmarks (scripts/bench_agent.py) and the prompt-budget test
(tests/test_prompt_budget.py) count with it.

What is counted is what the model is sent: every message's text (and a tool call's name and
arguments), about 3 tokens of framing per message and 3 to start the reply, as OpenAI documents
for its chat models; offered tools are rendered the way OpenAI describes functions to the model (a
TypeScript-like signature with the tool's description as a comment) and counted the same way.
OpenAI also shows the model each argument's description and default, which this count leaves out
(as the budget's figures always have); `described=True` counts them too. Images are not counted
(the benchmarks run without vision).

Without `bpe-openai` the count falls back to one token per 3 characters, which is more than
o200k_base gives for heybro's prompts (about 4 characters a token): a budget held with the
fallback is held with the tokenizer too, never the other way round.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

PER_MESSAGE = 3
REPLY_PRIMING = 3
FALLBACK_CHARS_PER_TOKEN = 3


@functools.cache
def _encoder() -> Callable[[str], int] | None:
    try:
        import bpe_openai
    except ImportError:
        return None
    enc = bpe_openai.get_encoding("o200k_base")
    return lambda text: len(enc.encode(text))


def exact() -> bool:
    """Whether the count is the tokenizer's (else the conservative fallback's)."""
    return _encoder() is not None


def count(text: str) -> int:
    enc = _encoder()
    return enc(text) if enc is not None else -(-len(text) // FALLBACK_CHARS_PER_TOKEN)


def _type(schema: dict[str, Any], described: bool) -> str:
    if schema.get("type") == "object" and "properties" in schema:
        req = set(schema.get("required", []))
        return "{" + ", ".join(_argument(k, v, k in req, described)
                               for k, v in schema["properties"].items()) + "}"
    if schema.get("type") == "array":
        return f"{_type(schema.get('items', {}), described)}[]"
    if "enum" in schema:
        return "|".join(json.dumps(x) for x in schema["enum"])
    return str(schema.get("type", "any"))


def _argument(name: str, schema: dict[str, Any], required: bool, described: bool) -> str:
    text = f"{name}{'' if required else '?'}: {_type(schema, described)}"
    if described and "default" in schema:
        text += f" = {json.dumps(schema['default'])}"
    if described and schema.get("description"):
        text += f" /* {schema['description']} */"
    return text


def tools_text(tools: list[dict[str, Any]], *, described: bool = False) -> str:
    """The offered tools as TypeScript-like signatures, one a line, each under its description;
    `described`: with each argument's description and default too."""
    lines = ["namespace functions {"]
    for t in tools:
        f = t["function"]
        lines.append(f"// {f.get('description', '')}\ntype {f['name']} = (_: "
                     f"{_type(f.get('parameters') or {}, described)}) => any;")
    lines.append("} // namespace functions")
    return "\n".join(lines)


def prompt_tokens(body: dict[str, Any], *, described: bool = False) -> int:
    """The prompt tokens of one request body (`described`: the tools' arguments' descriptions
    counted too)."""
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
        n += count(tools_text(body["tools"], described=described))
    if body.get("response_format"):
        n += count(json.dumps(body["response_format"]))
    return n
