"""heybro_state values for each state a person can see in the panel and popup."""

from __future__ import annotations

from typing import Any

T0 = 1_795_261_500_000  # fixed times keep the pictures stable


def _ctx(status: str, **over: Any) -> dict[str, Any]:
    ctx: dict[str, Any] = {
        "taskId": "t-demo", "goal": "Order the blue kettle from the demo shop", "status": status,
        "reason": None, "subtasks": [], "currentSubtask": 0, "currentAction": None,
        "lastVerdict": None, "error": None, "result": None,
        "usage": {"promptTokens": 0, "completionTokens": 0, "calls": 0, "costUsd": 0},
        "chat": [{"who": "user", "text": "Order the blue kettle from the demo shop", "at": T0}],
        "lastSeq": 10, "startedAt": T0, "updatedAt": T0,
    }
    ctx.update(over)
    return ctx


PLAN = ["Search the shop for a blue kettle", "Open the blue kettle's page",
        "Add it to the cart and check out with the saved details"]


def plan(current: int, done_all: bool = False) -> list[dict[str, str]]:
    return [{"text": t, "state": "done" if done_all or i < current else
             "current" if i == current else "pending"} for i, t in enumerate(PLAN)]


USAGE = {"promptTokens": 5210, "completionTokens": 388, "calls": 6, "costUsd": 0.0031}

STATES: dict[str, dict[str, Any]] = {
    "idle": {"taskContext": None, "actionHistory": [], "tabRegistry": []},
    "planning": {"taskContext": _ctx("planning"), "actionHistory": [], "tabRegistry": []},
    "running": {"taskContext": _ctx(
        "executing", subtasks=plan(1), currentSubtask=1,
        currentAction={"tool": "click", "parameters": {"element_id": "e14"}, "role": "worker",
                       "reason": "Open the product page", "target": 'link "Blue Kettle"'},
        lastVerdict={"decision": "mark_complete", "reason": "The search results list the blue "
                     "kettle.", "confidence": 0.86, "threshold": 0.7, "accepted": True},
        usage=USAGE,
        chat=[{"who": "user", "text": "Order the blue kettle from the demo shop", "at": T0},
              {"who": "agent", "text": "Plan: search, open the product, check out.", "at": T0}]),
        "actionHistory": [], "tabRegistry": []},
    "paused": {"taskContext": _ctx(
        "paused", subtasks=plan(2), currentSubtask=2, usage=USAGE,
        reason="paused by the user", pause="asked"), "actionHistory": [], "tabRegistry": []},
    "failed": {"taskContext": _ctx(
        "failed", subtasks=plan(1), currentSubtask=1, usage=USAGE,
        reason="Guardrail: 3 consecutive actions failed (the Add to cart button stayed covered "
               "by a dialog)."), "actionHistory": [], "tabRegistry": []},
    "completed": {"taskContext": _ctx(
        "completed", subtasks=plan(3, done_all=True), currentSubtask=3, usage=USAGE,
        result="Order HB-1042 placed for the blue kettle ($39.00).",
        lastVerdict={"decision": "mark_complete", "reason": "The confirmation page shows order "
                     "HB-1042.", "confidence": 0.95, "threshold": 0.7, "accepted": True},
        chat=[{"who": "user", "text": "Order the blue kettle from the demo shop", "at": T0},
              {"who": "agent", "text": "Done. Order HB-1042 placed for the blue kettle ($39.00).",
               "at": T0}]), "actionHistory": [], "tabRegistry": []},
}


def _ev(seq: int, event: str, **data: Any) -> dict[str, Any]:
    return {"task_id": "t-demo", "seq": seq, "kind": event, "at": T0 / 1000 + seq, "data": data}


# A run as the step stream shows it: the first subtask done, the second under way.
STEP_EVENTS: list[dict[str, Any]] = [
    _ev(0, "status", status="planning", goal="Order the blue kettle from the demo shop"),
    _ev(1, "plan", subtasks=PLAN, current=0),
    _ev(2, "status", status="executing"),
    _ev(3, "tool_call", role="worker", tool="fill", kind="browser", parameters={"element_id": "e3", "value": "blue kettle"},
        target='searchbox "Search products"'),
    _ev(4, "tool_call", role="worker", tool="click", kind="browser", parameters={"element_id": "e4"}, target='button "Search"'),
    _ev(5, "tool_result", role="worker", tool="fill", success=True, result={"value": "blue kettle"}),
    _ev(6, "tool_result", role="worker", tool="click", success=True,
        result={"url": "http://shop.test/search?q=blue+kettle"},
        expectation={"met": True, "detail": "the URL contains /search"}),
    _ev(7, "verdict", decision="mark_complete", reason="The search results list the blue kettle.",
        confidence=0.86, threshold=0.7, accepted=True),
    _ev(8, "plan", subtasks=PLAN, current=1),
    _ev(9, "tool_call", role="worker", tool="click", kind="browser", parameters={"element_id": "e9"}, target='link "Blue Kettle"'),
    _ev(10, "tool_result", role="worker", tool="click", success=False,
        error="Covered by a cookie banner; dismissed it"),
    _ev(11, "tool_call", role="worker", tool="click", kind="browser", parameters={"element_id": "e9"}, target='link "Blue Kettle"'),
    _ev(12, "tool_result", role="worker", tool="click", success=True, result={"url": "http://shop.test/product/p1"},
        expectation={"met": True, "detail": "the URL contains /product"}),
    _ev(13, "tool_call", role="worker", tool="mark_done", kind="transition",
        parameters={"summary": "On the kettle's page"}, report="On the kettle's page"),
    _ev(14, "tool_result", role="worker", tool="mark_done", success=True),
    _ev(15, "verdict", decision="continue_work", reason="The product page is open, but the cart is "
        "still empty.", confidence=0.55, threshold=0.7, accepted=False),
    _ev(16, "tool_call", role="worker", tool="click", kind="browser", parameters={"element_id": "e14"}, target='button "Add to cart"'),
]
