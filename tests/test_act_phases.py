"""The phases every action goes through (agent/act.py) are one definition, read alike by the
worker and a routine's replay: what a fault cut off is held, the step budget ends a run, and "the
page changed" means the same thing on both paths."""

from __future__ import annotations

import pytest

from heybro.agent.act import changed_page, guard, why_stop
from heybro.agent.cutoff import action_key
from heybro.agent.errors import GuardrailHit, RepeatHeld
from heybro.agent.models import ExpectationCheck, ExpectedOutcome, Task, ToolCall
from heybro.agent.toolbox import CLICK, FILL, LIST_TABS


def test_a_click_a_fault_cut_off_is_held_and_a_field_filled_again_is_not() -> None:
    click = {"element_id": "e4"}
    task = Task(description="buy", cut_off=[action_key(CLICK.name, click, 'button "Place order"'),
                                            action_key(FILL.name, {"value": "Ann"}, 'textbox "Name"')])
    with pytest.raises(RepeatHeld):
        guard(task, CLICK, click, 'button "Place order"')
    guard(task, FILL, {"value": "Ann"}, 'textbox "Name"')
    assert task.steps == 1  # counted as an action; the click was not


def test_the_step_budget_ends_a_run_on_any_path_and_reading_tools_do_not_count() -> None:
    task = Task(description="buy", max_steps=2)
    guard(task, LIST_TABS, {}, None)
    guard(task, FILL, {"value": "a"}, None)
    guard(task, FILL, {"value": "b"}, None)
    with pytest.raises(GuardrailHit, match="limit of 2"):
        guard(task, CLICK, {}, None)


def test_the_page_changed_means_one_thing() -> None:
    before = "http://shop.test/cart"
    assert changed_page({"url": "http://shop.test/checkout"}, before)
    assert changed_page({"url": before, "navigated": True}, before)
    assert changed_page({"url_changed": True}, before)
    assert changed_page({"url": before, "dialog": {"type": "confirm"}}, before)
    assert not changed_page({"url": before}, before)
    assert not changed_page({"url": before}, "")  # nothing known before: not a change by itself


def test_why_a_batch_stops_after_an_action() -> None:
    tc = ToolCall(tool=CLICK.name, timestamp=0.0, success=True)
    assert why_stop(tc, changed=False) is None
    assert why_stop(tc, changed=True) == "the page changed"
    tc.expectation = ExpectationCheck(tool=CLICK.name, expect=ExpectedOutcome(text_appears="Thanks"),
                                      met=False, detail="no text")
    assert why_stop(tc, changed=True) == "its expectation was not met"
    tc.success = False
    assert why_stop(tc, changed=False) == "it failed"
