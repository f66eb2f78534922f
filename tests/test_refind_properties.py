"""Re-finding's invariants (the top of extension/content/refind.js), checked on pages and changes
drawn at random (tests/support/refind_gen.py): tables, cards, forms, navigation, toolbars, lists,
settings and components in open shadow roots, changed by near copies put beside an element,
attributes dropped or given other values, hashed classes, wrappers, moves, reorders, rewording, new
records and deletions. Every re-find must keep every invariant (tests/support/refind_gen.js checks
them against the element it knows by reference): never another element, a deleted element refused,
an untouched original found, no guess between elements that differ only by their place, no
contradicting candidate over one that merely lacks a value.

A failing example is shrunk by Hypothesis to a small page and a short list of changes; the ones
found while re-finding was rebuilt on these invariants are kept in
tests/fixtures/refind_regressions.json and replayed here, each with the invariant it broke."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

from support.plain_page import plain_page
from support.refind_gen import KINDS, Drawn, Habits, cards, change, document, el, trial, widgets

pytestmark = pytest.mark.browser

REGRESSIONS = Path(__file__).resolve().parent / "fixtures" / "refind_regressions.json"
PROPERTY = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with plain_page("tests/fixtures/dom/refind_gen.html") as pg:
        yield pg


def run(page: Page, t: dict[str, Any]) -> dict[str, Any]:
    return page.evaluate("(t) => refindGen.runTrial(t, {explain: true})", t)


def broken(r: dict[str, Any]) -> list[str]:
    """The invariants a re-find broke (another element that carries the signature to the letter
    is a twin: no signature tells them apart)."""
    return [b for b in r.get("broken", []) if not (r["twin"] and b == "another element")]


@st.composite
def trials(draw: Any) -> dict[str, Any]:
    return trial(Drawn(draw))


@st.composite
def copies_around(draw: Any) -> dict[str, Any]:
    """A page, a near copy of one of its controls put beside it (other classes, name, link, data
    value, a marker, another label), and other changes made around the control, never to it."""
    ch = Drawn(draw)
    doc, target = document(ch), ch.integer(0, 999)
    copy = {"kind": "copy", "who": "target", "pick": ch.integer(0, 999), "before": ch.chance(0.5),
            "variants": [ch.choice(["classes", "name", "href", "data", "marker", "label"])]}
    around = [{**c, "who": ch.choice(["lookalike", "neighbor"])} for c in (change(ch) for _ in range(ch.integer(0, 2)))]
    return {"doc": doc, "target": target, "changes": [copy, *around] if ch.chance(0.5) else [*around, copy]}


@st.composite
def then_deleted(draw: Any) -> dict[str, Any]:
    """A page, changes, then the element deleted (or the part of the page holding it)."""
    ch = Drawn(draw)
    t = trial(ch, most=2)
    t["changes"].append({"kind": "delete", "who": ch.choice(["target", "target", "container"]), "pick": ch.integer(0, 1)})
    return t


@PROPERTY
@given(trials())
def test_every_re_find_keeps_every_invariant(page: Page, t: dict[str, Any]) -> None:
    r = run(page, t)
    assert not broken(r), r


@PROPERTY
@given(copies_around())
def test_a_copy_put_beside_an_element_never_wins(page: Page, t: dict[str, Any]) -> None:
    r = run(page, t)
    assert not broken(r), r
    assert r.get("skipped") or r["outcome"] != "wrong" or r["twin"], r


@PROPERTY
@given(then_deleted())
def test_a_deleted_element_is_refused_never_replaced(page: Page, t: dict[str, Any]) -> None:
    r = run(page, t)
    assert not broken(r), r
    # Known gap, not proven: a copy whose id is the element's grown a suffix ("zip-copy") is taken
    # for it once it is gone — re-finding reads a grown id as the element's own, as a framework's
    # re-render makes it. Every other deletion must be refused.
    assert r.get("skipped") or not r["deleted"] or r["outcome"] == "refused" or r["twin"] or r["grownId"], r


@st.composite
def components(draw: Any) -> dict[str, Any]:
    """A page of look-alike components (ratings, steppers; named or not, some inside cards)."""
    ch = Drawn(draw)
    h = Habits(ch)
    doc = el("main", {}, *widgets(ch, h), cards(ch, h, True))
    return {"doc": doc, "target": ch.integer(0, 999), "changes": [change(ch, KINDS) for _ in range(ch.integer(1, 3))]}


@PROPERTY
@given(components())
def test_components_alike_are_never_taken_for_each_other(page: Page, t: dict[str, Any]) -> None:
    r = run(page, t)
    assert not broken(r), r


def regressions() -> list[dict[str, Any]]:
    return json.loads(REGRESSIONS.read_text()) if REGRESSIONS.exists() else []


@pytest.mark.parametrize("case", regressions(), ids=lambda c: c["name"])
def test_shrunk_examples_once_failing_now_keep_the_invariants(page: Page, case: dict[str, Any]) -> None:
    r = run(page, case["trial"])
    assert not broken(r), (case["broke"], r)
