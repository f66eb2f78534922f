"""drag in real Chromium, with the browser's own pointer: a card of an HTML5 kanban board moved to
another column, a row of a pointer-driven sortable list moved above another — each checked in the
page's own state. And the worker is offered it, from its declaration alone, with the drop target
re-found by its signature too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from support.browser import ExtBrowser
from support.dom_rig import browser, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

from heybro.agent.toolbox import ROLE_TOOLS


def column_of(page: Any, card: str) -> str:
    return str(page.evaluate("(id) => document.getElementById(id).parentElement.id", card))


def rows(page: Any) -> list[str]:
    return list(page.evaluate("() => [...document.querySelectorAll('#list li')].map((li) => li.textContent)"))


@pytest.mark.browser
def test_a_card_is_dragged_to_another_column_of_a_kanban_board(browser: ExtBrowser, page: Any,
                                                               site: str) -> None:
    open_page(page, site + "/drag_boards.html")
    obs = ok(browser, "observe")
    r = ok(browser, "drag", {"element_id": find_id(obs, "Write report"),
                             "to_element_id": find_id(obs, "Done")})
    assert r["ok"] and r["action"] == "drag" and r["input"] == "trusted"
    assert column_of(page, "c1") == "done" and column_of(page, "c2") == "todo"
    assert (page.text_content("#drops"), page.text_content("#trusted")) == ("1", "1")
    # A point of the column: the card goes where it was dropped.
    obs = ok(browser, "observe")
    ok(browser, "drag", {"element_id": find_id(obs, "Call Ann"), "to_element_id": find_id(obs, "Doing"),
                         "x": 0.5, "y": 0.8})
    assert column_of(page, "c2") == "doing"


@pytest.mark.browser
def test_a_row_of_a_pointer_driven_sortable_list_is_moved_above_another(
        browser: ExtBrowser, page: Any, site: str) -> None:
    open_page(page, site + "/drag_boards.html")
    obs = ok(browser, "observe")
    r = ok(browser, "drag", {"element_id": find_id(obs, "Delta"), "to_element_id": find_id(obs, "Bravo"),
                             "x": 0.5, "y": 0.2})
    assert r["input"] == "trusted" and r["mutations"]["summary"] != "no change"
    assert rows(page) == ["Alpha", "Delta", "Bravo", "Charlie"]


@pytest.mark.browser
def test_a_wire_is_drawn_between_the_nodes_of_an_svg_drawing(browser: ExtBrowser, page: Any, site: str) -> None:
    """A drawing's parts a person operates (a group whose shape has a move cursor, with its own
    label) are controls of the map, named by their words; their shapes and ports are not. A drag
    taken at the node's right edge (its output port) onto the other's left edge joins them."""
    open_page(page, site + "/drag_flow.html")
    obs = ok(browser, "observe")
    text = obs["text"]
    assert re.search(r"^\[e\d+\] clickable Read sensor$", text, re.M), text
    assert re.search(r"^\[e\d+\] clickable Log reading$", text, re.M), text
    assert "crosshair" not in text and text.count("clickable") <= 3, text  # (the workspace, and the two nodes)
    r = ok(browser, "drag", {"element_id": find_id(obs, "Read sensor"), "from_x": 0.98,
                             "to_element_id": find_id(obs, "Log reading"), "x": 0.02, "y": 0.5})
    assert r["input"] == "trusted"
    assert (page.text_content("#wires"), page.text_content("#moved")) == ("n1>n2 ", "0")


@pytest.mark.browser
def test_without_the_browser_s_own_input_the_script_s_drag_events_move_the_card(
        browser: ExtBrowser, page: Any, site: str) -> None:
    open_page(page, site + "/drag_boards.html")
    obs = ok(browser, "observe")
    r = browser.sw.evaluate("""async (args) => {
        const [tab] = await chrome.tabs.query({active: true});
        await chrome.storage.local.set({heybro_trusted_input: "off"});
        try { return await globalThis.heybro.runTool({tool: "drag", args, tab_id: tab.id, timeout_ms: 15000}); }
        finally { await chrome.storage.local.remove("heybro_trusted_input"); }
    }""", {"element_id": find_id(obs, "Write report"), "to_element_id": find_id(obs, "Doing")})
    assert r["ok"] and r["result"].get("input") is None, r
    assert column_of(page, "c1") == "doing" and page.text_content("#trusted") == "0"


def test_the_worker_is_offered_drag_and_the_drop_target_goes_with_its_signature() -> None:
    tool = {t.name: t for t in ROLE_TOOLS["worker"]}["drag"]
    assert tool.kind == "browser" and tool.effects.held_on_repeat
    assert set(tool.args.model_fields) - {"to_signature"} == {"element_id", "to_element_id", "x",
                                                              "y", "from_x", "expect"}
    assert "to_signature" not in tool.schema()["properties"]
    assert tool.wire is not None

    class Ctx:
        def signature(self, element_id: str | None) -> dict[str, Any] | None:
            return {"name": f"sig of {element_id}"} if element_id else None

        def resource_path(self, name: str) -> str:
            raise KeyError(name)

    a = tool.args.model_validate({"element_id": "e1", "to_element_id": "e2"})
    w = tool.wire.args(a, Ctx())  # type: ignore[arg-type]
    assert w.signature == {"name": "sig of e1"} and w.to_signature == {"name": "sig of e2"}  # type: ignore[attr-defined]
