"""Asking the user: the task waits (status `waiting`, its clock stopped) for the answer, which
reaches the model — except a secret, which reaches only the page. Real agent core, real openai
client, scripted LLM server, fake browser; the user answers through RunControl as the session does."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from support.agent_harness import answering, prompts, run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.env import AgentEnv
from heybro.agent.models import TaskStatus

CODE = "493817"


def test_a_secret_reaches_the_page_and_nothing_else() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Sign in with the code"]}),
                                  ("start_work", {}))],
              "worker": [call("ask_user", question="The site sent you a code: what is it?",
                              kind="secret", name="otp"),
                         calls(("fill", {"element_id": "e1", "value": "{{secret:otp}}",
                                         "expect": "value:{{secret:otp}}"}),
                               ("mark_done", {"summary": "Code entered"}))],
              "verifier": [call("mark_complete", reason="The code is in the field", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/form", env_hook=answering(CODE))
        sent = json.dumps(llm.requests)
        second = prompts(llm, "worker")[1]
    assert result.status == TaskStatus.completed, task.result
    assert ("fill", CODE) in [(t, a.get("value")) for t, a in b.calls]  # the page got it
    assert CODE not in sent  # … the model never did
    assert CODE not in json.dumps(rec.records, default=str)  # … nor the record or the events
    assert "type it as {{secret:otp}}" in second
    statuses = [d["status"] for d in rec.kinds("status")]
    assert "waiting" in statuses and statuses[statuses.index("waiting") + 1] == "executing"
    question = rec.kinds("question")[0]
    assert question["kind"] == "secret" and question["text"].startswith("The site sent you a code")


def test_an_answer_reaches_the_worker_and_the_wait_is_not_counted() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Buy the kettle the user wants"]}),
                                  ("start_work", {}))],
              "worker": [call("ask_user", question="Blue or red kettle?", kind="choice",
                              choices=["Blue", "Red"]),
                         call("mark_done", summary="The user wants the red one")],
              "verifier": [call("mark_complete", reason="ok", confidence=0.9)]}

    def slow_person(env: AgentEnv) -> None:
        async def person() -> None:
            while not env.services.control.asking:
                await asyncio.sleep(0.01)
            await asyncio.sleep(1.5)  # longer than the task's whole time limit
            env.services.control.answer("Red")
        asyncio.get_running_loop().create_task(person())

    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, env_hook=slow_person,
                                     env_extra={"HEYBRO_TASK_TIMEOUT": "1.2"})
        second = prompts(llm, "worker")[1]
    assert result.status == TaskStatus.completed, task.result
    assert "the user answered: Red" in second
    assert rec.kinds("question")[0]["choices"] == ["Blue", "Red"]


def test_stop_ends_a_task_that_waits_for_an_answer() -> None:
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Log in"]}), ("start_work", {}))],
              "worker": [call("ask_user", question="Please log in, then say done")]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, env_hook=answering(stop=True))
    assert result.status == TaskStatus.stopped
    assert task.question is None


def test_a_secret_asked_before_a_restart_is_not_taken_while_the_task_is_paused(
        tmp_path: Path, monkeypatch: Any) -> None:
    """heybro stopped while asking for a one-time code: the task comes back paused, and a code
    typed now (no field keeps it secret any more) is refused, not written into the record."""
    import pytest

    from shared_schema import ProtocolError
    from support.session_rig import session_rig

    from heybro.agent.models import Question, Task

    with session_rig(tmp_path, monkeypatch) as rig:
        task = Task(description="Sign in", question=Question(text="The code?", kind="secret"))
        rig.store.create_task(task.description, task_id=task.id, status="paused")
        rig.store.checkpoint(task.id, task.model_dump(mode="json"))
        with pytest.raises(ProtocolError, match="Press Resume"):
            asyncio.run(rig.session.message(task.id, CODE))
        assert CODE not in json.dumps([e.data for e in rig.store.events(task.id)])
        assert CODE not in json.dumps(rig.store.load_checkpoint(task.id))


def test_a_password_written_in_the_goal_is_a_secret_of_the_task() -> None:
    """"… with password Tr0ub4dor!": the model, the record and the events see {{secret:password}};
    the page gets the password, on the site the task works on."""
    from heybro.session.core import _secrets_said
    goal, said = _secrets_said("Sign in on shop as ann with password Tr0ub4dor! and book", {})
    assert goal == "Sign in on shop as ann with password {{secret:password}} and book"
    b = shop()
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Sign in"]}), ("start_work", {}))],
              "worker": [calls(("fill", {"element_id": "e1", "value": "{{secret:password}}",
                                         "expect": "value:{{secret:password}}"}),
                               ("mark_done", {"summary": "Password typed"}))],
              "verifier": [call("mark_complete", reason="typed", confidence=0.9)]}

    def given(env: AgentEnv) -> None:
        env.task.said_secrets.update(said)

    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, goal=goal, url="http://shop/form", env_hook=given)
        sent = json.dumps(llm.requests)
    assert result.status == TaskStatus.completed, task.result
    assert ("fill", "Tr0ub4dor!") in [(t, a.get("value")) for t, a in b.calls]
    assert "Tr0ub4dor" not in sent and "{{secret:password}}" in sent
    assert "Tr0ub4dor" not in json.dumps(rec.records, default=str)
    assert "Tr0ub4dor" not in task.model_dump_json()


def test_words_about_a_password_are_no_password() -> None:
    from heybro.agent.said_secrets import said_secrets
    for text in ("Change the minimum password length to 14", "Click the password field",
                 "the password for the wiki is in the email", "use the password secret"):
        assert said_secrets(text) == (text, {}, {}), text
    assert said_secrets('log in, password: "correct horse"')[0] == "log in, password: {{secret:password}}"
    assert said_secrets("Set the PIN to 4821.")[1:] == ({"pin": "4821"}, {"pin": "code"})
