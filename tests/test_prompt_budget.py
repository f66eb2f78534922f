"""The worker's prompt stays within its budget: 1,500 tokens a call, with native tool calls and in
JSON mode, counted as the agent benchmark counts them (tests/support/prompt_tokens.py: OpenAI's
o200k_base tokenizer, or a count that never comes out lower without it). Of that, the system prompt
and the tool list — what every call carries whatever the page — leave room for a page and the
assignment's history: the demo shop's biggest step needs about 300 tokens of them
(scripts/bench_agent.py, BENCHMARKS.md)."""

from __future__ import annotations

from typing import Any

import pytest

from support.agent_harness import run_task
from support.fake_browser import shop
from support.prompt_tokens import exact, prompt_tokens
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.models import TaskStatus

BUDGET = 1500
PAGE_ROOM = 300  # a representative page and history: the demo shop's checkout, two cycles before


def order() -> dict[str, list[Any]]:
    return {
        "scheduler": [calls(("set_subtasks", {"subtasks": ["Search for kettle", "Open the blue kettle",
                                                           "Buy it with name Ann, email ann@x.io"]}),
                            ("start_work", {}))],
        "worker": [
            calls(("fill", {"element_id": "e1", "value": "kettle"}),
                  ("click", {"element_id": "e2", "expect": "url:/results"})),
            call("mark_done", summary="Results shown"),
            call("click", element_id="e1", expect="url:/item"),
            call("mark_done", summary="Blue kettle page open"),
            call("click", element_id="e5"),
            calls(("fill", {"element_id": "e1", "value": "Ann"}),
                  ("fill", {"element_id": "e2", "value": "ann@x.io"}),
                  ("click", {"element_id": "e3", "expect": "text:order confirmed"})),
            call("extract", name="order", value="A1"),
            call("mark_done", summary="Order A1 confirmed"),
        ],
        "verifier": [call("mark_complete", reason="results", confidence=0.9),
                     call("mark_complete", reason="item open", confidence=0.9),
                     call("mark_complete", reason="Order confirmed #A1", confidence=0.95)],
    }


@pytest.mark.parametrize("mode", ["native", "json"])
def test_the_workers_prompt_stays_within_its_budget(mode: str) -> None:
    with ScriptedLLM(order()) as llm:
        task, _, result = run_task(llm, shop(), env_extra={"HEYBRO_TOOL_MODE": mode})
    assert result.status == TaskStatus.completed, task.result
    worker = llm.role_requests("worker")
    assert len(worker) == 8 and all(("tools" in b) == (mode == "native") for b in worker)
    assert {"click", "wait_for", "mark_done", "calculate"} <= {
        t["function"]["name"] for t in worker[0].get("tools", [])} or mode == "json"
    # What every call carries: the system prompt (in JSON mode with the tools listed in it) and the
    # tools offered natively.
    first = worker[0]
    fixed = prompt_tokens({"messages": first["messages"][:1], **{k: v for k, v in first.items()
                                                                if k in ("tools", "response_format")}})
    counted = "o200k_base" if exact() else "the conservative count (bpe-openai is not installed)"
    assert fixed + PAGE_ROOM <= BUDGET, (
        f"the worker's system prompt and tools take {fixed} tokens in {mode} mode ({counted}): "
        f"with a page and its history ({PAGE_ROOM}) over the budget of {BUDGET}")
    sizes = [prompt_tokens(b) for b in worker]
    assert max(sizes) <= BUDGET, (mode, counted, sizes)
