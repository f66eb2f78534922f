"""refind.js never answers with what held the element, nor with a reworded copy, when the element
itself is only resized: an icon deleted from its wrapper is not found in the wrapper; a face put in
a wrapper that shrinks it is not the side it stands in; an editor that a reworded copy beside it
made smaller is not that copy. Where it cannot tell, it abstains."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from support.plain_page import plain_page

pytestmark = pytest.mark.browser

# Capture the element at `sel`, change the page with `change`, re-find: what the answer was.
TRIAL = """([sel, change]) => {
    const t = document.querySelector(sel);
    const sig = refindLib.captureSignature(t);
    (new Function(change))();
    const r = refindLib.refind(sig);
    return {status: r.status, why: r.why, itself: r.element === t,
            answer: r.element ? r.element.outerHTML.slice(0, 80) : null};
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with plain_page("tests/fixtures/dom/refind_containers.html") as pg:
        yield pg


@pytest.fixture(autouse=True)
def fresh(page: Page) -> None:
    page.evaluate("render()")


def test_an_icon_deleted_from_its_wrapper_is_not_found_in_the_wrapper(page: Page) -> None:
    got = page.evaluate(TRIAL, [".more", "document.querySelector('.more').remove()"])
    assert got["status"] != "found", got
    # Its wrapper taken away instead, nothing else is taken for the icon.
    page.evaluate("render()")
    got = page.evaluate(TRIAL, [".more", "const w = document.querySelector('.more').parentElement; w.replaceWith(...w.childNodes)"])
    assert got["itself"] or got["status"] != "found", got


def test_a_face_shrunk_by_a_new_wrapper_is_not_taken_for_the_side_it_stands_in(page: Page) -> None:
    wrap = """const f = document.querySelectorAll('.face')[1], w = document.createElement('div');
              w.style.display = 'inline-block'; f.replaceWith(w); w.appendChild(f);"""
    got = page.evaluate(TRIAL, [".side:nth-child(2) .face", wrap])
    assert got["itself"] or got["status"] != "found", got


def test_an_editor_made_smaller_by_a_reworded_copy_beside_it_is_not_the_copy(page: Page) -> None:
    copy = """const e = document.querySelector('.writer'), d = e.cloneNode(true);
              d.querySelector('p').textContent = 'Nullam dui uts'; e.after(d);"""
    got = page.evaluate(TRIAL, [".writer", copy])
    assert got["itself"] or got["status"] != "found", got
    # Untouched, it is found as it was.
    page.evaluate("render()")
    got = page.evaluate(TRIAL, [".writer", ""])
    assert got["status"] == "found" and got["itself"], got
