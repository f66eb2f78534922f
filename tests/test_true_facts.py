"""Every fact heybro tells the model is true: the expectations the host checks compare what a
person compares, wait for the page to settle, are labelled by what they checked and superseded by
later ones; a subtask its done_when proves goes on with no model call; and what the user decided
is in the record. Real Chromium, the real extension; the agent core with the scripted model."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright

from support.extension_browser import ExtensionBrowser, with_extension
from support.scripted_llm import ScriptedLLM, call, calls, find_id, user_text
from support.static_server import serve

from heybro import config
from heybro.agent.env import AgentEnv
from heybro.agent.executor import TaskExecutor
from heybro.agent.models import Task, TaskStatus
from heybro.agent.recorder import MemoryRecorder
from heybro.llm import LLMClient

pytestmark = pytest.mark.browser
FIXTURES = Path(__file__).parent / "fixtures" / "agent"


def by(label: str):  # type: ignore[no-untyped-def]
    return lambda body: find_id(body, label)


SCRIPT: dict[str, list[Any]] = {
    "scheduler": [calls(("set_subtasks", {"subtasks": [
        {"subtask": "Make me an editor, start editing, save, load the history, go to step 2",
         "done_when": "text:Step 2 of 2"},
        "Delete the account and close the tips"]}), ("start_work", {}))],
    "worker": [
        lambda b: calls(
            ("select", {"element_id": by('combobox "Role"')(b), "value": "Editor",
                        "expect": "value:Editor"}),
            ("click", {"element_id": by('button "Start editing"')(b),
                       "expect": 'no element:button "Start editing"'}),
            ("click", {"element_id": by('button "Save"')(b), "expect": "text:settings  saved"})),
        lambda b: calls(
            ("click", {"element_id": by('button "Load history"')(b)}),
            ("wait_for", {"text": "Loading…", "gone": True, "seconds": 3}),
            ("click", {"element_id": by('button "Next step"')(b)})),
        # (the first subtask is proven by its done_when: the worker is not asked about it again)
        lambda b: calls(
            ("click", {"element_id": by('button "Delete account"')(b),
                       "expect": "text:Account deleted"}),
            ("click", {"element_id": by('button "Close tips"')(b),
                       "expect": 'no element:button "Close tips"'})),
        lambda b: calls(("wait_for", {"role": "button", "name": "Close tips", "gone": True,
                                      "seconds": 5}),
                        ("mark_done", {"summary": "Account deleted, tips closed"})),
    ],
    "verifier": [call("mark_complete", reason="deleted and closed", confidence=0.9)],
}


async def scenario(base: str, llm: ScriptedLLM, profile: Path) -> dict[str, Any]:
    async with async_playwright() as p:
        async with with_extension(p, profile) as (ctx, sw):
            settings = config.load(env=llm.env(HEYBRO_CONFIRM="1"), file=Path("/nonexistent"))
            client = LLMClient(settings)
            task = Task(description="Make me an editor and delete my account",
                        url=f"{base}/facts.html")
            rec = MemoryRecorder()
            env = AgentEnv(task=task, llm=client, settings=settings,
                           browser=ExtensionBrowser(sw), recorder=rec)

            async def say_yes() -> None:  # the user, answering heybro's question
                while True:
                    await asyncio.sleep(0.05)
                    if task.question is not None:
                        env.services.control.answer("Yes")

            user = asyncio.create_task(say_yes())
            try:
                result = await TaskExecutor(env).execute()
            finally:
                user.cancel()
                await client.close()
            return {"result": result, "task": task, "rec": rec}


def test_facts_are_true_settled_labelled_and_the_users_word_is_recorded() -> None:
    with serve(FIXTURES) as base, ScriptedLLM(SCRIPT) as llm, tempfile.TemporaryDirectory() as tmp:
        out = asyncio.run(scenario(base, llm, Path(tmp) / "profile"))
        worker = [user_text(b) for b in llm.role_requests("worker")]
        verifier = [user_text(b) for b in llm.role_requests("verifier")]
    task, rec = out["task"], out["rec"]
    assert out["result"].status == TaskStatus.completed, task.result
    results = [d for d in rec.kinds("tool_result") if d["role"] == "worker"]
    expected = {(d["tool"], d.get("target")): d["expectation"] for d in results if d.get("expectation")}

    # A select is compared by what it shows and by its value, as a person would: "Editor" is met.
    chose = expected[("select", 'combobox "Role"')]
    assert chose["met"] is True, chose
    # A dialog fading out when the click was checked: the check waits for it, and says when.
    closed = expected[("click", 'button "Start editing"')]
    assert closed["met"] is True and closed["read_ms"] >= 400, closed
    assert closed["about"] == 'click button "Start editing"'
    # The server's answer 0.7 s after the click; spacing and case are no difference to a person.
    assert expected[("click", 'button "Save"')]["met"] is True
    # A wait for text to go says it went.
    waits = [d for d in results if d["tool"] == "wait_for"]
    assert "text gone after" in str(waits[0]["result"]) or waits[0]["success"], waits[0]

    # The first subtask: proven by the page after the batch, without another model call.
    assert [v["by"] for v in rec.kinds("verdict")] == ["host", "verifier"]
    assert len(worker) == 4 and len(verifier) == 1
    assert "Step 2 of 2" in rec.kinds("verdict")[0]["reason"]
    assert "host (done_when checked on the page)" in worker[2]

    # Asked first before deleting: the question, the yes, in the worker's history and the facts.
    assert 'heybro asked first' in worker[3] and "the user said yes" in worker[3]
    judged = verifier[0]
    assert "WHAT THE USER DECIDED:\n- click button \"Delete account\": heybro asked first" in judged
    # The tips took 3 s to close: the click's check said NOT met (after waiting 2 s), the wait
    # that followed found them gone — the verifier sees the latest of that fact only.
    facts = judged.split("FACTS CHECKED BY THE HOST:", 1)[1].split("WHAT THE USER DECIDED", 1)[0]
    assert 'wait_for no element:button "Close tips" · no element:button "Close tips": MET' in facts
    assert "NOT MET" not in facts, facts
    assert 'click button "Delete account" · text:Account deleted: MET' in facts


def test_a_list_that_is_only_reloading_has_not_lost_its_rows() -> None:
    """A click empties the list while it reloads (marked busy): "no text" of a row is not said met
    on the half-drawn page — the check waits for the page to settle, and the row is back."""
    script: dict[str, list[Any]] = {
        "scheduler": [calls(("set_subtasks", {"subtasks": ["Refresh the feeds"]}), ("start_work", {}))],
        "worker": [lambda b: call("click", element_id=by('button "Refresh feeds"')(b),
                                  expect="no text:Cooking at home; text:Field notes"),
                   call("mark_done", summary="refreshed; the list is the same")],
        "verifier": [call("mark_complete", reason="refreshed", confidence=0.9,
                          overrule="Cooking at home: the feed is still there, as it should be")]}
    with serve(FIXTURES) as base, ScriptedLLM(script) as llm, tempfile.TemporaryDirectory() as tmp:
        out = asyncio.run(scenario(base, llm, Path(tmp) / "profile"))
    fact = next(d["expectation"] for d in out["rec"].kinds("tool_result") if d.get("expectation"))
    parts = {p["clause"]: p for p in fact["parts"]}
    assert parts["no text:Cooking at home"]["met"] is False, fact
    assert parts["text:Field notes"]["met"] is True and fact["read_ms"] >= 1200, fact
