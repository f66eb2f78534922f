"""A healed step of a routine that types a secret keeps it a placeholder: the user's password
reaches the page and nowhere else — not the task store, the routine, its export or the logs.
(The heal runs the real worker with the scripted model over the host's real record, a real SQLite
file, and the host's log file.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from support.fake_browser import El, FakeBrowser
from support.scripted_llm import ScriptedLLM, call, calls

from heybro import config, logs
from heybro.agent.env import AgentEnv
from heybro.agent.models import Task
from heybro.agent.recorder import FanOut, MemoryRecorder
from heybro.llm import LLMClient
from heybro.routines.export import script as export
from heybro.routines.heal import heal
from heybro.routines.model import Routine, Step
from heybro.store import TaskStore
from heybro.store.recorder import StoreRecorder
from heybro.store.routines import StoreRoutines

SECRET = "hunter2-very-private"
URL = "http://app.test/login"


def test_a_healed_fill_of_a_secret_leaves_no_trace_of_it(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    logs.setup("host.log")
    store = TaskStore(tmp_path / "tasks.sqlite3")
    page = FakeBrowser(pages={URL: [El("e1", "input", "Passphrase"), El("e2", "button", "Sign in")]},
                       url=URL)
    step = Step(tool="fill", args={"value": "{{secret:password}}"}, intent="type the password",
                signature={"tag": "input", "role": "textbox", "name": "Password"})
    routine = Routine(name="login", goal="Sign in", start_url=URL, steps=[step])
    script = {"worker": [call("fill", element_id="e1", value="{{secret:password}}"),
                         call("mark_done", summary="password typed")]}

    async def run() -> list[Step]:
        with ScriptedLLM(script) as llm:
            settings = config.load(env=llm.env(), file=Path("/nonexistent"))
            client = LLMClient(settings)
            task = Task(description="Sign in", url=URL)
            store.create_task(task.description, url=URL, task_id=task.id, status="executing")
            env = AgentEnv(task=task, llm=client, settings=settings, browser=page,
                           recorder=FanOut(StoreRecorder(store), MemoryRecorder()))
            env.state.secrets.keep("password", SECRET)  # given by the user earlier in the run
            try:
                got = await heal(env, "login", 1, step, 'textbox "Password"', dict(step.args), {},
                                 "not_found: the field was renamed")
            finally:
                await client.close()
            assert got.ok, got.why
            return got.steps

    healed = asyncio.run(run())
    assert [e.value for e in page.pages[URL] if e.id == "e1"] == [SECRET]  # the page got it
    assert healed[0].args == {"value": "{{secret:password}}"}
    saved = StoreRoutines(store).save(routine.model_copy(update={"steps": healed}))
    store.close()
    for where, text in (("the store", (tmp_path / "tasks.sqlite3").read_bytes().decode("latin-1")),
                        ("the store's log", _wal(tmp_path)),
                        ("the routine", saved.model_dump_json()),
                        ("its export", export(saved)),
                        ("the logs", "".join(p.read_text() for p in (tmp_path / "home").rglob("*.log")))):
        assert SECRET not in text, f"the secret is in {where}"


def _wal(tmp: Path) -> str:
    wal = tmp / "tasks.sqlite3-wal"
    return wal.read_bytes().decode("latin-1") if wal.exists() else ""
