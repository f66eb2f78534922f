"""Tasks on Wagtail (the home-goods shop's CMS): create and publish a page with a paragraph written
into its rich-text body, rename a product page found by its title in the page explorer, delete a
page (through Wagtail's confirmation page), and answer who last edited an article, read off its
history — each checked in the site's SQLite database."""

from __future__ import annotations

import re
from typing import Any

from ..corpus.wagtail import Wagtail
from ..corpus_task import CorpusTask, done, one_subtask, page_of, verified, when_page_says
from ..scripted_llm import call, calls, find_id, find_ids

# The Pages menu's explorer, at the tree's root: every task walks down from there as a person does.
PAGES = "/admin/pages/"
HOME = "Harbor Home Goods"
BODY = "We open at 8 on Saturdays from March."
ARTICLE = "How to season a cast iron pan"


def _once_page_says(words: str, summary: str) -> Any:
    """The worker's steps once its script is spent (sent back by the verifier, whose facts were read
    before a slow save had loaded its next page): mark done when the page says so, else wait."""
    return lambda _: when_page_says(words, done(summary), wait_s=1.5)


class _Steps:
    """A worker's step list, each step acting on one element of the page map as a model does: while
    the page it expects (words of its heading) is not there yet it waits — a click that starts a
    slow navigation can come back before the new page has loaded — and, with `scroll`, while the
    element is not in the map it scrolls down (a long listing's rows below the fold are left out)."""

    def __init__(self) -> None:
        self.steps: list[Any] = []

    def on(self, page: str, label: str | None, act: Any, *, scroll: bool = False, tries: int = 5) -> _Steps:
        def step(b: dict[str, Any]) -> dict[str, Any]:
            nonlocal tries
            there = page in page_of(b)
            if (there and (label is None or find_ids(b, label))) or tries == 0:
                return act(b)
            tries -= 1
            self.steps.insert(0, step)  # this step again, on the next prompt
            return call("scroll", direction="down") if there and scroll else call("wait", seconds=1.5)
        self.steps.append(step)
        return self

    def click(self, page: str, label: str, *, within: str | None = None, row: str | None = None,
              expect: str | None = None, scroll: bool = False) -> _Steps:
        extra = {"expect": expect} if expect else {}
        return self.on(page, label, lambda b: call("click", element_id=find_id(b, label, within=within, row=row), **extra),
                       scroll=scroll)

    def explore(self, page: str, title: str) -> _Steps:
        """Opens the explorer's listing of the children of the page `title`."""
        return self.click(page, f"link \"Explore child pages of '{title}'\"")

    def then(self, step: Any) -> _Steps:
        self.steps.append(step)
        return self


def _create(_: Wagtail) -> dict[str, list[Any]]:
    def write(b: dict[str, Any]) -> dict[str, Any]:
        # The body is the editable region under the "Body" label (the map names the editor itself
        # by its class, "notranslate public"): the first textbox after that label.
        return calls(("fill", {"element_id": find_id(b, 'textbox "Title"'), "value": "Spring Opening Hours"}),
                     ("fill", {"element_id": find_id(b, "textbox", within="label Body"), "value": BODY}))

    form = "New: Standard page"
    steps = (_Steps().explore("Exploring: Root", HOME)
             .click(f"Exploring: {HOME}", 'link "Add child page"', expect="url:/add_subpage/")
             .click(f"Create a page in {HOME}", 'link "Standard page"', expect="url:/standardpage/")
             .on(form, 'textbox "Title"', write)
             # Publish is in the menu beside "Save draft".
             .click(form, 'button "More actions"', within="nav Actions")
             .click(form, 'button "Publish"', within="nav Actions", expect="text:created and published")
             .then(done("The page is created and published")))
    return {
        "scheduler": one_subtask("Create and publish the Spring Opening Hours page under the home page"),
        "worker": steps.steps,
        "verifier": verified("The explorer says the page was created and published") * 2,  # and once more after a correction
    }


def _create_check(app: Wagtail, _: Any) -> None:
    rows = app.sql("SELECT p.live, p.url_path, s.body FROM wagtailcore_page p JOIN home_standardpage s "
                   "ON s.page_ptr_id = p.id WHERE p.title = 'Spring Opening Hours'")
    assert len(rows) == 1, rows
    live, url_path, body = rows[0]
    assert live == 1 and url_path == "/home/spring-opening-hours/", rows
    assert re.sub(r"<[^>]+>", "", body).strip() == BODY, f"the page's body is {body!r}"


def _titles(app: Wagtail) -> dict[int, str]:
    return {p["id"]: p["title"] for p in app.pages_tree()}


def _edit(_: Wagtail) -> dict[str, list[Any]]:
    editor = "Editing Product page: Oak Tray"
    steps = (_Steps().explore("Exploring: Root", HOME).explore(f"Exploring: {HOME}", "Products")
             # The Oak Tray's row among the six product pages: its title links to its editor.
             .click("Exploring: Products", 'link "Oak Tray"', row="Oak Tray", expect="url:/edit/")
             .on(editor, 'textbox "Title"', lambda b: calls(
                 ("fill", {"element_id": find_id(b, 'textbox "Title"'), "value": "Oak Serving Tray"}),
                 ("click", {"element_id": find_id(b, 'button "More actions"', within="nav Actions")})))
             .click(editor, 'button "Publish"', within="nav Actions", expect="text:has been published")
             .then(done("The Oak Tray page is now Oak Serving Tray, published")))
    return {
        "scheduler": one_subtask("Rename the Oak Tray product page to Oak Serving Tray and publish it"),
        "worker": steps.steps,
        "verifier": verified("The explorer lists Oak Serving Tray as live") * 2,  # and once more after a correction
    }


def _edit_check(app: Wagtail, run: Any) -> None:
    before: dict[int, str] = run.before
    oak = next(i for i, t in before.items() if t == "Oak Tray")
    page = next(p for p in app.pages_tree() if p["id"] == oak)
    assert page["title"] == "Oak Serving Tray" and page["live"] == 1 and page["has_unpublished_changes"] == 0, page
    now = _titles(app)
    # No other page renamed (the other product pages are the look-alikes).
    changed = {i: (t, now.get(i)) for i, t in before.items() if i != oak and i in now and now[i] != t}
    assert not changed, changed


def _delete(_: Wagtail) -> dict[str, list[Any]]:
    steps = (_Steps().explore("Exploring: Root", HOME)
             # The row's "…" menu holds Delete.
             .click(f"Exploring: {HOME}", "button \"More options for 'Gift Cards'\"")
             .click(f"Exploring: {HOME}", "link \"Delete page 'Gift Cards'\"", expect="url:/delete/")
             .click("Delete Gift Cards", 'button "Yes, delete it"', expect="text:deleted")
             .then(done("The Gift Cards page is deleted")))
    return {
        "scheduler": one_subtask("Delete the Gift Cards page"),
        "worker": steps.steps,
        "verifier": verified("The explorer no longer lists Gift Cards") * 2,  # and once more after a correction
    }


def _page_count(app: Wagtail) -> int:
    return len(app.pages_tree())


def _delete_check(app: Wagtail, run: Any) -> None:
    titles = [p["title"] for p in app.pages_tree()]
    assert "Gift Cards" not in titles, "the Gift Cards page is still there"
    assert len(titles) == run.before - 1, (run.before, len(titles))  # that page alone (it has no children)


def _answer(_: Wagtail) -> dict[str, list[Any]]:
    def read(b: dict[str, Any]) -> dict[str, Any]:
        # What a model reads: the history table, newest first; the latest "Draft saved" is the last edit.
        rows = [ln for ln in page_of(b).splitlines() if ln.startswith("Action ") and " · User " in ln]
        edits = [ln for ln in rows if "Draft saved" in ln]
        assert edits, page_of(b)[:3000]
        who = re.search(r" · User (.+?) · ", edits[0])
        assert who, edits[0]
        return calls(("answer", {"text": f"{who.group(1)} last edited “{ARTICLE}”."}),
                     ("mark_done", {"summary": "Read the page's history"}))

    steps = (_Steps().explore("Exploring: Root", HOME).explore(f"Exploring: {HOME}", "Journal")
             # The Journal lists 14 articles; this one is below the fold.
             .click("Exploring: Journal", f"button \"More options for '{ARTICLE}'\"", scroll=True)
             .click("Exploring: Journal", f"link \"View page history for '{ARTICLE}'\"", expect="url:/history/")
             .on(f"History: {ARTICLE}", None, read))
    return {
        "scheduler": one_subtask(f"Find who last edited the page “{ARTICLE}”"),
        "worker": steps.steps,
        "verifier": verified("The page's history lists its edits, newest first"),
    }


def _answer_check(app: Wagtail, run: Any) -> None:
    who = app.sql("SELECT u.first_name || ' ' || u.last_name FROM wagtailcore_pagelogentry e "
                  "JOIN auth_user u ON u.id = e.user_id WHERE e.page_id = ? AND e.action = 'wagtail.edit' "
                  "ORDER BY e.timestamp DESC, e.id DESC LIMIT 1", app.page_id(ARTICLE))[0][0]
    answer = run.final.get("answer") or ""
    assert answer.startswith(who), (who, run.final)


TASKS = [
    CorpusTask("wagtail", "creates and publishes a page with a paragraph in its rich-text body",
               f"Create a new page under the home page titled “Spring Opening Hours” with the text “{BODY}” and publish it",
               PAGES, _create, _create_check, kind="create",
               default=_once_page_says("created and published", "The page is created and published")),
    CorpusTask("wagtail", "renames a product page found by its title in the explorer",
               "Rename the Oak Tray product page to “Oak Serving Tray” and publish the change",
               PAGES, _edit, _edit_check, kind="edit", before=_titles,
               default=_once_page_says("has been published", "The Oak Tray page is now Oak Serving Tray, published")),
    CorpusTask("wagtail", "deletes a page through its confirmation page", "Delete the Gift Cards page",
               PAGES, _delete, _delete_check, kind="delete", before=_page_count,
               default=_once_page_says("deleted", "The Gift Cards page is deleted")),
    CorpusTask("wagtail", "answers who last edited an article, from its history",
               f"Who last edited the article “{ARTICLE}”?", PAGES, _answer, _answer_check, kind="answer"),
]
