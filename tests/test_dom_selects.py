"""`select` on the selects widget toolkits draw (a dijit-like listbox table whose menu is made when
opened, a Select2-like combobox, an MUI-like one that opens on the press and renders a moment later,
a jQuery UI-like one owning a hidden menu, an Ant Design-like search field with a 0×0 copy of its
options for screen readers) picks the option by the words it shows; an option that is
not there fails with the options that are, for a native select too. A select a design system draws
as a box of chips around a see-through input is on the map as that combobox, its chips its value."""

from __future__ import annotations

import pytest

from support.dom_rig import browser, error, find_id, ok, open_page, page, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name, option, out", [
    ("Feed", "All articles", "feed-out"),
    ("Sort", "Most read", "sort-out"),
    ("Country", "Japan", "country-out"),
    ("Size", "L", "size-out"),
    ("City", "Lyon", "city-out"),
    ("Plan", "Team", None),
])
def test_a_toolkit_select_is_opened_and_its_shown_option_chosen(browser, page, site, name, option, out):
    open_page(page, site + "/toolkit_selects.html")
    obs = ok(browser, "observe")
    r = ok(browser, "select", {"element_id": find_id(obs, name), "value": option})
    assert r["selected"]["label"] == option
    if out:
        assert page.text_content(f"#{out}") == option
    else:
        assert page.evaluate("document.getElementById('plan').value") == option


def test_a_missing_option_is_refused_with_the_options_there(browser, page, site):
    open_page(page, site + "/toolkit_selects.html")
    obs = ok(browser, "observe")
    err = error(browser, "select", {"element_id": find_id(obs, "Feed"), "value": "Unread"})
    assert err["code"] == "not_found"
    assert 'No option "Unread"; options: All articles, Fresh articles, Starred articles' in err["message"]
    err = error(browser, "select", {"element_id": find_id(obs, "Plan"), "value": "Gold"})
    assert 'No option "Gold"; options: Free, Team, Enterprise' in err["message"]


def test_a_select_drawn_as_a_box_of_chips_is_the_combobox_it_is_drawn_for_with_its_values(browser, page, site):
    open_page(page, site + "/toolkit_selects.html")
    obs = ok(browser, "observe")
    line = next(ln for ln in obs["text"].splitlines() if "alpha" in ln)
    # Not "clickable alpha beta", not read-only: the combobox a person chooses in, named by the
    # words before it, showing what is chosen.
    assert "combobox" in line and "Parameters" in line and '="alpha, beta"' in line and "read-only" not in line, line
    eid = line.split("]")[0].lstrip("*[").split()[0]
    r = ok(browser, "select", {"element_id": eid, "value": "gamma"})
    assert r["selected"]["label"] == "gamma"
    chips = page.eval_on_selector_all("#params .ds-select-selection-item", "xs => xs.map((x) => x.title)")
    assert chips == ["alpha", "beta", "gamma"]
    line = next(ln for ln in ok(browser, "observe")["text"].splitlines() if "combobox" in ln and "alpha" in ln)
    assert '="alpha, beta, gamma"' in line, line
