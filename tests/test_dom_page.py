"""The page as a person meets it, in the real extension in real Chromium: a page that scrolls
inside a container, browser alert/confirm/prompt boxes, what a modal dialog, `inert` and a disabled
fieldset put out of reach, waiting for an element that is not there yet, and ids that stay put."""

from __future__ import annotations

import re
import time

import pytest

from support.dom_rig import browser, error, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def test_a_page_that_scrolls_inside_a_container(browser, page, site):
    open_page(page, site + "/app_shell.html")
    obs = ok(browser, "observe", {"max_tokens": 400})
    main_h = page.evaluate("document.getElementById('main').scrollHeight - document.getElementById('main').clientHeight")
    assert obs["scroll"]["below_px"] == main_h > 1000 and obs["scroll"]["above_px"] == 0
    assert obs["counts"]["omitted_below"] > 100
    r = ok(browser, "scroll", {"direction": "down"})["scroll"]
    assert r["moved_px"] > 300 and not r["at_bottom"]
    assert page.evaluate("document.getElementById('main').scrollTop") == r["scroll_y"] == r["moved_px"]
    after = ok(browser, "observe", {"max_tokens": 400})
    assert after["scroll"]["above_px"] == r["moved_px"] and after["counts"]["omitted_above"] > 0
    assert ok(browser, "scroll", {"direction": "bottom"})["scroll"]["at_bottom"] is True


def test_confirm_is_answered_at_once_and_reported(browser, page, site):
    open_page(page, site + "/browser_dialogs.html")
    page.on("dialog", lambda d: None)  # a dialog that reached the browser would stay open, as for a person
    obs = ok(browser, "observe")
    start = time.monotonic()
    r = ok(browser, "click", {"element_id": find_id(obs, "Delete")})
    assert time.monotonic() - start < 3
    assert r["dialog"] == {"name": "confirm", "text": "Delete all 3 files?", "kind": "confirm", "answer": "dismissed"}
    assert page.text_content("#res") == "kept"  # Cancel: the safe answer to a question nobody read
    r = ok(browser, "click", {"element_id": find_id(obs, "Delete"), "dialog": "accept"})
    assert r["dialog"]["answer"] == "accepted" and page.text_content("#res") == "deleted"
    r = ok(browser, "click", {"element_id": find_id(obs, "Save")})
    assert r["dialog"]["kind"] == "alert" and r["dialog"]["text"] == "Saved!" and page.text_content("#res") == "after alert"
    r = ok(browser, "click", {"element_id": find_id(obs, "Rename"), "dialog_text": "Ann"})
    assert r["dialog"]["value"] == "Ann" and page.text_content("#res") == "name=Ann"
    r = ok(browser, "click", {"element_id": find_id(obs, "Rename"), "dialog": "accept"})
    assert page.text_content("#res") == "name=guest"  # its default
    ok(browser, "click", {"element_id": find_id(obs, "Rename")})
    assert page.text_content("#res") == "name=null"
    # One the page opens a moment after the action: answered too, reported with the action when it
    # came while the action waited for an effect (a click that changed nothing at once waits
    # longer before the browser's own click is tried), else at the next look.
    r = ok(browser, "click", {"element_id": find_id(obs, "Later")})
    page.wait_for_function("document.getElementById('res').textContent === 'stayed'")
    later = ok(browser, "observe")
    leave = {"name": "confirm", "text": "Leave?", "kind": "confirm", "answer": "dismissed"}
    if r["dialog"] != leave:
        assert leave in later["dialogs"]
        assert 'Browser confirm "Leave?": dismissed' in later["text"]
    assert r.get("input") is None  # the page reacted: no second, trusted click


def test_dialogs_the_agent_did_not_cause_reach_the_person(browser, page, site):
    open_page(page, site + "/browser_dialogs.html")
    seen = []
    page.on("dialog", lambda d: (seen.append(d.message), d.accept()))
    page.click("#own")
    assert seen == ["Own?"] and page.evaluate("window.asked") is True


def test_modal_dialog_and_inert_content_are_out_of_reach(browser, page, site):
    open_page(page, site + "/modal_inert.html?modal")
    obs = ok(browser, "observe")
    names = {s["name"] for s in obs["elements"].values()}
    assert "Place order" in names
    assert not names & {"Background action", "Inert action", "Fieldset action"}, names
    assert "Background action" not in obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "Place order")})
    assert page.text_content("#res") == "ordered"
    # The dialog closed: the page is back, except what is inert.
    obs = ok(browser, "observe")
    names = {s["name"] for s in obs["elements"].values()}
    assert "Background action" in names and "Inert action" not in names


def test_acting_behind_an_open_modal_is_refused(browser, page, site):
    open_page(page, site + "/modal_inert.html")
    bg = find_id(ok(browser, "observe"), "Background action")
    page.evaluate("document.getElementById('dlg').showModal()")
    err = error(browser, "click", {"element_id": bg})
    # The refusal names the dialog in the way (one that opened after the page was read, too).
    assert err["code"] == "not_interactable" and 'the open dialog "Confirm order"' in err["message"], err
    assert page.text_content("#res") == ""


def test_a_control_in_a_disabled_fieldset_is_disabled(browser, page, site):
    open_page(page, site + "/modal_inert.html")
    obs = ok(browser, "observe")
    btn = find_id(obs, "Fieldset action")
    assert obs["elements"][btn]["state"].get("disabled") is True
    assert obs["elements"][find_id(obs, "Card number")]["state"].get("disabled") is True
    assert f"[{btn}] button Fieldset action disabled" in obs["text"]
    assert error(browser, "click", {"element_id": btn})["code"] == "not_interactable"


def test_a_menu_entry_wrapping_a_disabled_link_is_disabled(browser, page, site):
    open_page(page, site + "/modal_inert.html")
    obs = ok(browser, "observe")
    # Whichever of entry and link the map lists, it says what the link says: it cannot act.
    lines = {ln.split("] ", 1)[1] for ln in obs["text"].splitlines() if "Reply " in ln and "] " in ln}
    assert any(ln.endswith("Reply list disabled") for ln in lines), obs["text"]
    assert not any("Reply all" in ln and "disabled" in ln for ln in lines), obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "Reply all")})
    assert page.text_content("#res") == "reply all"


def test_wait_for_an_element_that_is_not_there_yet(browser, page, site):
    open_page(page, site + "/dynamic.html")
    ok(browser, "observe")
    page.evaluate("""setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Load more results';
        document.body.append(b); b.onclick = () => { document.getElementById('log').textContent = 'more'; }; }, 300)""")
    r = ok(browser, "wait_for", {"role": "button", "name": "load more", "seconds": 3})
    assert r["matched"] == "element" and r["waited_ms"] >= 200
    ok(browser, "click", {"element_id": r["element_id"]})  # the id it found is one to act on
    assert page.text_content("#log") == "more"
    assert ok(browser, "wait_for", {"name": "Shuffle", "seconds": 0.5})["matched"] == "element"
    err = error(browser, "wait_for", {"role": "link", "name": "Load more", "seconds": 0.3})
    assert err["code"] == "timeout" and "link" in err["message"]
    page.evaluate("document.querySelector('#rerender').remove()")
    assert ok(browser, "wait_for", {"role": "button", "name": "Shuffle", "gone": True, "seconds": 0.5})["matched"] == "element"


def test_wait_for_text_finds_the_words_the_map_shows_for_an_icon_button(browser, page, site):
    # The map shows an icon button titled "New Folder" as `button New Folder`: a model that read it
    # there waits for those words, though no text of the page says them.
    open_page(page, site + "/dynamic.html")
    page.evaluate("""setTimeout(() => { const b = document.createElement('button'); b.title = 'New Folder';
        b.innerHTML = '<svg width="16" height="16" aria-hidden="true"><rect width="16" height="16"/></svg>';
        document.body.append(b); }, 300)""")
    assert "New Folder" not in page.inner_text("body")
    assert ok(browser, "wait_for", {"text": "new folder", "seconds": 3})["matched"] == "text"
    assert "button New Folder" in ok(browser, "observe")["text"]
    # A title on what is no control nor picture is no name the map shows.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<div title=\\'Hidden tip\\'>x</div>')")
    assert error(browser, "wait_for", {"text": "Hidden tip", "seconds": 0.3})["code"] == "timeout"
    page.evaluate("document.querySelector('button[title=\\'New Folder\\']').remove()")
    assert ok(browser, "wait_for", {"text": "New Folder", "gone": True, "seconds": 1})["matched"] == "text"


def test_every_item_of_a_roving_tabindex_listing_is_a_control(browser, page, site):
    # A file browser's listing: only the current item takes the Tab key (tabindex 0, a button);
    # the others wait at tabindex -1 with nothing else marking them, and a person clicks any.
    open_page(page, site + "/dynamic.html")
    page.evaluate("""() => {
        const ul = document.createElement('ul'); ul.setAttribute('aria-label', 'Files');
        for (const [i, name] of ['data', 'reports', 'config.json'].entries()) {
            const li = document.createElement('li'); li.className = 'item';
            li.innerHTML = `<span class="item-text" tabindex="${i ? -1 : 0}"${i ? '' : ' role="button"'}>${name}</span>`;
            ul.append(li);
        }
        ul.addEventListener('click', (e) => { document.getElementById('log').textContent = 'picked ' + e.target.textContent; });
        const lone = document.createElement('div'); lone.className = 'note'; lone.tabIndex = -1; lone.textContent = 'Only focusable by script';
        document.body.append(ul, lone);
    }""")
    obs = ok(browser, "observe")
    assert "clickable config.json" in obs["text"] or "button config.json" in obs["text"], obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "config.json")})
    assert page.text_content("#log") == "picked config.json"
    # Nothing like it takes the Tab key: an element focusable by script alone is no control.
    assert not any(s["name"] == "Only focusable by script" for s in obs["elements"].values())


def test_ids_stay_with_their_elements_when_one_is_inserted_before_them(browser, page, site):
    open_page(page, site + "/form.html")
    first = ok(browser, "observe")
    page.evaluate("""() => { const b = document.createElement('button'); b.textContent = 'Inserted first';
        document.body.prepend(b); }""")
    second = ok(browser, "observe")
    new_id = find_id(second, "Inserted first")
    assert second["new_elements"] == [new_id]
    for eid, sig in first["elements"].items():
        assert second["elements"][eid]["name"] == sig["name"], eid
    assert set(second["elements"]) == set(first["elements"]) | {new_id}
    marked = [line for line in second["text"].splitlines() if line.startswith("*[")]
    assert marked == [f"*[{new_id}] button Inserted first"]


def test_a_list_scrolled_in_a_panel_under_a_shade_is_left_out_whole(browser, page, site):
    # An editor's shade over its side panel (not over the whole window): the panel's entries out of
    # its view come into view under the shade too; the page's controls beside it are listed.
    open_page(page, site + "/modal_inert.html")
    page.evaluate("""() => {
        const panel = document.createElement('div');
        panel.style.cssText = 'position:fixed;left:600px;top:0;width:200px;height:300px;overflow:auto';
        for (let i = 1; i <= 40; i++) { const b = document.createElement('button'); b.textContent = 'Node ' + i; b.style.display = 'block'; panel.append(b); }
        const shade = document.createElement('div');
        shade.style.cssText = 'position:fixed;left:600px;top:0;width:200px;height:300px;background:rgba(0,0,0,.3)';
        document.body.append(panel, shade);
    }""")
    text = ok(browser, "observe", {"max_tokens": 20000})["text"]
    assert "Node 1" not in text and "Node 40" not in text, text
    assert "Under a cover" in text and "Background action" in text, text


def test_a_charts_toolbar_shown_on_hover_is_listed_by_its_tooltips_and_used(browser, page, site):
    # As Plotly's mode bar: see-through until the pointer is over the chart, each button titled for its tooltip.
    open_page(page, site + "/chart_toolbar.html")
    text = ok(browser, "observe")["text"]
    zoom = re.search(r"\[(e\d+)\] clickable Zoom \(on hover\)", text)
    assert zoom and "clickable Download plot as a png (on hover)" in text, text
    ok(browser, "click", {"element_id": zoom.group(1)})
    assert page.text_content("#log") == "Zoom"


def test_a_wide_tables_columns_past_the_windows_edge_are_under_a_modals_shade_too(browser, page, site):
    # A data grid wider than the window (its last columns scrolled off to the right inside their
    # box) behind a dialog's shade over the whole window: those columns are as unreachable as the rest.
    open_page(page, site + "/modal.html")
    page.evaluate("""() => {
        const box = document.createElement('div');
        box.style.cssText = 'overflow-x:auto;width:100%';
        const t = document.createElement('table');
        t.style.cssText = 'width:2400px';
        t.innerHTML = '<tr><th>run</th><th style="width:1900px">notes</th><th>score</th></tr>' +
            [1, 2, 3].map((i) => `<tr><td>run ${i}</td><td>-</td><td><a href="#s${i}">score ${i}</a></td></tr>`).join('');
        box.append(t);
        document.body.prepend(box);
    }""")
    text = ok(browser, "observe", {"max_tokens": 20000})["text"]
    assert "Accept" in text and "Under a cover" in text, text
    assert "link score" not in text and "4 controls left out" in text, text  # (their words stay, as no control)


def test_at_the_end_of_a_long_page_the_map_shows_its_end(browser, page, site):
    # A listing taller than the map's budget, scrolled to its end: what the scroll was for (the last
    # rows) is shown; the rows left out are above, where scrolling up brings them.
    open_page(page, site + "/modal_inert.html")
    page.evaluate("""() => {
        document.body.innerHTML = '<h1>Articles</h1>' + Array.from({ length: 40 }, (_, i) =>
            `<p style="margin:4px 0"><a href="#a${i + 1}">Article number ${i + 1} about kettles and teapots</a> <button>More options for article ${i + 1}</button></p>`).join('');
        window.scrollTo(0, document.documentElement.scrollHeight);
    }""")
    text = ok(browser, "observe", {"max_tokens": 400})["text"]
    assert "Article number 40 " in text and "More options for article 40" in text, text
    assert "Article number 1 " not in text, text
    assert re.search(r"… \d+ more elements above \(scroll up\)", text) and "more elements below" not in text, text


def test_an_empty_editor_kept_open_by_a_zero_width_space_has_no_name_of_it(browser, page, site):
    open_page(page, site + "/modal_inert.html")
    page.evaluate("""() => {
        document.body.innerHTML = '<h1>New page</h1><div class="field"><span>Body</span>' +
            '<div class="editor notranslate" role="textbox" contenteditable="true"><p>\\u200b</p></div></div>';
    }""")
    text = ok(browser, "observe")["text"]
    line = next(ln for ln in text.splitlines() if "[e1]" in ln)
    assert "\u200b" not in line and line.endswith('textbox ~"Body"'), line


def test_a_file_the_page_downloads_is_listed_with_the_action(browser, page, site):
    """A click that downloads a file: the action's result names it (as the site named it) and
    where the browser saved it, readable on this machine; an action that downloads nothing lists
    nothing."""
    open_page(page, site + "/download.html")
    obs = ok(browser, "observe")
    r = ok(browser, "click", {"element_id": find_id(obs, "Export feeds")})
    (got,) = r["downloads"]
    assert got["name"] == "cooking.opml" and got["url"].endswith("/feeds.opml") and got["bytes"] > 0
    with open(got["path"], encoding="utf-8") as f:
        assert "Cooking at home" in f.read()
    assert "downloads" not in ok(browser, "click", {"element_id": find_id(obs, "Stay here")})


def test_a_dialog_holding_the_focus_inside_a_part_hidden_by_aria_is_listed(browser, page, site):
    # aria-hidden does not hide what holds the focus (Chrome's rule): a modal rendered inside the
    # app root its library hid is what a person sees and uses.
    open_page(page, site + "/dialog_in_hidden_root.html")
    obs = ok(browser, "observe")
    names = {s["name"] for s in obs["elements"].values()}
    assert {"Maximize", "Close"} <= names, obs["text"]
    assert "Version 9.18" in obs["text"]
    # What the dialog's shade covers, and what is hidden inside the hidden root, stay out.
    assert not names & {"Refresh list", "Decoration"}, names
    ok(browser, "click", {"element_id": find_id(obs, "Close")})
    assert page.text_content("#res") == "closed"
    # Once the focus leaves, the root is hidden again as its page says.
    page.evaluate("document.activeElement.blur(); document.getElementById('about').remove()")
    names = {s["name"] for s in ok(browser, "observe")["elements"].values()}
    assert not names & {"Maximize", "Close", "Refresh list"}, names


def test_controls_peeking_out_from_under_a_floating_panel_are_listed_and_clicked_where_they_show(browser, page, site):
    # A tool window floats over a tree and a tab bar: labels whose first 18 px show beside it (their
    # first letters), tabs whose top 7 px show above it (a blank sliver). A person clicks the labels
    # where they show (the browser's hit testing agrees there); a sliver and what the panel hides
    # whole stay out.
    open_page(page, site + "/peeking_under_panel.html")
    obs = ok(browser, "observe")
    names = {s["name"] for s in obs["elements"].values()}
    assert {"Catalogs", "Event Triggers", "Extensions", "Save"} <= names, obs["text"]
    assert not names & {"Under", "Activity", "State"}, obs["text"]
    ok(browser, "click", {"element_id": find_id(obs, "Event Triggers")})
    assert page.text_content("#res") == "Event Triggers"
