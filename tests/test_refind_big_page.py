"""refind.js on a big page (a catalogue of thousands of elements, past refind's BIG_PAGE, where
candidates come from the selector engine around the element's old place rather than a walk over
every element): it still finds the element after the whole page re-renders, follows it by its card
among a thousand identical buttons, finds it redone as a link in its place, and refuses when its
card is gone — never another card's button."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from support.plain_page import plain_page

pytestmark = pytest.mark.browser

# A catalogue of `n` cards, each a title, a stock line, an "Add to cart" button and a link; every
# node is made anew on each call (a re-render). `keys`: the buttons carry a data key.
RENDER = """([n, keys]) => {
    const main = document.createElement('main');
    for (let i = 0; i < n; i++) {
        const card = document.createElement('div');
        card.className = 'card';
        card.innerHTML = `<h3>Item number ${i}</h3><p>Only ${i % 50} left.</p>`
            + `<button class="buy"${keys ? ` data-sku="${i}"` : ''}>Add to cart</button> <a href="/p/${i}">Details</a>`;
        main.appendChild(card);
    }
    document.body.replaceChildren(main);
    return document.getElementsByTagName('*').length;
}"""
# The signature of card i's button.
CAPTURE = "(i) => refindLib.captureSignature(document.querySelectorAll('.card')[i].querySelector('button'))"
# Re-finds a (JSON round-tripped) signature: the answer, and the title of the card of the element.
REFIND = """(sig) => {
    const r = refindLib.refind(JSON.parse(JSON.stringify(sig)));
    const card = r.element && r.element.closest('.card');
    return {status: r.status, tag: r.element && r.element.localName, card: card ? card.querySelector('h3').textContent : null};
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with plain_page("tests/fixtures/dom/refind.html") as pg:
        yield pg


@pytest.mark.parametrize("keys", [True, False], ids=["with data keys", "bare buttons"])
def test_a_button_among_a_thousand_look_alikes_is_found_by_its_card_after_a_rerender(page: Page, keys: bool) -> None:
    elements = page.evaluate(RENDER, [1500, keys])
    assert elements > page.evaluate("refindLib.BIG_PAGE")  # the big-page way is the one tested
    sig = page.evaluate(CAPTURE, 700)
    page.evaluate(RENDER, [1500, keys])
    assert page.evaluate(REFIND, sig) == {"status": "found", "tag": "button", "card": "Item number 700"}


@pytest.mark.parametrize("keys", [True, False], ids=["with data keys", "bare buttons"])
def test_a_button_whose_card_is_gone_is_refused_not_answered_with_another_cards(page: Page, keys: bool) -> None:
    page.evaluate(RENDER, [1500, keys])
    sig = page.evaluate(CAPTURE, 700)
    page.evaluate("document.querySelectorAll('.card')[700].remove()")
    r = page.evaluate(REFIND, sig)
    assert r["status"] != "found" and r["card"] is None


def test_a_button_redone_as_a_link_in_its_place_is_found(page: Page) -> None:
    page.evaluate(RENDER, [1500, False])
    sig = page.evaluate(CAPTURE, 700)
    page.evaluate("""() => {
        const b = document.querySelectorAll('.card')[700].querySelector('button');
        const a = document.createElement('a');
        a.href = '#'; a.className = 'buy'; a.textContent = b.textContent;
        b.replaceWith(a);
    }""")
    assert page.evaluate(REFIND, sig) == {"status": "found", "tag": "a", "card": "Item number 700"}


def test_a_card_moved_to_the_top_of_the_catalogue_keeps_its_button_by_its_data_key(page: Page) -> None:
    # Far from its old place in the page's order: found by the value it carries, not its place.
    page.evaluate(RENDER, [1500, True])
    sig = page.evaluate(CAPTURE, 1200)
    page.evaluate("() => { const c = document.querySelectorAll('.card')[1200]; c.parentElement.prepend(c); }")
    assert page.evaluate(REFIND, sig) == {"status": "found", "tag": "button", "card": "Item number 1200"}
