"""The agent's Recorder, written to the task store: every change lands in SQLite (history event
plus a fresh checkpoint of the whole task) before the executor acts on it."""

from __future__ import annotations

import asyncio
from typing import Any

from ..agent.models import Iteration, MemoryItem, RoleName, Task, TaskStatus, ToolCall, Usage, Verdict
from .task_store import TaskStore

# Tools that only look: no ledger entry, since repeating them after a crash is harmless.
READ_ONLY = frozenset({"observe", "extract", "wait", "wait_for", "list_tabs", "screenshot",
                       "recall_history", "mark_done", "mark_complete", "continue_work",
                       "request_reschedule", "start_work", "set_subtasks", "add_subtask",
                       "insert_subtask", "delete_subtask", "update_subtask"})


class StoreRecorder:
    def __init__(self, store: TaskStore) -> None:
        self.store = store
        self._ledger_keys: dict[int, str] = {}

    async def _run(self, fn, *args: Any, **kwargs: Any) -> Any:  # type: ignore[no-untyped-def]
        # SQLite calls are short; a thread keeps the event loop (and tool results) flowing.
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def _event(self, task: Task, kind: str, data: dict[str, Any], *,
                     checkpoint: bool = True) -> int:
        seq = await self._run(self.store.append, task.id, kind, data)
        if checkpoint:
            await self._run(self.store.checkpoint, task.id, task.model_dump(mode="json"))
        return int(seq)

    async def task_created(self, task: Task) -> None:
        if await self._run(self.store.get_task, task.id) is None:
            await self._run(self.store.create_task, task.description, url=task.url,
                            resources=task.resources, status=task.status.value, task_id=task.id)
        await self._run(self.store.checkpoint, task.id, task.model_dump(mode="json"))

    async def status_changed(self, task: Task, status: TaskStatus, reason: str | None) -> None:
        await self._run(self.store.set_status, task.id, status.value, reason)
        await self._run(self.store.checkpoint, task.id, task.model_dump(mode="json"))

    async def plan_changed(self, task: Task) -> None:
        await self._event(task, "plan", {"subtasks": list(task.subtasks),
                                         "current": task.current_subtask_index})

    async def iteration(self, task: Task, iteration: Iteration) -> None:
        await self._event(task, "iteration", iteration.model_dump(mode="json"))

    async def tool_call(self, task: Task, role: RoleName, call: ToolCall) -> None:
        data = {"role": role, **call.model_dump(mode="json")}
        seq = await self._event(task, "tool_call", data, checkpoint=False)
        if call.tool not in READ_ONLY:
            key = f"{seq}"
            self._ledger_keys[id(call)] = key
            await self._run(self.store.action_started, task.id, key, call.tool, call.parameters)

    async def tool_result(self, task: Task, role: RoleName, call: ToolCall) -> None:
        await self._event(task, "tool_result", {"role": role, **call.model_dump(mode="json")})
        key = self._ledger_keys.pop(id(call), None)
        if key is not None:
            result = call.result if isinstance(call.result, dict) else {"value": call.result}
            await self._run(self.store.action_finished, task.id, key, bool(call.success),
                            result if call.success else {"error": call.error,
                                                         "code": call.error_code})

    async def verdict(self, task: Task, verdict: Verdict) -> None:
        await self._event(task, "verdict", verdict.model_dump(mode="json"))

    async def memory(self, task: Task, item: MemoryItem) -> None:
        await self._event(task, "memory", item.model_dump(mode="json"))

    async def usage(self, task: Task, usage: Usage) -> None:
        await self._event(task, "usage", usage.model_dump(mode="json"), checkpoint=False)
        await self._run(self.store.add_usage, task.id, prompt_tokens=usage.prompt_tokens,
                        completion_tokens=usage.completion_tokens)

    async def message(self, task: Task, text: str, level: str = "info") -> None:
        await self._event(task, "message", {"text": text, "level": level}, checkpoint=False)
