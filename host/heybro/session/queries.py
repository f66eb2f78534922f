"""What the panel and the terminal read about tasks: the list, and one task with its history
(from the store, completed with the events a live run sent while the store could not write)."""

from __future__ import annotations

from shared_schema import ErrorCode, ProtocolError
from shared_schema.messages import HistoryEntry, TaskDetail, TaskListResult

from ..store import TaskStore, views
from .running import Running


def list_tasks(store: TaskStore, limit: int) -> TaskListResult:
    return TaskListResult(tasks=[views.summary(r) for r in store.list_tasks(limit)])


def detail(store: TaskStore, task_id: str, after_seq: int = -1,
           live: Running | None = None) -> TaskDetail:
    """The task and its history after `after_seq`; `live` is its run here, if any."""
    found = views.detail(store, task_id, after_seq)
    if found is None:
        raise ProtocolError(ErrorCode.task_not_found, f"There is no task {task_id!r}.")
    if live is None or not live.unsaved:
        return found
    # Not written yet (the store fails): what the panel was sent, from memory.
    stored = found.history[-1].seq if found.history else after_seq
    history = found.history + [
        HistoryEntry(seq=e.seq, kind=e.kind, at=e.at, data=e.data)
        for e in live.unsaved if e.seq > max(stored, after_seq)]
    task = found.task.model_copy(update={"status": live.task.status.value, "reason": (
        live.store_failed.message if live.store_failed else found.task.reason)})
    state = live.task
    return TaskDetail(task=task, subtasks=[s.text for s in state.subtasks],
                      current_subtask=state.current_subtask_index, history=history)
