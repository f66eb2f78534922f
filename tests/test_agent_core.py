"""The agent core over the real openai client and a scripted LLM server, on a fake browser."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from support.agent_harness import prompts, run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, calls, fault, raw, slow, text

from heybro import config
from heybro.agent.env import AgentEnv
from heybro.agent.executor import TaskExecutor
from heybro.agent.models import Task, TaskStatus
from heybro.agent.recorder import MemoryRecorder
from heybro.llm import LLMClient


PLAN = [calls(("set_subtasks", {"subtasks": ["Search for kettle", "Open the blue kettle",
                                             "Buy it with name Ann, email ann@x.io"]}),
              ("start_work", {}))]


def happy_script() -> dict[str, list[Any]]:
    return {
        "scheduler": list(PLAN),
        "worker": [
            calls(("fill", {"element_id": "e1", "value": "kettle", "expect": {"value": "kettle"}}),
                  ("click", {"element_id": "e2", "expect": {"url_contains": "/results"}})),
            call("mark_done", summary="Results shown"),
            call("click", element_id="e1"),
            call("mark_done", summary="Blue kettle page open"),
            call("click", element_id="e5"),
            calls(("fill", {"element_id": "e1", "value": "Ann"}),
                  ("fill", {"element_id": "e2", "value": "ann@x.io"}),
                  ("click", {"element_id": "e3", "expect": {"text_appears": "confirmed"}})),
            call("extract", name="order", value="A1"),
            call("mark_done", summary="Order A1 confirmed"),
        ],
        "verifier": [call("mark_complete", reason="results", confidence=0.9),
                     call("mark_complete", reason="item open", confidence=0.9),
                     call("mark_complete", reason="Order confirmed #A1", confidence=0.95)],
    }


def test_agent_happy_path_three_subtasks_side_effect_once() -> None:
    b = shop()
    with ScriptedLLM(happy_script()) as llm:
        task, rec, result = run_task(llm, b)
    assert result.status == TaskStatus.completed, task.result
    assert task.result == "Order confirmed #A1"
    assert b.bookings == [{"Name": "Ann", "Email": "ann@x.io"}]
    assert task.current_subtask_index == 3 and len(task.execution_history) == 3
    assert [m.name for m in task.memory] == ["order"]
    statuses = [d["status"] for d in rec.kinds("status")]
    assert statuses[:3] == ["planning", "executing", "verifying"] and statuses[-1] == "completed"
    checks = [d["expectation"] for d in rec.kinds("tool_result") if d["expectation"]]
    assert checks and all(c["met"] for c in checks)
    # The actions the DOM agent got carry the signature from the last observe.
    fill = next(a for t, a in b.calls if t == "fill")
    assert fill["element_id"] == "e1" and fill["signature"]["name"] == "Search"
    assert len(rec.kinds("usage")) == len(llm.requests)
    # Scheduler never sees the page; the worker does.
    sched = llm.role_requests("scheduler")[0]["messages"][1]["content"]
    assert "PAGE" not in sched and "[e1]" not in sched
    assert "[e1]" in llm.role_requests("worker")[0]["messages"][1]["content"]
    # Every action changed something: no prompt warns of a loop (a first fill is not a repeat).
    worker_prompts = prompts(llm, "worker")
    assert len(worker_prompts) == 8 and not [w for w in worker_prompts if "WARNING" in w]


def test_agent_continue_work_correction() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Search for kettle"]}),
                                  ("start_work", {}))],
              "worker": [call("fill", element_id="e1", value="kettel"),
                         call("mark_done", summary="typed"),
                         call("fill", element_id="e1", value="kettle"),
                         call("click", element_id="e2"),
                         call("mark_done", summary="searched")],
              "verifier": [call("continue_work", instructions="Fix the typo and press Go",
                                confidence=0.9),
                           call("mark_complete", reason="results listed", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        second_worker = llm.role_requests("worker")[2]["messages"][1]["content"]
    assert result.status == TaskStatus.completed
    assert "CORRECTION FROM THE VERIFIER: Fix the typo" in second_worker
    assert "correcting" in [d["status"] for d in rec.kinds("status")]


def test_agent_request_reschedule_replans() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Open the kettle"]}),
                                  ("start_work", {})),
                            calls(("set_subtasks", {"subtasks": ["Search for kettle",
                                                                 "Open the blue kettle"]}),
                                  ("start_work", {}))],
              "worker": [call("mark_done", summary="No kettle on this page"),
                         call("fill", element_id="e1", value="kettle"), call("click", element_id="e2"),
                         call("mark_done", summary="results"),
                         call("click", element_id="e1"), call("mark_done", summary="open")],
              "verifier": [call("request_reschedule", reason="Need to search first", confidence=0.9),
                           call("mark_complete", reason="ok", confidence=0.9),
                           call("mark_complete", reason="kettle page", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        replan = llm.role_requests("scheduler")[1]["messages"][1]["content"]
    assert result.status == TaskStatus.completed
    assert "WHY YOU ARE CALLED: Need to search first" in replan
    assert b.url == "http://shop/item"
    assert [p["subtasks"] for p in rec.kinds("plan")][-1] == ["Search for kettle", "Open the blue kettle"]


def test_llm_faults_are_retried_and_repaired() -> None:
    b = shop()
    script = {"scheduler": [fault(429), fault(500), raw("{not json"), *PLAN[:1]],
              "worker": [slow(1.5, call("fill", element_id="e1", value="late")),
                         call("fill", element_id="e1", value="kettle"),
                         call("teleport", element_id="e1"),
                         call("mark_done", summary="typed")],
              "verifier": [text("I think it's done"), call("mark_complete", reason="ok",
                                                          confidence=0.9)]}
    script["scheduler"][-1] = calls(("set_subtasks", {"subtasks": ["Type kettle"]}), ("start_work", {}))
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, env_extra={"HEYBRO_LLM_TIMEOUT": "1"})
        repairs = [m for r in llm.requests for m in r["messages"][2:]]
    assert result.status == TaskStatus.completed, task.result
    feedback = " ".join(str(m.get("content")) for m in repairs)
    assert "not valid JSON" in feedback and "unknown tool 'teleport'" in feedback
    assert "called no tool" in feedback
    # the bad replies never ran
    assert [t for t, _ in b.calls if t not in ("observe",)] == ["navigate", "fill"]
    assert max(u["attempts"] for u in rec.kinds("usage")) >= 2


def test_hallucinated_element_refused_never_executed() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Search"]}), ("start_work", {}))],
              "worker": [call("click", element_id="e99"), call("click", element_id="e2"),
                         call("mark_done", summary="clicked")],
              "verifier": [call("mark_complete", reason="ok", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        feedback = llm.role_requests("worker")[1]["messages"][-1]["content"]
    assert result.status == TaskStatus.completed
    assert "element_id 'e99' is not on the current page" in feedback and "e1, e2" in feedback
    assert ("click", "e99") not in [(t, a.get("element_id")) for t, a in b.calls]


def test_a_report_after_unchecked_actions_is_refused_and_nothing_runs() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Search"]}), ("start_work", {}))],
              "worker": [calls(("click", {"element_id": "e2"}), ("mark_done", {"summary": "x"})),
                         call("click", element_id="e2"), call("mark_done", summary="clicked")],
              "verifier": [call("mark_complete", reason="ok", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        fb = " ".join(str(m["content"]) for m in llm.role_requests("worker")[1]["messages"][2:])
    assert result.status == TaskStatus.completed
    # Said once, though the rejected reply held two calls (each answered).
    assert fb.count("mark_done after click needs an `expect`") == 1, fb
    assert [t for t, _ in b.calls].count("click") == 1


def test_a_report_closing_a_checked_batch_saves_the_worker_a_call() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Search for kettle"]}),
                                  ("start_work", {}))],
              "worker": [calls(("fill", {"element_id": "e1", "value": "kettle"}),
                               ("click", {"element_id": "e2", "expect": "url:/results"}),
                               ("mark_done", {"summary": "Results shown"}))],
              "verifier": [call("mark_complete", reason="results listed", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        verifier_page = prompts(llm, "verifier")[0]
    assert result.status == TaskStatus.completed, task.result
    assert len(llm.role_requests("worker")) == 1
    assert b.url == "http://shop/results"
    # The verifier still judges, on the page the batch left.
    assert "Blue Kettle" in verifier_page and "URL contains '/results'" in verifier_page


def test_a_report_after_an_unmet_expectation_is_not_taken() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Search for kettle"]}),
                                  ("start_work", {}))],
              "worker": [calls(("click", {"element_id": "e2", "expect": "url:/checkout"}),
                               ("mark_done", {"summary": "At checkout"})),
                         call("mark_done", summary="Results, not checkout"),
                         call("mark_done", summary="Results are listed")],
              # The unmet check also weighs on the verdict: 0.9 from the model is not enough.
              "verifier": [call("mark_complete", reason="results listed", confidence=0.9),
                           call("mark_complete", reason="results listed", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        second = prompts(llm, "worker")[1]
    assert result.status == TaskStatus.completed
    assert "NOT RUN" in second and "mark_done(summary='At checkout')" in second
    assert "URL lacks '/checkout'" in second
    assert task.execution_history[0].worker_summary == "Results, not checkout"


def test_a_declared_outcome_the_host_proves_needs_no_verifier_call() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": [
                  {"subtask": "Search for kettle", "done_when": "url:/results; text:Blue Kettle"},
                  {"subtask": "Open the blue kettle", "done_when": "url:/item"},
                  {"subtask": "Buy it", "done_when": "text:order confirmed"}]}),
                  ("start_work", {}))],
              "worker": [calls(("fill", {"element_id": "e1", "value": "kettle"}),
                               ("click", {"element_id": "e2", "expect": "url:/results"}),
                               ("mark_done", {"summary": "Results shown"})),
                         calls(("click", {"element_id": "e1", "expect": "url:/item"}),
                               ("mark_done", {"summary": "Kettle open"})),
                         call("click", element_id="e5"),
                         calls(("fill", {"element_id": "e1", "value": "Ann"}),
                               ("fill", {"element_id": "e2", "value": "ann@x.io"}),
                               ("click", {"element_id": "e3", "expect": "text:confirmed"}),
                               ("mark_done", {"summary": "Order A1 confirmed"}))],
              "verifier": [call("mark_complete", reason="Order confirmed #A1", confidence=0.95)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        queue = prompts(llm, "verifier")[0]
    assert result.status == TaskStatus.completed, task.result
    assert b.bookings == [{"Name": "Ann", "Email": "ann@x.io"}]
    # The first two subtasks were proven by the host's check; the last one, which ends the task,
    # was judged by the verifier — once.
    verdicts = rec.kinds("verdict")
    assert [v["by"] for v in verdicts] == ["host", "host", "verifier"]
    assert verdicts[0]["llm_confidence"] is None and "URL contains '/results'" in verdicts[0]["reason"]
    assert len(llm.role_requests("verifier")) == 1
    assert "done when: text:order confirmed" in queue
    acted = [d for d in rec.kinds("tool_result") if d["role"] == "worker" and d["tool"] != "mark_done"]
    assert (len(llm.requests), len(acted)) == (6, 7)  # 6 model calls for 7 actions


def test_a_declared_outcome_not_on_the_page_goes_to_the_verifier_with_the_fact() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": [
                  {"subtask": "Search for kettle", "done_when": "text:Green Kettle"},
                  "Open the first result"]}), ("start_work", {}))],
              "worker": [calls(("fill", {"element_id": "e1", "value": "kettle"}),
                               ("click", {"element_id": "e2", "expect": "url:/results"}),
                               ("mark_done", {"summary": "Results shown"})),
                         calls(("click", {"element_id": "e1", "expect": "url:/item"}),
                               ("mark_done", {"summary": "Kettle open"}))],
              "verifier": [call("mark_complete", reason="results are listed", confidence=0.9,
                                overrule="Green Kettle: the plan guessed that name; the results "
                                "list the kettles searched for"),
                           call("mark_complete", reason="item open", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        first = prompts(llm, "verifier")[0]
    assert result.status == TaskStatus.completed
    assert "- done_when of subtask 1 · text:Green Kettle: NOT MET — text 'Green Kettle' is not on " \
        "the page" in first
    verdicts = rec.kinds("verdict")
    assert [v["by"] for v in verdicts] == ["verifier", "verifier"]
    # The verifier said why the check that did not hold does not matter: taken, and recorded.
    assert verdicts[0]["accepted"] and verdicts[0]["overruled"].startswith("Green Kettle: the plan")
    assert (verdicts[0]["llm_confidence"], verdicts[0]["dom_confidence"], verdicts[0]["checks"]) == (0.9, 0.5, 2)


def test_low_confidence_does_not_complete() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Search"]}), ("start_work", {}))],
              "worker": [call("click", element_id="e2", expect={"text_appears": "Green Kettle"}),
                         call("mark_done", summary="clicked"),
                         call("mark_done", summary="still")],
              "verifier": [call("mark_complete", reason="looks fine", confidence=0.8),
                           call("mark_complete", reason="sure", confidence=1.0)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
    verdicts = rec.kinds("verdict")
    # The model's 0.8 is the model's, shown as such; the check that did not hold held it back.
    assert verdicts[0]["accepted"] is False and verdicts[0]["confidence"] == 0.8
    assert verdicts[0]["dom_confidence"] == 0.0 and verdicts[0]["checks"] == 1
    assert verdicts[0]["held_back"] == ["text:Green Kettle NOT MET (text 'Green Kettle' is not on the page)"]
    assert verdicts[0]["facts"][0]["met"] is False
    assert result.status == TaskStatus.completed and len(verdicts) == 2


def test_verdict_without_confidence_is_repaired_not_taken_as_certain() -> None:
    """A mark_complete that leaves out its confidence is refused with the exact error; the
    repaired verdict's 0.5 is then below the threshold, so the subtask is not completed on it."""
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Search"]}), ("start_work", {}))],
              "worker": [call("click", element_id="e2"), call("mark_done", summary="clicked"),
                         call("mark_done", summary="results are shown")],
              "verifier": [call("mark_complete", reason="looks done"),
                           call("mark_complete", reason="looks done", confidence=0.5),
                           call("mark_complete", reason="results listed", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b)
        repair = llm.role_requests("verifier")[1]["messages"][-1]["content"]
    assert "call 1 mark_complete: confidence: Field required" in repair
    verdicts = rec.kinds("verdict")
    assert [(v["llm_confidence"], v["accepted"]) for v in verdicts] == [(0.5, False), (0.9, True)]
    assert result.status == TaskStatus.completed and task.result == "results listed"


def test_json_mode_fallback_and_upload(tmp_path: Path) -> None:
    b = shop()
    b.pages["http://shop/"].append(__import__("support.fake_browser", fromlist=["El"]).El(
        "e9", "input", "Photo"))
    f = tmp_path / "cv.txt"
    f.write_text("hello")
    script = {"scheduler": [raw("Sure! ```json\n{\"reasoning\": \"plan\", \"tool_calls\": "
                                "[{\"tool\": \"set_subtasks\", \"parameters\": {\"subtasks\": "
                                "[\"Upload cv\"]}, \"reason\": \"\"}, {\"tool\": \"start_work\", "
                                "\"parameters\": {}, \"reason\": \"\"}]}\n```")],
              "worker": [call("upload", element_id="e9", resource_name="nope"),
                         call("upload", element_id="e9", resource_name="cv"),
                         call("mark_done", summary="uploaded")],
              "verifier": [call("mark_complete", reason="ok", confidence=0.9)]}
    b.fail = {}
    uploads: list[dict[str, Any]] = []
    orig = b.call

    async def spy(tool: str, args: dict[str, Any], **kw: Any) -> dict[str, Any]:
        if tool == "upload":
            uploads.append(args)
            return {"url": b.url}
        return await orig(tool, args, **kw)

    b.call = spy  # type: ignore[method-assign]
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, env_extra={"HEYBRO_TOOL_MODE": "json"},
                                     resources={"cv": str(f)})
        first = llm.requests[0]
    assert result.status == TaskStatus.completed, task.result
    assert "tools" not in first and first["response_format"] == {"type": "json_object"}
    assert uploads[0]["file"]["name"] == "cv.txt" and uploads[0]["file"]["data_base64"] == "aGVsbG8="


def test_pause_and_stop_between_actions() -> None:
    b = shop()
    envs: list[AgentEnv] = []

    def stop_on_second(body: dict[str, Any]) -> Any:
        envs[0].services.control.stop()
        return call("click", element_id="e2")

    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Search"]}), ("start_work", {}))],
              "worker": [stop_on_second]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, env_hook=envs.append)
    assert result.status == TaskStatus.stopped
    assert "click" not in [t for t, _ in b.calls]


def test_no_llm_configured_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing configured: the host refuses the task with `no_llm` and a message that says how to
    point heybro at OpenAI, Ollama or any compatible server, and where the settings go."""
    from shared_schema import ErrorCode, ProtocolError
    from shared_schema.messages import TaskStart

    from heybro.session import Session

    for var in [v for v in __import__("os").environ if v.startswith(("HEYBRO_", "OPENAI_"))]:
        monkeypatch.delenv(var)
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path))
    assert not config.load().configured
    session = Session(None, None)  # type: ignore[arg-type]
    with pytest.raises(ProtocolError) as info:
        session.settings_for()
    assert info.value.code == ErrorCode.no_llm
    text = info.value.message
    assert text.startswith("No LLM is configured.")
    assert "heybro config --model gpt-4o-mini --api-key" in text
    assert "heybro config --base-url http://localhost:11434/v1 --model qwen2.5:7b" in text
    assert "vLLM / LM Studio / OpenRouter" in text
    assert f"saved in {tmp_path}" in text and "config.json" in text
    # Settings handed over by `heybro run` are checked the same way.
    with pytest.raises(ProtocolError) as info:
        session.settings_for({"model": "m"})  # a model but no server or key
    assert info.value.code == ErrorCode.no_llm
    assert session.settings_for({"model": "m", "base_url": "http://127.0.0.1:1/v1"}).model == "m"
    assert TaskStart(goal="x", llm={"model": "m"}).llm == {"model": "m"}


def test_a_step_gets_the_next_page_with_its_last_action_not_another_observe() -> None:
    """fill + click: the click (last, and one that may change the page) brings the new page back;
    the fill does not ask for it, and the worker's next prompt needs no observe of its own."""
    b = shop()
    with ScriptedLLM(happy_script()) as llm:
        task, rec, result = run_task(llm, b)
        worker_prompts = [r for r in llm.requests if "ASSIGNMENT" in str(r["messages"])]
    assert result.status == TaskStatus.completed, task.result
    fill, click = [args for tool, args in b.calls if tool in ("fill", "click")][:2]
    assert "observe_after" not in fill and set(click["observe_after"]) == {"max_tokens"}
    # The first worker step: the page it saw next is the results page, read by the click itself.
    tools = [tool for tool, _ in b.calls]
    first_click = tools.index("click")
    assert tools[first_click + 1] != "observe"
    assert "Blue Kettle $20" in str(worker_prompts[1]["messages"])
