"""Tables as a person reads them, in the real extension: a data grid's row is one line with each
cell's header (the headers are never lost, whatever heads the first column), a field in a form laid
out as a table is named by its row and column, a name never comes from an option's tooltip or a
page's inline script, and a row's actions shown only on hover are listed and used."""

from __future__ import annotations

import re

import pytest

from support.dom_rig import browser, fenced, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def _line(text: str, *words: str) -> str:
    return next(ln for ln in text.splitlines() if all(w in ln for w in words))


def test_a_grid_row_reads_with_its_headers_and_its_actions_shown_on_hover(browser, page, site):
    open_page(page, site + "/tables.html")
    obs = ok(browser, "observe")
    text = fenced(obs["text"])
    row = _line(text, "Red Mug")
    # Each value with its column's header; the row's box named by its own label, not by "Select all".
    assert "id 1 · name Red Mug · price 8.50 · stock 40" in row, row
    assert re.search(r"\[e\d+ checkbox Select row\] · id 1", row), row
    # The actions, hidden until the pointer is over the row, are listed as a person finds them.
    assert re.search(r"\[e\d+ link Edit \(on hover\)\] \| \[e\d+ link Delete \(on hover\)\]", row), row
    # The foot's repeated headers read as headers, not as a row of values.
    assert "id · name · price · stock" in text and "id id" not in text, text
    # Clicked from the map: the pointer goes over the row first.
    delete = re.search(r"\[(e\d+) link Delete", _line(text, "Blue Kettle")).group(1)
    ok(browser, "click", {"element_id": delete})
    assert page.text_content("#log") == "delete 2;"
    # The element's signature carries its row, which the host names it by ("Delete — Blue Kettle").
    assert obs["elements"][delete]["row"] == "Blue Kettle"


def test_fields_of_a_form_laid_out_as_a_table_are_named_by_row_and_column(browser, page, site):
    open_page(page, site + "/tables.html")
    text = fenced(ok(browser, "observe")["text"])
    name = _line(text, "Column name")
    # In its row's line the field's row and column are right there.
    assert re.search(r"Column name · Type varchar\(100\) · Function \[e\d+ combobox =\"\" options: md5\|upper\] · Value \[e\d+ textbox\]", name), name
    assert "The PHP function" not in text and "Rounds the number" not in text, text


def test_an_inline_script_is_never_part_of_a_name(browser, page, site):
    open_page(page, site + "/tables.html")
    obs = ok(browser, "observe")
    text = fenced(obs["text"])
    assert "currentScript" not in text and "ownerField" not in text, text
    assert re.search(r"combobox Type =\"Plain\"", text), text
    names = {s["name"] for s in obs["elements"].values()}
    assert "Type" in names, names


def test_group_headings_a_hidden_header_and_a_form_table_without_headers(browser, page, site):
    open_page(page, site + "/tables.html")
    text = fenced(ok(browser, "observe")["text"])
    # A heading spanning the table names a group of rows, not an ID; nor does the foot line.
    assert "ID critical" not in text and "ID 1..2 out of 2" not in text, text
    assert re.search(r"^critical$", text, re.M) and "ID 7 · Title [e" in text, text
    # A caption spanning the table is no column's header: the row of headers under it is.
    assert "date 2026-10-17 · user cleo · action set · args status: open" in text, text
    assert "History 2026" not in text, text
    # A hidden header names no column of the rows it does not fit.
    flag = _line(text, "Team lunch")
    assert "Subject" not in flag and "Select" not in flag, flag
    # Fields of a form table without headers: named by their row, never by a list's options.
    assert "md5sha1" not in text and "+-" not in text, text
    # Its rows read across, each field after its row's label.
    assert re.search(r"^name \[e\d+ combobox =\"\" options: md5\|sha1\|uuid\] \[e\d+ textbox =\"Green Teapot\"\]$", text, re.M), text
    assert re.search(r"^price \[e\d+ combobox [^\]]*\] \[e\d+ textbox =\"31.25\"\]$", text, re.M), text
    # A form table of label and field pairs has no header row: the last row is no column of "Owner".
    comment = _line(text, "Comment")
    assert "Owner" not in comment and "Tags" not in comment, comment
    assert re.search(r"^Owner \[e\d+ textbox\] · Tags \[e\d+ textbox\]$", text, re.M), text
    assert re.search(r"^Severity \[e\d+ combobox [^\]]*\] · Component \[e\d+ combobox [^\]]*\]$", text, re.M), text


def test_a_design_system_tick_box_in_a_grid_row_is_the_rows_checkbox(browser, page, site):
    # Its input is see-through over the box drawn for it, inside a label with no words.
    open_page(page, site + "/design_grid.html")
    obs = ok(browser, "observe")
    text = fenced(obs["text"])
    row = _line(text, "garden-survey")
    box = re.match(r"\[(e\d+) checkbox\] · Name \[e\d+ link garden-survey\] · Created", row)
    assert box, row  # a checkbox, first in its row, not a "label" named after its class names
    assert "acme" not in text and "label" not in text, text
    assert obs["elements"][box.group(1)]["row"] == "garden-survey"
    ok(browser, "click", {"element_id": box.group(1)})
    assert page.text_content("#log") == "selected 7"
    text = fenced(ok(browser, "observe")["text"])
    assert re.match(r"\[e\d+ checkbox checked( focused)?\] · Name \[e\d+ link garden-survey\]", _line(text, "garden-survey")), text
    assert re.search(r"\] button Delete\n", text), text  # enabled now


def test_a_rows_hover_actions_behind_a_modal_are_left_out_with_the_rest(browser, page, site):
    open_page(page, site + "/tables.html")
    page.evaluate("""() => {
        const back = document.createElement('div');
        back.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.4);z-index:10';
        const dlg = document.createElement('div');
        dlg.setAttribute('role', 'dialog');
        dlg.style.cssText = 'position:fixed;top:30%;left:30%;padding:20px;background:#fff;z-index:11';
        dlg.innerHTML = '<h2>Delete 1 product</h2><button>Delete</button>';
        document.body.append(back, dlg);
    }""")
    text = fenced(ok(browser, "observe")["text"])
    # A pointer cannot get to the row through the backdrop: its hover actions are as out of reach.
    assert "(on hover)" not in text and "Under a cover" in text, text
    assert re.search(r"\[e\d+\] button Delete", text), text


def test_an_aria_data_grid_reads_as_rows_with_headers_not_as_cells_to_click(browser, page, site):
    # As grid libraries draw one: every cell focusable for the grid's arrow keys, sort buttons as headers.
    open_page(page, site + "/data_grid.html")
    obs = ok(browser, "observe")
    text = fenced(obs["text"])
    assert "gridcell" not in text, text  # a cell of data is no control
    row = _line(text, "gentle-owl-12")
    assert re.search(r"\[e\d+ checkbox Select row\] · Run Name \[(e\d+) link gentle-owl-12\] · Created 1 month ago · accuracy 0\.854", row), row
    link = re.search(r"\[(e\d+) link gentle-owl-12\]", row).group(1)
    ok(browser, "click", {"element_id": link})  # the run's link, no longer inside a "gridcell" control
    assert page.url.endswith("#/runs/1")



def test_a_grid_drawn_in_two_parts_reads_each_row_whole_with_its_headers(browser, page, site):
    # A grid library's pinned columns: each row drawn in two parts, headers in two rows, each header's
    # words in a columnheader of their own inside the header cell.
    open_page(page, site + "/split_grid.html")
    obs = ok(browser, "observe")
    text = fenced(obs["text"])
    row = _line(text, "A-1002")
    assert re.search(r"\[e\d+ checkbox Select row\] · Order \[e\d+ link A-1002\] · Customer Eli Moss · Carrier Swiftline · Days 5$", row), row
    assert "Order · Order" not in text and "Customer · Customer" not in text, text
    # Each row once, its parts (the hidden pinned-right one too) read with its first.
    assert [ln.count("A-100") for ln in text.splitlines() if "A-100" in ln] == [1, 1, 1], text
    assert text.count("Customer") == 4 and text.count("Delivery") == 1, text
    # A table that takes the focus to be scrolled is read as a table, not offered as rows to click.
    assert "Setting retention_days · Value 30" in text, text
    assert not re.search(r"\[e\d+\] (row|table) ", text), text


def test_a_grid_whose_header_row_is_a_table_of_its_own_reads_rows_with_their_headers(browser, page, site):
    # A data frame's header drawn in a <table role="none"> inside the grid, its body rows of cells
    # one can choose: each row reads across with its column headers, each cell chosen from there.
    open_page(page, site + "/header_table_grid.html")
    text = fenced(ok(browser, "observe")["text"])
    row = _line(text, "Blue Kettle")
    assert re.search(r"Name \[(e\d+) gridcell Blue Kettle[^\]]*\] · Category \[e\d+ gridcell Kitchen[^\]]*\] · Price \[e\d+ gridcell 24", row), row
    ok(browser, "click", {"element_id": re.search(r"\[(e\d+) gridcell Blue Kettle", row).group(1)})
    assert page.text_content("#log") == "chose Blue Kettle"
