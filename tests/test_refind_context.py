"""refind.js where the element's twin lives in another part of the page (a plain page, no
extension): the login form beside the sign-up form, the header's links repeated in the footer,
per-row actions, and look-alike buttons in the open shadow roots of several web components. What
a user relies on: the element is found again when nothing (or little) changed, and when it is gone
its twin elsewhere is never handed back in its place."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from support.plain_page import plain_page

pytestmark = pytest.mark.browser

# Captures the signature of the element a selector (and, for shadow roots, a host index) names,
# runs a change on the page, then re-finds: what came back, described by where it stands.
TRIAL = """async ([pick, change]) => {
    const el = eval(pick);
    const sig = JSON.parse(JSON.stringify(refindLib.captureSignature(el)));
    eval(change);
    const r = refindLib.refind(sig);
    const e = r.element;
    if (!e) return {status: r.status, candidates: r.candidates.length};
    const host = e.getRootNode().host;
    const where = host ? host.closest('.review').querySelector('h3').textContent + ' star ' + ([...host.shadowRoot.querySelectorAll('button')].indexOf(e) + 1)
        : e.closest('tr') ? e.closest('tr').cells[0].textContent + ' ' + e.textContent
        : e.closest('.result') ? e.closest('.result').querySelector('p').textContent + ' ' + e.textContent
        : e.closest('.post') ? e.closest('.post').querySelector('.author').textContent + ' ' + e.className
        : e.closest('#keys li') ? e.closest('#keys li').querySelector('code').textContent + ' ' + e.localName + ' ' + e.textContent
        : (e.closest('form, footer, header, section')?.getAttribute('action') || e.closest('form, footer, header, section').localName) + ' ' + (e.name || e.textContent.trim());
    return {status: r.status, where, same: e === el};
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with plain_page("tests/fixtures/dom/refind_context.html") as pg:
        yield pg


def trial(page: Page, pick: str, change: str = "") -> dict:
    """One capture → change → re-find on a freshly loaded page."""
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    return page.evaluate(TRIAL, [pick, change])


LOGIN_EMAIL = "document.querySelector('form[action=\"/login\"] input[name=email]')"
HEADER_BLOG = "document.querySelector('header a[href=\"/blog\"]')"
STAR = "(i, k) => document.querySelectorAll('star-rating')[i].shadowRoot.querySelectorAll('button')[k]"


def test_every_look_alike_is_found_again_when_nothing_changed(page: Page) -> None:
    assert trial(page, LOGIN_EMAIL)["same"]
    assert trial(page, HEADER_BLOG)["same"]
    assert trial(page, "document.querySelectorAll('#users .edit')[1]")["same"]
    for i in range(3):
        for k in range(5):
            assert trial(page, f"({STAR})({i}, {k})")["same"], (i, k)


def test_the_login_field_is_found_without_its_name_and_never_answered_with_the_sign_up_field(page: Page) -> None:
    # The attribute that carried its identity dropped: still the login field.
    r = trial(page, LOGIN_EMAIL, f"{LOGIN_EMAIL}.removeAttribute('name')")
    assert r["status"] == "found" and r["same"]
    # Gone: the sign-up form's e-mail field (same label, placeholder and name) is another element.
    r = trial(page, LOGIN_EMAIL, f"{LOGIN_EMAIL}.closest('label').remove()")
    assert r["status"] != "found"


def test_a_deleted_social_button_is_not_replaced_by_its_neighbour_or_its_twin(page: Page) -> None:
    google = "document.querySelectorAll('.social')[0]"
    r = trial(page, google, f"{google}.remove()")
    assert r["status"] != "found"  # not "Continue with GitHub", not the sign-up form's Google


def test_header_link_is_not_answered_with_the_footer_link(page: Page) -> None:
    r = trial(page, HEADER_BLOG, "const nav = document.querySelector('header nav'); [...nav.children].reverse().forEach((a) => nav.append(a))")
    assert r == {"status": "found", "where": "header Blog", "same": True}
    assert trial(page, HEADER_BLOG, f"{HEADER_BLOG}.remove()")["status"] != "found"


def test_row_actions_follow_their_row_and_a_deleted_row_is_refused(page: Page) -> None:
    bobs_edit = "document.querySelectorAll('#users .edit')[1]"
    r = trial(page, bobs_edit, "renderUsers(['Cleo Park', 'Bob Kahn', 'Ada Lovelace'])")  # new nodes, new order
    assert r["status"] == "found" and r["where"] == "Bob Kahn Edit"
    r = trial(page, bobs_edit, "renderUsers(['Ada Lovelace', 'Cleo Park'])")
    assert r["status"] != "found"


def test_a_star_in_a_shadow_root_is_found_by_its_product_after_a_rerender(page: Page) -> None:
    r = trial(page, f"({STAR})(1, 3)", "renderReviews(['Lamp', 'Toaster', 'Kettle'])")
    assert r["status"] == "found" and r["where"] == "Toaster star 4"
    r = trial(page, f"({STAR})(1, 3)", "renderReviews(['Kettle', 'Lamp'])")
    assert r["status"] != "found"


def test_a_star_keeps_its_place_in_its_component_when_it_moves_or_is_reworded(page: Page) -> None:
    # Wrapped in a block of its own, the fourth star drops to the next line: still the fourth star
    # of the Toaster's rating (which look-alike now stands nearer its old spot says nothing).
    star = f"({STAR})(1, 3)"
    r = trial(page, star, f"const s = {star}; const w = document.createElement('div'); s.replaceWith(w); w.append(s)")
    assert r["status"] == "found" and r["where"] == "Toaster star 4" and r["same"]
    # Reworded where it stands ("★" → "★ rated"), while the four others still say "★": it is the one.
    r = trial(page, star, f"{star}.textContent = '★ rated'")
    assert r["status"] == "found" and r["same"]


def test_a_name_from_a_dropped_attribute_is_gone_not_another_name(page: Page) -> None:
    named = "document.querySelectorAll('star-rating')[3].shadowRoot.querySelectorAll('button')[0]"
    r = trial(page, named, f"{named}.removeAttribute('aria-label')")  # "1 star" → only "★" left
    assert r["status"] == "found" and r["same"]
    r = trial(page, named, f"{named}.remove()")  # gone: "2 stars" is another star
    assert r["status"] != "found"


def test_a_reworded_label_is_the_same_switch_and_another_label_is_not(page: Page) -> None:
    email = "document.querySelectorAll('#notifications fieldset')[1].querySelector('[role=switch]')"
    # Reworded ("Email" → "Emails") and wrapped: two changes, its label still says the same thing.
    r = trial(page, email, "document.querySelectorAll('#notifications fieldset')[1].querySelector('span').textContent = 'Emails'; "
              f"const s = {email}; const w = document.createElement('div'); s.replaceWith(w); w.append(s)")
    assert r["status"] == "found" and r["same"]
    # Its label gone with it: the Push switch beside it and the Comments' Email switch are others.
    r = trial(page, email, f"{email}.closest('label').remove()")
    assert r["status"] != "found"


def test_a_copy_in_another_part_does_not_make_the_element_less_itself(page: Page) -> None:
    # The footer's "Blog" links (its own and a copy of the header's put there) say nothing about
    # which of the header's links is meant; a reworded copy put beside the header's "Blog" is not it.
    r = trial(page, HEADER_BLOG, f"document.querySelector('footer nav').append({HEADER_BLOG}.cloneNode(true)); "
              f"const c = {HEADER_BLOG}.cloneNode(true); c.textContent = 'Blogs'; {HEADER_BLOG}.after(c)")
    assert r == {"status": "found", "where": "header Blog", "same": True}


def test_a_field_whose_renamed_id_lost_its_label_is_still_found(page: Page) -> None:
    # The label names the field through its `for`: with the id renamed by a new build the label no
    # longer applies, so the name is gone (not "you@example.com" instead of "Email"); the invite
    # form's e-mail field is never the answer.
    email = "document.getElementById('acct-email')"
    r = trial(page, email, f"{email}.id = 'acct-email-x7a9'")
    assert r["status"] == "found" and r["same"]
    r = trial(page, email, f"{email}.parentElement.remove()")
    assert r["status"] != "found"


def test_a_section_is_named_by_its_own_heading_not_a_group_inside_it(page: Page) -> None:
    # Re-ordered, the Notifications section shows a fieldset's legend first; it is still the
    # Notifications section, and the switch in it is found.
    switch = "document.querySelectorAll('#notifications fieldset')[1].querySelectorAll('[role=switch]')[1]"
    r = trial(page, switch, "const s = document.getElementById('notifications'); [...s.children].reverse().forEach((c) => s.append(c))")
    assert r["status"] == "found" and r["same"]


def test_the_one_that_keeps_every_word_is_taken_over_a_reworded_copy_in_its_old_spot(page: Page) -> None:
    # The header's "Blog" moved to the end of its menu; a reworded copy ("Blogs") took its place.
    r = trial(page, HEADER_BLOG, f"const d = {HEADER_BLOG}; const c = d.cloneNode(true); c.textContent = 'Blogs'; "
              "d.after(c); d.parentElement.append(d)")
    assert r == {"status": "found", "where": "header Blog", "same": True}
    # Moved out of its menu while the menu stands, it is no longer told from the footer's "Blog":
    # asked about, and the reworded copy is not taken in its stead.
    r = trial(page, HEADER_BLOG, f"const d = {HEADER_BLOG}; const c = d.cloneNode(true); c.textContent = 'Blogs'; "
              "d.after(c); d.closest('header').append(d)")
    assert r["status"] == "ambiguous"


def test_a_title_copied_into_another_result_is_not_the_deleted_one(page: Page) -> None:
    # The heading the copy stands in names another result ("Caching basic setup"), however alike the
    # two titles read.
    first = "document.querySelector('#results a')"
    r = trial(page, first, f"document.querySelectorAll('#results h3')[1].append({first}.cloneNode(true)); {first}.remove()")
    assert r["status"] != "found"
    r = trial(page, first, f"document.querySelectorAll('#results h3')[1].append({first}.cloneNode(true))")
    assert r["status"] == "found" and r["same"]


def test_a_look_alike_outside_the_group_that_told_it_apart_is_not_the_deleted_one(page: Page) -> None:
    # The Mentions group's Push switch is told from the other switches by its group; a copy of it
    # put outside any group, while the Mentions group still stands, is another switch.
    push = "document.querySelectorAll('#notifications fieldset')[1].querySelectorAll('[role=switch]')[1]"
    r = trial(page, push, f"document.getElementById('notifications').append({push}.closest('label').cloneNode(true)); {push}.closest('label').remove()")
    assert r["status"] != "found"


RETWEET = "(i) => document.querySelectorAll('#feed .post')[i].querySelector('.retweet')"


def test_an_icon_in_a_post_follows_its_post_and_is_refused_when_the_post_is_gone(page: Page) -> None:
    # Every post has the same nameless reply / retweet / like icons; the post they were captured in
    # (its author, its handle) is part of what they are.
    bobs = f"({RETWEET})(1)"
    assert trial(page, bobs)["same"]
    r = trial(page, bobs, "renderFeed(['Cleo', 'Bob', 'Ada'])")  # new nodes, new order
    assert r["status"] == "found" and r["where"] == "Bob retweet"
    # Its post's icons in another order, or the icon taken out of its row of icons: still Bob's retweet.
    r = trial(page, bobs, f"const c = {bobs}.parentElement; [...c.children].reverse().forEach((x) => c.append(x))")
    assert r == {"status": "found", "where": "Bob retweet", "same": True}
    r = trial(page, bobs, f"const c = {bobs}.parentElement; c.replaceWith(...c.childNodes)")
    assert r == {"status": "found", "where": "Bob retweet", "same": True}
    # Bob's post gone: Ada's and Cleo's retweets are other elements.
    r = trial(page, bobs, "renderFeed(['Ada', 'Cleo'])")
    assert r["status"] != "found"
    r = trial(page, bobs, f"{bobs}.closest('.post').remove()")
    assert r["status"] != "found"
    # Bob's retweet alone gone: the feed bar's compose icon, nameless and classless, has nothing of
    # its own that says it is the retweet.
    r = trial(page, bobs, f"{bobs}.remove()")
    assert r["status"] != "found"


def test_a_deleted_icon_button_is_not_answered_with_the_hidden_words_of_another_items_button(page: Page) -> None:
    # Each API key's Copy and Delete buttons hold an icon and visually hidden words; the Delete of
    # the first key gone, the second key's Delete (and the "Delete key" words inside it) are others.
    delete = "document.querySelectorAll('#keys .btn-trash')[0]"
    assert trial(page, delete)["same"]
    r = trial(page, delete, f"{delete}.remove()")
    assert r["status"] != "found"


def test_a_copy_of_a_button_put_in_a_row_is_not_it_once_the_button_is_gone(page: Page) -> None:
    # The feed bar's button stands in the page's main part and in no item; a copy of it in Bob's
    # row stands in the same part, in an item (Bob's).
    answer = """(deleted) => {
        const compose = document.querySelector('#compose');
        compose.setAttribute('aria-label', 'Compose');
        const sig = JSON.parse(JSON.stringify(refindLib.captureSignature(compose)));
        document.querySelectorAll('#users tr')[1].cells[1].append(compose.cloneNode(true));
        if (deleted) compose.remove();
        const r = refindLib.refind(sig);
        return {status: r.status, same: r.element === compose, inRow: !!(r.element && r.element.closest('tr'))};
    }"""
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate(answer, False) == {"status": "found", "same": True, "inRow": False}
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    r = page.evaluate(answer, True)
    assert r["status"] != "found" and not r["inRow"]


# Two navigations in the page's main part: the pagination (no name) and a named table of contents.
NAVS = """(change) => {
    const main = document.querySelector('main');
    main.insertAdjacentHTML('beforeend', '<nav id="pages"><a href="/list?p=1">Previous</a> <a href="/list?p=3">Next</a></nav>'
        + '<nav aria-label="Contents"><a href="/docs/intro">Intro</a> <a href="/docs/setup">Setup</a></nav>');
    const prev = document.querySelector('#pages a');
    const sig = JSON.parse(JSON.stringify(refindLib.captureSignature(prev)));
    if (change.includes('copy')) document.querySelector('nav[aria-label=Contents]').append(prev.cloneNode(true));
    if (change.includes('delete')) prev.remove();
    if (change.includes('name')) document.querySelector('#pages').setAttribute('aria-label', 'Pages');
    const r = refindLib.refind(sig);
    return {status: r.status, same: r.element === prev, inContents: !!(r.element && r.element.closest('nav[aria-label=Contents]'))};
}"""


def test_a_copy_in_a_named_navigation_is_not_the_link_of_a_nameless_one_that_still_stands(page: Page) -> None:
    def navs(change: str) -> dict:
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        return page.evaluate(NAVS, change)

    assert navs("copy") == {"status": "found", "same": True, "inContents": False}
    r = navs("copy delete")
    assert r["status"] != "found" and not r["inContents"]
    # Its own navigation given a name is still its own.
    assert navs("name") == {"status": "found", "same": True, "inContents": False}
