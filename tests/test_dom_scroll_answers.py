"""A page is read where it rests after a scroll, not as it passes: whatever a page does while it
scrolls and undoes (or finishes) a moment after — pointer events off for the whole page or for its
list, a see-through layer laid over it, rows drawn once the scroll stops — the map read just after a
scroll (heybro's own, or the person's wheel) is the map read a second later: no control marked
disabled or left out under a cover that a pointer reaches once the page rests."""

from __future__ import annotations

import re
import time

import pytest

from support.dom_rig import browser, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

WAYS = ("body-off", "list-off", "veil", "rows")
# When the page answers: the next frame, react-virtualized's 150 ms, and later still.
DELAYS = (0, 150, 200)


def lines(text: str) -> list[str]:
    """The map's lines without ids and marks of what is new since the last look."""
    return [re.sub(r"\[\*?[a-z]*\d+\] ", "", ln).lstrip("*+ ") for ln in text.splitlines()]


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("delay", DELAYS)
def test_the_map_just_after_a_scroll_is_the_map_at_rest(browser, page, site, way, delay):
    open_page(page, f"{site}/scroll_answers.html?way={way}&delay={delay}")
    ok(browser, "observe")
    ok(browser, "scroll", {"direction": "down"})
    now = ok(browser, "observe")["text"]
    time.sleep(1)
    rest = ok(browser, "observe")["text"]
    assert "disabled" not in now and "Under a cover" not in now, now
    assert "button Item 60" in now and "button Top action" in now
    assert lines(now) == lines(rest)


def test_a_wheel_the_person_turned_is_waited_for_and_the_click_lands(browser, page, site):
    open_page(page, f"{site}/scroll_answers.html?way=body-off&delay=200")
    page.mouse.move(300, 300)
    page.mouse.wheel(0, 900)
    obs = ok(browser, "observe")
    assert "disabled" not in obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "Item 55")})
    assert page.locator("#log").text_content() == "Item 55;"
