"""What nobody sees is not on the page map: a panel fixed outside the window (a console slid below
its edge), a drawer placed off the page or slid out of the rail that clips it, a panel folded to no
height or not displayed — with their controls and words; brought into view, they are listed. A
cover fading in, or a panel sliding over the page, is judged where it stops."""

from __future__ import annotations

import pytest

from support.dom_rig import browser, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def test_collapsed_and_off_screen_panels_are_left_out_until_shown(browser, page, site):
    open_page(page, site + "/panels.html")
    obs = ok(browser, "observe")
    text = obs["text"]
    assert "Run query" in text and "1 row inserted" in text
    assert "Rail words" in text
    for unseen in ("Query failed", "Clear console", "Drawer", "Folded", "Gone action", "Slid"):
        assert unseen not in text, unseen
    ok(browser, "click", {"element_id": find_id(obs, "Show console")})
    text = ok(browser, "observe")["text"]
    assert "Query failed: syntax error" in text and "button Clear console" in text


def test_a_cover_is_judged_after_its_transition(browser, page, site):
    open_page(page, site + "/panels.html")
    obs = ok(browser, "observe")
    ok(browser, "click", {"element_id": find_id(obs, "Dim")})
    text = ok(browser, "observe")["text"]
    assert "Under a cover (div#shade)" in text and "button Run query" not in text


def test_a_panel_sliding_over_the_page_is_judged_where_it_stops(browser, page, site):
    open_page(page, site + "/panels.html")
    obs = ok(browser, "observe")
    assert "button Export" in obs["text"] and "Close menu" not in obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "Open menu")})
    text = ok(browser, "observe")["text"]
    assert "button Close menu" in text and "Export" not in text and "Under a cover (div#menu " in text


def test_what_a_tray_shades_is_left_out_in_view_and_scrolled_out_of_its_box(browser, page, site):
    # A flow editor's tray opens over its canvas and palette with a shade drawn by the page itself:
    # the palette's nodes scrolled past the list's edge, and the canvas's far node, come into view
    # under that shade — nobody can reach them until the tray is closed.
    open_page(page, site + "/editor_tray.html")
    obs = ok(browser, "observe")
    text = obs["text"]
    assert "palette node 1" in text and "palette node 40" in text and "Far node" in text
    assert "Row action (on hover)" in text and "Add a node (on hover)" in text and "Remove node 40 (on hover)" in text
    ok(browser, "click", {"element_id": find_id(obs, "Edit near node")})
    text = ok(browser, "observe")["text"]
    assert "button Done" in text
    # Nor what a pointer there would show: the row's action, the button drawn while pointed at.
    for unseen in ("palette node 1\n", "palette node 40", "Far node", "Edit near node", "Row action", "Add a node",
                   "Remove node 40"):
        assert unseen not in text, unseen
    ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "Done")})
    text = ok(browser, "observe")["text"]
    assert "palette node 40" in text and "Far node" in text


def test_a_palettes_rows_scrolled_past_its_list_are_out_of_view_not_under_a_cover(browser, page, site):
    # A palette laid over a launcher: the rows past its list's bottom edge lie, clipped, over the
    # cards behind it — scrolling the list brings them out; nothing covers them.
    open_page(page, site + "/palette.html")
    obs = ok(browser, "observe")
    text = obs["text"]
    assert all(f"menuitem Command {i}\n" in text for i in range(1, 41)), text
    # (What the palette does lie over is under it: the card wholly behind it.)
    assert "Terminal card" not in text and "Under a cover (div#palette" in text, text
    ok(browser, "click", {"element_id": find_id(obs, "Command 40")})
    assert page.inner_text("#log") == "ran 40"


def test_the_end_of_a_long_dialog_fixed_over_the_window_is_listed_it_scrolls_into_view(browser, page, site):
    # The dialog is fixed to the window, its content scrolls inside it: its last controls lie below
    # the window's edge now, and scrolling the dialog brings them — unlike a console slid outside.
    open_page(page, site + "/long_dialog.html")
    ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "About")})
    obs = ok(browser, "observe")
    assert "button Close" in obs["text"] and "link Read the licence" in obs["text"], obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "Close")})
    assert "button Close" not in ok(browser, "observe")["text"]


def test_a_rows_hover_action_under_an_open_menu_is_left_out_though_its_row_peeks_out(browser, page, site):
    open_page(page, site + "/long_dialog.html")
    text = ok(browser, "observe")["text"]
    # (The third's icon is drawn on hover inside a button that is there all along.)
    assert "Remove first (on hover)" in text and "Remove second (on hover)" in text and "Remove third (on hover)" in text, text
    ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "Open menu")})
    text = ok(browser, "observe")["text"]
    assert "menuitem Rename" in text and all(f"Remove {n}" not in text for n in ("first", "second", "third")), text


def test_a_scrolling_panels_side_under_an_open_menu_is_covered_in_view_and_past_its_edge(browser, page, site):
    # A notebook's cells scroll in a panel; a menu opened over the prompts' side of it covers the
    # prompts in view, and those below the panel's edge come into view there, under it still. The
    # run buttons beside the menu are reachable, in view or scrolled to.
    open_page(page, site + "/menu_over_scrolled.html")
    obs = ok(browser, "observe")
    assert "[30]:" in obs["text"] and "button Run 30" in obs["text"], obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "Edit")})
    text = ok(browser, "observe")["text"]
    assert "menuitem Undo" in text and "button Run 1\n" in text and "button Run 30" in text, text
    assert all(f"[{i}]:" not in text for i in (1, 12, 30)), text
    assert "Under a cover (div#menu" in text, text


@pytest.mark.parametrize("bar", ["fixed", "sticky"])
@pytest.mark.parametrize("menu", ["absolute", "fixed"])
def test_a_menu_hanging_from_a_bar_that_stays_put_covers_what_is_under_it(browser, page, site, bar, menu):
    # A bar fixed or stuck to the window covers nothing the page scrolls out from under it; the menu
    # opened from its button hangs outside the bar's box over the page, and covers as any menu does.
    open_page(page, f"{site}/hanging_menus.html?bar={bar}&menu={menu}")
    text = ok(browser, "observe")["text"]
    assert "link Delete page" in text and "button Button beside the menu" in text, text
    assert "Promote tab" not in text and "Button under the menu" not in text, text
    assert "Under a cover" in text


@pytest.mark.parametrize("scroll", [False, True])
def test_a_popover_fixed_over_a_shell_that_does_not_scroll_covers_what_is_under_it(browser, page, site, scroll):
    # A layer that stays put covers nothing the page can scroll out from under it; in a shell that
    # fills the window and does not scroll, nothing can be: the column's head under the popover is
    # left out, the one beside it is listed.
    open_page(page, f"{site}/popover_over_shell.html?scroll={int(scroll)}")
    text = ok(browser, "observe")["text"]
    assert "button Duration" in text and "checkbox Dataset" in text, text
    if scroll:
        assert "button Created" in text, text
    else:
        assert "button Created" not in text and "Under a cover" in text, text


@pytest.mark.parametrize("shade", ["fixed", "absolute", "panel"])
def test_a_rows_hover_action_of_no_box_under_a_dialogs_shade_is_left_out(browser, page, site, shade):
    # A modal dialog's shade over all of a page that does not scroll (fixed, or placed over the
    # page's whole box), or over its side panel alone: a row's copy button, laid out only on hover,
    # is under it where the pointer goes for it — its row (its toolbar has no size until then).
    open_page(page, f"{site}/shade_over_hover_row.html?shade={shade}")
    text = ok(browser, "observe")["text"]
    assert "button Import" in text and "Copy value" not in text, text
    if shade == "panel":
        assert "button Deploy" in text, text
    else:
        assert "Under a cover" in text and "Deploy" not in text, text


@pytest.mark.parametrize("shell", [False, True])
@pytest.mark.parametrize("menu", [True, False])
def test_a_rows_hover_button_of_no_box_is_left_out_while_a_menu_lies_over_part_of_the_row(browser, page, site, menu, shell):
    # A button laid out only while its row is pointed at has no place until then: under a menu
    # that covers part of its row, that part may be where it shows (a gutter at the row's left), so
    # it is left out — though the row's right end peeks out beside the menu. Rows the menu does not
    # reach, or all rows once it is closed, keep theirs (shown on hover). The same when the menu is a
    # part of the application's own placed box rather than a layer over it.
    open_page(page, f"{site}/menu_over_hover_rows.html?menu={int(menu)}&shell={int(shell)}")
    text = ok(browser, "observe")["text"]
    if menu:
        assert "menuitem Full deploy" in text and "Orders" in text, text
        assert "Reveal Orders" not in text and "Reveal Sensors" not in text, text
    else:
        assert all(f"Reveal {n} (on hover)" in text for n in ("Orders", "Sensors", "Reports")), text


@pytest.mark.parametrize("cut", ["none", "x", "html"])
def test_a_control_scrolled_under_a_fixed_bar_is_listed_though_the_page_cuts_off_its_sides(browser, page, site, cut):
    # A bar fixed to the window covers nothing the page scrolls out from under it. A page that cuts
    # off what overflows sideways (overflow-x: hidden on its body or root) still scrolls up and
    # down: the button under the bar is one scroll away, listed as such.
    open_page(page, f"{site}/bar_over_scrolled_page.html?cut={cut}")
    assert page.evaluate("window.scrollY") > 0
    text = ok(browser, "observe")["text"]
    assert "button Publish draft" in text and "Under a cover" not in text, text


def test_a_control_past_the_windows_edge_cut_off_by_a_box_that_hides_its_overflow_is_left_out(browser, page, site):
    # Past the window's side hit testing cannot ask; the layout says the box around them cuts them
    # off, and no scroll of the window or of a box a person scrolls shows them — unless the box is
    # moved with one beside it that a person scrolls (a grid's header row with its rows). Below the
    # window, the panel's cut-off link is judged once the window scrolls to it.
    open_page(page, f"{site}/cut_off_past_window.html")
    text = ok(browser, "observe")["text"]
    for shown in ("tab Overview", "button More tabs", "button Digest"):
        assert shown in text, (shown, text)
    for cut in ("Checksums", "Signatures"):
        assert cut not in text, (cut, text)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    below = ok(browser, "observe")["text"]
    assert "link Older releases" in below and "Archived builds" not in below, below
    # A scroll of the rows brings the last head out, where a pointer reaches it.
    page.evaluate("window.scrollTo(0, 0); document.querySelector('.rows').scrollLeft = 400")
    page.wait_for_timeout(100)
    at = page.evaluate("(() => { const b = [...document.querySelectorAll('.head button')].pop().getBoundingClientRect(); return document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2).textContent; })()")
    assert at == "Digest"


def test_a_lists_last_items_past_a_shell_that_cuts_off_the_window_are_listed(browser, page, site):
    # The shell cuts off everything past the window's side; the list inside it scrolls sideways: its
    # last items come into the shell, so they are one scroll away, not cut off.
    open_page(page, f"{site}/list_in_cut_shell.html")
    text = ok(browser, "observe")["text"]
    assert "link Message 1\n" in text + "\n" and "link Message 30" in text, text
