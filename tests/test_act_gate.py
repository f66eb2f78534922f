"""The last look before an action, in the real extension in real Chromium (content/act_gate.js):
a press is judged by what it does — its words, where it leads, what its form carries, the small
print beside it — right before it happens; a yes is bound to that effect (a control that changed
is asked about again); an action runs only on the origin it was judged for; a secret goes only
into a field for it; a press that sends data to a site the user never named is held for the host.
Nothing refused is pressed (the page's own record says so)."""

from __future__ import annotations

from typing import Any

import pytest

from support.dom_rig import browser, error, find_id, ok, open_page, page, site, sites  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

ASK = {"confirm": True}


def press(browser: Any, name: str, gate: dict[str, Any], role: str | None = None) -> dict[str, Any]:
    obs = ok(browser, "observe")
    eid = find_id(obs, name, role)
    from support.dom_rig import tool
    return tool(browser, "click", {"element_id": eid, "signature": obs["elements"][eid], "gate": gate})


def pressed(page: Any) -> list[str]:
    return page.evaluate("window.__pressed.slice()")


@pytest.mark.parametrize("name, what", [
    ("Place order", "spend money"), ("Pay now", "spend money"), ("Complete purchase", "spend money"),
    ("Buy now", "spend money"), ("Subscribe — $9/month", "spend money"), ("Confirm and pay", "spend money"),
    ("Send", "send or publish"), ("Publish", "send or publish"), ("Post comment", "send or publish"),
    ("Tweet", "send or publish"), ("Delete", "delete"), ("Move to Trash", "delete"),
    ("Delete message", "delete"), ("Remove from team", "delete"), ("Cancel my subscription", "delete"),
])
def test_risky_words_are_held_for_the_users_yes_and_nothing_is_pressed(browser, page, site, name, what):
    open_page(page, site + "/effects.html")
    r = press(browser, name, ASK)
    assert not r["ok"] and r["error"]["code"] == "needs_approval", r
    assert what in [x["what"] for x in r["error"]["detail"]["reasons"]]
    assert pressed(page) == []


# (A link to another page is judged by where it leads: its words are the title of what it opens.)
@pytest.mark.parametrize("name", ["Search", "Next", "Posts", "New post", "Add to cart", "Checkout",
                                  "Cancel", "Send us feedback", "Go", "Insert",
                                  "Buy cheap bike parts here!!!"])
def test_everyday_controls_are_pressed_without_asking(browser, page, site, name):
    open_page(page, site + "/effects.html")
    r = press(browser, name, ASK)
    assert r["ok"], r
    assert pressed(page) == [name]


def test_harmless_words_with_a_costly_effect_are_held(browser, page, site):
    """"Continue" whose form posts to /subscribe with plan=yearly beside "$499 a year"; "View
    details" leading to /account/delete?confirm=1."""
    open_page(page, site + "/effects.html")
    r = press(browser, "Continue", ASK)
    assert r["error"]["code"] == "needs_approval"
    said = " ".join(x["said"] for x in r["error"]["detail"]["reasons"])
    assert "/subscribe" in said and "$499 a year" in said and 'plan: "yearly"' in said
    assert r["error"]["detail"]["effect"]["method"] == "post"
    r = press(browser, "View details", ASK)
    assert r["error"]["code"] == "needs_approval"
    assert r["error"]["detail"]["reasons"][0]["what"] == "delete"
    assert pressed(page) == []


def test_a_form_that_carries_a_means_of_payment_is_held(browser, page, site):
    """A price typed into a product form spends nothing ("Insert" above); a card number sent on
    does, whatever the button says."""
    open_page(page, site + "/effects.html")
    r = press(browser, "Review order", ASK)
    assert r["error"]["code"] == "needs_approval"
    assert [x["said"] for x in r["error"]["detail"]["reasons"]] == ["its form carries your Card number"]
    assert pressed(page) == []


def test_a_yes_holds_for_that_effect_only(browser, page, site):
    """Approved by its digest it is pressed; relabelled afterwards ("Pay $500 now") it is held
    again, and the old yes does not reach it."""
    open_page(page, site + "/effects.html")
    page.evaluate("document.getElementById('newsletter').textContent = 'Subscribe to the free newsletter'")
    held = press(browser, "Subscribe to the free newsletter", ASK)["error"]
    digest = held["detail"]["digest"]
    page.evaluate("document.getElementById('newsletter').textContent = 'Pay $500 now'")
    again = press(browser, "Pay $500 now", {**ASK, "approved": [digest]})
    assert again["error"]["code"] == "needs_approval" and again["error"]["detail"]["digest"] != digest
    assert pressed(page) == []
    page.evaluate("document.getElementById('newsletter').textContent = 'Subscribe to the free newsletter'")
    assert press(browser, "Subscribe to the free newsletter", {**ASK, "approved": [digest]})["ok"]
    assert pressed(page) == ["Subscribe to the free newsletter"]


def test_a_press_names_the_item_it_acts_on_and_a_yes_holds_for_that_item_only(browser, page, site):
    """Two feeds, each with its "Unsubscribe": the effect names the feed the press removes; a yes
    for one feed does not reach the button once the list shows another feed in its place."""
    open_page(page, site + "/effects.html")
    obs = ok(browser, "observe")
    first = next(e for e, s in obs["elements"].items() if s.get("name") == "Unsubscribe")
    from support.dom_rig import tool
    held = tool(browser, "click", {"element_id": first, "signature": obs["elements"][first], "gate": ASK})["error"]
    assert held["code"] == "needs_approval" and held["detail"]["effect"]["place"] == "Cooking at home 12 new"
    digest = held["detail"]["digest"]
    page.evaluate("document.getElementById('feed1').textContent = 'Bank alerts'")  # the list moved on
    again = tool(browser, "click", {"element_id": first, "signature": obs["elements"][first],
                                    "gate": {**ASK, "approved": [digest]}})["error"]
    assert again["code"] == "needs_approval" and again["detail"]["effect"]["place"] == "Bank alerts 12 new"
    assert pressed(page) == []


def test_an_action_runs_only_on_the_origin_it_was_judged_for(browser, page, site):
    open_page(page, site + "/effects.html")
    r = press(browser, "Next", {"origin": "http://elsewhere.test:1"})
    assert r["error"]["code"] == "origin_changed" and r["error"]["detail"]["origin"] == site
    assert pressed(page) == []
    assert press(browser, "Next", {"origin": site})["ok"]


def test_a_secret_goes_only_into_a_field_for_it(browser, page, site):
    open_page(page, site + "/effects.html")
    obs = ok(browser, "observe")
    plain, pw, otp = (find_id(obs, n) for n in ("Reference", "Password", "One-time code"))
    assert error(browser, "fill", {"element_id": plain, "value": "hunter2", "gate": {"secret": "password"}})["code"] == "not_allowed"
    assert page.input_value("#plain") == ""
    assert error(browser, "fill", {"element_id": otp, "value": "hunter2", "gate": {"secret": "password"}})["code"] == "not_allowed"
    ok(browser, "fill", {"element_id": pw, "value": "hunter2", "gate": {"secret": "password"}})
    ok(browser, "fill", {"element_id": otp, "value": "739201", "gate": {"secret": "code"}})
    assert page.input_value("#pw") == "hunter2" and page.input_value("#otp") == "739201"


def test_a_press_that_sends_data_to_a_site_not_named_is_held_for_the_host(browser, page, sites):
    a, b = sites
    open_page(page, f"{a}/effects.html?away={b}")
    named = [a.split("://", 1)[1]]
    r = press(browser, "Send reference", {"named": named})
    assert r["error"]["code"] == "needs_approval"
    assert r["error"]["detail"]["reasons"] == [{"kind": "leaves", "site": b.split("://", 1)[1]}]
    assert [f["value"] for f in r["error"]["detail"]["effect"]["fields"]] == ["48213"]
    assert press(browser, "Save note", {"named": named})["ok"]  # its own site
    assert press(browser, "Send reference", {"named": [*named, b.split("://", 1)[1]]})["ok"]
    assert pressed(page) == ["Save note", "Send reference"]


def test_a_control_relabelled_as_the_browsers_pointer_arrives_is_not_pressed_but_judged_again(browser, page, site):
    """The browser's own input reaches the page a moment after the last look: a button "Get the
    free newsletter" that becomes "Pay $500 now" as the pointer arrives gets no press; the action
    comes back held, with the effect as it is now."""
    open_page(page, site + "/relabel.html")
    r = press(browser, "Get the free newsletter", ASK)
    assert not r["ok"] and r["error"]["code"] == "needs_approval", r
    reasons = r["error"]["detail"]["reasons"]
    assert "changed" in [x["kind"] for x in reasons], reasons
    assert "spend money" in [x.get("what") for x in reasons]
    assert r["error"]["detail"]["effect"]["words"].startswith("Pay $500 now")
    assert page.evaluate("window.__trusted") == []


def test_enter_or_space_on_a_control_is_a_press_of_it(browser, page, site):
    """Keys that activate a control (Enter on a button or a link, Space on a button) are judged as
    a press of that control; Enter in a search field submits a harmless form."""
    from support.dom_rig import tool
    open_page(page, site + "/effects.html")
    obs = ok(browser, "observe")
    for name, keys in (("Delete", "Enter"), ("Move to Trash", "Enter"), ("Pay now", " ")):
        eid = find_id(obs, name)
        r = tool(browser, "press", {"element_id": eid, "keys": keys, "gate": ASK})
        assert not r["ok"] and r["error"]["code"] == "needs_approval", (name, r)
    assert tool(browser, "press", {"element_id": find_id(obs, "Query"), "keys": "Enter", "gate": ASK})["ok"]
    assert pressed(page) == []


def test_a_checkbox_or_a_select_whose_form_sends_a_charge_is_held(browser, page, site):
    """Controls of a form that sends itself as they change (a checkbox, a select) are judged by
    what the form would send: its action and hidden fields say a yearly charge."""
    from support.dom_rig import tool
    open_page(page, site + "/effects.html")
    obs = ok(browser, "observe")
    agree, tier = find_id(obs, "I agree to the terms"), find_id(obs, "Plan")
    r = tool(browser, "check", {"element_id": agree, "gate": ASK})
    assert r["error"]["code"] == "needs_approval" and "spend money" in [x["what"] for x in r["error"]["detail"]["reasons"]]
    r = tool(browser, "select", {"element_id": tier, "value": "Premium", "gate": ASK})
    assert r["error"]["code"] == "needs_approval"
    assert page.is_checked("input[name=agree]") is False and page.input_value("select[name=tier]") == "Basic"


def test_a_toggle_is_not_judged_by_the_words_of_its_setting_nor_a_click_into_a_field_by_its_form(browser, page, site):
    """A tick box picking a file says what a person may then do with it ("Click here to rename,
    delete, etc."): ticking it deletes nothing. Clicking into a field of a form that charges sends
    nothing either: the press that sends it (Claim) is the one asked about."""
    from support.dom_rig import tool
    open_page(page, site + "/effects.html")
    obs = ok(browser, "observe")
    assert tool(browser, "check", {"element_id": find_id(obs, "notes.txt"), "gate": ASK})["ok"]
    r = tool(browser, "click", {"element_id": find_id(obs, "Member number"), "gate": ASK})
    assert r["ok"], r
    r = tool(browser, "click", {"element_id": find_id(obs, "Claim"), "gate": ASK})
    assert r["error"]["code"] == "needs_approval", r


def test_what_a_pages_script_sends_as_heybro_presses_is_judged_as_it_leaves(browser, page, site):
    """An "OK" whose script posts a payment and a checkbox whose change starts a subscription say
    nothing of it on the page: the requests are stopped before they leave and the action comes
    back held; with the user's yes covering the press, the request goes once; an ordinary save
    is not held, nor a read the page makes as it reacts (a GET asks, it changes nothing: its
    words are the page's vocabulary, "cancel" and "delete" among them)."""
    from support.dom_rig import tool
    open_page(page, site + "/script_effects.html")
    obs = ok(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "OK"), "gate": ASK})
    assert r["error"]["code"] == "needs_approval", r
    assert r["error"]["detail"]["effect"]["target"].endswith("/pay")
    assert "spend money" in [x["what"] for x in r["error"]["detail"]["reasons"]]
    r = tool(browser, "check", {"element_id": find_id(obs, "Keep me updated"), "gate": ASK})
    assert r["error"]["code"] == "needs_approval"
    page.wait_for_function("window.__stopped.length === 2")
    assert page.evaluate("window.__sent") == []
    assert tool(browser, "click", {"element_id": find_id(obs, "Save"), "gate": ASK})["ok"]
    assert tool(browser, "click", {"element_id": find_id(obs, "Show help"), "gate": ASK})["ok"]
    page.wait_for_function("window.__sent.includes('help')")
    assert tool(browser, "click", {"element_id": find_id(obs, "OK"), "gate": {**ASK, "covers": True}})["ok"]
    page.wait_for_function("window.__sent.length === 3")
    assert page.evaluate("window.__sent") == ["notes/save", "help", "pay"]


def test_a_form_a_script_sends_is_judged_by_what_the_form_says_and_a_stopped_one_leaves_the_page(browser, page, site):
    """A "Renew" whose script builds a hidden form posting a yearly $499 plan and sends it: the
    navigation is stopped as it leaves and the page stays where it was (the action can be done
    again after a yes, and then it goes); a form whose price a person typed is no charge — the
    form itself says which of its fields are the page's own."""
    from support.dom_rig import tool
    open_page(page, site + "/script_effects.html")
    obs = ok(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Renew"), "gate": ASK})
    assert r["error"]["code"] == "needs_approval", r
    assert r["error"]["detail"]["effect"]["target"].endswith("/subscribe")
    assert "spend money" in [x["what"] for x in r["error"]["detail"]["reasons"]]
    assert page.url.endswith("/script_effects.html") and page.is_visible("#renew")
    assert tool(browser, "fill", {"element_id": find_id(obs, "Price"), "value": "13.75", "gate": ASK})["ok"]
    r = tool(browser, "click", {"element_id": find_id(obs, "Insert"), "gate": ASK})
    assert r["ok"], r
    page.wait_for_url("**/products/add")
    open_page(page, site + "/script_effects.html")
    obs = ok(browser, "observe")
    assert tool(browser, "click", {"element_id": find_id(obs, "Renew"), "gate": {**ASK, "covers": True}})["ok"]
    page.wait_for_url("**/subscribe")
