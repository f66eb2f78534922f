"""A row's action a person finds by pointing at the row is on the page map "(on hover)", however the
page hides it until then — transparent, invisible, not displayed at all, placed off the page or
clipped to nothing — and however its style sheet says so (descendant or child selectors, a wrapper
around it, `:focus-within` beside `:hover`, nested rules, `@media`, a table's rows, or one rule that
hides it while the row is `:not(:hover)`); so is one inside a part drawn only while pointed at (a
pointer over the action is over the part). The page is generated from those ways and forms, so no
one case is named in the code; the same actions with no rule that ever shows them to a pointer are
not listed: none at all, one shown to focus alone (`:focus-within`), one hidden while the row (or
the action itself) is not pointed at and by a rule that always holds, one hidden by `visibility`
that only a pointer over itself (or over the part around it) would show: the pointer passes through."""

from __future__ import annotations

import re

import pytest

from support.dom_rig import browser, fenced, ok, open_page, page, sites  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

WAYS = ("opacity", "visibility", "display", "offleft", "clip")
FORMS = ("desc", "child", "wrap", "focus", "nested", "media", "table", "not", "notlist")


def test_every_way_of_showing_an_action_on_hover_is_listed_and_clicked_through_its_row(browser, page, sites):
    open_page(page, sites[0] + "/hover_ways.html")
    text = fenced(ok(browser, "observe")["text"])
    keys = [f"{w}-{f}" for w in WAYS for f in FORMS] + ["selfnot", "selfwrap"]
    missing = [k for k in keys if not re.search(rf"button Act {k} \(on hover\)", text)]
    assert not missing, (missing, text)
    assert "Act never" not in text, text
    # Clicked straight from the map, each through its row: heybro's pointer goes there first.
    for k in keys:
        m = re.search(rf"\[(e\d+) button Act {k} \(on hover\)\]", text) or re.search(rf"\[(e\d+)\] button Act {k} \(on hover\)", text)
        assert m, k
        ok(browser, "click", {"element_id": m.group(1)})
    assert page.inner_text("#log") == ";".join(keys)


def test_an_action_not_displayed_until_its_menu_is_pointed_at_is_plain_once_it_is(browser, page, sites):
    open_page(page, sites[0] + "/hover_ways.html")
    obs = ok(browser, "observe")
    row = next(eid for eid, sig in obs["elements"].items() if sig["name"] == "Act display-desc")
    ok(browser, "hover", {"element_id": row})
    text = fenced(ok(browser, "observe")["text"])
    assert re.search(r"button Act display-desc\]", text) and "Act display-desc (on hover)" not in text, text
