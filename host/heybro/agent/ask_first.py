"""Asking the user before a risky action: one step of every act, whoever proposes it (the worker's
model, a routine's replay, an outside agent through the worker). risk.judge weighs the action on
the page; a yes holds for that action on that page for the rest of the task."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .env import YES, AgentEnv
from .models import Question
from .risk import judge, site_of
from ..tool_def import RoleTool


@dataclass(frozen=True)
class Asked:
    """The user was asked: their answer, and what was asked and answered (for the record)."""
    yes: bool
    what: str  # what the action may do ("spend money")
    decided: str


def may_ask(env: AgentEnv) -> bool:
    """Whether asking first is on at all (the user may turn it off): when not, no page need be read
    to decide."""
    return env.settings.confirm


async def ask_first(env: AgentEnv, tool: RoleTool, params: dict[str, Any],
                    elements: dict[str, Any], url: str, target: str) -> Asked | None:
    """Asks the user when `tool` with `params` looks risky on the page at `url` (its element map
    `elements`); None when it may go ahead unasked (not risky, confirmation off for the site, or
    already approved)."""
    if not may_ask(env) or site_of(url) in env.confirm_off:
        return None
    risk = judge(tool.effects.risk, params, elements)
    key = f"{tool.name} {target} @ {url}"
    if risk is None or key in env.state.approved:
        return None
    verb = "click" if tool.effects.risk == "click" else f"press {params.get('keys')} on"
    answer = await env.ask_user(Question(
        kind="confirm", choices=["Yes", "No"],
        text=f"About to {verb} {target} on {url} — this may {risk.what} ({risk.words}). Go ahead?"))
    yes = answer.strip().lower() in YES
    if yes:
        env.state.approved.add(key)
    return Asked(yes, risk.what, risk.decided(yes))
