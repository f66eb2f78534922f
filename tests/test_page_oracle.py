"""The browser-as-judge oracle (tests/support/page_oracle.py) reads a table's column headers as a
person does, so the benchmark counts tables whose headers the map lost, and only those: a caption
row across the table heads no column; a grid's headers and cells are placed by their column
indexes, in whatever parts the grid draws them."""

from __future__ import annotations

import pytest

from support.dom_rig import browser, ok, open_page, page, site  # noqa: F401 (fixtures)
from support.page_oracle import _Session, _tables, judge

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("fixture, tables", [("caption_tables.html", 1), ("split_grid.html", 2), ("tables.html", None)])
def test_tables_read_with_their_headers_are_counted_and_none_lost(browser, page, site, fixture, tables):
    open_page(page, site + "/" + fixture)
    v = judge(browser, page)
    assert v.map_ok and not v.error, v.error
    assert v.tables_lost == [] and v.tables >= (tables or 1)
    if tables is not None:
        assert v.tables == tables  # the caption-only table ("Notes") has no column headers to lose


def test_a_map_without_the_headers_is_said_to_have_lost_them(browser, page, site):
    open_page(page, site + "/caption_tables.html")
    text = ok(browser, "observe")["text"]
    assert "when 2026-10-01 09:12 · who ann · what opened" in text, text
    # The same rows as bare values: the oracle names the table and the row.
    bare = text.replace("when ", "").replace("who ", "").replace("what ", "")
    s = _Session(browser, page)
    try:
        shown, lost = _tables(s, s.heybro_world(), bare)
    finally:
        s.close()
    assert shown == 1 and len(lost) == 1 and "2026-10-01 09:12" in lost[0], lost


@pytest.mark.parametrize("follow, reached", [("1", True), ("0", False)])
def test_a_header_row_the_grid_moves_with_its_rows_is_reached_by_scrolling_the_rows(browser, page, site, follow, reached):
    # The header row hides what overflows it: a person reaches its last headers by scrolling the
    # rows, which the grid's script follows — and not at all when no script follows.
    open_page(page, site + f"/header_follows_rows.html?follow={follow}")
    v = judge(browser, page)
    assert v.map_ok and not v.error, v.error
    far = [f for f in v.false_operable if "Precision" in f or "Accuracy" in f]
    if reached:
        assert far == [] and v.missed == [], (v.false_operable, v.missed)
    else:
        assert len(far) == 2, v.false_operable  # (listed: the map cannot hit-test past the window)


def test_a_slotted_control_faded_out_inside_its_component_is_no_control_a_person_sees(browser, page, site):
    # Drawn inside its slot's wrapper, whose opacity is nil (the composed tree, not the light one):
    # left out of the map, and not counted as missed.
    open_page(page, site + "/slotted_in_faded.html")
    v = judge(browser, page)
    assert v.map_ok and not v.error, v.error
    assert (v.controls, v.found, v.missed) == (1, 1, []), v.as_dict()
