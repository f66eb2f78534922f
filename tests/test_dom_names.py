"""Controls named as a person reads them, in the real extension in real Chromium: the accessible-name
rules first (a title on an icon button included), then the words a person reads for an unnamed
control (its row's label cell, the row heading it, its fieldset's legend, the label beside a tick
box), never an icon font's ligature word or a class; and no name said twice."""

from __future__ import annotations

import re

import pytest

from support.dom_rig import browser, fenced, ok, open_page, page, sites  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


@pytest.fixture
def text(browser, page, sites) -> str:
    open_page(page, sites[0] + "/names_read.html")
    return fenced(ok(browser, "observe")["text"])


def _line(text: str, pattern: str) -> None:
    assert re.search(r"^\[e\d+\] " + pattern + "$", text, re.M), (pattern, text)


def test_an_icon_button_with_a_decorative_image_is_named_by_its_title(text):
    _line(text, re.escape("button Bold Text [B]"))
    _line(text, re.escape("button Italic Text [I]"))
    assert "toolbutton" not in text


def test_a_field_in_a_form_laid_out_as_a_table_is_named_by_its_label_cell_or_the_row_heading_it(text):
    # The row's label cell (a th), not the widget's class ("dijit").
    _line(text, r'spinbutton Keep at most ="100"')
    # A form row is read across: its label cell beside the field.
    assert re.search(r"Purge articles older than · .*\[e\d+ spinbutton =\"60\"\] days", text), text
    # A row of one cell heading the row of the value box below it.
    _line(text, r'textbox Telephone ="\+1 555 0100"')
    _line(text, r'textbox User Name ="jdoe"')
    assert "dijit" not in text and '~"value"' not in text


def test_a_text_area_alone_in_a_fieldset_is_named_by_its_legend(text):
    _line(text, "textbox Notes")


def test_icon_font_ligatures_are_not_words(text):
    for word in ("rss_feed", "filter_list", "delete_forever", "link home"):
        assert word not in text, (word, text)
    _line(text, "tab 1 Filters")
    _line(text, "link Home")
    # Nothing else says what the icon is: its glyph's name, as a guess.
    _line(text, 'clickable ~"rss feed"')
    _line(text, 'button ~"delete forever"')


def test_a_button_inside_a_label_is_named_by_it(text):
    _line(text, "switch Email( (checked|on))?")


def test_a_date_beside_a_tick_box_is_no_name_for_it(text):
    assert not re.search(r"checkbox ~?\"?2024-03-01", text), text


def test_no_name_is_said_twice(text):
    _line(text, 'combobox Number of rows: ="25" options: 25\\|50')
    assert "Number of rows: Number of rows:" not in text
    assert "Show all Show all" not in text and "None None" not in text
    assert len(re.findall(r"^\[e\d+\] checkbox Show all$", text, re.M)) == 2
    # A tick box is named by the label after it, never by the words before it (another control's).
    assert len(re.findall(r"^\[e\d+\] radio None$", text, re.M)) == 2, text
    _line(text, "checkbox Remember me")


def test_look_alike_icon_tabs_are_told_apart_by_what_each_leads_to_not_by_the_class_they_share(text):
    # Each tab carries the bar's class (`ed-ui-tab-link-button`): that says what kind, not which.
    for which in ("properties", "description", "appearance"):
        _line(text, f'link ~"{which}"')
    assert '~"tab' not in text and "ed tab" not in text, text


def test_a_code_editor_is_not_named_by_the_classes_that_highlight_its_value(text):
    _line(text, r'textbox ="print\(rows\)"')
    assert "builtin" not in text and '~"line' not in text, text


def test_a_file_field_without_a_label_reads_as_its_button(text):
    # As Chrome names it, and as a person reads it: not a guess from its class ("attach").
    _line(text, "file Choose File")
    assert "attach" not in text, text


def test_a_tree_item_is_named_by_its_own_words_not_those_of_the_items_nested_in_it(text):
    # Its children sit in a list of no role of their own: they are other items, as Chrome reads them.
    _line(text, "treeitem Q3 sales analysis expanded")
    _line(text, "treeitem Load the data")


def test_an_icon_button_is_named_by_its_title_not_by_labels_inside_its_hidden_icon(text):
    _line(text, "button Match Whole Word")


def test_a_fields_title_names_it_before_its_placeholder(text):
    # As the HTML accessibility mapping orders them (and Chrome reads them); the placeholder is said too.
    _line(text, re.escape('textbox Moment of console (UTC) placeholder="Moment"'))


def test_words_a_style_sheet_draws_in_a_control_name_it_and_an_icon_glyph_does_not(text):
    # A date picker's arrow says "Increment Hours" in its ::after, for those who cannot see it.
    _line(text, re.escape("link Increment Hours"))
    # A minus drawn in ::before is a sign beside the title; an icon font's glyph is nothing.
    _line(text, re.escape("button − Shrink the time range."))
    _line(text, re.escape("button Grow the time range."))


def test_a_label_that_is_an_icon_names_its_field_by_its_picture_and_a_comment_names_nothing(text):
    # As the accessible-name rules read a label's content: an image's alt, a word-less part's title.
    _line(text, re.escape("textbox Search products"))
    _line(text, re.escape('textbox Type into this box to filter down the list of available suppliers. placeholder="Filter"'))
    # A comment in the markup before a field is not what a person reads.
    assert "DIV needed" not in text and "owner's note" not in text, text


def test_a_design_systems_namespace_and_icon_marker_name_no_control(text):
    # `dk-kit-…` is on every class the design system draws; `anticon` on every icon: the guess is
    # what the icon's own class says, or nothing.
    assert re.search(r'\[e\d+ button ~"fullscreen"\]', text), text
    assert "~\"kit" not in text and "anticon" not in text and "dk kit" not in text, text
