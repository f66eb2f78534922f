"""Tasks on Spirit (the Riverside Cyclists' forum, Ann Lee an administrator): post a topic in a
category, reply to a topic found by its title in its category, delete a reply and a spam topic on
their confirm pages, and answer who started a topic — each checked in the forum's SQLite database."""

from __future__ import annotations

import re
from typing import Any

from ..corpus.spirit import Spirit
from ..corpus_task import CorpusTask, done, one_subtask, page_of, verified
from ..scripted_llm import call, calls, find_id

NEW_TITLE = "Group ride to Harewood House"
NEW_TEXT = "Saturday at 9:00 from the bridge, 45 km with a café stop at Harewood. All welcome."


def _to_category(name: str) -> list[Any]:
    """From the forum's start page to a category's topic list: the "All Categories" menu, then
    the category in it."""
    return [
        lambda b: call("click", element_id=find_id(b, 'link "All Categories"')),
        lambda b: call("click", element_id=find_id(b, f'link "{name}"'), expect="url:/category/"),
    ]


def _topic_id(app: Spirit, title: str) -> int:
    return int(app.sql("SELECT id FROM spirit_topic_topic WHERE title = ?", title)[0][0])


def _live_comments(app: Spirit) -> dict[int, int]:
    """Comments not removed, by their id: their topic."""
    return {int(i): int(t) for i, t in app.sql("SELECT id, topic_id FROM spirit_comment_comment WHERE is_removed = 0")}


# --- create: a topic in a category --------------------------------------------------------------------

def _create(_: Spirit) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Post the Harewood ride topic in Rides & Events"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, 'link "Create Topic"'), expect="url:/topic/publish/"),
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Title"'), "value": NEW_TITLE}),
                            ("select", {"element_id": find_id(b, 'combobox "Category"'), "value": "Rides & Events"}),
                            ("fill", {"element_id": find_id(b, 'textbox "Comment"'), "value": NEW_TEXT})),
            lambda b: call("click", element_id=find_id(b, 'button "Publish"'), expect=f"text:{NEW_TITLE}"),
            done("The topic is posted"),
        ],
        "verifier": verified("The forum shows the new topic"),
    }


def _create_check(app: Spirit, _: Any) -> None:
    made = [t for t in app.topics() if t["title"] == NEW_TITLE]
    assert len(made) == 1, made
    t = made[0]
    assert (t["category"], t["author"], t["is_removed"]) == ("Rides & Events", "ann", False), t
    assert app.comments(t["id"]) == [("ann", NEW_TEXT)], app.comments(t["id"])


# --- edit: a reply to a topic found by its title --------------------------------------------------------

TUBELESS = "Tubeless tyre keeps losing air"
REPLY = "I run 30 ml of sealant in 28 mm tyres and top it up every three months."


def _reply(_: Spirit) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask(f"Reply to the topic '{TUBELESS}'"),
        "worker": [
            *_to_category("Bike Repair"),
            lambda b: call("click", element_id=find_id(b, f'link "{TUBELESS}"'), expect="url:/topic/"),
            # The reply box at the end of the topic.
            lambda b: calls(("fill", {"element_id": find_id(b, 'textbox "Write comment"'), "value": REPLY}),
                            ("click", {"element_id": find_id(b, 'button "Publish"'), "expect": "text:top it up every three months"})),
            done("The reply is posted"),
        ],
        "verifier": verified("The topic shows the reply"),
    }


def _reply_check(app: Spirit, run: Any) -> None:
    tid = _topic_id(app, TUBELESS)
    assert app.comments(tid)[-1] == ("ann", REPLY), app.comments(tid)
    now = _live_comments(app)
    added = {c: t for c, t in now.items() if c not in run.before}
    assert list(added.values()) == [tid], added  # one new comment, in that topic alone
    assert all(c in now for c in run.before), "a comment was removed"


# --- delete: a reply, on its confirm page ---------------------------------------------------------------

WHEEL = "Rear wheel wobbles after a pothole"
FARID = "Or bring it to the repair night on Wednesday."


def _confirmed(then: str, report: str) -> Any:
    """Apply on Spirit's confirm page when the press led there; else the deletion was posted
    already, and the report follows."""
    def step(b: dict[str, Any]) -> Any:
        url = re.search(r"^URL: (\S+)", page_of(b), re.M)
        if url and "/delete/" in url.group(1):
            return call("click", element_id=find_id(b, 'button "Apply"'), expect=then)
        return done(report)
    return step


def _delete_comment(_: Spirit) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask(f"Delete Farid's reply '{FARID}'"),
        "worker": [
            *_to_category("Bike Repair"),
            lambda b: call("click", element_id=find_id(b, f'link "{WHEEL}"'), expect="url:/topic/"),
            # The delete link under that reply (the first one after its text).
            # Spirit's script posts the deletion as the link is pressed (its class js-post); a click
            # that lands before the script is ready opens the confirm page instead: either way.
            lambda b: call("click", element_id=find_id(b, 'link "delete"', within=FARID)),
            _confirmed("url:/topic/", "The reply is deleted"),
            done("The reply is deleted"),
        ],
        "verifier": verified("The topic no longer shows the reply"),
    }


def _delete_comment_check(app: Spirit, run: Any) -> None:
    target = app.sql("SELECT c.id FROM spirit_comment_comment c JOIN auth_user u ON u.id = c.user_id "
                     "WHERE c.comment = ? AND u.username = 'farid'", FARID)
    assert len(target) == 1, target
    now = _live_comments(app)
    assert target[0][0] not in now, "the reply is not removed"
    assert [c for c in run.before if c not in now] == [target[0][0]], "another comment was removed too"


# --- delete: a spam topic, through the moderation menu --------------------------------------------------

SPAM = "Buy cheap bike parts here!!!"


def _delete_topic(_: Spirit) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask(f"Delete the topic '{SPAM}'"),
        "worker": [
            lambda b: call("click", element_id=find_id(b, f'link "{SPAM}"'), expect="url:/topic/"),
            lambda b: call("click", element_id=find_id(b, 'link "Moderate"')),
            lambda b: call("click", element_id=find_id(b, 'link "Delete topic"')),
            _confirmed("url:/category/", "The topic is deleted"),
            done("The topic is deleted"),
        ],
        "verifier": verified("The forum no longer lists the topic"),
    }


def _live_topics(app: Spirit) -> list[str]:
    return sorted(t["title"] for t in app.topics() if not t["is_removed"])


def _delete_topic_check(app: Spirit, run: Any) -> None:
    assert [t["is_removed"] for t in app.topics() if t["title"] == SPAM] == [True]
    now = _live_topics(app)
    assert [t for t in run.before if t not in now] == [SPAM], (run.before, now)


# --- answer: who started a topic ---------------------------------------------------------------------------

CHAIN = "Chain skips under load"


def _read_starter(b: dict[str, Any]) -> dict[str, Any]:
    # What a model reads: the first post under the topic's title, with its author's name.
    page = page_of(b)
    after = page[page.index(f"# {CHAIN}"):]
    who = re.search(r"^\[e\d+\] link ([A-Z]\w+ [A-Z]\w+)$", after, re.M)
    assert who, after[:2000]
    return calls(("answer", {"text": f"{who.group(1)} started the topic '{CHAIN}'."}),
                 ("mark_done", {"summary": "Read the author of the topic's first post"}))


def _answer(_: Spirit) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask(f"Find who started the topic '{CHAIN}'"),
        "worker": [
            *_to_category("Bike Repair"),
            lambda b: call("click", element_id=find_id(b, f'link "{CHAIN}"'), expect="url:/topic/"),
            _read_starter,
        ],
        "verifier": verified("The topic's first post shows its author"),
    }


def _answer_check(app: Spirit, run: Any) -> None:
    first, last = app.sql("SELECT u.first_name, u.last_name FROM spirit_topic_topic t JOIN auth_user u "
                          "ON u.id = t.user_id WHERE t.title = ?", CHAIN)[0]
    assert f"{first} {last}" in (run.final.get("answer") or ""), (run.final, first, last)


TASKS = [
    CorpusTask("spirit", "posts a topic in a category", f"Post a new topic '{NEW_TITLE}' in Rides & Events: {NEW_TEXT}",
               "/", _create, _create_check, kind="create"),
    CorpusTask("spirit", "replies to a topic found by its title", f"Reply to the topic '{TUBELESS}': {REPLY}",
               "/", _reply, _reply_check, kind="edit", before=_live_comments),
    CorpusTask("spirit", "deletes a reply on its confirm page", f"Delete Farid's reply '{FARID}' in the topic "
               f"'{WHEEL}'", "/", _delete_comment, _delete_comment_check, kind="delete", before=_live_comments),
    CorpusTask("spirit", "deletes a spam topic through the moderation menu", f"Delete the spam topic '{SPAM}'",
               "/", _delete_topic, _delete_topic_check, kind="delete", before=_live_topics),
    CorpusTask("spirit", "answers who started a topic", f"Who started the topic '{CHAIN}'?", "/", _answer,
               _answer_check, kind="answer"),
]
