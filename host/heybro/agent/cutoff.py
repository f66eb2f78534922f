"""Actions a fault cut off: whether they happened is unknown, so heybro never repeats one by itself.

When the browser side dies while an action is in flight (host, service worker, browser or tab),
the action's answer is lost: a "Place order" click may have placed the order. The task pauses with
the action named; on resume the worker is told and looks at the page first. If the worker then
proposes that same action again (same tool on the same element, by its name — ids do not outlive
a restart), it is held rather than carried out: the task pauses again, asking the user to check.
The user's Resume after that question is the consent to repeat it. Only actions that can set off
something beyond the page are held (their definitions' `effects.held_on_repeat`: a click or a key
may submit, a navigation may be a request); filling a field again is visible and harmless.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

# Arguments that say nothing about what an action does (ids are per snapshot).
_NOISE = frozenset({"expect", "signature", "element_id", "target", "observe_after"})
WAITING_FOR_YOU = "waiting for you"


class LedgerEntry(Protocol):
    tool: str
    params: dict[str, Any]
    state: str


def action_key(tool: str, params: Mapping[str, Any], target: str | None) -> str:
    """An action as a person would name it: `click on button "Place order"`, `navigate(url=…)`."""
    args = ", ".join(f"{k}={v!r}" for k, v in params.items() if k not in _NOISE)
    on = f" on {target}" if target else ""
    return f"{tool}({args}){on}" if args else f"{tool}{on}"


def ledger_key(entry: LedgerEntry) -> str:
    return action_key(entry.tool, entry.params, entry.params.get("target"))


def unresolved(ledger: Iterable[LedgerEntry]) -> list[str]:
    """Actions cut off and not carried out successfully since, oldest first."""
    pending: dict[str, None] = {}
    for entry in ledger:
        key = ledger_key(entry)
        if entry.state == "interrupted":
            pending[key] = None
        elif entry.state == "done":
            pending.pop(key, None)
    return list(pending)


class RepeatHeld(Exception):
    """The worker proposed an action a fault cut off: it waits for the user's word."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key

    @property
    def reason(self) -> str:
        return (f"{WAITING_FOR_YOU}: {self.key} was cut off by a fault and may have happened; "
                "heybro does not repeat it by itself. Check the page (or the site's record), "
                "then press Resume to let it go ahead, or Stop")
