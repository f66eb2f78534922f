"""Saving a completed task as a routine: the agent core runs a task into a real SQLite store (the
scripted model, the fake browser), and the routine read from the store holds the actions that
worked, with their signatures, expectations and intents, and the user's values as parameters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.agent_harness import run_task
from support.fake_browser import shop
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.models import (
    ExecutionCycle, ExpectedOutcome, Iteration, RoleResult, Subtask, Task, TaskStatus, ToolCall)
from heybro.routines.model import fill
from heybro.routines.save import SaveRefused, routine_from_task, save_task
from heybro.store import TaskStore
from heybro.store.recorder import StoreRecorder
from heybro.store.routines import StoreRoutines

GOAL = "Buy the blue kettle for Ann (ann@x.io); search for kettle"


def script() -> dict[str, list[Any]]:
    return {
        "scheduler": [calls(("set_subtasks", {"subtasks": [
            "Search for kettle", "Open the blue kettle", "Buy it for Ann, ann@x.io"]}),
            ("start_work", {}))],
        "worker": [
            calls(("fill", {"element_id": "e1", "value": "kettle", "expect": "value:kettle"}),
                  ("click", {"element_id": "e2", "expect": "url:/results"})),
            call("mark_done", summary="Results shown"),
            {"calls": [("click", {"element_id": "e1", "expect": "url:/item"})],
             "text": "The blue one is the first result"},
            call("mark_done", summary="Blue kettle page open"),
            calls(("hover", {"element_id": "e5"})),  # fails (scripted): not a step
            call("click", element_id="e5"),
            calls(("fill", {"element_id": "e1", "value": "Ann"}),
                  ("fill", {"element_id": "e2", "value": "ann@x.io"}),
                  ("click", {"element_id": "e3", "expect": "text:confirmed"})),
            call("extract", name="order", value="A1"),
            call("mark_done", summary="Order A1 confirmed"),
        ],
        "verifier": [call("mark_complete", reason="results listed", confidence=0.9),
                     call("mark_complete", reason="item open", confidence=0.9),
                     call("mark_complete", reason="Order confirmed #A1", confidence=0.95)],
    }


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[TaskStore, str]:
    store = TaskStore(tmp_path / "tasks.sqlite3")
    b = shop()
    b.fail["hover"] = "covered"
    with ScriptedLLM(script()) as llm:
        task, _, result = run_task(llm, b, goal=GOAL, also=StoreRecorder(store))
    assert result.status == TaskStatus.completed, task.result
    assert b.bookings == [{"Name": "Ann", "Email": "ann@x.io"}]
    return store, task.id


def test_a_saved_task_keeps_its_working_actions_with_signatures_and_the_users_values_as_params(
        recorded: tuple[TaskStore, str]) -> None:
    store, task_id = recorded
    r = save_task(store, task_id, "kettle-order")
    assert StoreRoutines(store).get("kettle-order") == r
    assert r.start_url == "http://shop/" and r.source_task == task_id
    # Every action that worked, in order; the failed hover and the extract are not.
    assert [(s.tool, s.signature and s.signature["name"]) for s in r.steps] == [
        ("fill", "Search"), ("click", "Go"), ("click", "Blue Kettle $20"), ("click", "Buy"),
        ("fill", "Name"), ("fill", "Email"), ("click", "Book")]
    assert [s.subtask for s in r.steps] == [0, 0, 1, 2, 2, 2, 2]
    assert [s.url for s in r.steps] == ["http://shop/", "http://shop/", "http://shop/results",
                                        "http://shop/item", "http://shop/form", "http://shop/form",
                                        "http://shop/form"]
    # The values the user gave are parameters, named after their fields, recorded as defaults.
    assert {p.name: p.default for p in r.parameters} == {"search": "kettle", "name": "Ann",
                                                         "email": "ann@x.io"}
    assert r.goal == "Buy the blue {{param:search}} for {{param:name}} ({{param:email}}); " \
                     "search for {{param:search}}"
    assert r.steps[0].args == {"value": "{{param:search}}"}
    assert r.steps[0].expect == ExpectedOutcome(value="{{param:search}}")
    assert r.steps[1].expect == ExpectedOutcome(url_contains="/results") and r.steps[1].args == {}
    assert fill(r.steps[4].args, r.values({"name": "Bo"})) == {"value": "Bo"}
    assert r.steps[6].expect == ExpectedOutcome(text_appears="confirmed")
    # The intent says what the step did and why; each subtask keeps its verified outcome.
    assert r.steps[2].intent == 'click link "Blue Kettle $20": The blue one is the first result'
    assert [(o.text, o.verdict) for o in r.subtasks] == [
        ("Search for {{param:search}}", "results listed"),
        ("Open the blue {{param:search}}", "item open"),
        ("Buy it for {{param:name}}, {{param:email}}", "Order confirmed #A1")]


def test_saving_is_refused_with_the_reason(recorded: tuple[TaskStore, str]) -> None:
    store, task_id = recorded
    with pytest.raises(SaveRefused, match="no task 'nope'"):
        save_task(store, "nope", "x")
    save_task(store, task_id, "kettle")
    with pytest.raises(SaveRefused, match="'kettle' exists already"):
        save_task(store, task_id, "kettle")
    assert save_task(store, task_id, "kettle", replace=True).name == "kettle"
    with pytest.raises(SaveRefused, match="routine name is letters"):
        save_task(store, task_id, "my routine!")
    other = store.create_task("Look around", url="http://shop/", status="executing")
    store.checkpoint(other.id, Task(id=other.id, description="Look around").model_dump(mode="json"))
    with pytest.raises(SaveRefused, match=f"task {other.id} is executing: only a completed"):
        save_task(store, other.id, "look")
    store.set_status(other.id, "completed", "looked")
    with pytest.raises(SaveRefused, match="did nothing in the browser"):
        save_task(store, other.id, "look")
    assert [r.name for r in StoreRoutines(store).listing()] == ["kettle"]


def test_secrets_stay_placeholders_and_actions_of_a_worker_cut_short_are_kept(
        tmp_path: Path) -> None:
    """A worker interrupted by a pause leaves no iterations in the history, but what it did is
    in the ledger: the routine has it. A secret is never a parameter nor a default."""
    store = TaskStore(tmp_path / "t.sqlite3")
    task = Task(description="Log in as bob and open invoices", url="http://app/login",
                subtasks=[Subtask(text="Log in as bob")], status=TaskStatus.completed)
    sig = {"tag": "input", "name": "Password", "attrs": {"type": "password"}}
    done = ToolCall(tool="fill", parameters={"element_id": "e1", "value": "bob"}, success=True,
                    signature={"tag": "input", "name": "User", "label": "User name"},
                    url="http://app/login", reason="the user's login")
    task.execution_history = [
        ExecutionCycle(index=1, subtask_index=0, worker=RoleResult(role="worker", iterations=[
            Iteration(role="worker", tool_calls=[done])]))]
    store.create_task(task.description, url=task.url, task_id=task.id, status="completed")
    store.checkpoint(task.id, task.model_dump(mode="json"))
    ledger = [("fill", {"element_id": "e1", "value": "bob", "signature": done.signature}, True),
              ("fill", {"element_id": "e2", "value": "{{secret:password}}", "target": 'textbox '
                        '"Password"', "signature": sig}, True),
              ("click", {"element_id": "e3", "target": 'button "Sign in"'}, False)]
    for i, (tool, params, ok) in enumerate(ledger):
        store.action_started(task.id, str(i), tool, params)
        store.action_finished(task.id, str(i), ok, {})
    r = routine_from_task(store, task.id, "login")
    assert [(s.tool, s.args) for s in r.steps] == [
        ("fill", {"value": "{{param:user_name}}"}), ("fill", {"value": "{{secret:password}}"})]
    assert [(p.name, p.default) for p in r.parameters] == [("user_name", "bob")]
    assert r.steps[1].signature == sig and r.steps[1].subtask == 0
    assert r.steps[0].intent == "fill: the user's login" and r.steps[0].url == "http://app/login"
    assert r.goal == "Log in as {{param:user_name}} and open invoices"
    # An element's action recorded without its signature cannot be found again: refused.
    store.action_started(task.id, "9", "click", {"element_id": "e7", "target": 'link "Invoices"'})
    store.action_finished(task.id, "9", True, {})
    with pytest.raises(SaveRefused, match='click link "Invoices" has no record of its element'):
        routine_from_task(store, task.id, "login")


def saved_with(tmp_path: Path, goal: str, actions: list[tuple[str, str, dict[str, Any]]],
               answers: tuple[str, ...] = ()) -> Any:
    """A completed task whose worker did `actions` (tool, the field's name, arguments), the user
    having answered `answers`, saved as a routine."""
    store = TaskStore(tmp_path / "t.sqlite3")
    task = Task(description=goal, url="http://wp/wp-admin/", subtasks=[Subtask(text=goal)],
                status=TaskStatus.completed)
    calls_ = [ToolCall(tool=tool, parameters=params, success=True, url="http://wp/wp-admin/",
                       signature={"tag": "select" if tool == "select" else "input", "name": name,
                                  "label": name})
              for tool, name, params in actions]
    calls_ += [ToolCall(tool="ask_user", parameters={"question": "?"}, success=True,
                        result={"answer": a}) for a in answers]
    task.execution_history = [ExecutionCycle(index=1, subtask_index=0, worker=RoleResult(
        role="worker", iterations=[Iteration(role="worker", tool_calls=calls_)]))]
    store.create_task(goal, url=task.url, task_id=task.id, status="completed")
    store.checkpoint(task.id, task.model_dump(mode="json"))
    for i, c in enumerate(c for c in calls_ if c.tool != "ask_user"):
        store.action_started(task.id, str(i), c.tool, {**c.parameters, "signature": c.signature})
        store.action_finished(task.id, str(i), True, {})
    return routine_from_task(store, task.id, "wp")


def test_an_option_the_page_offered_is_not_a_parameter_because_the_goal_shares_its_word(
        tmp_path: Path) -> None:
    r = saved_with(tmp_path, "In WordPress, approve Jane Doe's pending comment about kettles",
                   [("fill", "Search comments", {"element_id": "e1", "value": "kettles"}),
                    ("select", "Bulk actions", {"element_id": "e2", "value": "Approve"})])
    assert {p.name: p.default for p in r.parameters} == {"search_comments": "kettles"}
    assert r.goal == "In WordPress, approve Jane Doe's pending comment about {{param:search_comments}}"
    assert r.steps[1].args == {"value": "Approve"}


def test_an_option_the_user_gave_quoted_or_as_an_answer_is_a_parameter(tmp_path: Path) -> None:
    r = saved_with(tmp_path, "Make Bob's role 'Editor' and set Ann's timezone",
                   [("select", "Role", {"element_id": "e1", "value": "Editor"}),
                    ("select", "Timezone", {"element_id": "e2", "value": "Berlin"})],
                   answers=("Berlin",))
    assert {p.name: p.default for p in r.parameters} == {"role": "Editor", "timezone": "Berlin"}
    assert r.goal == "Make Bob's role '{{param:role}}' and set Ann's timezone"
