"""Why a restored task goes on, as the typed note (agent/models.ResumeNote) its run is given."""

from __future__ import annotations

from shared_schema.events import MessageData, StatusData
from shared_schema.status import TaskStatus

from ..agent.cutoff import ledger_key
from ..store import TaskStore, views


def interrupted(store: TaskStore, task_id: str, reason: str | None) -> str:
    """For a task cut off (a crash, the browser gone): which actions may or may not have
    happened, so the worker looks before repeating one."""
    cut = store.actions(task_id, "interrupted")[-3:]
    note = f"heybro was interrupted ({reason or 'paused'}) and is continuing this subtask. "
    if cut:
        what = "; ".join(ledger_key(a) for a in cut)
        note += (f"These actions were cut off and may or may not have happened: {what}. "
                 "Look at the page first and do not repeat one whose effect is visible; "
                 "heybro asks the user before repeating one of them.")
    else:
        note += "Look at the page first: it may have changed since the last step."
    return note


def went_ahead(action: str) -> str:
    """The user's Resume after heybro asked about an action a fault cut off is their word."""
    return (f"The user checked and lets heybro go ahead: {action} (cut off by a fault earlier) "
            "may be done again if the page still calls for it.")


def said_while_paused(store: TaskStore, task_id: str) -> list[str]:
    """What the user said since the planner last ran (to hand it over on resume)."""
    said: list[str] = []
    for e in reversed(views.events(store, task_id, kinds=["message", "status"])):
        if isinstance(e.data, StatusData) and e.data.status == TaskStatus.planning:
            break
        if isinstance(e.data, MessageData) and e.data.who == "user" and e.data.text:
            said.append(e.data.text)
    return said[::-1]
