"""What an expectation says and what its check reports: every clause kept and checked on its own
(two of one kind included), a role alone as a check, the one rule `text:` and `value:` compare by,
an unreadable clause refused with the reason, a clause that already held before the action said so,
and a click that changed nothing said so. Pure functions over snapshots: no browser, no model."""

from __future__ import annotations

import pytest

from heybro.agent.act import no_effect
from heybro.agent.browser import Snapshot
from heybro.agent.expect import check, parse_expect, wait_args
from heybro.agent.facts import latest, lines
from heybro.agent.models import ExpectedOutcome
from heybro.agent.toolbox import CLICK, FILL

PAGE = Snapshot(url="http://shop/items", title="Items", text="Smart Kettle  in stock\nField test done", elements={
    "e1": {"tag": "button", "role": "button", "name": "Save"},
    "e2": {"tag": "input", "role": "textbox", "name": "Name", "state": {"value": "Blue  Kettle"}},
}, dialogs=[{"name": "Edit item", "text": "Edit item Name"}])


def test_every_clause_of_one_kind_is_kept_and_checked_on_its_own() -> None:
    expect = parse_expect("text:Smart Kettle; text:Field test; text:Display flickers")
    assert [str(c) for c in expect.clauses] == ["text:Smart Kettle", "text:Field test", "text:Display flickers"]
    fact = check("click", expect, {}, {}, PAGE)
    assert [(p.clause, p.met) for p in fact.parts] == [
        ("text:Smart Kettle", True), ("text:Field test", True), ("text:Display flickers", False)]
    assert not fact.met and fact.detail.startswith("text 'Display flickers' is not on the page")


def test_three_values_are_three_checks() -> None:
    fact = check("done_when", parse_expect("value:blue kettle; value:Red; value:BLUE KETTLE"), {}, None, PAGE)
    # (the same words twice, any case, are one check of one field: two are kept, each reported)
    assert [(p.clause, p.met) for p in fact.parts] == [
        ("value:blue kettle", True), ("value:Red", False), ("value:BLUE KETTLE", True)]


def test_the_same_clause_twice_is_one_check() -> None:
    assert len(parse_expect("text:Saved; text:Saved").clauses) == 1


@pytest.mark.parametrize("bad, said", [
    ("the results page opens", "cannot read 'the results page opens'"),
    ("url:/x; title:Foo", "cannot read 'title:Foo'"),
    ("text:", "says what kind of check, not what to check"),
    (";;", "expect is empty"),
])
def test_an_unreadable_expectation_is_refused_with_the_reason(bad: str, said: str) -> None:
    with pytest.raises(ValueError, match=said.replace("(", r"\(").replace(")", r"\)")):
        parse_expect(bad)


def test_a_role_alone_is_any_element_of_that_role() -> None:
    def met(text: str) -> bool:
        return check("click", parse_expect(text), {}, {}, PAGE).met

    assert met("element:dialog")  # the page's open dialog, though the map lists controls
    assert met('element:dialog "Edit item"') and not met('element:dialog "Delete item"')
    assert met("element:button") and met("element:textbox") and not met("element:checkbox")
    assert not met("no element:dialog") and met("no element:alertdialog")
    assert met('element:button "Save"') and met("element:save")  # a name, as before
    gone = Snapshot(url="http://shop/", elements={})
    assert check("click", parse_expect("no element:dialog"), {}, {}, gone).met
    wait = wait_args(parse_expect("element:dialog"), check("click", parse_expect("element:dialog"), {}, {}, gone), 2)
    assert wait == {"role": "dialog", "seconds": 2}


def test_text_is_words_anywhere_and_value_the_whole_value_both_as_a_person_reads() -> None:
    def met(text: str, params: dict | None = None, result: object = None) -> bool:
        return check("fill", parse_expect(text), params or {}, result if result is not None else {}, PAGE).met

    assert met("text:smart   KETTLE") and met('text:"Smart Kettle"')  # quotes around the words
    field = {"element_id": "e2"}
    assert met("value:blue kettle", field) and met("value:Blue Kettle", field)
    assert not met("value:Blue", field)  # a part of the value is not the value


def test_a_clause_that_held_before_the_action_says_so() -> None:
    before = PAGE
    after = PAGE.model_copy(update={"text": PAGE.text + "\nSaved"})
    fact = check("click", parse_expect("text:Smart Kettle; text:Saved"), {}, {}, after, before=before)
    assert fact.met
    assert [(p.clause, p.before) for p in fact.parts] == [("text:Smart Kettle", True), ("text:Saved", False)]
    assert "MET (already before the action)" in lines([fact]) and "· text:Saved: MET —" in lines([fact])


def test_a_later_reading_supersedes_only_the_same_thing() -> None:
    a = check("fill", parse_expect("value:Red"), {"element_id": "e2"}, {}, PAGE)
    a.about = 'fill textbox "Name"'
    b = check("fill", parse_expect("value:Red"), {"element_id": "e9"}, {"element": {"state": {"value": "Red"}}}, PAGE)
    b.about = 'fill textbox "Colour"'
    # (two fields expected to say the same are two readings, not one)
    assert [p.met for _, p in latest([a, b])] == [False, True]


def test_a_click_that_changed_nothing_says_so_whatever_its_expectation() -> None:
    result = {"url": "http://shop/items", "url_changed": False,
              "mutations": {"added": 0, "removed": 0, "attributes": 0, "text": 0, "summary": "no change"},
              "element": {"tag": "button", "role": "button", "name": "Save", "state": {}}}
    assert no_effect(CLICK, result, PAGE, "e1", None)
    assert no_effect(CLICK, result, PAGE, "e1", PAGE)
    assert not no_effect(CLICK, result, PAGE, "e1", PAGE.model_copy(update={"text": "Saved"}))
    assert not no_effect(CLICK, {**result, "mutations": {**result["mutations"], "added": 2}}, PAGE, "e1", None)
    assert not no_effect(CLICK, {**result, "dialog": {"kind": "confirm"}}, PAGE, "e1", None)
    assert not no_effect(FILL, result, PAGE, "e2", None)  # (a field's effect is its value)


def test_older_records_read_as_clauses() -> None:
    old = ExpectedOutcome.model_validate({"url_contains": "/checkout", "text_appears": "Pay"})
    assert [str(c) for c in old.clauses] == ["url:/checkout", "text:Pay"]
    with pytest.raises(ValueError):
        ExpectedOutcome.model_validate({"colour": "red"})
