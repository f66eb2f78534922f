"""What `heybro run` prints in a terminal for a task's events."""

from __future__ import annotations

import io
from typing import Any

from heybro.cli_run import Progress


def shown(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    out = io.StringIO()
    p = Progress(as_json=False, out=out)
    for seq, (kind, data) in enumerate(events):
        p.show({"task_id": "t", "seq": seq, "kind": kind, "at": 0.0, "data": data})
    return out.getvalue().splitlines()


def test_a_run_reads_as_plan_steps_checks_and_outcome() -> None:
    lines = shown([
        ("status", {"status": "planning", "goal": "Buy a kettle"}),
        ("status", {"status": "planning"}),  # the same status again: nothing new to say
        ("plan", {"subtasks": ["Search", "Order"], "current": 0}),
        ("status", {"status": "executing"}),
        ("tool_call", {"role": "worker", "tool": "fill", "parameters": {"element_id": "e3", "value": "kettle"}}),
        ("tool_call", {"role": "worker", "tool": "click", "parameters": {"element_id": "e4", "expect": {"url_contains": "/s"}}}),
        ("tool_result", {"role": "worker", "tool": "fill", "success": True,
                         "expectation": {"tool": "fill", "met": True, "detail": "value is 'kettle'"}}),
        ("tool_result", {"role": "worker", "tool": "click", "success": False, "error_code": "covered",
                         "error": "A cookie banner covers it"}),
        ("usage", {"role": "worker", "model": "m", "total_tokens": 900}),
        ("verdict", {"decision": "mark_complete", "by": "host", "confidence": 1.0, "threshold": 0.7,
                     "llm_confidence": None, "accepted": True,
                     "reason": "the page shows it: URL contains '/s'"}),
        ("verdict", {"decision": "mark_complete", "confidence": 0.9, "threshold": 0.7, "accepted": True,
                     "reason": "Order KC1 shown"}),
        ("status", {"status": "completed", "reason": "Order KC1 shown", "memory": {"order_number": "KC1"}}),
    ])
    assert lines.count("● planning") == 1
    assert "  → 1. Search" in lines and "    2. Order" in lines
    assert "  [step 1 · subtask 1/2] fill(element_id='e3', value='kettle')" in lines
    # The expectation is not shown as a parameter; results say which call they answer.
    assert "  [step 2 · subtask 1/2] click(element_id='e4')" in lines
    assert "      ↳ fill: expected met (value is 'kettle')" in lines
    assert "      ✗ covered: A cookie banner covers it" in lines
    assert "  verifier: mark_complete (model 0.90 ≥ 0.70; page: nothing checked) Order KC1 shown" in lines
    assert "  checked by heybro: the page shows it: URL contains '/s'" in lines
    assert lines[-3:] == ["✓ completed: Order KC1 shown", "  memory: order_number=KC1",
                          "  2 actions, 1 LLM call, 900 tokens"]


def test_a_failure_says_why() -> None:
    lines = shown([("status", {"status": "failed", "reason": "Guardrail (max_steps): limit of 6"})])
    assert lines[0] == "✗ failed: Guardrail (max_steps): limit of 6"


def test_a_question_ends_with_its_answer_first() -> None:
    lines = shown([
        ("tool_call", {"role": "analyst", "tool": "calculate", "parameters": {"expression": "20+35"}}),
        ("answer", {"role": "analyst", "text": "Together they cost $55."}),
        ("experience", {"id": 3, "site": "shop.test", "text": "Prices are per item"}),
        ("status", {"status": "completed", "reason": "$20 + $35 from the saved prices",
                    "answer": "Together they cost $55."}),
    ])
    assert lines[0].endswith("calculate(expression='20+35')")  # a role without the page acts too
    assert "  analyst answers: Together they cost $55." in lines
    assert "  learned about shop.test: Prices are per item (`heybro experiences` lists them)" in lines
    done = lines.index("✓ answer: Together they cost $55.")
    assert lines[done + 1] == "  completed: $20 + $35 from the saved prices"


def test_the_users_words_control_answers_and_plain_outcomes_are_shown() -> None:
    lines = shown([
        ("plan", {"subtasks": ["Fill the form"], "current": 0}),
        ("tool_call", {"role": "worker", "tool": "fill", "parameters": {"element_id": "e3", "value": "Ann"}}),
        ("tool_result", {"role": "worker", "tool": "fill", "success": True}),
        ("control", {"text": "Pausing at the next safe point (between actions)…", "what": "pausing"}),
        ("message", {"text": "Use the office address", "who": "user"}),
        ("message", {"text": "Remembered order_number = KC1"}),  # said in the record, not here
        ("tool_call", {"role": "worker", "tool": "mark_done", "parameters": {"summary": "Filled"}}),
        ("tool_result", {"role": "worker", "tool": "mark_done", "success": True}),
    ])
    # In order; the memory note stays in the record, and mark_done is no action with an outcome.
    assert lines[-5:] == ["  [step 1 · subtask 1/1] fill(element_id='e3', value='Ann')",
                          "      ✓ fill: done",
                          "  · Pausing at the next safe point (between actions)…",
                          "  you: Use the office address",
                          "  [step 1 · subtask 1/1] mark_done(summary='Filled')"]


def test_a_question_says_how_to_answer_it_from_the_terminal() -> None:
    lines = shown([("question", {"id": "q1", "text": "Which colour?", "kind": "choice",
                                 "choices": ["Blue", "Red"]})])
    assert lines == ["  ? heybro asks: Which colour? [Blue / Red]",
                     '    answer with `heybro message t "…"`']
    secret = shown([("question", {"id": "q2", "text": "The code from your phone?", "kind": "secret"})])
    assert secret[1] == "    answer with `heybro message t -` (asks for it without showing it)"


def test_every_kind_of_event_the_host_sends_reads_in_the_terminal() -> None:
    import json
    from pathlib import Path

    examples = sorted((Path(__file__).parents[1] / "shared_schema/examples/events").glob("*.json"))
    silent = {"iteration", "usage"}  # the model's thinking is the panel's; usage is summed at the end
    assert len(examples) >= 13
    for path in examples:
        event = json.loads(path.read_text())["payload"]
        lines = shown([(event["kind"], event["data"])])
        assert bool(lines) is (event["kind"] not in silent), (event["kind"], lines)
