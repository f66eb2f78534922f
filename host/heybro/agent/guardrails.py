"""Limits that end a task with a reason instead of letting it hang or spin, and loop detection."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ..config import Limits


class GuardrailHit(Exception):
    """A limit was reached; the task fails with this message."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit


class LoopDetector:
    """Same action on the same target from the same page state, or the page cycling between states.

    `observe_action` and `observe_state` return a warning for the model the first time a loop is
    seen and raise GuardrailHit when it goes on.
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
        n = self.actions[key] + 1  # the first run is not counted as a repeat
        target = params.get("element_id") or params.get("url") or ""
        if n >= self.limits.loop_fail + 1:
            raise GuardrailHit("loop", f"Loop detected: {tool}({target}) repeated {n} times without "
                               "the page changing.")
        if n >= self.limits.loop_warn:
            return (f"WARNING: you already did {tool}({target}) on this same page and nothing "
                    "changed. Do something different or mark_done explaining the problem.")
        return None

    def observe_state(self, state: str) -> str | None:
        self.states[state] += 1
        n = self.states[state]
        if n > self.limits.loop_fail + 2:
            raise GuardrailHit("loop", f"Loop detected: the page came back to the same state {n} "
                               "times.")
        if n > self.limits.loop_warn + 1:
            return ("WARNING: the page keeps returning to this same state; you may be going in "
                    "circles. Try another approach or mark_done with what blocks you.")
        return None
