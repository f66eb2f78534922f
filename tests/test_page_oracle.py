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
