"""Reading a JSON-mode reply the way local models actually write it, into a strict ProposedReply.

Accepted, besides the documented `{"reasoning": …, "tool_calls": [{"tool", "parameters", "reason"}]}`:
- `<think>…</think>` blocks (and a lone `…</think>` whose opening tag the server ate) before the
  JSON: dropped, their text kept as the reasoning when the JSON has none;
- the JSON inside ```json fences or prose: every balanced object or array in the text is tried in
  turn (not first `{` to last `}`, which breaks on `{` in the prose or on two objects);
- a bare call, a list of calls, or several call objects one after the other;
- a call written `{"name", "arguments"}`, `{"tool_name", "args"}`, `{"action", "action_input"}`, or
  OpenAI style `{"function": {"name", "arguments": "<JSON string>"}}`, arguments as a JSON string;
- extra keys ("thought", "thinking", "analysis", "id", "type" …): ignored, or kept as reasoning;
- trailing commas before `}` or `]`.
Anything else is a ReplyFormatError whose message tells the model what to fix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Literal

from ..agent.models import ProposedReply, ProposedToolCall

THINK = re.compile(r"<(think|thinking|reasoning)>(.*?)</\1>", re.S | re.I)
LONE_THINK_END = re.compile(r"^(.*?)</(?:think|thinking|reasoning)>", re.S | re.I)
TRAILING_COMMA = re.compile(r",(\s*[}\]])")
REASONING_KEYS = ("reasoning", "thought", "thoughts", "thinking", "analysis", "explanation",
                  "rationale", "plan")
CALL_LIST_KEYS = ("tool_calls", "calls", "actions", "tools", "function_calls")
NAME_KEYS = ("tool", "name", "tool_name", "function_name", "action")
ARG_KEYS = ("parameters", "arguments", "args", "params", "input", "action_input")
SCHEMA = ('{"reasoning": "<short thinking>", "tool_calls": [{"tool": "<name>", '
          '"parameters": {...}, "reason": "<why>"}]}')

Kind = Literal["no_json", "invalid_json", "schema"]


class ReplyFormatError(Exception):
    """The model's text is not a usable reply; the message tells the model why.

    `kind`: no_json (prose only), invalid_json (something like JSON that does not parse), schema
    (JSON that is not a reply)."""

    def __init__(self, message: str, kind: Kind) -> None:
        super().__init__(message)
        self.kind = kind


class _NotACall(ValueError):
    pass


def strip_think(text: str) -> tuple[str, str]:
    """(the text without its think blocks, what they said)."""
    thoughts = [m.group(2).strip() for m in THINK.finditer(text)]
    text = THINK.sub(" ", text)
    lone = LONE_THINK_END.match(text)
    if lone:
        thoughts.append(lone.group(1).strip())
        text = text[lone.end():]
    return text, "\n".join(t for t in thoughts if t)


def _json_chars(text: str, start: int = 0) -> Iterator[tuple[int, str, bool]]:
    """Each character from `start` as (index, character, in a string): a string's quotes and
    escapes count as in it; `start` is taken to be outside any string."""
    in_str = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
            yield i, ch, True
        elif ch == '"':
            in_str = True
            yield i, ch, True
        else:
            yield i, ch, False


def _balanced(text: str, start: int) -> int | None:
    """The index of the bracket closing the one at `start` (strings respected), or None."""
    stack = []
    for i, ch, in_str in _json_chars(text, start):
        if in_str:
            continue
        if ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                return None
            if not stack:
                return i
    return None


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return json.loads(_drop_trailing_commas(text))


def _drop_trailing_commas(text: str) -> str:
    """Removes `,` before `}` / `]` outside strings."""
    return "".join(ch for i, ch, in_str in _json_chars(text)
                   if in_str or ch != "," or not TRAILING_COMMA.match(text, i))


def _json_values(text: str) -> Iterator[tuple[Any, str | None]]:
    """Every balanced JSON object/array in the text, outermost first: (value, None) when it parses,
    (None, the JSON error) when it does not (then the objects inside it are tried)."""
    i = 0
    while i < len(text):
        if text[i] not in "{[":
            i += 1
            continue
        end = _balanced(text, i)
        if end is None:
            yield None, f"unbalanced brackets from character {i}"
            i += 1
            continue
        try:
            yield _loads(text[i:end + 1]), None
            i = end + 1
        except json.JSONDecodeError as err:
            yield None, str(err)
            i += 1


def _call(item: Any) -> ProposedToolCall:
    if not isinstance(item, dict):
        raise _NotACall(f"a tool call must be an object, not {type(item).__name__}")
    reason = item.get("reason")
    if isinstance(item.get("function"), dict):  # OpenAI's own shape, written as text
        item = item["function"]
    name = next((item[k] for k in NAME_KEYS if isinstance(item.get(k), str) and item[k].strip()),
                None)
    if name is None:
        raise _NotACall(f"a tool call has no tool name (keys: {', '.join(item) or 'none'})")
    args: Any = next((item[k] for k in ARG_KEYS if k in item), None)
    if isinstance(args, str):
        try:
            args = _loads(args) if args.strip() else {}
        except json.JSONDecodeError as err:
            raise _NotACall(f"the arguments of {name} are not valid JSON ({err})") from err
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise _NotACall(f"the parameters of {name} must be an object")
    return ProposedToolCall(tool=name.strip(), parameters=args,
                            reason=reason if isinstance(reason, str) else "")


def _is_call(obj: Any) -> bool:
    return isinstance(obj, dict) and (isinstance(obj.get("function"), dict)
                                      or any(isinstance(obj.get(k), str) for k in NAME_KEYS))


def _reasoning(obj: dict[str, Any]) -> str:
    for k in REASONING_KEYS:
        v = obj.get(k)
        if isinstance(v, str) and v.strip():
            return v.strip()
        if isinstance(v, list) and all(isinstance(x, str) for x in v) and v:
            return " ".join(v)
    return ""


def _reply(value: Any) -> ProposedReply | None:
    """The reply this JSON value is, None when it is a lone call (collected by the caller)."""
    if isinstance(value, list):
        return ProposedReply(reasoning="", tool_calls=[_call(x) for x in value]) if value else None
    if not isinstance(value, dict):
        raise _NotACall("the reply must be a JSON object")
    key = next((k for k in CALL_LIST_KEYS if isinstance(value.get(k), list)), None)
    if key is not None:
        if not value[key]:
            raise _NotACall(f'"{key}" is empty: call at least one tool')
        return ProposedReply(reasoning=_reasoning(value),
                             tool_calls=[_call(x) for x in value[key]])
    if _is_call(value):
        return None
    raise _NotACall(f"no \"tool_calls\" list and no tool name (keys: {', '.join(value) or 'none'})")


def parse_reply(text: str) -> ProposedReply:
    body, thought = strip_think(text or "")
    loose: list[ProposedToolCall] = []  # single call objects, one after another
    loose_reason = ""
    problem: str | None = None
    json_error: str | None = None
    for value, error in _json_values(body):
        if error is not None:
            json_error = json_error or error
            continue
        try:
            reply = _reply(value)
            if reply is None:  # a lone call
                loose.append(_call(value))
                loose_reason = loose_reason or _reasoning(value)
                continue
        except _NotACall as err:
            problem = problem or str(err)
            continue
        if not reply.reasoning:
            reply.reasoning = thought[:2000]
        return reply
    if loose:
        return ProposedReply(reasoning=loose_reason or thought[:2000], tool_calls=loose)
    if problem:
        raise ReplyFormatError(f"Your JSON is not a tool-call reply: {problem}. Reply with one "
                               f"JSON object: {SCHEMA}", "schema")
    if json_error:
        raise ReplyFormatError(f"Your reply is not valid JSON ({json_error}). Reply with one JSON "
                               f"object only, no prose: {SCHEMA}", "invalid_json")
    raise ReplyFormatError(f"Your reply contains no JSON object. Reply with one JSON object only, "
                           f"no prose: {SCHEMA}", "no_json")
