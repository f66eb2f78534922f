"""right_click in real Chromium: the page's own context menu opens on the element (by script events
where the page takes them, by the browser's own right button where its handler checks
`isTrusted`) and shows in the next map; the browser's menu never opens. And the worker is offered
it, from its declaration alone."""

from __future__ import annotations

from typing import Any

import pytest

from support.browser import ExtBrowser
from support.dom_rig import browser, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

from heybro.agent.toolbox import ROLE_TOOLS
from heybro.tool_def.playwright_forms import Exported


def names(obs: dict[str, Any]) -> list[str]:
    return [s["name"] for s in obs["elements"].values()]


@pytest.mark.browser
def test_a_right_click_opens_the_page_s_own_menu_and_the_next_map_shows_it(
        browser: ExtBrowser, page: Any, site: str) -> None:
    open_page(page, site + "/context_menu.html")
    obs = ok(browser, "observe")
    assert "Rename report.csv" not in names(obs)
    r = ok(browser, "right_click", {"element_id": find_id(obs, "report.csv")})
    assert r["ok"] and r["action"] == "right_click" and r.get("input") is None
    assert r["mutations"]["added"] >= 1
    assert (page.text_content("#opened"), page.text_content("#how")) == ("1", "script 2")
    after = ok(browser, "observe")
    assert {"Rename report.csv", "Delete report.csv"} <= set(names(after))


@pytest.mark.browser
def test_a_menu_that_answers_only_a_person_gets_the_browser_s_own_right_button(
        browser: ExtBrowser, page: Any, site: str) -> None:
    open_page(page, site + "/context_menu.html")
    obs = ok(browser, "observe")
    r = ok(browser, "right_click", {"element_id": find_id(obs, "notes.txt")})
    assert r["input"] == "trusted"
    assert (page.text_content("#opened"), page.text_content("#how")) == ("1", "trusted 2")
    # The page's menu only: the browser's own was prevented (the event's default, as it landed).
    assert page.evaluate("() => document.querySelectorAll('#menu').length") == 1
    assert "Delete notes.txt" in names(ok(browser, "observe"))


def test_the_worker_is_offered_right_click_at_a_point_and_a_playwright_form() -> None:
    tool = {t.name: t for t in ROLE_TOOLS["worker"]}["right_click"]
    assert tool.kind == "browser" and tool.effects.held_on_repeat
    assert set(tool.args.model_fields) == {"element_id", "x", "y", "expect"}
    with pytest.raises(ValueError):
        tool.args.model_validate({"element_id": "e1", "x": 0.5})
    with pytest.raises(ValueError):
        tool.args.model_validate({"element_id": "e1", "x": 1.5, "y": 0.5})
    assert tool.playwright is not None
    step = Exported({"element_id": "e3"}, "page.get_by_text('report.csv')", repr)
    assert tool.playwright(step) == ["page.get_by_text('report.csv').click(button='right')"]
