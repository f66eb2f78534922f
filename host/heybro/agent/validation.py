"""Strict checks of a model reply before anything runs; the errors are written for the model."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from pydantic import BaseModel, ValidationError

from .models import ProposedToolCall
from ..tool_def import RoleTool


class ReplyInvalid(Exception):
    """The reply must not run; `str(err)` is the repair message sent back to the model."""


def pydantic_errors(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        where = ".".join(str(x) for x in e["loc"]) or "(parameters)"
        parts.append(f"{where}: {e['msg']}")
    return "; ".join(parts)


def validate_reply(calls: Sequence[ProposedToolCall], tools: Sequence[RoleTool], *,
                   element_ids: Collection[str] | None, resources: Collection[str],
                   max_batch: int, transition_last_ok: bool) -> list[BaseModel]:
    """Returns the parsed args of every call, or raises ReplyInvalid with every problem found."""
    by_name = {t.name: t for t in tools}
    if not calls:
        raise ReplyInvalid("Your reply called no tool. Reply with tool calls only, e.g. "
                           f"{tools[0].name}(...). Available tools: {', '.join(by_name)}.")
    problems: list[str] = []
    parsed: list[BaseModel] = []
    for n, call in enumerate(calls, 1):
        tool = by_name.get(call.tool)
        if tool is None:
            problems.append(f"call {n}: unknown tool {call.tool!r}; available tools: "
                            f"{', '.join(by_name)}")
            continue
        try:
            args = tool.args.model_validate(call.parameters)
        except ValidationError as err:
            problems.append(f"call {n} {call.tool}: {pydantic_errors(err)}")
            continue
        parsed.append(args)
        eid = getattr(args, "element_id", None)
        if eid is not None and element_ids is not None and eid not in element_ids:
            sample = ", ".join(sorted(element_ids, key=_id_key)[:25])
            problems.append(f"call {n} {call.tool}: element_id {eid!r} is not on the current page "
                            f"(ids on this page: {sample or 'none'}). Use an id from the page map.")
        name = getattr(args, "resource_name", None)
        if name is not None and name not in resources:
            problems.append(f"call {n} upload: no resource named {name!r}; resources: "
                            f"{', '.join(resources) or 'none'}")
    transitions = [i for i, c in enumerate(calls)
                   if (t := by_name.get(c.tool)) is not None and t.kind == "transition"]
    if transitions:
        if len(transitions) > 1:
            problems.append("call only one transition tool per reply")
        elif len(calls) > 1 and not (transition_last_ok and transitions[0] == len(calls) - 1):
            problems.append(f"{calls[transitions[0]].tool} must be the only tool call in its reply "
                            "(act first, look at the page, then report)")
    actions = [c for c in calls if (t := by_name.get(c.tool)) is not None
               and t.kind in ("browser", "tab", "local")]
    if len(actions) > max_batch:
        problems.append(f"{len(actions)} actions in one reply; at most {max_batch}")
    if problems:
        raise ReplyInvalid("Your reply was not executed: " + " | ".join(problems))
    return parsed


def _id_key(x: str) -> tuple[int, str]:
    digits = "".join(ch for ch in x if ch.isdigit())
    return (int(digits) if digits else 0, x)
