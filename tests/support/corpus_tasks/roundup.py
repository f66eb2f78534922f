"""Tasks on Roundup (the Harbor help desk's tracker): file an issue, change the status of one found
by its title in the issue index, retire a user from the user list, and answer who an issue is
assigned to — each checked in the tracker's own database (its SQLite file, read through Roundup)."""

from __future__ import annotations

import re
from typing import Any

from ..corpus.roundup import Roundup
from ..corpus_task import CorpusTask, done, one_subtask, page_of, verified
from ..scripted_llm import call, calls, find_id, user_text

NEW_TITLE = "Badge reader at the back door does not open"
NOTE = "The badge reader at the warehouse back door blinks red for every badge since this morning."


def _scroll_for(b: dict[str, Any], words: str) -> dict[str, Any] | None:
    """A scroll down when the row looked for is not in the map yet and the page goes on below."""
    if words in page_of(b) or re.search(r"Scroll: \d+px above, 0px below", page_of(b)) or "Scroll:" not in page_of(b):
        return None
    return call("scroll", direction="down", amount=1)


# --- create: an issue ----------------------------------------------------------------------------------

def _create(_: Roundup) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("File the issue about the back door badge reader"),
        "worker": [
            # The Issues line of the menu has its own "Create New" (the Keywords line has another).
            lambda b: call("click", element_id=find_id(b, 'link "Create New"', row="Issues"), expect="url:@template=item"),
            # The form is laid out as a table: each field after its label's words (`Title [e21 textbox]`).
            lambda b: calls(("fill", {"element_id": find_id(b, "textbox", after="Title"), "value": NEW_TITLE}),
                            ("select", {"element_id": find_id(b, "combobox", after="Priority"), "value": "urgent"}),
                            ("select", {"element_id": find_id(b, "combobox", after="Assigned To"), "value": "bob"})),
            lambda b: calls(("fill", {"element_id": find_id(b, "textbox", after="Change Note"), "value": NOTE}),
                            ("click", {"element_id": find_id(b, 'button "Submit New Entry"'), "expect": "text:created"})),
            done("The issue is filed"),
        ],
        "verifier": verified("The tracker shows the new issue"),
    }


def _create_check(app: Roundup, _: Any) -> None:
    made = [i for i in app.issues() if i["title"] == NEW_TITLE]
    assert len(made) == 1, made
    i = made[0]
    assert (i["priority"], i["assignedto"], i["messages"]) == ("urgent", "bob", 1), i
    # The note's box wraps hard (as it does for a person): the text comes back with line breaks.
    assert [(a, " ".join(t.split())) for a, t in app.messages(i["id"])] == [("ann", NOTE)], app.messages(i["id"])


# --- edit: the status of an issue found by its title in the index ------------------------------------

PROJECTOR = "Projector in room A shows no picture"


def _status(_: Roundup) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask(f"Set the status of '{PROJECTOR}' to in-progress"),
        "worker": [
            lambda b: _scroll_for(b, PROJECTOR) or call("click", element_id=find_id(b, f'link "{PROJECTOR}"', row=PROJECTOR),
                                                        expect="url:/issue"),
            lambda b: calls(("select", {"element_id": find_id(b, "combobox", after="Status"), "value": "in-progress"}),
                            ("click", {"element_id": find_id(b, 'button "Submit Changes"'), "expect": "text:edited ok"})),
            done("The status is in-progress"),
        ],
        "verifier": verified("The issue shows in-progress"),
    }


def _statuses(app: Roundup) -> dict[str, str]:
    return {i["title"]: i["status"] for i in app.issues()}


def _status_check(app: Roundup, run: Any) -> None:
    now = _statuses(app)
    assert now[PROJECTOR] == "in-progress", now[PROJECTOR]
    # no other issue changed (an issue filed meanwhile by another task is not in `before`)
    assert {t: s for t, s in now.items() if t in run.before and t != PROJECTOR} == \
        {t: s for t, s in run.before.items() if t != PROJECTOR}


# --- delete: retire a user from the user list --------------------------------------------------------

def _retire(_: Roundup) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Retire Hugo Brandt's user account"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'link "User List"'), expect="url:/user"),
            # The retire button of his row in the listing.
            lambda b: call("click", element_id=find_id(b, 'button "retire"', row="Hugo Brandt"), expect="text:retired"),
            done("Hugo Brandt's account is retired"),
        ],
        "verifier": verified("The user list no longer shows hugo"),
    }


def _active_users(app: Roundup) -> list[str]:
    return [r[0] for r in app.sql("SELECT _username FROM _user WHERE __retired__ = 0 ORDER BY _username")]


def _retire_check(app: Roundup, run: Any) -> None:
    assert app.sql("SELECT __retired__ != 0 FROM _user WHERE _username = 'hugo'") == [(1,)]
    assert _active_users(app) == [u for u in run.before if u != "hugo"], (run.before, _active_users(app))


# --- delete: retire a keyword in the class editor ---------------------------------------------------

TABLE = "keyword table"


def _memory(b: dict[str, Any], name: str) -> str | None:
    """A value the worker kept in its memory, as its prompt lists it — inside the fence of values
    read on pages, each further line of it indented under `- name: value` — read back as a model
    would: its lines, without the fence or the indent."""
    m = re.search(rf"^- {re.escape(name)}: (.*?)(?=\n- |\n\"\"\"|\n[A-Z][A-Z ]+:|\Z)", user_text(b), re.S | re.M)
    return "\n".join(ln.strip() for ln in m.group(1).strip().splitlines()) if m else None


def _edit_table(b: dict[str, Any]) -> dict[str, Any]:
    """The keyword table is one text box of CSV lines (`id,name`): the map shows only its first
    characters, so its whole text is read into memory first; then the "phone" line is left out."""
    box = find_id(b, "textbox", within="Remove entries by deleting their line")
    table = _memory(b, TABLE)
    if table is None:
        return call("extract", name=TABLE, element_id=box)
    # heybro issue: extract(element_id=<the text box>) keeps the repr of the whole browser result
    # (`{'ok': True, 'action': 'extract', … 'state': {'value': 'id,name\\n1,printer…'}}, 'text': ''}`)
    # instead of the box's text, and the map shows the box's value cut at 80 characters with its
    # lines run together and no sign that it is cut (`="id,name 1,printer … 8,secu"`).
    assert table.startswith("id,"), f"extract kept {table[:120]!r}, not the text box's text"
    kept = [ln for ln in table.splitlines() if ln.strip() and ln.split(",", 1)[-1].strip() != "phone"]
    assert len(kept) == len([ln for ln in table.splitlines() if ln.strip()]) - 1, table
    return calls(("fill", {"element_id": box, "value": "\n".join(kept) + "\n"}),
                 ("click", {"element_id": find_id(b, 'button "Edit Items"'), "expect": "text:Items edited OK"}))


def _retire_keyword(_: Roundup) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Remove the keyword phone"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'link "Class List"'), expect="url:classlist"),
            lambda b: call("click", element_id=find_id(b, 'link "Keyword"'), expect="url:/keyword"),
            _edit_table, _edit_table,
            done("The keyword phone is removed"),
        ],
        "verifier": verified("The keyword table no longer lists phone"),
    }


def _keywords(app: Roundup) -> list[str]:
    return [r[0] for r in app.sql("SELECT _name FROM _keyword WHERE __retired__ = 0 ORDER BY _name")]


def _retire_keyword_check(app: Roundup, run: Any) -> None:
    # The worker's own failure (its script step that could not go on), when it stopped short.
    assert app.sql("SELECT __retired__ != 0 FROM _keyword WHERE _name = 'phone'") == [(1,)], \
        f"phone is still a keyword; {' | '.join(run.script_errors)[:300]}"
    assert _keywords(app) == [k for k in run.before if k != "phone"], (run.before, _keywords(app))


# --- answer: who an issue is assigned to, read off the index ----------------------------------------

WIFI = "Wi-Fi weak in meeting room B"


def _read_assignee(b: dict[str, Any]) -> dict[str, Any]:
    scroll = _scroll_for(b, WIFI)
    if scroll:
        return scroll
    # What a model reads: the issue's row, each cell after its column's header.
    line = next(ln for ln in page_of(b).splitlines() if WIFI in ln)
    who = re.search(r"Assigned To (\w+)", line)
    assert who, line
    return calls(("answer", {"text": f"'{WIFI}' is assigned to {who.group(1)}."}),
                 ("mark_done", {"summary": "Read the Assigned To column of the issue index"}))


def _answer(_: Roundup) -> dict[str, list[Any]]:
    return {"scheduler": one_subtask(f"Find who '{WIFI}' is assigned to"), "worker": [_read_assignee] * 4,
            "verifier": verified("The index shows the assignee")}


def _answer_check(app: Roundup, run: Any) -> None:
    who = next(i["assignedto"] for i in app.issues() if i["title"] == WIFI)
    assert who and re.search(rf"\b{who}\b", run.final.get("answer") or ""), (run.final, who)


TASKS = [
    CorpusTask("roundup", "creates an issue", f"Create an urgent issue '{NEW_TITLE}' assigned to bob, with the note: "
               f"{NOTE}", "/", _create, _create_check, kind="create"),
    CorpusTask("roundup", "changes the status of an issue found by its title in the index",
               f"Set the status of the issue '{PROJECTOR}' to in-progress", "/", _status, _status_check,
               kind="edit", before=_statuses),
    CorpusTask("roundup", "retires a user from the user list", "Retire Hugo Brandt's user account", "/",
               _retire, _retire_check, kind="delete", before=_active_users),
    CorpusTask("roundup", "removes a keyword in the class editor", "Remove the keyword 'phone'", "/",
               _retire_keyword, _retire_keyword_check, kind="delete", before=_keywords),
    CorpusTask("roundup", "answers who an issue is assigned to", f"Who is the issue '{WIFI}' assigned to?", "/",
               _answer, _answer_check, kind="answer"),
]
