"""The ONE interface through which the executor reports every change of a task.

Persistence (the SQLite store) and transparency (events to the extension and the CLI) both
implement `Recorder`; the executor never talks to either directly. Every method is awaited before
the executor acts on the change it describes.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from shared_schema.events import (AnswerData, ErrorData, EventData, ExperienceData,
                                  ExpectationData, IterationData, MemoryData, MessageData, PlanData,
                                  QuestionData, StatusData, ToolCallData, ToolResultData,
                                  UsageData, VerdictData, dump)
from shared_schema.status import Pause

from .. import logs
from .experience import Experience
from .toolbox import definition
from .models import (ExpectationCheck, Iteration, MemoryItem, Question, RoleName, Task, TaskStatus,
                     ToolCall, Usage, Verdict)

log = logs.get("heybro.agent")


class Recorder(Protocol):
    async def task_created(self, task: Task) -> None: ...
    async def status_changed(self, task: Task, status: TaskStatus, reason: str | None,
                             pause: Pause | None = None) -> None: ...
    async def plan_changed(self, task: Task) -> None: ...
    async def iteration(self, task: Task, iteration: Iteration) -> None: ...
    async def tool_call(self, task: Task, role: RoleName, call: ToolCall) -> None: ...
    async def tool_result(self, task: Task, role: RoleName, call: ToolCall) -> None: ...
    async def verdict(self, task: Task, verdict: Verdict) -> None: ...
    async def memory(self, task: Task, item: MemoryItem) -> None: ...
    async def answer(self, task: Task, role: RoleName, text: str) -> None: ...
    async def question(self, task: Task, question: Question) -> None: ...
    async def experience(self, task: Task, item: Experience) -> None: ...
    async def usage(self, task: Task, usage: Usage) -> None: ...
    async def message(self, task: Task, text: str, level: str = "info") -> None: ...


class MemoryRecorder:
    """Keeps everything in lists (tests, and the default when no store is installed)."""

    def __init__(self) -> None:
        self.records: list[tuple[str, dict[str, Any]]] = []

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        return [d for k, d in self.records if k == kind]

    async def task_created(self, task: Task) -> None:
        self.records.append(("task_created", {"task_id": task.id, "goal": task.description}))

    async def status_changed(self, task: Task, status: TaskStatus, reason: str | None,
                             pause: Pause | None = None) -> None:
        self.records.append(("status", {"status": status.value, "reason": reason, "pause": pause}))

    async def plan_changed(self, task: Task) -> None:
        self.records.append(("plan", {"subtasks": task.plan_texts,
                                      "current": task.current_subtask_index}))

    async def iteration(self, task: Task, iteration: Iteration) -> None:
        self.records.append(("iteration", iteration.model_dump()))

    async def tool_call(self, task: Task, role: RoleName, call: ToolCall) -> None:
        self.records.append(("tool_call", {"role": role, **call.model_dump()}))

    async def tool_result(self, task: Task, role: RoleName, call: ToolCall) -> None:
        self.records.append(("tool_result", {"role": role, **call.model_dump()}))

    async def verdict(self, task: Task, verdict: Verdict) -> None:
        self.records.append(("verdict", verdict.model_dump()))

    async def memory(self, task: Task, item: MemoryItem) -> None:
        self.records.append(("memory", item.model_dump()))

    async def answer(self, task: Task, role: RoleName, text: str) -> None:
        self.records.append(("answer", {"role": role, "text": text}))

    async def question(self, task: Task, question: Question) -> None:
        self.records.append(("question", question.model_dump()))

    async def experience(self, task: Task, item: Experience) -> None:
        self.records.append(("experience", item.model_dump()))

    async def usage(self, task: Task, usage: Usage) -> None:
        self.records.append(("usage", usage.model_dump()))

    async def message(self, task: Task, text: str, level: str = "info") -> None:
        self.records.append(("message", {"text": text, "level": level}))


Emit = Callable[[EventData], Awaitable[None]]  # stores and sends one event


def _short(value: Any, limit: int = 2000) -> Any:
    text = value if isinstance(value, str) else None
    if text is not None and len(text) > limit:
        return text[:limit] + "…"
    return value


RESULT_CHARS = 2000  # what a tool result may take in the history (the 1 MiB frame stays far off)


def bounded_result(result: Any, limit: int = RESULT_CHARS) -> Any:
    """A tool's result for the append-only history: whole when small, else each value cut short
    (extracted values, URLs and counts survive; page dumps never reach here)."""
    if result is None:
        return None
    try:
        size = len(json.dumps(result, default=str))
    except (TypeError, ValueError):
        return _short(repr(result), limit)
    if size <= limit:
        return result
    if not isinstance(result, dict):
        return _short(json.dumps(result, default=str), limit)
    per = max(80, limit // max(1, len(result)))
    out: dict[str, Any] = {}
    for k, v in result.items():
        text = v if isinstance(v, str) else json.dumps(v, default=str)
        out[k] = v if len(text) <= per else text[:per] + "…"
    return out


class EventRecorder:
    """Turns every change into a typed event (shared_schema/events.py) and a structlog line."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit

    async def _send(self, task: Task, data: EventData) -> None:
        fields = dump(data)
        log.info(f"task_{data.KIND.value}", task_id=task.id,
                 **{k: _short(v, 500) for k, v in fields.items()})
        await self._emit(data)

    async def task_created(self, task: Task) -> None:
        await self._send(task, StatusData(status=task.status.value, goal=task.description,
                                          url=task.url))

    async def status_changed(self, task: Task, status: TaskStatus, reason: str | None,
                             pause: Pause | None = None) -> None:
        if not status.final:
            await self._send(task, StatusData(status=status.value, reason=reason, pause=pause))
            return
        await self._send(task, StatusData(
            status=status.value, reason=reason, result=task.result, answer=task.answer,
            steps=task.steps, memory={m.name: m.value for m in task.memory if not m.note}))

    async def plan_changed(self, task: Task) -> None:
        await self._send(task, PlanData(subtasks=task.plan_texts,
                                        current=task.current_subtask_index))

    async def iteration(self, task: Task, iteration: Iteration) -> None:
        await self._send(task, IterationData(
            role=iteration.role, reasoning=_short(iteration.reasoning, 1000),
            tools=[c.tool for c in iteration.tool_calls], repairs=iteration.repairs,
            warnings=iteration.warnings, overhead_ms=iteration.overhead_ms,
            prompt_tokens=iteration.usage.prompt_tokens if iteration.usage else 0,
            tokens=iteration.usage.total_tokens if iteration.usage else 0))

    async def tool_call(self, task: Task, role: RoleName, call: ToolCall) -> None:
        params = {k: _short(v, 300) for k, v in call.parameters.items()}
        tool = definition(call.tool)
        # A leaving move that reports (mark_done) is the report's line; other moves the plan
        # and the verdict tell.
        report = tool.report(call.parameters) if tool is not None and call.transition else None
        await self._send(task, ToolCallData(role=role, tool=call.tool, parameters=params,
                                            reason=call.reason, target=call.target,
                                            kind=tool.kind if tool is not None else None,
                                            report=report))

    async def tool_result(self, task: Task, role: RoleName, call: ToolCall) -> None:
        timing = call.result if isinstance(call.result, dict) else {}
        await self._send(task, ToolResultData(
            role=role, tool=call.tool, success=call.success, error=call.error,
            error_code=call.error_code, result=bounded_result(call.result), target=call.target,
            duration_ms=call.duration_ms, page_changed=call.page_changed,
            page_ms=timing.get("page_ms"), render_ms=timing.get("render_ms"),
            expectation=_expectation(call.expectation), decided=call.decided,
            no_effect=call.no_effect,
            said=tool.said_of(call.result) if call.success and (tool := definition(call.tool))
            else None))

    async def verdict(self, task: Task, verdict: Verdict) -> None:
        await self._send(task, VerdictData.model_validate(verdict.model_dump(mode="json")))

    async def memory(self, task: Task, item: MemoryItem) -> None:
        await self._send(task, MessageData(text=f"Remembered {item.name} = {item.value}",
                                           memory=MemoryData(**item.model_dump(exclude={"note"}))))

    async def answer(self, task: Task, role: RoleName, text: str) -> None:
        await self._send(task, AnswerData(role=role, text=text))

    async def question(self, task: Task, question: Question) -> None:
        await self._send(task, QuestionData(**question.model_dump()))

    async def experience(self, task: Task, item: Experience) -> None:
        await self._send(task, ExperienceData(id=item.id, site=item.site, text=item.text))

    async def usage(self, task: Task, usage: Usage) -> None:
        await self._send(task, UsageData(**usage.model_dump()))

    async def message(self, task: Task, text: str, level: str = "info") -> None:
        if level == "error":
            await self._send(task, ErrorData(text=text))
        else:
            await self._send(task, MessageData(text=text,
                                               level="warning" if level == "warning" else "info"))


def _expectation(check: ExpectationCheck | None) -> ExpectationData | None:
    return None if check is None else ExpectationData.model_validate(check.model_dump(mode="json"))


class FanOut:
    """Several recorders as one (e.g. the store, then events). Each gets every record even when
    one before it fails (a store that cannot write still lets the event reach the panel); the
    first failure is raised after all have had their turn."""

    def __init__(self, *recorders: Recorder) -> None:
        self.recorders = list(recorders)

    def __getattr__(self, name: str) -> Callable[..., Awaitable[None]]:
        async def call(*args: Any, **kwargs: Any) -> None:
            failed: Exception | None = None
            for r in self.recorders:
                try:
                    await getattr(r, name)(*args, **kwargs)
                except Exception as err:  # noqa: BLE001 - raised below, after the others
                    failed = failed or err
            if failed is not None:
                raise failed
        return call
