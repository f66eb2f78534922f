"""The page as a person sees it, and clicked as a person clicks it, in the real extension in real
Chromium: every control once under the name a person would give it (guessed names marked),
sentences whole with their links in place, and a click that reaches the handler a pointer would."""

from __future__ import annotations

import re

import pytest

from support.dom_rig import browser, error, fenced, ok, open_page, page, sites  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def _observe(browser, page, sites) -> tuple[dict, str]:
    open_page(page, sites[0] + "/fidelity.html")
    obs = ok(browser, "observe")
    return obs, fenced(obs["text"])


def _id(text: str, line_pattern: str) -> str:
    """The id of the one element whose line (or inline bracket) matches the pattern."""
    found = re.findall(r"\[(e\d+)\]? " + line_pattern, text)
    assert len(found) == 1, (line_pattern, found, text)
    return found[0]


def _log(page) -> str:
    return page.text_content("#log") or ""


def test_clickable_bars_are_split_into_their_labelled_parts(browser, page, sites):
    obs, text = _observe(browser, page, sites)
    # A cursor:pointer bar of spans with icons, a menu list: one line per part, none for the bar.
    for name in ("Reply", "Forward", "Edit", "Archive", "Delete"):
        assert re.search(rf"^\[e\d+\] clickable {name}$", text, re.M), (name, text)
    assert "Reply Forward" not in text and "Edit Archive" not in text
    ok(browser, "click", {"element_id": _id(text, "clickable Forward")})
    ok(browser, "click", {"element_id": _id(text, "clickable Archive")})
    assert _log(page) == "Forward;menu Archive;"


def test_a_menu_button_and_its_open_menu_are_listed_item_by_item(browser, page, sites):
    obs, text = _observe(browser, page, sites)
    # Closed: the button only (the wrapper around it and its hidden menu is the same control).
    opts = _id(text, 'clickable ~"opts"')
    assert "Mute" not in text
    ok(browser, "click", {"element_id": opts})
    opened = fenced(ok(browser, "observe")["text"])
    # Open: each item is a control of its own; nothing lists the wrapper with all of them in one.
    mute, block = _id(opened, "clickable Mute"), _id(opened, "clickable Block")
    assert "Mute Block" not in opened and f"[{opts}] clickable" in opened
    ok(browser, "click", {"element_id": block})
    assert _log(page) == "block;" and mute


def test_a_card_lists_its_title_link_and_button_not_itself(browser, page, sites):
    obs, text = _observe(browser, page, sites)
    assert re.search(r"^\[e\d+\] link Blue kettle$", text, re.M) and re.search(r"^\[e\d+\] button Add to cart$", text, re.M)
    assert "Blue kettle Only 3 left Add to cart" not in text
    ok(browser, "click", {"element_id": _id(text, "button Add to cart")})
    assert _log(page) == "cart;"


def test_icon_parts_of_a_clickable_row_are_listed_and_reach_the_row_handler(browser, page, sites):
    obs, text = _observe(browser, page, sites)
    # The row keeps its name; its trash icon (a rule of its own) and its star (pointer on hover)
    # are controls of their own, named from their class names and marked as guessed.
    row = _id(text, "clickable Tiffanie Lunch on Friday\\?")
    trash, star = _id(text, 'clickable ~"trash"'), _id(text, 'clickable ~"star"')
    ok(browser, "click", {"element_id": trash})
    ok(browser, "click", {"element_id": star})
    ok(browser, "click", {"element_id": row})
    assert _log(page) == "row trash;row star;row open;"


def test_icon_only_controls_are_named_from_title_or_their_looks_ligature_included(browser, page, sites):
    obs, text = _observe(browser, page, sites)
    assert re.search(r'\] button ~"close"$', text, re.M)            # class btn-close
    assert re.search(r'\] link ~"reply"$', text, re.M)              # image file reply.png
    assert re.search(r"\] button Settings$", text, re.M)            # SVG <title>: a real name, not guessed
    assert re.search(r'\] button ~"delete"$', text, re.M)            # icon-font ligature: a guess, no word
    assert re.search(r'\] button ~"download report"$', text, re.M)  # id
    assert re.search(r'\] button ~"share"$', text, re.M)            # data-action
    assert re.search(r'\] clickable ~"send"$', text, re.M)          # an image its style draws (send.png)
    assert re.search(r'\] clickable … ~"more', text, re.M)          # a name of signs only gets its guess too
    # Nothing a person can operate is listed without a name.
    assert not re.search(r"^\[e\d+\] (clickable|button|link)$", text, re.M), text
    ok(browser, "click", {"element_id": _id(text, 'button ~"close"')})
    ok(browser, "click", {"element_id": _id(text, 'link ~"reply"')})
    ok(browser, "click", {"element_id": _id(text, 'clickable ~"send"')})
    assert _log(page) == "close;reply;send;"


def test_a_control_and_its_presentational_part_are_one_entry_and_the_click_reaches_the_inner_handler(browser, page, sites):
    obs, text = _observe(browser, page, sites)
    assert "presentation" not in text and " none" not in text
    assert text.count("First tab") == 1 and text.count("Second tab") == 1 and text.count("OK") == 1
    assert re.search(r"^\[e\d+\] tab First tab selected$", text, re.M) and re.search(r"^\[e\d+\] button OK$", text, re.M)
    # The tab item has the role; the link inside it has the handler (jQuery UI): a pointer at the
    # item lands on the link, and the whole pointer sequence reaches it in a browser's order.
    ok(browser, "click", {"element_id": _id(text, "tab Second tab")})
    assert _log(page) == "tab Second tab;"
    assert page.evaluate("window.seen") == ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove",
                                            "pointerdown", "mousedown", "focus", "pointerup", "mouseup", "click"]
    again = fenced(ok(browser, "observe")["text"])
    assert re.search(r"^\[e\d+\] tab Second tab selected$", again, re.M)
    # A handler delegated to the document that reads the target sees the part the pointer hit.
    ok(browser, "click", {"element_id": _id(text, "clickable …")})
    assert _log(page).endswith("more;")


def test_sentences_stay_whole_with_their_links_in_place(browser, page, sites):
    obs, text = _observe(browser, page, sites)
    assert 'Enter the username "keli" and the password "3hI" into the fields.' in text
    assert "Price: $39 per month, billed yearly." in text
    terms, privacy = _id(text, "link terms"), _id(text, "clickable privacy policy")
    assert f"Read the [{terms} link terms] and the [{privacy} clickable privacy policy] before you sign up." in text
    assert "Click the 5th result." in text and "hidden words" not in text
    # A word that stands alone on a line is not repeated after its sentence.
    assert not re.search(r"^(username|password|\$39|5th|terms)$", text, re.M), text
    # The inline controls are in the element map like any other, and clicks reach them.
    assert {terms, privacy} <= obs["elements"].keys()
    ok(browser, "click", {"element_id": terms})
    ok(browser, "click", {"element_id": privacy})
    assert _log(page) == "terms;privacy;"
    # A field without a label reads after the words before it; its map entry is that field.
    field = _id(text, "textbox")
    assert f"Username [{field} textbox]" in text and obs["elements"][field]["tag"] == "input"


def test_controls_under_a_cover_leave_the_map_and_a_click_says_what_covers_them(browser, page, sites):
    open_page(page, sites[0] + "/fidelity.html")
    text = fenced(ok(browser, "observe")["text"])
    forward = _id(text, "clickable Forward")
    # A full-page veil with a dialog-like box on it (a library's modal: no <dialog>, no inert).
    page.evaluate("""() => { const c = document.createElement('div'); c.id = 'veil';
        c.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.4)';
        c.innerHTML = '<div style="margin:40px;background:#fff"><p>Session expired.</p><button onclick="this.parentNode.parentNode.remove()">Sign in again</button></div>';
        document.body.append(c); }""")
    obs = ok(browser, "observe")
    covered = fenced(obs["text"])
    assert re.search(r'^Under a cover \(div#veil "Session expired\. Sign in again"\): \d+ controls left out$', covered, re.M), covered
    assert "Forward" not in covered and forward not in obs["elements"]
    assert "Session expired." in covered and re.search(r"^\*?\[e\d+\] button Sign in again$", covered, re.M)
    # Words of a sentence stay readable; its link under the cover is words, not a control.
    assert "Read the terms and the privacy policy before you sign up." in covered
    err = error(browser, "click", {"element_id": forward})
    assert err["code"] == "covered" and err["detail"]["covering"]["html_id"] == "veil"
    assert _log(page) == ""
    # Out from under the cover, the controls are back, marked new (the model has not seen them).
    ok(browser, "click", {"element_id": _id(covered, "button Sign in again")})
    back = fenced(ok(browser, "observe")["text"])
    assert f"*[{forward}] clickable Forward" in back and "Under a cover" not in back


def test_words_hidden_from_everyone_are_not_in_a_controls_name(browser, page, sites):
    open_page(page, sites[0] + "/fidelity_hidden.html")
    text = fenced(ok(browser, "observe")["text"])
    # A badge hidden when zero, a no-script variant, invisible words: not what the control is called.
    assert re.search(r"^\[e\d+\] link Comments$", text, re.M), text
    assert re.search(r"^\[e\d+\] button Toggle panel: Drafts$", text, re.M), text
    assert re.search(r"^\[e\d+\] button Save$", text, re.M), text
    # A count for the eye (aria-hidden) beside its screen-reader sentence: the sentence names it, once.
    pending = _id(text, r"link 3 comments waiting\n")
    assert "Your drafts" not in text and "33 comments" not in text and "0 comments" not in text
    ok(browser, "click", {"element_id": pending})
    assert _log(page) == "pending;"


def test_a_transparent_checkbox_over_its_drawing_is_the_control_and_a_tiny_one_leaves_it_to_its_label(browser, page, sites):
    open_page(page, sites[0] + "/fidelity_hidden.html")
    text = fenced(ok(browser, "observe")["text"])
    # Laid over its label (a menu toggle) or over a drawn box: listed once, with its own role and name.
    more = _id(text, "button More")
    terms = _id(text, "checkbox Accept terms")
    # Tiny and transparent: its label takes the clicks. Under a faded ancestor: not operable, not listed.
    news = _id(text, "label Send me news")
    assert "Gone box" not in text and not re.search(r"\] (?:checkbox|button) Send me news", text), text
    # Clipped to nothing (a button group's toggle): the same — one control, the label, not disabled.
    toggle = _id(text, r"label Inactive \(2\)")
    assert text.count("Inactive (2)") == 1, text
    assert len(re.findall(r"\bMore\b", text)) == 1, text
    ok(browser, "click", {"element_id": more})
    assert "Delete" in fenced(ok(browser, "observe")["text"])
    ok(browser, "click", {"element_id": terms})
    ok(browser, "click", {"element_id": news})
    ok(browser, "click", {"element_id": toggle})
    assert _log(page) == "more true;terms true;news true;inactive true;"


def test_a_flyout_kept_above_the_page_is_listed_as_shown_on_hover_and_a_scrolled_list_keeps_its_rows(browser, page, sites):
    open_page(page, sites[0] + "/fidelity_hidden.html")
    text = fenced(ok(browser, "observe")["text"])
    # Before the page's top edge no scrolling reaches it, but a pointer over its menu does (the
    # style sheet says `.fly:hover > ul`): listed as a person finds it, shown on hover.
    assert re.search(r"\] link Writing \(on hover\)", text) and re.search(r"\] link General \(on hover\)", text), text
    # Rows scrolled out of a list above the page top are still there to scroll back to.
    assert re.search(r"\] button Row 1\b", text) and re.search(r"\] button Row 60\b", text), text
    # Clicked straight from the map: heybro's pointer goes over the menu first.
    ok(browser, "click", {"element_id": _id(text, "link Writing")})
    ok(browser, "click", {"element_id": _id(text, "button Row 1\\b")})
    assert _log(page) == "writing;row 1;"
    # Once hovered, the flyout's links are plain links.
    ok(browser, "hover", {"element_id": _id(text, "link Settings")})
    opened = fenced(ok(browser, "observe")["text"])
    assert re.search(r"\] link Writing$", opened, re.M), opened


def test_a_button_drawn_only_while_pointed_at_is_listed_as_shown_on_hover(browser, page, sites):
    # The style sheet says `.add-cell { opacity: 0 } .add-cell:hover { opacity: 1 }`: a person finds
    # it by pointing at its place, and so does heybro's pointer before the click. An icon button
    # that merely dims when pointed at is shown now, and listed so.
    open_page(page, sites[0] + "/fidelity_hidden.html")
    text = fenced(ok(browser, "observe")["text"])
    assert re.search(r"\] button Click to add a cell\. \(on hover\)", text), text
    assert re.search(r"\] button Dim icon$", text, re.M), text
    ok(browser, "click", {"element_id": _id(text, "button Click to add a cell")})
    ok(browser, "click", {"element_id": _id(text, "button Dim icon")})
    assert _log(page) == "add;dim;"


def test_names_read_as_the_browser_lays_the_words_out(browser, page, sites):
    """Badges, line breaks, blocks, flex items and an svg's title part words; inline formatting
    inside a word does not. The judge is Chrome's own accessibility tree, not a list written here."""
    open_page(page, sites[0] + "/names_laid_out.html")
    obs = ok(browser, "observe")
    ours = sorted((s["role"], s["name"]) for s in obs["elements"].values())
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    chrome = sorted((n["role"]["value"], n["name"]["value"]) for n in nodes
                    if n.get("role", {}).get("value") in ("link", "button", "checkbox"))
    assert ours == chrome
    assert ("link", "Comments 2 Comments in moderation") in ours and ("link", "Ket tle") not in ours


def test_one_control_inside_a_wrapper_made_clickable_is_listed_once_as_itself_and_clicked(browser, page, sites):
    # A block, list item or cell made clickable (by a cursor, one on hover, an onclick) around one
    # button or link — the wrapper gives way to the control, which is judged where it is drawn (the
    # wrapper's empty width beside it is not the control). Generated: every combination.
    open_page(page, sites[0] + "/wrapped_controls.html")
    text = fenced(ok(browser, "observe")["text"])
    combos = [(c, w, way) for w in ("div", "pad", "li", "td", "flex") for way in ("ptr", "hov", "onclick")
              for c in ("button", "flat", "link")]
    for c, w, way in combos:
        words = f"{c} in {w} by {way}"
        role = "link" if c == "link" else "button"
        assert text.count(words) == 1 and re.search(rf"\[e\d+\]? {role} {words}\b", text), (words, text)
    for c, w, way in combos[::7]:
        words = f"{c} in {w} by {way}"
        ok(browser, "click", {"element_id": _id(text, ("link " if c == "link" else "button ") + words)})
        assert _log(page).endswith(words + ";"), (words, _log(page))


def test_controls_inside_a_wrapper_kept_for_screen_readers_are_not_listed(browser, page, sites):
    # The "visually hidden" rules put on a wrapper (a clip of no size, a clip path inset by half, a
    # box of a pixel or of no height hiding its overflow, a column of two pixels scrolling it) hide
    # the label, button, link or clickable
    # words inside it — in view and below the first screen alike; a menu placed against a box
    # outside its one-pixel wrapper escapes the clipping and is listed. Generated: every combination.
    open_page(page, sites[0] + "/hidden_wrappers.html")
    text = fenced(ok(browser, "observe")["text"])
    assert "hidden by" not in text, text
    for where in ("out", "below"):
        assert f"button button escaping its wrapper {where}" in text and f"link link escaping its wrapper {where}" in text
    # An application shell's body of no height hides its overflow (the window's): a list in a panel
    # placed on the window is all there, its items past the list's edge included.
    open_page(page, sites[0] + "/hidden_wrappers.html?shell")
    text = fenced(ok(browser, "observe")["text"])
    assert all(f"button Command {i}" in text for i in range(1, 31)), text
