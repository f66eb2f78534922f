"""What the panel and the CLI show of a call comes with its event, from the tool's definition: its
kind (the roles' own moves are told by the plan and the verdict), a leaving move's report, and its
result in a person's words. Readers never key on a tool's name."""

from __future__ import annotations

import asyncio
from typing import Any

from shared_schema.events import EventData, ToolCallData, ToolResultData

from heybro.agent.models import Task, ToolCall
from heybro.agent.recorder import EventRecorder


def events(*calls: tuple[str, ToolCall, Any]) -> list[EventData]:
    sent: list[EventData] = []

    async def emit(data: EventData) -> None:
        sent.append(data)

    rec, task = EventRecorder(emit), Task(description="g", url="http://127.0.0.1/")

    async def run() -> None:
        for role, call, result in calls:
            await rec.tool_call(task, role, call)  # type: ignore[arg-type]
            call.success, call.result = True, result
            await rec.tool_result(task, role, call)  # type: ignore[arg-type]

    asyncio.run(run())
    return sent


def test_each_call_carries_its_kind_and_a_report_only_when_a_role_leaves_with_one() -> None:
    sent = events(("scheduler", ToolCall(tool="set_subtasks", parameters={"subtasks": ["a"]}), {}),
                  ("worker", ToolCall(tool="click", parameters={"element_id": "e1"}), {}),
                  ("worker", ToolCall(tool="answer", parameters={"text": "42"}), {}),
                  ("worker", ToolCall(tool="mark_done", parameters={"summary": "Booked it"},
                                      transition=True), {}),
                  ("verifier", ToolCall(tool="mark_complete", transition=True,
                                        parameters={"confidence": 0.9}), {}))
    calls = [d for d in sent if isinstance(d, ToolCallData)]
    assert [(c.tool, c.kind, c.report) for c in calls] == [
        ("set_subtasks", "plan", None), ("click", "browser", None), ("answer", "local", None),
        ("mark_done", "transition", "Booked it"), ("mark_complete", "transition", None)]


def test_a_result_says_what_was_kept_or_chosen_in_words() -> None:
    sent = events(("worker", ToolCall(tool="extract", parameters={"name": "order"}),
                   {"saved": "order", "value": "KC1"}),
                  ("worker", ToolCall(tool="extract", parameters={"element_id": "e3"}),
                   {"text": "Total: $48.00"}),
                  ("worker", ToolCall(tool="select", parameters={"element_id": "e2", "value": "b"}),
                   {"selected": "Blue"}),
                  ("worker", ToolCall(tool="fill", parameters={"element_id": "e4", "value": "x"}),
                   {"value": "x"}))
    said = [d.said for d in sent if isinstance(d, ToolResultData)]
    assert said == ["kept as order", 'read "Total: $48.00"', 'chose "Blue"', None]
