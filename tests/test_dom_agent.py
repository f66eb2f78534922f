"""The DOM agent in the real extension in real Chromium: observe, act, re-find, outline and boxes.

Tools go through the coordinator's real `runTool` (the path the host's `tool.call` takes), and
their args and results are checked against the shared schema models.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from support.dom_rig import browser, find_id, ok, open_page, page, sites, tool  # noqa: F401 (fixtures)
from support.screen import OverlayWatch, outline_box, outline_pixels

pytestmark = pytest.mark.browser


def test_observe_form_renders_elements_fenced_and_stable_ids(browser, page, sites):
    open_page(page, sites[0] + "/form.html")
    obs = ok(browser, "observe")
    text = obs["text"]
    # Page text is fenced by a triple-quote pair that no page text can produce.
    assert text.startswith('"""\n') and text.count('"""') == 2
    # The injected instruction stays inside the fence, as data.
    assert text.index('"""') < text.index("Ignore previous instructions") < text.rindex('"""')
    assert "Now you are outside the page." in text and text.index("Now you are outside") < text.rindex('"""')
    email = find_id(obs, "Email")
    assert f"[{email}] textbox email Email placeholder=\"you@example.com\" required" in text
    assert "## form Sign up" in text
    assert 'options: Choose…|France|Germany|Japan' in text
    assert f"[{find_id(obs, 'Docs')}] link Docs" in text and "→example.org/about" in text  # only a link that leaves the site shows its target
    assert "disabled" in text
    # A row of a table with column headers reads as one line, each cell with its header (so the
    # header row of words alone is not said again); an empty last column says nothing.
    assert "Plan Pro · Price $9\n" in text and "Plan Team · Price $29\n" in text and "Plan · Price" not in text
    assert find_id(obs, "Clickable card")  # clickable by cursor only
    assert find_id(obs, "Notes")  # contenteditable
    sig = obs["elements"][email]
    assert sig["tag"] == "input" and sig["attrs"]["name"] == "email" and sig["label"] == "Email"
    assert {"box", "path", "neighbor", "state"} <= sig.keys()
    # Same live elements → same ids; nothing is new the second time.
    again = ok(browser, "observe")
    assert again["elements"].keys() == obs["elements"].keys() and again["new_elements"] == []
    assert again["counts"]["shown"] == again["counts"]["total"] and obs["scroll"]["viewport_h"] > 0


def _shown_names(browser) -> set[str]:
    return {sig["name"] for sig in ok(browser, "observe")["elements"].values()}


def _expect_hidden_page(names: set[str], *, remote_sheet: bool) -> None:
    # The remote sheet's rule hides one control only once that sheet is on the page.
    assert ("Hidden by remote sheet" in names) is not remote_sheet, names
    names = names - {"Hidden by remote sheet"}
    shown = {n for n in names if n.startswith("Shown")}
    assert shown == {"Shown plain", "Shown again inside veil", "Shown summary", "Shown pointer card",
                     "Shown inside shadow", "Shown slotted"}, names
    assert not [n for n in names if n.startswith("Hidden")], names


def test_elements_hidden_by_style_are_left_out(browser, page, sites):
    # Every way a page's style hides a control: rules (plain, nested, @media, @layer, @import),
    # inline styles, inheritance undone by a child, CSS and script animations, state-dependent
    # selectors, closed <details>, content-visibility, a shadow root's own sheet and ::slotted.
    open_page(page, sites[0] + "/hidden.html")
    page.wait_for_timeout(50)  # the 1 ms CSS animation has filled forwards
    _expect_hidden_page(_shown_names(browser), remote_sheet=False)
    # A state change shows what the rule hid, and the next observe sees it.
    page.evaluate("document.querySelector('.toggle').classList.add('on')")
    assert "Hidden by state rule" in _shown_names(browser)


def test_hidden_by_a_style_sheet_that_cannot_be_read(browser, page, sites):
    # A cross-origin sheet without CORS cannot be read by the page's scripts: visibility is then
    # asked of each element instead of worked out from the sheets, and the answer is the same.
    open_page(page, sites[0] + "/hidden.html")
    page.evaluate("""(href) => new Promise((ok, fail) => {
        const l = Object.assign(document.createElement('link'), {rel: 'stylesheet', href});
        l.onload = ok; l.onerror = fail; document.head.append(l);
    })""", sites[1] + "/hidden_remote.css")
    assert page.evaluate("() => { try { document.styleSheets[1].cssRules; return 'read'; } "
                         "catch { return 'unreadable'; } }") == "unreadable"
    page.wait_for_timeout(50)
    _expect_hidden_page(_shown_names(browser), remote_sheet=True)


def test_actions_on_form_controls(browser, page, sites):
    open_page(page, sites[0] + "/form.html")
    obs = ok(browser, "observe")
    r = ok(browser, "fill", {"element_id": find_id(obs, "Email"), "value": "ann@example.com"})
    assert r["found_by"] == "id" and r["confidence"] == 1 and r["element"]["state"]["value"] == "ann@example.com"
    ok(browser, "type", {"element_id": find_id(obs, "Password"), "text": "s3cret"})
    r = ok(browser, "select", {"element_id": find_id(obs, "Country"), "value": "Germany"})
    assert r["selected"] == {"value": "de", "label": "Germany"}
    ok(browser, "select", {"element_id": find_id(obs, "Country"), "value": "jp"})
    assert ok(browser, "check", {"element_id": find_id(obs, "I accept the terms")})["checked"] is True
    ok(browser, "check", {"element_id": find_id(obs, "Pro", "radio")})
    err = tool(browser, "uncheck", {"element_id": find_id(obs, "Pro", "radio")})
    assert not err["ok"] and err["error"]["code"] == "not_interactable"
    ok(browser, "fill", {"element_id": find_id(obs, "Bio"), "value": "Hello\nworld"})
    data = base64.b64encode(b"hi there").decode()
    r = ok(browser, "upload", {"element_id": find_id(obs, "CV"), "resource_name": "cv.txt", "file": {"name": "cv.txt", "mime": "text/plain", "data_base64": data}})
    assert r["uploaded"] == {"name": "cv.txt", "size": 8, "via": "input"}
    page.wait_for_function("document.getElementById('cvinfo').textContent !== ''")
    assert page.text_content("#cvinfo") == "cv.txt:8:hi there"
    r = ok(browser, "click", {"element_id": find_id(obs, "Create account")})
    assert "text change" in r["mutations"]["summary"] or r["mutations"]["added"] or r["mutations"]["text"]
    sent = json.loads(page.text_content("#out"))
    assert sent == {"email": "ann@example.com", "password": "s3cret", "country": "jp", "terms": "yes",
                    "plan": "pro", "bio": "Hello\nworld", "cv": sent["cv"]}
    err = tool(browser, "click", {"element_id": find_id(obs, "Disabled thing")})
    assert err["error"]["code"] == "not_interactable"
    ok(browser, "click", {"element_id": find_id(obs, "Clickable card")})
    assert page.text_content("#card") == "Card clicked"
    ok(browser, "fill", {"element_id": find_id(obs, "Notes"), "value": "remember milk"})
    assert page.text_content("#notes") == "remember milk"
    r = ok(browser, "press", {"element_id": find_id(obs, "Key log"), "keys": "Control+A"})
    assert r["pressed"]["ctrl"] is True and page.text_content("#keylog").strip() == "C-A"
    table = ok(browser, "extract", {"element_id": None, "mode": "table"})["table"]
    assert table == {"headers": ["Plan", "Price"], "rows": [["Free", "$0"], ["Pro", "$9"], ["Team", "$29", ""]]}
    assert "Create your account" in ok(browser, "extract", {})["text"]
    err = tool(browser, "fill", {"element_id": find_id(obs, "I accept the terms"), "value": "x"})
    assert err["error"]["code"] == "not_interactable"


def test_controlled_input_sees_fill_and_type(browser, page, sites):
    open_page(page, sites[0] + "/react.html")
    obs = ok(browser, "observe")
    ok(browser, "fill", {"element_id": find_id(obs, "Full name"), "value": "Ada"})
    assert page.text_content("#shown") == "Hello Ada"
    ok(browser, "type", {"element_id": find_id(obs, "Full name"), "text": " L."})
    assert page.text_content("#shown") == "Hello Ada L."
    ok(browser, "click", {"element_id": find_id(obs, "Save")})
    assert page.title() == "Saved Ada L."


def test_shadow_dom(browser, page, sites):
    open_page(page, sites[0] + "/shadow.html")
    obs = ok(browser, "observe")
    ok(browser, "fill", {"element_id": find_id(obs, "Query"), "value": "cats"})
    ok(browser, "click", {"element_id": find_id(obs, "Search")})
    assert page.text_content("#log") == "searched cats"
    assert obs["elements"][find_id(obs, "Search")]["shadow"] == ["x-search"]


def test_same_and_cross_origin_frames(browser, page, sites):
    port_b = sites[1].rsplit(":", 1)[1]
    open_page(page, f"{sites[0]}/frames.html?xo={port_b}")
    page.wait_for_function("document.getElementById('cross').contentWindow && document.getElementById('cross').src")
    page.frame_locator("#cross").locator("button").wait_for()
    obs = ok(browser, "observe")
    inner = find_id(obs, "Inner button")
    cross = find_id(obs, "Cross button")
    assert inner.startswith("e") and cross.startswith("f")
    assert "[frame f" in obs["text"] and "Cross-origin frame" in obs["text"]
    assert obs["frames_unreadable"] == []
    ok(browser, "click", {"element_id": inner})
    ok(browser, "click", {"element_id": cross})
    assert page.frame_locator("#same").locator("button").text_content() == "Inner clicked"
    assert page.frame_locator("#cross").locator("button").text_content() == "Cross clicked"


def test_overlay_is_refused_then_dialogs_reported(browser, page, sites):
    open_page(page, sites[0] + "/modal.html")
    # An id kept from before the wall came down: a click on it is refused with what covers it.
    page.evaluate("document.getElementById('overlay').hidden = true")
    buy = find_id(ok(browser, "observe"), "Buy now")
    page.evaluate("document.getElementById('overlay').hidden = false")
    obs = ok(browser, "observe")
    assert [d["name"] for d in obs["dialogs"]] == ["Cookie consent"]
    # Under the wall the page's own button is off the map, which says what covers it.
    assert buy not in obs["elements"] and 'Under a cover (div#overlay "We use cookies. Accept"): 1 control left out' in obs["text"]
    err = tool(browser, "click", {"element_id": buy})
    assert err["error"]["code"] == "covered" and err["error"]["detail"]["covering"]["name"] == "Cookie consent"
    assert page.text_content("#res") == ""
    r = ok(browser, "click", {"element_id": find_id(obs, "Accept")})
    assert r["mutations"]["removed"] >= 1
    ok(browser, "click", {"element_id": buy})
    assert page.text_content("#res") == "bought"
    r = ok(browser, "click", {"element_id": find_id(obs, "Open settings")})
    assert r["dialog"] and r["dialog"]["name"] == "Settings"
    r = ok(browser, "press", {"keys": "Escape"})
    assert not page.evaluate("document.getElementById('dlg').open")


def test_rerendered_list_is_refound_by_signature_or_refused(browser, page, sites):
    open_page(page, sites[0] + "/dynamic.html")
    obs = ok(browser, "observe")
    # The "Remove" next to Milk: same label as four others, told apart by its neighbour text.
    milk = next(i for i, s in obs["elements"].items() if s["name"] == "Remove" and s["neighbor"].startswith("Milk"))
    sig = obs["elements"][milk]
    ok(browser, "click", {"element_id": find_id(obs, "Shuffle")})  # every <li> and button is replaced
    r = ok(browser, "click", {"element_id": milk, "signature": sig})
    assert r["found_by"] in ("signature", "rescan") and r["confidence"] >= 0.6 and r["element_id"] != milk
    assert page.text_content("#log") == "removed Milk"
    # Milk is gone now: the same signature must not land on another row's Remove button.
    err = tool(browser, "click", {"element_id": milk, "signature": sig})
    assert not err["ok"] and err["error"]["code"] in ("not_found", "ambiguous"), err
    assert err["error"]["detail"]["candidates"] and page.text_content("#log") == "removed Milk"
    # Without a signature a gone id is a typed "detached" error.
    assert tool(browser, "click", {"element_id": milk})["error"]["code"] == "detached"
    # New elements since the last observe are marked.
    again = ok(browser, "observe")
    assert again["new_elements"] and "*[" in again["text"]


def test_long_page_budget_scroll_and_moving_element(browser, page, sites):
    open_page(page, sites[0] + "/long.html")
    obs = ok(browser, "observe", {"max_tokens": 400})
    c = obs["counts"]
    assert c["total"] == 201 and c["omitted_below"] > 100 and c["shown"] < 60
    assert f"… {c['omitted_below']} more elements below" in obs["text"]
    assert obs["scroll"]["below_px"] > 0
    r = ok(browser, "scroll", {"direction": "down", "amount": 2})
    assert r["scroll"]["moved_px"] > 0
    far = ok(browser, "observe", {"max_tokens": 400})
    assert far["counts"]["omitted_above"] > 0
    item150 = find_id(ok(browser, "observe", {"max_tokens": 100000}), "Item 150")
    ok(browser, "click", {"element_id": item150})
    assert page.text_content("#log") == "clicked 150"
    moving = find_id(far, "Moving target") if "Moving target" in far["text"] else find_id(ok(browser, "observe", {"max_tokens": 100000}), "Moving target")
    # It moves between observe and act: the click lands where it is now.
    page.evaluate("document.getElementById('mover').style.left = '300px'")
    ok(browser, "click", {"element_id": moving})
    assert page.text_content("#log") == "moved clicked"
    # It jumps away as it is pressed: the release and the click follow it.
    page.evaluate("window.jump = true; document.getElementById('log').textContent = ''")
    ok(browser, "click", {"element_id": moving})
    assert page.text_content("#log") == "moved clicked"
    assert page.evaluate("document.getElementById('mover').style.left") == "500px"


def test_wait_for_and_numbered_boxes_drawn_on_the_screenshot_not_in_the_page(browser, page, sites):
    open_page(page, sites[0] + "/dynamic.html")
    page.evaluate("setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Late'; document.body.append(b); }, 300)")
    r = ok(browser, "wait_for", {"text": "Late", "seconds": 3})
    assert r["matched"] == "text"
    err = tool(browser, "wait_for", {"text": "Never shows", "seconds": 0.3})
    assert err["error"]["code"] == "timeout"
    assert ok(browser, "wait_for", {"quiet_ms": 100})["matched"] == "quiet"
    assert ok(browser, "wait_for", {"url_contains": "dynamic.html", "seconds": 1})["matched"] == "url"
    nodes = "document.querySelectorAll('*').length"
    count = page.evaluate(nodes)
    before = ok(browser, "observe")
    ok(browser, "observe", {"highlight": True})
    # The boxes are on the image the model gets, not in the page: the page shows none, and its
    # document has nothing more in it.
    assert overlay_pixels(shot(browser)) > 50
    assert overlay_pixels(page.screenshot()) == 0
    assert page.evaluate(nodes) == count and page.evaluate("document.querySelector(':popover-open')") is None
    with_boxes = ok(browser, "observe")
    assert with_boxes["elements"].keys() == before["elements"].keys()
    ok(browser, "highlight", {"on": False})
    assert overlay_pixels(shot(browser)) == 0


def test_link_click_reports_navigation(browser, page, sites):
    open_page(page, sites[0] + "/form.html")
    obs = ok(browser, "observe")
    r = ok(browser, "click", {"element_id": find_id(obs, "Docs")})
    assert r["url_changed"] is True and r["url"].endswith("/docs")


def test_the_element_acted_on_is_outlined_while_its_action_runs_then_not(browser, page, sites):
    """A person sees the outline on the element an action acts on (on the screen, drawn by the
    browser's DevTools overlay), replaced by the next action's, gone a moment after the last one
    (it stays at least OUTLINE_MIN_MS so a person can see it); the page's document has nothing of
    it at any time. The screen is looked at as each change of the outline is made (however late a
    loaded machine makes it), not at a moment guessed after the action."""
    open_page(page, sites[0] + "/form.html")
    page.evaluate("""() => { window.__added = [];
        new MutationObserver((rs) => { for (const r of rs) window.__added.push(r.type + ' ' + (r.attributeName || '')); })
          .observe(document, {subtree: true, childList: true, attributes: true}); }""")
    overlay = OverlayWatch(browser.sw)
    email, bio = outline_box(page, "#email"), outline_box(page, "#bio")
    obs = ok(browser, "observe")
    ok(browser, "fill", {"element_id": find_id(obs, "Email"), "value": "ann@example.com"})
    ok(browser, "fill", {"element_id": find_id(obs, "Bio"), "value": "Hello"})
    # Drawn on the email, then on the bio (the email's gone by then), then gone after the last.
    drawn = "Overlay.highlightRect"
    changes = overlay.until(lambda ms: ms.count(drawn) == 2 and ms[-1] != drawn)
    first, second = (i for i, m in enumerate(changes) if m == drawn)
    assert outline_pixels(overlay.screen(first), email) > 100
    assert outline_pixels(overlay.screen(second), bio) > 100
    assert outline_pixels(overlay.screen(second), email) < 20
    assert outline_pixels(overlay.screen(len(changes) - 1), bio) < 20
    # A scroll of the page acts on no element: nothing is outlined.
    ok(browser, "scroll", {"direction": "down"})
    assert overlay.count() == len(changes)
    assert outline_pixels(page.screenshot(caret="initial"), bio) < 20
    assert page.evaluate("window.__added") == []


# The numbered boxes' colours (extension/background/shot.js).
OVERLAY_COLOURS = [(0xe6, 0x19, 0x4b), (0x3c, 0xb4, 0x4b), (0x43, 0x63, 0xd8), (0xf5, 0x82, 0x31),
                   (0x91, 0x1e, 0xb4), (0x00, 0x80, 0x80), (0x9a, 0x63, 0x24), (0x80, 0x00, 0x00)]


def overlay_pixels(png: bytes, clip: tuple[int, int, int, int] | None = None) -> int:
    """How many pixels of a screenshot (or of the clip x, y, w, h in it) have a box's colour."""
    import io

    from PIL import Image
    img = Image.open(io.BytesIO(png)).convert("RGB")
    if clip:
        img = img.crop((clip[0], clip[1], clip[0] + clip[2], clip[1] + clip[3]))
    return sum(n for n, (r, g, b) in img.getcolors(maxcolors=img.width * img.height) or []
               if any(abs(r - cr) <= 8 and abs(g - cg) <= 8 and abs(b - cb) <= 8 for cr, cg, cb in OVERLAY_COLOURS))


def shot(browser) -> bytes:
    """The screenshot tool's image: what the model gets."""
    data_url = ok(browser, "screenshot")["data_url"]
    return base64.b64decode(data_url.split(",", 1)[1])


def test_numbered_boxes_show_over_a_modal_dialog(browser, page, sites):
    open_page(page, sites[0] + "/modal.html")
    page.click("#accept")
    page.click("#open")  # showModal(): the dialog sits in the browser's top layer
    assert page.evaluate("document.getElementById('dlg').matches(':modal')")
    ok(browser, "observe", {"highlight": True})
    r = page.evaluate("(() => { const r = document.querySelector('#dlg button').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
    box = (int(r[0]) - 4, int(r[1]) - 20, int(r[2]) + 8, int(r[3]) + 24)
    assert overlay_pixels(shot(browser), box) > 20
    # Nothing of it is over the page: clicks reach the dialog as they would.
    page.click("#dlg button")
    assert page.evaluate("document.getElementById('dlg').open") is False
    ok(browser, "highlight", {"on": False})


def test_numbered_boxes_are_where_the_elements_are_when_the_screenshot_is_taken(browser, page, sites):
    open_page(page, sites[0] + "/modal.html")
    page.evaluate("document.getElementById('overlay').remove()")
    page.evaluate("Object.assign(document.getElementById('buy').style, {position: 'fixed', left: '20px', top: '20px'})")
    ok(browser, "observe", {"highlight": True})
    assert overlay_pixels(shot(browser), (0, 0, 200, 80)) > 20
    # The page moves the button without scrolling or resizing: its box goes with it.
    page.evaluate("Object.assign(document.getElementById('buy').style, {left: '600px', top: '400px'})")
    after = shot(browser)
    assert overlay_pixels(after, (580, 380, 220, 80)) > 20
    assert overlay_pixels(after, (0, 0, 200, 80)) == 0
    ok(browser, "highlight", {"on": False})


def test_list_tabs_shows_the_tasks_tabs_not_the_users_own(browser, page, sites):
    """The task's tab and those its page opened after the task started; not a tab the user opened
    from that page before, nor one of their own."""
    own = browser.ctx.new_page()  # a tab of the user's, unrelated to the task
    own.goto(sites[1] + "/form.html")
    try:
        open_page(page, sites[0] + "/form.html")
        # The user, before the task: a link of the page opened in a background tab (its opener is
        # the task's tab).
        page.evaluate("document.body.insertAdjacentHTML('beforeend', '<a id=\"early\" href=\"/dynamic.html\">later</a>')")
        with browser.ctx.expect_page() as early:
            page.click("#early", modifiers=["Control"])
        early.value.wait_for_load_state("load")
        since = browser.sw.evaluate("Date.now()")

        def listed() -> dict[str, Any]:
            return browser.sw.evaluate(
                """async (since) => {
                    const [tab] = await chrome.tabs.query({active: true});
                    return await globalThis.heybro.runTool({tool: "list_tabs", args: {}, tab_id: tab.id, timeout_ms: 5000, task_since: since});
                }""", since)["result"]
        urls = [t["url"] for t in listed()["tabs"]]
        assert urls == [sites[0] + "/form.html"], urls
        with page.expect_popup() as pop:
            page.evaluate("window.open(location.origin + '/long.html')")  # the task's page opens a tab
        pop.value.wait_for_load_state("load")
        page.bring_to_front()
        now = listed()
        urls = [t["url"] for t in now["tabs"]]
        assert any(u.endswith("/form.html") and u.startswith(sites[0]) for u in urls), urls
        assert any(u.endswith("/long.html") for u in urls), urls
        assert not any(u.endswith("/dynamic.html") for u in urls), urls
        assert not any(u.startswith(sites[1]) for u in urls), urls
        assert now["other_tabs"] >= 2
        pop.value.close()
        early.value.close()
    finally:
        own.close()