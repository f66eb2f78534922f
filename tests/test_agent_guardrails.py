"""Guardrails end a task with the limit that was hit and why; batches and replies are bounded.

The real agent core and `openai` client against the scripted LLM server, on the fake browser.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.agent_harness import feedback, plan, prompts, run_task  # noqa: E402
from support.fake_browser import shop  # noqa: E402
from support.scripted_llm import ScriptedLLM, call, calls  # noqa: E402

from heybro.agent.models import TaskStatus  # noqa: E402


def acted(browser, tool: str) -> list[dict]:  # type: ignore[no-untyped-def]
    return [a for t, a in browser.calls if t == tool]


def test_loop_warns_at_the_first_repeat_and_stops_at_the_second_with_true_counts() -> None:
    """A button that changes nothing, clicked again and again: the worker's prompt after the first
    click is clean, after the second it carries the warning (2 times), the third click ends the
    task saying 3 times."""
    b = shop()
    with ScriptedLLM({"scheduler": [plan("Go on")]},
                     default={"worker": call("click", element_id="e1")}) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/stuck")
        worker = prompts(llm, "worker")
    assert result.status == TaskStatus.failed
    assert task.result == ("Guardrail (loop): Loop detected: click(e1) was done 3 times on the "
                           "same page without the page changing.")
    assert len(acted(b, "click")) == 3 and len(worker) == 3
    assert "WARNING" not in worker[0] and "WARNING" not in worker[1]
    assert "WARNING: you did click(e1) 2 times on this same page and nothing changed" in worker[2]


def test_loop_counts_per_page_state_and_action() -> None:
    """Alternating two buttons on an unchanged page: each action has its own count."""
    b = shop()
    script = {"scheduler": [plan("Go on")],
              "worker": [call("click", element_id="e1"), call("click", element_id="e2"),
                         call("click", element_id="e1"), call("mark_done", summary="stuck")],
              "verifier": [call("mark_complete", reason="fine", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/stuck")
        worker = prompts(llm, "worker")
    assert result.status == TaskStatus.completed, task.result
    assert ["WARNING" in w for w in worker] == [False, False, False, True]
    assert "you did click(e1) 2 times" in worker[3]
