"""The pure parts of replay and healing: a run's values in recorded signatures, a healed step's
values put back as parameters, what proves a step already happened, a run's settings kept in its
task (what a restarted host resumes it with)."""

from __future__ import annotations

from heybro.agent.expect import parse_expect
from heybro.routines.heal import proves, templated
from heybro.routines.model import Parameter, Routine, Step
from heybro.routines.replay import RunSettings, _rebased, new_task

ROUTINE = Routine(
    name="wiki-new-page", goal="Create the page {{param:title}}",
    start_url="http://w/index.php?title={{param:title}}&action=edit",
    parameters=[Parameter(name="title", default="Recorded_page"), Parameter(name="n", default="1")],
    steps=[Step(tool="click", signature={"name": "Save page", "context": {
        "zones": ["form:/index.php?title=Recorded_page&action=su"]}})])


def test_a_runs_values_replace_the_recorded_ones_in_signatures_but_not_short_ones() -> None:
    sig = ROUTINE.steps[0].signature
    got = _rebased(sig, ROUTINE, {"title": "Other", "n": "2"})
    assert got is not None and got["context"]["zones"] == ["form:/index.php?title=Other&action=su"]
    assert _rebased(sig, ROUTINE, {"title": "Recorded_page", "n": "2"}) == sig  # "1" is too short


def test_a_healed_steps_values_go_back_to_their_parameters() -> None:
    assert templated({"value": "Hello Ann Lee", "keys": ["Ann Lee"]}, {"name": "Ann Lee"}) == \
        {"value": "Hello {{param:name}}", "keys": ["{{param:name}}"]}


def test_only_something_arriving_proves_a_step_happened() -> None:
    assert proves(parse_expect("url:/done"))
    assert proves(parse_expect("text:Order confirmed"))
    assert not proves(parse_expect('no element:button "Save page"'))  # renamed is gone too


def test_a_runs_task_carries_its_values_and_choice_through_a_restart() -> None:
    task = new_task(ROUTINE, {"title": "T1", "n": "1"}, url=None, tab_id=None,
                    on_heal_failure="stop")
    assert task.url == "http://w/index.php?title=T1&action=edit"
    assert task.description == "Create the page T1"
    back = RunSettings.of(type(task).model_validate(task.model_dump(mode="json")))
    assert back == RunSettings("wiki-new-page", {"title": "T1", "n": "1"}, "stop")
