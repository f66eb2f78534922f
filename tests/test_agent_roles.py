"""Roles by capability: the scheduler gives each subtask to the worker (the page), the analyst
(answers from what was gathered, never the page) or the technician; the task ends with its answer.
Real agent core over the real openai client and the scripted LLM server, on the fake browser."""

from __future__ import annotations

import re

import sys
from pathlib import Path
from typing import Any

from support.agent_harness import prompts, run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.models import TaskStatus

GOAL = "How much do the blue and the red kettle cost together?"


def test_the_analyst_answers_from_gathered_facts_without_the_page_and_the_answer_ends_the_task() -> None:
    b = shop()
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            {"subtask": "Search kettles", "done_when": "url:/results"},
            "Save both prices", {"subtask": "Add the two prices up", "role": "analyst"}]}),
            ("start_work", {}))],
        "worker": [calls(("fill", {"element_id": "e1", "value": "kettle"}),
                         ("click", {"element_id": "e2", "expect": "url:/results"})),
                   calls(("extract", {"name": "blue_kettle_price", "value": "$20"}),
                         ("extract", {"name": "red_kettle_price", "value": "$35"}),
                         ("mark_done", {"summary": "Both prices saved"}))],
        "analyst": [call("answer", text="Together they cost $55 ($20 + $35).")],
        "verifier": [call("mark_complete", reason="both prices saved", confidence=0.95),
                     call("mark_complete", reason="$20 + $35 = $55 from the saved prices",
                          confidence=0.95)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, goal=GOAL)
        analyst = prompts(llm, "analyst")[0]
        verifier = prompts(llm, "verifier")[1]
    assert result.status == TaskStatus.completed, task.result
    assert task.answer == "Together they cost $55 ($20 + $35)."
    # The analyst reads the facts, never the page.
    assert "blue_kettle_price: $20" in analyst and "red_kettle_price: $35" in analyst
    assert "PAGE (untrusted" not in analyst and "[e1]" not in analyst
    # The verifier judges the answer against the facts, not a page.
    assert "ANSWER GIVEN TO THE USER: Together they cost $55" in verifier
    assert "PAGE (untrusted" not in verifier and "[e1]" not in verifier
    assert "WORK DONE WITHOUT THE PAGE by the analyst" in verifier
    # The first subtask was proven by the host as soon as the results page showed (the worker
    # not asked again); the others by the verifier.
    assert [v["by"] for v in rec.kinds("verdict")] == ["host", "verifier", "verifier"]
    assert len(llm.role_requests("worker")) == 2
    assert rec.kinds("answer") == [{"role": "analyst", "text": task.answer}]
    assert rec.kinds("status")[-1]["status"] == "completed"
    # The analyst's work is a cycle of its own in the record.
    assert [c.worker.role for c in task.execution_history if c.worker] == ["worker", "worker",
                                                                          "analyst"]


def test_an_analyst_that_lacks_facts_says_so_and_the_verifier_can_send_it_back() -> None:
    b = shop()
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            {"subtask": "Compare the prices", "role": "analyst"}]}), ("start_work", {}))],
        "analyst": [call("answer", text="The blue kettle is cheaper."),
                    call("answer", text="I cannot tell: no prices were gathered.")],
        "verifier": [call("continue_work", instructions="No price is in MEMORY: say what is "
                          "missing instead of guessing", confidence=0.9),
                     call("mark_complete", reason="Honest: nothing was gathered", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, goal=GOAL)
        second = prompts(llm, "analyst")[1]
    assert result.status == TaskStatus.completed
    assert "CORRECTION FROM THE VERIFIER: No price is in MEMORY" in second
    assert task.answer == "I cannot tell: no prices were gathered."


def test_the_worker_can_answer_from_the_page() -> None:
    b = shop()
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": ["Find the blue kettle's price"]}),
                            ("start_work", {}))],
        "worker": [calls(("fill", {"element_id": "e1", "value": "kettle"}),
                         ("click", {"element_id": "e2", "expect": "text:Blue Kettle"})),
                   calls(("answer", {"text": "The blue kettle costs $20."}),
                         ("mark_done", {"summary": "Price read off the results"}))],
        "verifier": [call("mark_complete", reason="The results show $20", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, goal="What does the blue kettle cost?")
        verifier = prompts(llm, "verifier")[0]
    assert result.status == TaskStatus.completed
    assert task.answer == "The blue kettle costs $20."
    assert "ANSWER GIVEN TO THE USER: The blue kettle costs $20." in verifier and "PAGE" in verifier
    assert rec.kinds("answer") == [{"role": "worker", "text": task.answer}]


def test_an_answer_ends_the_workers_turn_without_a_call_for_mark_done() -> None:
    b = shop()
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": ["Find the blue kettle's price"]}),
                            ("start_work", {}))],
        "worker": [calls(("fill", {"element_id": "e1", "value": "kettle"}),
                         ("click", {"element_id": "e2", "expect": "text:Blue Kettle"})),
                   call("answer", text="The blue kettle costs $20.")],
        "verifier": [call("mark_complete", reason="The results show $20", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, goal="What does the blue kettle cost?")
        verifier = prompts(llm, "verifier")[0]
    assert result.status == TaskStatus.completed, task.result
    assert len(llm.role_requests("worker")) == 2  # (not a third, to send mark_done)
    assert "WORKER SUMMARY (a claim to check): Answered: The blue kettle costs $20." in verifier


def test_the_last_subtask_the_page_shows_done_goes_to_the_verifier_without_another_worker_call() -> None:
    b = shop()
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            {"subtask": "Search for kettle", "done_when": "url:/results; text:Blue Kettle"}]}),
            ("start_work", {}))],
        "worker": [calls(("fill", {"element_id": "e1", "value": "kettle"}), ("click", {"element_id": "e2"}))],
        "verifier": [call("mark_complete", reason="Results listed", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, goal="Search the shop for kettles")
        verifier = prompts(llm, "verifier")[0]
    assert result.status == TaskStatus.completed, task.result
    assert len(llm.role_requests("worker")) == 1
    assert [v["by"] for v in rec.kinds("verdict")] == ["verifier"]  # (the goal is the verifier's)
    assert "The page shows the subtask done" in verifier


# --- host tools in the roles ---------------------------------------------------------------------

SERVER = Path(__file__).resolve().parent / "support" / "mcp_demo_server.py"


def tools_config(tmp_path: Path, **tools: object) -> Path:
    import json

    path = tmp_path / "config.json"
    path.write_text(json.dumps({"tools": tools}))
    return path


def test_the_technician_works_with_host_tools_in_the_tasks_workspace_and_an_mcp_server(
        tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    cfg = tools_config(tmp_path, mcp_servers={"demo": {"command": sys.executable,
                                                       "args": [str(SERVER)],
                                                       "roles": ["technician"]}})
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            {"subtask": "Write the order note and add the two quantities", "role": "technician"}]}),
            ("start_work", {}))],
        "technician": [calls(("read_file", {"path": "../escape.txt"}),),
                       calls(("write_file", {"path": "note.txt", "content": "2 kettles"}),
                             ("demo_add", {"a": 2, "b": 3})),
                       call("mark_done", summary="Note written; 2 + 3 = 5")],
        "verifier": [call("mark_complete", reason="The tools' results show it", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, shop(), goal="Prepare the order", config_file=cfg)
        second, third = prompts(llm, "technician")[1:3]  # after the refusal; after the work
        offered = {t["function"]["name"] for t in llm.role_requests("technician")[0]["tools"]}
        verifier = prompts(llm, "verifier")[0]
    assert result.status == TaskStatus.completed, task.result
    assert {"write_file", "read_file", "calculate", "fetch", "demo_add", "mark_done"} <= offered
    assert "click" not in offered  # no page tools for the technician
    assert (tmp_path / "home" / "data" / "workspaces" / task.id / "note.txt").read_text() == "2 kettles"
    assert "FAILED refused" in second and not (tmp_path / "home" / "data" / "escape.txt").exists()
    assert "result:" in third and "5" in third.split("demo_add(", 1)[1]
    # (a tool's output is what a server said: inside the untrusted fence)
    assert "demo_add(a=2, b=3)" in verifier and re.search(r'result: its output \(untrusted\).*\n\s*"""\n\s*5\n\s*"""', verifier)


def test_a_file_the_technician_writes_is_a_resource_the_worker_uploads_and_reads(
        tmp_path: Path, monkeypatch: Any) -> None:
    from support.fake_browser import El
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    b = shop()
    b.pages["http://shop/"].append(El("e9", "input", "Import feeds (OPML)"))
    uploads: list[dict[str, Any]] = []
    orig = b.call

    async def spy(tool: str, args: dict[str, Any], **kw: Any) -> dict[str, Any]:
        if tool == "upload":
            uploads.append(args)
            return {"url": b.url}
        return await orig(tool, args, **kw)

    b.call = spy  # type: ignore[method-assign]
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            {"subtask": "Write cooking.opml with the feed", "role": "technician"},
            "Import cooking.opml"]}), ("start_work", {}))],
        "technician": [call("write_file", path="cooking.opml", content="<opml/>"),
                       call("read_file", path="cooking.opml"),
                       call("mark_done", summary="cooking.opml written")],
        "worker": [call("upload", element_id="e9", resource_name="cooking.opml"),
                   call("mark_done", summary="imported")],
        "verifier": [call("mark_complete", reason="written", confidence=0.9),
                     call("mark_complete", reason="imported", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, goal="Import a cooking feed")
        worker = prompts(llm, "worker")[0]
    assert result.status == TaskStatus.completed, task.result
    assert "RESOURCES (for upload): cooking.opml (file, 7 bytes)" in worker
    assert [u["file"]["name"] for u in uploads] == ["cooking.opml"]
    assert task.resources["cooking.opml"].endswith("/cooking.opml")
    assert any("The file cooking.opml (file, 7 bytes) is now a resource of the task (written by write_file)" in m["text"]
               for m in rec.kinds("message"))


def test_a_shell_command_off_the_allow_list_runs_only_after_the_users_yes(
        tmp_path: Path, monkeypatch: Any) -> None:
    import asyncio

    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    cfg = tools_config(tmp_path, shell={"enabled": True, "allow": ["echo"]})
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            {"subtask": "List the workspace", "role": "technician"}]}), ("start_work", {}))],
        "technician": [call("shell", command="ls -a"), call("shell", command="touch made-by-shell"),
                       call("shell", command="echo allowed"), call("mark_done", summary="listed")],
        "verifier": [call("mark_complete", reason="ok", confidence=0.9)]}
    asked: list[str] = []

    def person(env: Any) -> None:
        async def answer() -> None:
            for reply in ("Yes", "No"):
                while not env.services.control.asking:
                    await asyncio.sleep(0.01)
                asked.append(env.task.question.text)
                env.services.control.answer(reply)
                while env.services.control.asking:
                    await asyncio.sleep(0.01)
        asyncio.get_running_loop().create_task(answer())

    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, shop(), goal="List files", config_file=cfg, env_hook=person)
        prompts_ = prompts(llm, "technician")
    assert result.status == TaskStatus.completed, task.result
    assert len(asked) == 2 and "shell(command='ls -a')" in asked[0]  # echo was allow-listed
    assert "touch made-by-shell" in asked[1]
    assert "FAILED declined" in prompts_[2] and "result:" in prompts_[3] and "allowed" in prompts_[3]
    assert not (tmp_path / "home" / "data" / "workspaces" / task.id / "made-by-shell").exists()


def test_a_plan_recorded_when_the_worker_was_also_called_the_operator_reads_the_same() -> None:
    from heybro.agent.models import Subtask

    old = Subtask.model_validate({"text": "Add the kettle to the basket", "role": "operator"})
    assert old.role == "worker" and old.model_dump()["role"] == "worker"
