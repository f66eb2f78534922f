"""Every yes/no is asked one way (agent/gate.py) and every call runs one way (agent/pipeline.py),
whoever proposed it: the worker, a desk role, a routine's replay, an outside agent. Read from the
code itself (no module asks or refuses by itself, none composes the phases again) and from what a
run does (a desk role's failures stop it like the worker's; a no means what the gate says)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support.agent_harness import run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.errors import TaskStopped
from heybro.agent.gate import after_no
from heybro.agent.models import TaskStatus

HOST = Path(__file__).resolve().parents[1] / "host" / "heybro"


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    """Every call of `name(...)` (or `x.name(...)`) in the host's code, with its module."""
    found = []
    for path in HOST.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                f = node.func
                if (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name):
                    found.append((str(path.relative_to(HOST)), node))
    return found


def test_only_the_gate_asks_the_user_yes_or_no() -> None:
    confirm = [m for m, c in _calls("Question")
               if any(k.arg == "kind" and isinstance(k.value, ast.Constant) and k.value.value == "confirm"
                      for k in c.keywords)]
    assert confirm == ["agent/gate.py"]


def test_only_the_gate_turns_a_no_into_a_refusal() -> None:
    declined = [m for m, c in _calls("ToolFailed")
                if c.args and isinstance(c.args[0], ast.Constant) and c.args[0].value == "declined"]
    assert declined == ["agent/gate.py"]


def test_the_act_phases_are_composed_once_and_every_run_uses_them() -> None:
    assert {m for m, _ in _calls("guard")} == {"agent/pipeline.py"}
    assert {m for m, _ in _calls("call_wire")} <= {"agent/pipeline.py", "agent/local_tools.py"}
    assert {m for m, _ in _calls("Pipeline")} == {"agent/worker.py", "agent/desk.py",
                                                  "routines/replay.py"}


def test_what_a_no_means_is_decided_by_who_runs_the_call() -> None:
    after_no("model", "declined", "click Delete")  # the worker hears it and picks another way
    after_no("outside", "declined", "click Delete")  # the caller hears it as its call's answer
    with pytest.raises(TaskStopped, match="said no to click Delete; the replay stopped there"):
        after_no("replay", "declined", "click Delete")
    after_no("replay", "not_found", "click Delete")  # (only a no stops it)


def test_a_desk_role_failing_again_and_again_is_stopped_like_the_worker() -> None:
    broken = [call("calculate", expression="2 +* 2") for _ in range(3)]
    script = {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            {"subtask": "Add the prices", "role": "analyst"}]}), ("start_work", {}))],
        "analyst": broken + [call("mark_done", summary="never reached")],
    }
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, shop(), goal="Add the prices")
    assert result.status == TaskStatus.failed
    assert "consecutive_failures" in (task.result or "") and "calculate" in (task.result or "")
