"""A routine's drag, its clicks at a point and its text selection exported as Playwright code that
does the same — run here in Chromium on the pages the tools were proved on: the card lands in the
column it was dropped on, the words selected are made bold by the editor's button."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from heybro.routines.export import script
from heybro.routines.model import Routine, Step

FIXTURES = Path(__file__).parent / "fixtures" / "dom"

CARD = {"tag": "div", "role": "button", "name": "Write report"}
DONE = {"tag": "section", "role": "listbox", "name": "Done", "attrs": {"aria-label": "Done"}}
NOTE = {"tag": "div", "role": "", "name": "Note text", "attrs": {"aria-label": "Note text", "id": "doc"}}
BOLD = {"tag": "button", "role": "button", "name": "Bold"}


def routines() -> tuple[Routine, Routine]:
    board = Routine(name="board", goal="Move the report card to Done", start_url="http://x.test/drag_boards.html",
                    steps=[Step(tool="drag", args={"to_element_id": "e9", "to_signature": DONE, "x": 0.5, "y": 0.8},
                                signature=CARD),
                           Step(tool="click", args={"x": 0.25, "y": 0.5, "modifiers": ["Shift"]}, signature=DONE),
                           Step(tool="double_click", args={"x": 0.1, "y": 0.9}, signature=DONE)])
    editor = Routine(name="editor", goal="Make brown fox bold", start_url="http://x.test/editor.html",
                     steps=[Step(tool="select_text", args={"text": "brown fox"}, signature=NOTE),
                            Step(tool="click", signature=BOLD)])
    return board, editor


def test_a_drag_and_clicks_at_a_point_are_exported_as_playwright_calls() -> None:
    board, editor = (script(r) for r in routines())
    ast.parse(board)
    ast.parse(editor)
    card, done = "page.get_by_role('button', name='Write report', exact=True)", "page.get_by_role('listbox', name='Done', exact=True)"
    assert (f"{card}.drag_to({done}, target_position={{'x': {done}.bounding_box()['width'] * 0.5, "
            f"'y': {done}.bounding_box()['height'] * 0.8}})") in board
    assert f"{done}.click(modifiers=['Shift'], position=" in board
    assert f"{done}.dblclick(position={{'x': {done}.bounding_box()['width'] * 0.1" in board
    assert "no Playwright equivalent" not in board + editor
    assert '.evaluate("(el, w) =>' in editor and ", 'brown fox')" in editor


@pytest.mark.browser
def test_the_exported_code_moves_the_card_and_makes_the_words_bold_in_chromium() -> None:
    from playwright.sync_api import sync_playwright

    from heybro.browser.chromium import find_chromium
    from support.static_server import serve

    board, editor = (script(r) for r in routines())
    with serve(FIXTURES) as site, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), headless=True)
        try:
            page = browser.new_page()
            for text, name, path in ((board, "board", "/drag_boards.html"),
                                     (editor, "editor", "/editor.html")):
                space: dict[str, Any] = {}
                exec(compile(text.split("def test_")[0], name, "exec"), space)  # noqa: S102 (the export)
                space[name](page, start_url=site + path)
                if path == "/drag_boards.html":
                    assert page.evaluate("() => document.getElementById('c1').parentElement.id") == "done"
                else:
                    assert page.inner_html("#doc") == "The quick <b>brown fox</b> jumps over the lazy dog."
        finally:
            browser.close()
