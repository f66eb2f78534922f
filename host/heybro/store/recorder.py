"""The agent's Recorder, written to the task store: the task row, a fresh checkpoint of the whole
task after every change, token counters and the action ledger — all before the executor acts.

The history entries themselves are appended by the session as it emits each event (one sequence
for both), so the panel's catch-up after a restart replays exactly what it would have seen live."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from shared_schema.status import Pause

from ..agent.experience import Experience
from ..agent.models import (Iteration, MemoryItem, Question, RoleName, Task, TaskStatus, ToolCall,
                            Usage, Verdict)
from .errors import StoreUnwritable
from .task_store import TaskStore


class StoreRecorder:
    def __init__(self, store: TaskStore) -> None:
        self.store = store
        self._ledger_keys: dict[int, str] = {}

    async def _run(self, fn, *args: Any, **kwargs: Any) -> Any:  # type: ignore[no-untyped-def]
        # In the loop's own thread: these writes take ~0.05-0.2 ms (WAL, synchronous=NORMAL), less
        # than a hop to a worker thread, and the executor waits for them anyway.
        return fn(*args, **kwargs)

    async def _checkpoint(self, task: Task) -> None:
        await self._run(self.store.checkpoint, task.id, task.model_dump(mode="json"))

    async def task_created(self, task: Task) -> None:
        if await self._run(self.store.get_task, task.id) is None:
            await self._run(self.store.create_task, task.description, url=task.url,
                            resources=task.resources, status=task.status.value, task_id=task.id)
        await self._run(self.store.checkpoint, task.id, task.model_dump(mode="json"))

    async def status_changed(self, task: Task, status: TaskStatus, reason: str | None,
                             pause: Pause | None = None) -> None:
        await self._run(self.store.update_status, task.id, status.value, reason, pause)
        await self._checkpoint(task)

    async def plan_changed(self, task: Task) -> None:
        await self._checkpoint(task)

    async def iteration(self, task: Task, iteration: Iteration) -> None:
        await self._checkpoint(task)

    async def tool_call(self, task: Task, role: RoleName, call: ToolCall) -> None:
        if not call.read_only:  # a tool that only looks (its Effects) leaves no ledger entry
            key = f"{len(task.execution_history)}-{time.time_ns()}"
            self._ledger_keys[id(call)] = key
            # The element's name and signature go with its id: after a restart the id means
            # nothing (the signature is also what a routine saved from the task re-finds it by).
            params = (call.parameters | ({"target": call.target} if call.target else {})
                      | ({"signature": call.signature} if call.signature else {})
                      | ({"to_signature": call.to_signature} if call.to_signature else {}))
            # The step it takes is counted before it acts: one a fault cuts off still counts.
            await self._checkpoint(task)
            try:
                await self._run(self.store.action_started, task.id, key, call.tool, params)
            except StoreUnwritable:
                # It will not be carried out (the run stops here): the record says so when the
                # queued writes go in.
                self._ledger_keys.pop(id(call), None)
                with contextlib.suppress(StoreUnwritable):
                    self.store.action_finished(task.id, key, False, {
                        "error": "not carried out: heybro could not write its record"})
                raise

    async def tool_result(self, task: Task, role: RoleName, call: ToolCall) -> None:
        key = self._ledger_keys.pop(id(call), None)
        try:
            if key is not None:  # first: while the store fails it queues, the outcome kept
                result = call.result if isinstance(call.result, dict) else {"value": call.result}
                await self._run(self.store.action_finished, task.id, key, bool(call.success),
                                result if call.success else {"error": call.error,
                                                             "code": call.error_code})
        finally:
            await self._checkpoint(task)

    async def verdict(self, task: Task, verdict: Verdict) -> None:
        await self._checkpoint(task)

    async def memory(self, task: Task, item: MemoryItem) -> None:
        await self._checkpoint(task)

    async def answer(self, task: Task, role: RoleName, text: str) -> None:
        await self._checkpoint(task)

    async def question(self, task: Task, question: Question) -> None:
        await self._checkpoint(task)

    async def experience(self, task: Task, item: Experience) -> None:
        pass  # kept in the experiences table by the env's book; the event log shows it

    async def usage(self, task: Task, usage: Usage) -> None:
        await self._run(self.store.add_usage, task.id, prompt_tokens=usage.prompt_tokens,
                        completion_tokens=usage.completion_tokens, cost_usd=usage.cost_usd)

    async def message(self, task: Task, text: str, level: str = "info") -> None:
        pass  # the session's event log holds messages
