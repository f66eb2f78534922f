"""The LLM client against the scripted OpenAI-compatible server, through the real `openai`
package: JSON-mode fallback (a server that rejects tools, one that ignores them), rate limits
(Retry-After, a longer budget for 429, no retry for an empty account)."""

from __future__ import annotations

import asyncio
import json
import time
from email.utils import formatdate
from pathlib import Path
from typing import Any

import pytest

from support.agent_harness import plan, run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, fault, text

from heybro import config
from heybro.agent.models import TaskStatus
from heybro.agent.scheduler_prompt import SYSTEM as SCHEDULER
from heybro.agent.toolbox import SCHEDULER_TOOLS
from heybro.llm import LLMClient, LLMError

def flow() -> dict[str, list[Any]]:
    """A one-subtask task on the fake shop (a fresh script each time: the server pops it)."""
    return {"scheduler": [plan("Search for kettle")],
            "worker": [call("click", element_id="e2"), call("mark_done", summary="results shown")],
            "verifier": [call("mark_complete", reason="results listed", confidence=0.9)]}


def complete(llm: ScriptedLLM, **env: str) -> tuple[Any, LLMClient]:
    """One scheduler call through a fresh client."""
    settings = config.load(env=llm.env(**env), file=Path("/nonexistent"))

    async def main() -> Any:
        client = LLMClient(settings)
        try:
            return await client.complete("scheduler", SCHEDULER, "GOAL: buy a kettle",
                                         SCHEDULER_TOOLS), client
        finally:
            await client.close()

    return asyncio.run(main())


def test_server_rejecting_tools_moves_the_task_to_json_mode_for_good() -> None:
    """Ollama with a model without tool support answers HTTP 400 "does not support tools": the
    same call is made again in JSON mode, and every later call of the task stays there."""
    with ScriptedLLM(flow(), reject_tools=True) as llm:
        task, rec, result = run_task(llm, shop())
        bodies = llm.requests
    assert result.status == TaskStatus.completed, task.result
    assert "tools" in bodies[0] and "tools" not in bodies[1]
    assert all("tools" not in b and b["response_format"] == {"type": "json_object"}
               for b in bodies[1:])
    assert len(bodies) == 1 + 4  # one rejected request, then scheduler, worker ×2, verifier
    system = bodies[1]["messages"][0]["content"]
    assert '"tool_calls": [{"tool": "<name>"' in system
    # The tools listed as signatures (what small models read best, a third of a schema's tokens).
    # (strings untyped: "a parameter without a type is a string", said once)
    assert "a parameter without a type is a string" in system
    assert ('- insert_subtask(subtask, role?: "worker"|"analyst"|"technician" = "worker", '
            'done_when?, index: integer ≥0) — Insert a subtask at index.') in system
    worker = next(b for b in bodies if "You are the Worker" in b["messages"][0]["content"])
    assert "- fill(element_id, value) — Set a field's value." in \
        worker["messages"][0]["content"]
    # `expect` said once for the page actions (not at each), and only where tools take it.
    assert "also takes expect?" in worker["messages"][0]["content"] and "expect?" not in system
    assert {u["mode"] for u in rec.kinds("usage")} == {"json"}
    warned = [m["text"] for m in rec.kinds("message") if m.get("level") == "warning"]
    assert any("server rejected tool calling" in w and "JSON replies" in w for w in warned)


def test_server_ignoring_tools_and_answering_prose_moves_to_json_mode() -> None:
    """A server that takes `tools` silently and lets the model answer in prose: the first prose
    reply switches the client to JSON mode, the repair turn shows the model the JSON format, and
    the rest of the task runs in JSON mode (not three "called no tool" repairs and a failure)."""
    script = flow()
    script["scheduler"].insert(0, text("Sure! First I will search for the kettle, then open it."))
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, shop())
        bodies = llm.requests
    assert result.status == TaskStatus.completed, task.result
    assert "tools" in bodies[0] and all("tools" not in b for b in bodies[1:])
    repair = bodies[1]["messages"][-1]
    assert repair["role"] == "user" and "From now on answer with ONE JSON object" in repair["content"]
    assert '"tool_calls": [{"tool": "<name>"' in repair["content"]
    assert bodies[1]["messages"][-2] == {"role": "assistant", "content":
                                         "Sure! First I will search for the kettle, then open it."}
    assert len(bodies) == 5 and [u["mode"] for u in rec.kinds("usage")][1:] == ["json"] * 4
    warned = [m["text"] for m in rec.kinds("message") if m.get("level") == "warning"]
    assert any("answered in prose" in w for w in warned)


def test_forced_native_mode_does_not_switch() -> None:
    with ScriptedLLM({"scheduler": [text("I will plan now."), plan("x")]}) as llm:
        reply, client = complete(llm, HEYBRO_TOOL_MODE="native")
    assert client.mode == "native" and reply.format_error
    assert "called no tool" in reply.format_error and reply.switched is None


def test_retry_after_headers_are_honoured() -> None:
    """retry-after-ms (OpenAI), Retry-After in seconds and as an HTTP date: each wait lasts at
    least what the server asked, though the backoff base is 10 ms."""
    script = {"scheduler": [fault(429, headers={"retry-after-ms": "400"}),
                            fault(429, headers={"retry-after": "1"}),
                            # a date 2 s from when it is sent (whole seconds: 1-2 s from now)
                            lambda body: fault(429, headers={"retry-after": formatdate(
                                time.time() + 2, usegmt=True)}),
                            plan("x")]}
    with ScriptedLLM(script) as llm:
        reply, _ = complete(llm)
        gaps = [b - a for a, b in zip(llm.times, llm.times[1:])]
    assert [c.tool for c in reply.calls] == ["set_subtasks", "start_work"]
    assert reply.usage.attempts == 4
    assert 0.4 <= gaps[0] < 0.9 and 1.0 <= gaps[1] < 1.5 and 0.9 <= gaps[2] < 2.6, gaps


def test_retry_after_is_capped() -> None:
    script = {"scheduler": [fault(429, headers={"retry-after": "3600"}), plan("x")]}
    with ScriptedLLM(script) as llm:
        started = time.monotonic()
        reply, _ = complete(llm, HEYBRO_LLM_RETRY_AFTER_MAX="0.5")
        took = time.monotonic() - started
    assert reply.usage.attempts == 2 and 0.5 <= took < 3


def test_rate_limits_get_a_longer_budget_than_server_errors() -> None:
    """With 1 retry for errors, four 429s in a row still end in an answer; two 500s do not."""
    limited = {"scheduler": [fault(429)] * 4 + [plan("x")]}
    with ScriptedLLM(limited) as llm:
        reply, _ = complete(llm, HEYBRO_LLM_RETRIES="1")
    assert reply.usage.attempts == 5 and reply.calls
    broken = {"scheduler": [fault(500), fault(500), plan("x")]}
    with ScriptedLLM(broken) as llm, pytest.raises(LLMError) as info:
        complete(llm, HEYBRO_LLM_RETRIES="1")
    assert "failed after 2 attempt(s): HTTP 500" in str(info.value)
    with ScriptedLLM({"scheduler": [fault(429)] * 3 + [plan("x")]}) as llm, \
            pytest.raises(LLMError) as info:
        complete(llm, HEYBRO_LLM_RATE_LIMIT_RETRIES="2")
    assert "failed after 3 attempt(s): HTTP 429" in str(info.value)


def test_insufficient_quota_is_not_retried_and_says_so() -> None:
    quota = fault(429, code="insufficient_quota", message="You exceeded your current quota, "
                  "please check your plan and billing details.")
    with ScriptedLLM({"scheduler": [quota, plan("x")]}) as llm:
        task, rec, result = run_task(llm, shop())
        asked = len(llm.requests)
    assert asked == 1
    assert result.status == TaskStatus.failed
    assert "has no quota left (insufficient_quota: " in task.result
    assert "Add credit to it, or point heybro at another key or model" in task.result
    assert json.dumps(task.result).count("test-key") == 0
