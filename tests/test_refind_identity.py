"""refind.js puts the element's own identity — the id, link target, form name and value the page's
author gave it — before its words and its place: the page's language switched, a copy of it put
beside it, it is still found; a row whose record went away is not found in a neighbour carrying
another record's value; and where its identity and its words point to different elements, it
abstains (with why, for the record) rather than guessing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from support.plain_page import plain_page

pytestmark = pytest.mark.browser

CAPTURE = "(sel) => JSON.parse(JSON.stringify(refindLib.captureSignature(document.querySelector(sel))))"
# What the answer is, as the page tells it: the element's text and its own id/value/href.
REFIND = """(sig) => {
    const r = refindLib.refind(sig);
    const el = r.element;
    return {status: r.status, why: r.why || null, text: el ? el.textContent.trim() : null,
            id: el ? el.id : null, href: el ? el.getAttribute('href') : null,
            value: el ? el.getAttribute('value') : null};
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with plain_page("tests/fixtures/dom/refind_identity.html") as pg:
        yield pg


@pytest.fixture(autouse=True)
def fresh(page: Page) -> None:
    page.evaluate("render()")


def test_after_the_interface_language_switched_each_link_is_found_by_where_it_leads(page: Page) -> None:
    sigs = [page.evaluate(CAPTURE, f"nav a:nth-of-type({i})") for i in (1, 2, 3)]
    page.evaluate("render({lang: 'de'})")  # every word of the toolbar, its label too, translated
    got = [page.evaluate(REFIND, s) for s in sigs]
    assert [g["text"] for g in got] == ["Bearbeiten", "Versionsgeschichte", "Löschen"]
    assert all(g["status"] == "found" for g in got)
    assert "identity" in got[2]["why"] and "action=delete" in got[2]["why"]
    page.evaluate("render()")
    button = page.evaluate(CAPTURE, "#apply")
    page.evaluate("render({lang: 'de'})")
    got = page.evaluate(REFIND, button)
    assert got["status"] == "found" and got["text"] == "Übernehmen"


def test_a_ticked_rows_checkbox_is_not_found_in_another_rows_once_its_record_is_gone(page: Page) -> None:
    sig = page.evaluate(CAPTURE, "#cb-2")
    page.evaluate("render({comments: [1, 3, 4]})")  # comment 2 filtered out: its row is gone
    got = page.evaluate(REFIND, sig)
    assert got["status"] != "found", got  # not comment 3's, nor 1's: it abstains
    page.evaluate("render({comments: [4, 3, 2, 1]})")  # only reordered: found by its record
    got = page.evaluate(REFIND, sig)
    assert got["status"] == "found" and got["value"] == "2"


def test_a_copy_put_beside_it_never_wins_over_the_element_itself(page: Page) -> None:
    sig = page.evaluate(CAPTURE, "#save-draft")
    page.evaluate("render({extra: '<button type=\"button\" class=\"copy\">Save draft</button>'})")
    got = page.evaluate(REFIND, sig)
    assert got["status"] == "found" and got["id"] == "save-draft"


def test_identity_and_words_pointing_to_different_elements_abstain_with_why(page: Page) -> None:
    sig = page.evaluate(CAPTURE, "#save-draft")
    # The id moved to another button, while a button without it still says "Save draft".
    page.evaluate("""render({extra: '<button type="button" id="save-draft" name="save">Discard</button>'
                            + '<button type="button">Save draft</button>'})""")
    page.evaluate("document.querySelectorAll('#save-draft')[1].remove()")
    got = page.evaluate(REFIND, sig)
    assert got["status"] == "ambiguous", got
    assert "point to different elements" in got["why"]
