"""Guardrails end a task with the limit that was hit and why; batches and replies are bounded.

The real agent core and `openai` client against the scripted LLM server, on the fake browser.
"""

from __future__ import annotations

from support.agent_harness import feedback, plan, prompts, run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.models import TaskStatus


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


def test_llm_calls_per_role_run() -> None:
    """A worker that keeps reading and never reports: its run ends at the limit of LLM calls."""
    with ScriptedLLM({"scheduler": [plan("Find the help page")]},
                     default={"worker": call("list_tabs")}) as llm:
        task, rec, result = run_task(llm, shop(), env_extra={"HEYBRO_MAX_LLM_CALLS": "4"})
        asked = len(llm.role_requests("worker"))
    assert result.status == TaskStatus.failed
    assert task.result == ("Guardrail (llm_calls): The worker used its limit of 4 LLM calls "
                           "without finishing.")
    assert asked == 4


def test_steps_per_task() -> None:
    b = shop()
    clicks = [call("click", element_id="e1"), call("click", element_id="e2")] * 3
    with ScriptedLLM({"scheduler": [plan("Go on")], "worker": clicks}) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/stuck",
                                     env_extra={"HEYBRO_MAX_STEPS": "3"})
    assert result.status == TaskStatus.failed
    assert task.result == "Guardrail (max_steps): The task used its limit of 3 browser actions."
    assert [a["element_id"] for a in acted(b, "click")] == ["e1", "e2", "e1"]


def test_retries_per_subtask_then_the_scheduler_replans() -> None:
    """Three worker attempts the verifier sends back: the fourth goes to the scheduler first."""
    again = call("continue_work", instructions="The results are not shown yet", confidence=0.9)
    script = {"scheduler": [plan("Search"), plan("Search for kettle from the home page")],
              "verifier": [again, again, again,
                           call("mark_complete", reason="results listed", confidence=0.9)]}
    with ScriptedLLM(script, default={"worker": call("mark_done", summary="tried")}) as llm:
        task, rec, result = run_task(llm, shop())
        scheduler = prompts(llm, "scheduler")
    assert result.status == TaskStatus.completed, task.result
    assert len(scheduler) == 2 and len(llm.role_requests("worker")) == 4
    assert ("WHY YOU ARE CALLED: The subtask 'Search' failed 3 times; last verdict: The results "
            "are not shown yet") in scheduler[1]
    warned = [m["text"] for m in rec.kinds("message") if m.get("level") == "warning"]
    assert any("failed 3 times" in w for w in warned)


def test_max_replans() -> None:
    script = {"verifier": []}
    with ScriptedLLM(script, default={
            "scheduler": plan("Try"), "worker": call("mark_done", summary="tried"),
            "verifier": call("request_reschedule", reason="The plan is wrong", confidence=0.9)}) as llm:
        task, rec, result = run_task(llm, shop(), env_extra={"HEYBRO_MAX_REPLANS": "2"})
        planned = len(llm.role_requests("scheduler"))
    assert result.status == TaskStatus.failed
    assert task.result == ("Guardrail (max_replans): The plan was changed 2 times without "
                           "finishing; last reason: The plan is wrong")
    assert planned == 3  # the first plan and two replans


def test_consecutive_failures_end_the_task_with_the_last_error() -> None:
    """A button that is always covered: three failed clicks in a row end the task with that
    reason (not the loop guardrail, though the click repeats), each failure shown to the worker."""
    b = shop()
    b.covered = {"e2"}
    with ScriptedLLM({"scheduler": [plan("Search")]},
                     default={"worker": call("click", element_id="e2")}) as llm:
        task, rec, result = run_task(llm, b)
        worker = prompts(llm, "worker")
    assert result.status == TaskStatus.failed
    assert task.result == ("Guardrail (consecutive_failures): 3 actions failed in a row; last: "
                           "click: 'Go' is covered by another element.")
    assert len(acted(b, "click")) == 3 and len(worker) == 3
    assert "click(element_id='e2') → FAILED covered: 'Go' is covered by another element." in worker[1]
    assert worker[2].count("FAILED covered") == 2


def test_a_success_resets_the_failure_count() -> None:
    b = shop()
    b.covered = {"e2"}
    script = {"scheduler": [plan("Search")],
              "worker": [call("click", element_id="e2"), call("click", element_id="e2"),
                         call("fill", element_id="e1", value="kettle"),
                         call("click", element_id="e2"), call("click", element_id="e2"),
                         call("mark_done", summary="Go stays covered")],
              "verifier": [call("request_reschedule", reason="Go is covered", confidence=0.9)]}
    with ScriptedLLM(script, default={"scheduler": plan("Give up")}) as llm:
        task, rec, result = run_task(llm, b, env_extra={"HEYBRO_MAX_REPLANS": "0"})
    assert "Guardrail (max_replans)" in task.result  # not consecutive_failures: 2 + 2 with a success between


def test_wall_clock_per_task() -> None:
    import time
    started = time.monotonic()
    with ScriptedLLM({"scheduler": [plan("Wait for the sale")]},
                     default={"worker": call("wait", seconds=0.3)}) as llm:
        task, rec, result = run_task(llm, shop(), env_extra={"HEYBRO_TASK_TIMEOUT": "1"})
    assert result.status == TaskStatus.failed
    assert task.result.startswith("Guardrail (task_timeout): ")
    assert "longer than its limit of 1 s" in task.result
    assert time.monotonic() - started < 6


def test_batch_stops_at_the_first_failure() -> None:
    b = shop()
    b.covered = {"e3"}
    script = {"scheduler": [plan("Book for Ann")],
              "worker": [calls(("fill", {"element_id": "e1", "value": "Ann"}),
                               ("click", {"element_id": "e3"}),
                               ("fill", {"element_id": "e2", "value": "ann@x.io"})),
                         call("mark_done", summary="Book is covered")],
              "verifier": [call("mark_complete", reason="reported", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/form")
        worker = prompts(llm, "worker")
    assert [(t, a["element_id"]) for t, a in b.calls if t in ("fill", "click")] == [
        ("fill", "e1"), ("click", "e3")]
    assert ("NOT RUN: the batch stopped after click because it failed: fill(element_id='e2', "
            "value='ann@x.io').") in worker[1]


def test_batch_stops_when_the_page_changes() -> None:
    b = shop()
    script = {"scheduler": [plan("Search")],
              "worker": [calls(("click", {"element_id": "e2"}),
                               ("fill", {"element_id": "e1", "value": "kettle"})),
                         call("mark_done", summary="on results")],
              "verifier": [call("mark_complete", reason="results", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        worker = prompts(llm, "worker")
    assert [t for t, _ in b.calls if t in ("fill", "click")] == ["click"]
    assert b.pages["http://shop/results"][0].value == ""  # the fill never reached the new page
    assert ("NOT RUN: the batch stopped after click because the page changed: "
            "fill(element_id='e1', value='kettle').") in worker[1]
    assert "click(element_id='e2') → ok, page changed" in worker[1]


def test_more_than_three_actions_are_refused_whole() -> None:
    b = shop()
    four = calls(*[("fill", {"element_id": "e1", "value": str(n)}) for n in range(4)])
    script = {"scheduler": [plan("Type")],
              "worker": [four, call("fill", element_id="e1", value="kettle"),
                         call("mark_done", summary="typed")],
              "verifier": [call("mark_complete", reason="typed", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        said = feedback(llm, "worker")
    assert result.status == TaskStatus.completed, task.result
    assert "4 actions in one reply; at most 3" in said[0]
    assert [a["value"] for a in acted(b, "fill")] == ["kettle"]


def test_bad_or_missing_parameters_are_sent_back_and_never_run() -> None:
    b = shop()
    script = {"scheduler": [plan("Type")],
              "worker": [call("fill", element_id="e1"),
                         call("wait", seconds=99),
                         call("click", element_id="e2", force=True),
                         call("fill", element_id="e1", value="kettle"),
                         call("mark_done", summary="typed")],
              "verifier": [call("mark_complete", reason="typed", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, env_extra={"HEYBRO_MAX_REPAIRS": "3"})
        said = feedback(llm, "worker")
    assert result.status == TaskStatus.completed, task.result
    assert "call 1 fill: value: Field required" in said[0]
    assert "call 1 wait: seconds: Input should be less than or equal to 30" in said[1]
    assert "call 1 click: force: Extra inputs are not permitted" in said[2]
    assert [t for t, _ in b.calls if t in ("fill", "click", "wait")] == ["fill"]


def test_replies_that_stay_invalid_end_the_task() -> None:
    b = shop()
    with ScriptedLLM({"scheduler": [plan("Search")]},
                     default={"worker": call("teleport", to="results")}) as llm:
        task, rec, result = run_task(llm, b)
        asked = len(llm.role_requests("worker"))
    assert result.status == TaskStatus.failed
    assert task.result.startswith("Guardrail (invalid_replies): The model's worker replies stayed "
                                  "invalid after 2 repair turns: Your reply was not executed: "
                                  "call 1: unknown tool 'teleport'; available tools: navigate, "
                                  "click, fill")
    assert asked == 3 and [t for t, _ in b.calls if t != "observe"] == ["navigate"]


def test_a_page_whose_layout_settles_a_pixel_later_is_the_same_state() -> None:
    """Loop detection compares pages by address and map: a scroll extent that moved by a pixel (a
    font or a scrollbar settling) does not make the same page a new one; other words do."""
    from heybro.agent.browser import Snapshot
    page = '"""\n# All products\n[e4] button Search\n"""\n'
    a = Snapshot(url="http://shop/search?q=", text=page + "Scroll: 0px above, 94px below")
    b = Snapshot(url="http://shop/search?q=", text=page + "Scroll: 0px above, 93px below")
    c = Snapshot(url="http://shop/search?q=", text=page.replace("All products", "Kettles") + "Scroll: 0px above, 94px below")
    assert a.fingerprint == b.fingerprint != c.fingerprint
