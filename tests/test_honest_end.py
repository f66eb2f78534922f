"""A task ends `completed` only when its goal is met: the planner and the verifier can end it as
failed, with the reason the user reads, and that is what the status, the record and `heybro run`'s
exit status say. Real agent core over the real openai client and the scripted LLM server, on the
fake browser."""

from __future__ import annotations

from support.agent_harness import plan, prompts, run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.models import TaskStatus


def test_the_planner_ends_an_impossible_goal_as_failed_with_its_reason() -> None:
    script = {"scheduler": [call("start_work"),  # (an empty queue: nothing to hand over)
                            call("fail_task", reason="the shop sells no kettles in green")]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, shop(), goal="Buy a green kettle")
        second = prompts(llm, "scheduler")[1]
    assert "start_work → FAILED: the queue has no pending subtask: add one first — or, when the " \
           "goal cannot be met, fail_task(reason)" in second
    assert result.status == TaskStatus.failed
    assert result.reason == ("The planner ended the task: the goal cannot be met — the shop sells "
                             "no kettles in green")
    assert rec.kinds("status")[-1] == {**rec.kinds("status")[-1], "status": "failed",
                                       "reason": result.reason}
    assert not llm.role_requests("worker")  # nothing was done for a goal that cannot be met


def test_the_verifier_ends_a_goal_the_page_shows_cannot_be_met_as_failed() -> None:
    """The worker finds the category cannot be named (the page's prompt was answered empty): its
    report of the failure is no goal met — the verifier fails the task, never completes it."""
    script = {"scheduler": [plan("Add the category Cooking")],
              "worker": [call("click", element_id="e2", expect="text:Cooking"),
                         call("mark_done", summary="Could not add it: the name box took no text")],
              "verifier": [call("fail_task", reason="No category Cooking exists: the name could "
                                "not be given", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, shop(), goal="Add a category Cooking")
    assert result.status == TaskStatus.failed
    assert "The verifier judged that the goal cannot be met — No category Cooking exists" in result.reason
    (verdict,) = rec.kinds("verdict")
    assert verdict["decision"] == "fail_task" and verdict["accepted"]
    assert task.status == TaskStatus.failed and task.result == result.reason


def test_an_unsure_verdict_of_failure_goes_back_to_the_planner_not_to_an_end() -> None:
    script = {"scheduler": [plan("Find the green kettle"), plan("Search for green kettles")],
              "worker": [call("mark_done", summary="no green kettle on this page"),
                         call("mark_done", summary="searched: green kettle listed")],
              "verifier": [call("fail_task", reason="maybe there is none", confidence=0.3),
                           call("mark_complete", reason="listed", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, shop(), goal="Find a green kettle")
        replan = prompts(llm, "scheduler")[1]
    assert result.status == TaskStatus.completed, task.result
    assert "The verifier thinks the goal cannot be met, but is not sure (0.30 < 0.70): maybe there is none" in replan
