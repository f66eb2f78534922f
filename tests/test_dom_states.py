"""States a person sees, on the page map: toggles pressed, current, checked or drawn on (a star
filled by its class), heading levels, list items, read-only fields, and tree items open or closed
with the links inside them listed as the links they are."""

from __future__ import annotations

import pytest

from support.dom_rig import browser, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def lines(text: str) -> list[str]:
    return [line.split("] ", 1)[-1] for line in text.splitlines()]


def test_the_map_shows_states_levels_items_and_tree_links(browser, page, site):
    open_page(page, site + "/states.html")
    text = ok(browser, "observe")["text"]
    seen = lines(text)
    assert ["# Mail", "## Inbox", "Welcome back.", "### Shopping", "- Milk", "- Bread and butter"] == seen[2:8]
    assert "Lunch on Friday [e1 clickable star on]" in seen and "Quarterly report [e2 clickable star]" in seen
    assert "button Bold pressed" in seen and "button Italic" in seen
    assert "link Home current" in seen and "link About" in seen
    assert "switch Wi-Fi checked" in seen
    assert 'textbox Email ="ann@example.com" read-only' in seen and 'textbox Phone ="555-0100"' in seen
    tree = seen[seen.index("treeitem News expanded"):]
    assert tree[:4] == ["treeitem News expanded", "link Planet Python", "link LWN", "treeitem Archive collapsed"]
    assert "Old feed" not in text  # inside the closed item


def test_a_control_that_opens_a_menu_says_so_and_a_hover_shows_it(browser, page, site):
    # A toolbar's submenu opened by script on pointer enter: nothing in the style sheets shows it,
    # but the link says it has one (as the accessibility tree does), so a hover is worth a try.
    open_page(page, site + "/states.html")
    obs = ok(browser, "observe")
    seen = lines(obs["text"])
    assert "link New opens menu" in seen and "button Share opens dialog" in seen, seen
    assert "link Post" not in seen
    ok(browser, "hover", {"element_id": find_id(obs, "New")})
    seen = lines(ok(browser, "observe")["text"])
    assert "link Post" in seen and "link Draft" in seen, seen


def test_a_toggle_reads_as_it_is_drawn_before_and_after_a_click(browser, page, site):
    open_page(page, site + "/states.html")
    obs = ok(browser, "observe")
    ok(browser, "click", {"element_id": "e2"})
    ok(browser, "click", {"element_id": "e1"})
    ok(browser, "click", {"element_id": find_id(obs, "Italic")})
    seen = lines(ok(browser, "observe")["text"])
    assert "Lunch on Friday [e1 clickable star]" in seen and "Quarterly report [e2 clickable star on]" in seen
    assert "button Italic pressed focused" in seen


def test_a_link_in_a_tree_item_is_what_a_click_follows(browser, page, site):
    open_page(page, site + "/states.html")
    obs = ok(browser, "observe")
    ok(browser, "click", {"element_id": find_id(obs, "Planet Python")})
    assert page.evaluate("location.hash") == "#planet"


def test_a_toolkit_tree_reads_as_its_items_and_a_click_lands_on_the_item_s_own_row(browser, page, site):
    open_page(page, site + "/states.html")
    obs = ok(browser, "observe")
    seen = lines(obs["text"])
    tree = seen[seen.index("treeitem -Special expanded"):]
    assert tree[:4] == ["treeitem -Special expanded", "treeitem All articles", "treeitem Starred articles",
                        "treeitem +Linux collapsed"]
    assert not [line for line in seen if "dijit" in line]  # the row's parts are the item, not controls of their own
    ok(browser, "click", {"element_id": find_id(obs, "-Special")})
    assert page.title() == "Special"  # its own row, not the first item of its group
    ok(browser, "click", {"element_id": find_id(obs, "Starred articles")})
    assert page.title() == "Starred articles"
