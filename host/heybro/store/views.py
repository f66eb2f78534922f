"""The task record as the panel and the terminal see it (shared_schema's TaskSummary / TaskDetail),
read from the store: by the host for its clients, and by `heybro tasks` / `heybro show` directly
when no host is running."""

from __future__ import annotations

from shared_schema.events import from_stored
from shared_schema.messages import Event, HistoryEntry, TaskDetail, TaskSummary
from shared_schema.status import Pause

from .. import logs
from ..agent.models import Subtask
from .task_store import EventRow, TaskRow, TaskStore

log = logs.get("heybro.store")


def summary(row: TaskRow) -> TaskSummary:
    return TaskSummary(task_id=row.id, goal=row.goal, status=row.status, reason=row.reason,
                       pause=Pause(row.pause) if row.pause and row.pause in Pause.__members__ else None,
                       url=row.url, created_at=row.created_at, updated_at=row.updated_at,
                       prompt_tokens=row.prompt_tokens, completion_tokens=row.completion_tokens,
                       llm_calls=row.llm_calls, cost_usd=row.cost_usd)


def detail(store: TaskStore, task_id: str, after_seq: int = -1) -> TaskDetail | None:
    """The task with its history after `after_seq`; None when there is no such task."""
    # Events first, then the row: the row's status is then never older than the history,
    # so a reader that takes the status from the row cannot step back behind an event.
    history = [HistoryEntry(seq=e.seq, kind=e.kind, at=e.at, data=e.data)
               for e in events(store, task_id, after_seq)]
    row = store.get_task(task_id)
    if row is None:
        return None
    state = store.load_checkpoint(task_id) or {}
    plan = [Subtask.model_validate(x).text for x in state.get("subtasks", [])]
    return TaskDetail(task=summary(row), subtasks=plan,
                      current_subtask=state.get("current_subtask_index", 0), history=history)


def events(store: TaskStore, task_id: str, after_seq: int = -1,
           kinds: list[str] | None = None) -> list[Event]:
    """The task's stored history as today's typed events, whichever version wrote it (a row of
    a kind this version does not know is left out, and logged)."""
    out: list[Event] = []
    for row in store.events(task_id, after=after_seq, kinds=_with_former(kinds)):
        if (event := _typed(row)) is not None and (kinds is None or event.kind.value in kinds):
            out.append(event)
    return out


def _with_former(kinds: list[str] | None) -> list[str] | None:
    # A control signal was a message before it had its own kind.
    return kinds if kinds is None or "control" not in kinds else [*kinds, "message"]


def _typed(row: EventRow) -> Event | None:
    read = from_stored(row.kind, row.data)
    if read is None:
        log.warning("history_entry_unreadable", task_id=row.task_id, seq=row.seq, kind=row.kind)
        return None
    kind, data = read
    return Event(task_id=row.task_id, seq=row.seq, kind=kind, at=row.at, data=data)
