"""refind.js on its own, loaded with a plain `<script type="module">` in an ordinary page (no
extension): what a user of the matcher relies on — it finds the element again after the page
re-renders, it never hands back a look-alike, and a deleted element is reported as gone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from support.plain_page import plain_page

pytestmark = pytest.mark.browser

# Captures the signature of the "Remove" button in the row whose text is `name`.
CAPTURE_REMOVE = """(name) => {
    const li = [...document.querySelectorAll('#list li')].find((l) => l.querySelector('span').textContent === name);
    return refindLib.captureSignature(li.querySelector('button'));
}"""
# Re-finds a (JSON round-tripped) signature and describes the answer.
REFIND = """(sig) => {
    const r = refindLib.refind(JSON.parse(JSON.stringify(sig)));
    const row = r.element && r.element.closest('li, .card, form');
    return {status: r.status, confidence: r.confidence, candidates: r.candidates.length,
            row: row ? row.querySelector('span, h3, label').textContent.trim() : null,
            decoy: !!(r.element && r.element.dataset.decoy)};
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with plain_page("tests/fixtures/dom/refind.html") as pg:
        yield pg


@pytest.fixture(autouse=True)
def fresh(page: Page) -> None:
    page.reload()
    page.wait_for_selector("body[data-ready='1']")


def test_found_again_after_the_list_is_rerendered_in_another_order(page: Page) -> None:
    sig = page.evaluate(CAPTURE_REMOVE, "Milk")
    page.evaluate("renderList(['Tea', 'Eggs', 'Milk', 'Bread', 'Apples'])")  # every node replaced
    r = page.evaluate(REFIND, sig)
    assert r["status"] == "found" and r["row"] == "Milk" and r["confidence"] >= refind_threshold(page)
    page.evaluate("refindLib.refind(" + _json(sig) + ").element.click()")
    assert page.title() == "removed Milk"


def test_deleted_row_is_not_found_rather_than_a_neighbour(page: Page) -> None:
    sig = page.evaluate(CAPTURE_REMOVE, "Eggs")
    page.evaluate("renderList(['Milk', 'Bread', 'Apples', 'Tea'])")  # Eggs is gone
    r = page.evaluate(REFIND, sig)
    assert r["status"] in ("not_found", "ambiguous") and r["row"] is None
    assert r["candidates"] > 0  # the caller gets the closest candidates to show, not an element


def test_deleted_card_among_identical_buttons_is_never_swapped_for_another(page: Page) -> None:
    sig = page.evaluate("refindLib.captureSignature(document.querySelectorAll('.card button')[6])")
    assert sig["name"] == "Add to cart"
    page.evaluate("document.querySelectorAll('.card')[6].remove()")
    r = page.evaluate(REFIND, sig)
    assert r["status"] != "found" and r["row"] is None


def test_close_look_alike_is_never_returned(page: Page) -> None:
    sig = page.evaluate("refindLib.captureSignature(document.querySelector('#profile button'))")
    # A decoy right beside it: same tag, class and text but for one letter.
    page.evaluate("""() => {
        const b = document.querySelector('#profile button');
        const d = b.cloneNode(true); d.textContent = 'Saved'; d.dataset.decoy = '1'; b.after(d);
    }""")
    r = page.evaluate(REFIND, sig)
    assert r["status"] == "found" and not r["decoy"]
    # The original gone and two exact copies of it elsewhere: nothing tells them apart, so it
    # asks instead of picking one.
    page.evaluate("""() => {
        const b = document.querySelector('#profile button');
        const d = b.cloneNode(true); d.dataset.decoy = '1';
        document.querySelectorAll('#profile button').forEach((x) => x.remove());
        const box = document.createElement('div');
        box.append(d, ' ', d.cloneNode(true));
        document.querySelector('h1').after(box);
    }""")
    r = page.evaluate(REFIND, sig)
    assert r["status"] != "found" and not r["decoy"]


# The position of what refind found among the grid's checkboxes (-1: something else, None: nothing).
GRID_REFIND = """(sig) => {
    const r = refindLib.refind(JSON.parse(JSON.stringify(sig)));
    return {status: r.status, at: r.element ? [...document.querySelectorAll('#grid input')].indexOf(r.element) : null};
}"""


def test_bare_checkbox_is_found_by_its_place_among_look_alikes_after_a_rerender(page: Page) -> None:
    sig = page.evaluate("refindLib.captureSignature(document.querySelectorAll('#grid input')[6])")
    assert sig["twins"] == {"k": 6, "n": 20}
    page.evaluate("renderGrid(5)")  # every checkbox replaced by an identical new one
    assert page.evaluate(GRID_REFIND, sig) == {"status": "found", "at": 6}


def test_bare_checkbox_is_not_guessed_when_look_alikes_were_removed(page: Page) -> None:
    sig = page.evaluate("refindLib.captureSignature(document.querySelectorAll('#grid input')[6])")
    page.evaluate("renderGrid(4)")  # a row gone: the 7th box now stands where another stood
    assert page.evaluate(GRID_REFIND, sig)["status"] != "found"
    page.evaluate("renderGrid(5); document.querySelectorAll('#grid input')[6].remove()")
    assert page.evaluate(GRID_REFIND, sig)["status"] != "found"


def test_checkbox_that_lost_its_type_is_found_in_its_place(page: Page) -> None:
    sig = page.evaluate("refindLib.captureSignature(document.querySelectorAll('#grid input')[9])")
    page.evaluate("document.querySelectorAll('#grid input')[9].removeAttribute('type')")
    assert page.evaluate(GRID_REFIND, sig) == {"status": "found", "at": 9}


def test_radio_is_found_by_its_value_in_another_order(page: Page) -> None:
    sig = page.evaluate("refindLib.captureSignature(document.querySelector('#size [value=m]'))")
    page.evaluate("renderSizes(['l', 'm', 's'])")
    r = page.evaluate("(sig) => { const r = refindLib.refind(sig); return [r.status, r.element && r.element.value]; }", sig)
    assert r == ["found", "m"]
    page.evaluate("renderSizes(['s', 'l'])")  # m is gone: s and l are other sizes, not it
    assert page.evaluate("(sig) => refindLib.refind(sig).status", sig) != "found"


def test_id_that_gained_a_suffix_is_the_same_element(page: Page) -> None:
    # Two bare inputs that only their ids tell apart; a re-render appends a generated suffix.
    sig = page.evaluate("""() => {
        document.querySelector('#profile').insertAdjacentHTML('beforeend', '<input id="code"> <input id="coupon">');
        return refindLib.captureSignature(document.getElementById('code'));
    }""")
    page.evaluate("document.getElementById('code').id = 'code-r7k2'")
    find = "(sig) => { const r = refindLib.refind(sig); return r.status + ':' + (r.element && r.element.id); }"
    assert page.evaluate(find, sig) == "found:code-r7k2"
    page.evaluate("document.getElementById('code-r7k2').remove()")  # gone: its twin is not it
    assert not page.evaluate(find, sig).startswith("found")


def refind_threshold(page: Page) -> float:
    return page.evaluate("refindLib.THRESHOLD")


def _json(v: object) -> str:
    import json
    return json.dumps(v)
