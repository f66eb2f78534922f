"""The phases of an action, each defined once: **hold** (a reply held through a pause is not
carried out), **guard** (an action a fault cut off is not repeated by itself; the task's step
budget), **what it changed** (one reading of "the page changed"), whether it did anything at all,
and **why the batch stops**. pipeline.py runs them in order for every run."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .browser import Snapshot
from .cutoff import action_key
from .errors import GuardrailHit, Interrupted, RepeatHeld
from .lifecycle import Lifecycle
from .models import Task, ToolCall
from ..tool_def import RoleTool


async def hold(life: Lifecycle, left: Sequence[Any]) -> None:
    """Waits out a pause before the next action; a reply held through it, or overtaken by the
    user's new information, is not carried out: `left` (this call and those after it) is set
    aside."""
    try:
        await life.checkpoint(holding=True)
    except Interrupted as err:
        err.set_aside = list(left)
        raise


def guard(task: Task, tool: RoleTool, params: dict[str, Any], target: str | None) -> None:
    """Before an action on the page: one a fault cut off (whether it happened is unknown) is
    held, not repeated, when it may set off something beyond the page; and it counts against the
    task's step budget."""
    if not tool.acts_on_page:
        return
    key = action_key(tool.name, params, target)
    if tool.effects.held_on_repeat and key in task.cut_off:
        raise RepeatHeld(key)
    task.steps += 1
    if task.steps > task.max_steps:
        raise GuardrailHit("max_steps", f"The task used its limit of {task.max_steps} "
                           "browser actions.")


def changed_page(result: Any, url_before: str) -> bool:
    """Whether an action left the page it acted on: another address, a navigation, a browser
    dialog."""
    if not isinstance(result, dict):
        return False
    return (bool(result.get("url") and url_before and result["url"] != url_before)
            or bool(result.get("navigated")) or bool(result.get("url_changed"))
            or bool(result.get("dialog")))


def no_effect(tool: RoleTool, result: Any, before: Snapshot | None, element_id: Any,
              after: Snapshot | None) -> bool:
    """Whether an action that may set something off (a click, a key press, a choice) showed no
    effect at all: the page reports no change to its address, its content or the control's state
    and no dialog — and, where the page was read again later (`after`), it reads as it did when
    the action was proposed (`before`)."""
    if not tool.effects.may_navigate or tool.kind != "browser" or not isinstance(result, dict):
        return False
    m = result.get("mutations")
    if (not isinstance(m, dict) or any(m.get(k) for k in ("added", "removed", "attributes", "text"))
            or changed_page(result, before.url if before is not None else "")):
        return False
    sig = before.elements.get(element_id) if before is not None and isinstance(element_id, str) else None
    now = (result.get("element") or {}).get("state") if isinstance(result.get("element"), dict) else None
    if isinstance(sig, dict) and isinstance(now, dict) and _state(sig.get("state")) != _state(now):
        return False
    return after is None or before is None or after.fingerprint == before.fingerprint


def _state(state: Any) -> dict[str, Any]:
    """A control's state as a press may change it (checked, pressed, drawn on, its value…)."""
    keys = ("checked", "expanded", "selected", "pressed", "current", "on", "value", "option", "open")
    return {k: state.get(k) if isinstance(state, dict) else None for k in keys}


def why_stop(tc: ToolCall, changed: bool) -> str | None:
    """Why nothing more of a batch is done after this action (None: the batch goes on)."""
    if tc.success is False:
        return "it failed"
    if tc.expectation is not None and not tc.expectation.met:
        return "its expectation was not met"
    return "the page changed" if changed else None
