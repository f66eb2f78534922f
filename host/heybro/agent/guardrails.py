"""Limits that end a task with a reason instead of letting it hang or spin, and loop detection."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ..config import Limits
from .errors import GuardrailHit


class LoopDetector:
    """Same action on the same target from the same page state, or the page cycling between states.

    An action done on a page that it then leaves unchanged is counted per (page state, action):
    the `loop_warn`-th time (2: the first repeat) the model is warned, the `loop_fail`-th time (3)
    the task fails. A page state the worker's steps come back to is counted per visit: the model
    is warned when the page has come back to it `loop_warn + 1` times and the task fails at
    `loop_fail + 2` returns (going back and forth between two pages is sometimes right).
    `observe_action` and `observe_state` return the warning for the model, or raise GuardrailHit.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.actions: Counter[str] = Counter()
        self.states: Counter[str] = Counter()

    @staticmethod
    def _key(tool: str, params: dict[str, Any], state: str) -> str:
        core = {k: v for k, v in params.items() if k != "expect"}
        return f"{state}|{tool}|{json.dumps(core, sort_keys=True)}"

    def observe_action(self, tool: str, params: dict[str, Any], state_before: str,
                       changed: bool) -> str | None:
        if changed:
            return None
        key = self._key(tool, params, state_before)
        self.actions[key] += 1
        times = self.actions[key]  # how often this action was done on this same page
        target = params.get("element_id") or params.get("url") or ""
        if times >= self.limits.loop_fail:
            raise GuardrailHit("loop", f"Loop detected: {tool}({target}) was done {times} times "
                               "on the same page without the page changing.")
        if times >= self.limits.loop_warn:
            return (f"WARNING: you did {tool}({target}) {times} times on this same page and "
                    "nothing changed. Do something different or mark_done explaining the problem.")
        return None

    def observe_state(self, state: str) -> str | None:
        self.states[state] += 1
        returns = self.states[state] - 1  # the first visit is not a return
        if returns >= self.limits.loop_fail + 2:
            raise GuardrailHit("loop", f"Loop detected: the page came back to the same state "
                               f"{returns} times.")
        if returns >= self.limits.loop_warn + 1:
            return (f"WARNING: the page came back to this same state {returns} times; you may be "
                    "going in circles. Try another approach or mark_done with what blocks you.")
        return None
