"""Reading a JSON-mode reply leniently (fences, prose around it, a bare call) and strictly typed."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from ..agent.models import ProposedReply, ProposedToolCall

FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


class ReplyFormatError(Exception):
    """The model's text is not a valid ProposedReply; the message tells the model why."""


def _candidates(text: str) -> list[str]:
    out = [text.strip()]
    out += [m.group(1).strip() for m in FENCE.finditer(text)]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        out.append(text[start:end + 1])
    return out


def parse_reply(text: str) -> ProposedReply:
    last: Exception | None = None
    for cand in _candidates(text or ""):
        try:
            data: Any = json.loads(cand)
        except json.JSONDecodeError as err:
            last = err
            continue
        if isinstance(data, list):
            data = {"tool_calls": data}
        if isinstance(data, dict) and "tool" in data and "tool_calls" not in data:
            data = {"reasoning": data.get("reason", ""), "tool_calls": [data]}
        if isinstance(data, dict):
            for call in data.get("tool_calls") or []:
                if isinstance(call, dict) and "parameters" not in call and "arguments" in call:
                    call["parameters"] = call.pop("arguments")
        try:
            return ProposedReply.model_validate(data)
        except ValidationError as err:
            raise ReplyFormatError(
                "Your JSON does not match the schema {\"reasoning\": str, \"tool_calls\": "
                "[{\"tool\": str, \"parameters\": object, \"reason\": str}]}: "
                + "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
            ) from err
    raise ReplyFormatError(f"Your reply is not valid JSON ({last}). Reply with one JSON object "
                           "only, no prose.")


def proposed(call: dict[str, Any]) -> ProposedToolCall:
    return ProposedToolCall.model_validate(call)
