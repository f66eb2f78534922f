"""The agent's recorder writing into a real SQLite store: task row, checkpoints, the ledger."""

from __future__ import annotations

import asyncio
from pathlib import Path

from heybro.agent.models import Subtask, Task, TaskStatus, ToolCall, Usage
from heybro.store import TaskStore
from heybro.store.recorder import StoreRecorder


def test_every_change_is_checkpointed_and_acts_are_ledgered(tmp_path: Path) -> None:
    store = TaskStore(tmp_path / "t.sqlite3")
    rec = StoreRecorder(store)
    task = Task(description="Order a kettle", url="http://127.0.0.1/")

    async def run() -> None:
        await rec.task_created(task)
        task.subtasks = [Subtask(text="find kettle"), Subtask(text="order it")]
        await rec.plan_changed(task)
        task.status = TaskStatus.executing
        await rec.status_changed(task, TaskStatus.executing, None)
        look = ToolCall(tool="observe", read_only=True)
        await rec.tool_call(task, "worker", look)
        look.success = True
        await rec.tool_result(task, "worker", look)
        buy = ToolCall(tool="click", parameters={"element_id": "e4"})
        await rec.tool_call(task, "worker", buy)
        buy.success, buy.result = True, {"url_changed": True}
        await rec.tool_result(task, "worker", buy)
        await rec.usage(task, Usage(role="worker", model="m", prompt_tokens=700,
                                    completion_tokens=30))
        task.current_subtask_index = 1
        await rec.plan_changed(task)
        pay = ToolCall(tool="click", parameters={"element_id": "e9"})
        await rec.tool_call(task, "worker", pay)  # the host dies before the result

    asyncio.run(run())
    row = store.get_task(task.id)
    assert row and row.status == "executing" and row.goal == "Order a kettle"
    assert row.prompt_tokens == 700 and row.llm_calls == 1
    # The checkpoint is the task as it stood after the last completed step.
    restored = Task.model_validate(store.load_checkpoint(task.id))
    assert restored.plan_texts == ["find kettle", "order it"] and restored.current_subtask_index == 1
    # Looking is not in the ledger; acting is, and the unfinished click is known after a crash.
    assert [(a.tool, a.state) for a in store.actions(task.id)] == [("click", "done"),
                                                                   ("click", "started")]
    assert store.pause_interrupted() == [task.id]
    assert [a.state for a in store.actions(task.id)] == ["done", "interrupted"]
    assert store.get_task(task.id).status == "paused"  # type: ignore[union-attr]


def test_a_task_saved_before_plans_carried_checks_resumes_with_its_plan(tmp_path: Path) -> None:
    """Records written by earlier versions hold the plan as plain texts."""
    store = TaskStore(tmp_path / "t.sqlite3")
    task = Task(description="Order a kettle")
    store.create_task(task.description, task_id=task.id)
    store.checkpoint(task.id, {**task.model_dump(mode="json"),
                               "subtasks": ["find kettle", "order it"], "current_subtask_index": 1})
    restored = Task.model_validate(store.load_checkpoint(task.id))
    assert restored.current_subtask == "order it" and restored.subtasks[1].done_when is None
