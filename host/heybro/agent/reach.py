"""What a task's browser calls may reach, on the host's side (the coordinator checks the same again,
extension/background/reach.js): addresses that are web pages (shared_schema/reach.py), tabs that
are the task's — the tab the user handed over, the tabs it opened and those its pages opened while
it ran, as the browser reported them (the extension decides which those are: never a tab by its
opener alone, background/tab_adoption.js) — and sites the user's permissions allow
(shared_schema/sites.py).
Whatever the model asks, a call beyond that is refused before it leaves, with the reason the model
and the user read.
"""

from __future__ import annotations

from typing import Any

from shared_schema.reach import page_address_problem, reach_fields
from shared_schema.sites import SiteGate, Verdict, verdict
from shared_schema.tools import TOOLS

from .errors import ToolFailed
from .models import Task


def check(task: Task, tool: str, args: dict[str, Any]) -> None:
    """Raises ToolFailed("not_allowed") when the call's arguments open an address that is no web
    page, or name a tab that is not the task's."""
    spec = TOOLS.get(tool)
    if spec is None:
        return
    for name, kind in reach_fields(spec.args).items():
        value = args.get(name)
        if kind == "opens" and isinstance(value, str) and (why := page_address_problem(value)):
            raise ToolFailed("not_allowed", why)
        if kind == "tab" and isinstance(value, int) and value not in known(task):
            raise ToolFailed("not_allowed", f"Tab {value} is not one of this task's tabs: heybro works "
                             "only in the tab the task started in and the tabs it opened. The user's "
                             "other tabs stay theirs.")


def known(task: Task) -> set[int]:
    return {*task.tabs, *([task.tab_id] if task.tab_id is not None else [])}


def learn(task: Task, result: dict[str, Any]) -> None:
    """Keeps the tabs a call's result reports as the task's (the tab it worked in or opened, the
    tabs its pages opened while the task ran), in an action's page after it too. Only the
    extension's report counts: it lists no tab the user opened before the task started."""
    ids = []
    for r in (result, result.get("observation")):
        if not isinstance(r, dict):
            continue
        ids.append(r.get("tab_id"))
        for key in ("tabs", "opened_tabs"):
            items = r.get(key)
            if isinstance(items, list):
                ids += [t.get("tab_id") for t in items if isinstance(t, dict)]
    for i in ids:
        if isinstance(i, int) and not isinstance(i, bool) and i not in task.tabs:
            task.tabs.append(i)


def opened_sites(tool: str, args: dict[str, Any], gate: SiteGate) -> list[Verdict]:
    """What the user's per-site permissions say of the addresses the call opens (none: all allowed)."""
    spec = TOOLS.get(tool)
    if spec is None:
        return []
    return [v for name, kind in reach_fields(spec.args).items()
            if kind == "opens" and isinstance(args.get(name), str)
            and (v := verdict(args[name], gate, gate.approved)) is not None]


def refused_site(err: ToolFailed) -> Verdict | None:
    """The site permission the coordinator refused a call by (it saw the tab's live page)."""
    if err.code != "not_allowed" or not isinstance(err.detail, dict) or "rule" not in err.detail:
        return None
    try:
        return Verdict.model_validate(err.detail)
    except ValueError:
        return None
