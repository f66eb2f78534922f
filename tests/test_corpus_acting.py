"""Acting on real applications as they are built, end to end through `heybro run` (the scripted
model reads every id off the page map): a rich-text editor living in a frame, a confirm() the page
asks before switching editors, and a view the page loads by script without navigating. Each outcome
is checked in the application's own state. A dialog the application opens by itself, after the
page was read or as it loads, is named when it is in the way and answered from the map."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.browser import launch
from support.corpus import app
from support.corpus_task import CorpusTask, done, logged_in, map_line, one_subtask, run_corpus_task, started, verified, when_page_says
from support.dom_rig import error, ok
from support.scripted_llm import call, calls, find_id

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def roundcube() -> Iterator[Any]:
    if app("roundcube").missing():
        pytest.skip("Roundcube is not installed (scripts/setup installs it)")
    with tempfile.TemporaryDirectory(prefix="heybro-roundcube-") as d, started("roundcube", Path(d)) as running:
        yield running


def _html_mail(_: Any) -> dict[str, list[Any]]:
    return {
        "scheduler": one_subtask("Write the mail in the HTML editor and send it"),
        "worker": [
            # The page asks "Switching editor type may cause text formatting to be lost…" (the
            # signature is in the body): yes, as the user wants the HTML editor.
            lambda b: call("click", element_id=find_id(b, 'link "HTML"'), dialog="accept"),
            lambda b: calls(("type", {"element_id": find_id(b, 'combobox "To"'), "text": "bob@example.com, "}),
                            ("fill", {"element_id": find_id(b, 'textbox "Subject"'), "value": "Two kettles"})),
            # The letter is written in the editor's frame (TinyMCE): its body is the field.
            lambda b: call("type", element_id=find_id(b, "editable"), text="Please send two blue kettles by Friday."),
            lambda b: call("click", element_id=find_id(b, 'button "Send"')),
        ],
        "verifier": verified("Roundcube says the message was sent"),
    }


def _until_sent(_: Any) -> Any:
    # Sending is a request the page makes after the click: done once it is back at the mailbox.
    return when_page_says("Messages 1 to", done("The mail is sent"))


def _html_mail_check(rc: Any, run: Any) -> None:
    sent = [m for m in rc.sent() if m["subject"] == "Two kettles"]
    assert len(sent) == 1, rc.sent()
    assert sent[0]["to"] == ["bob@example.com"] and sent[0]["headers_to"] == "bob@example.com", sent[0]  # once
    assert "Please send two blue kettles by Friday." in sent[0]["text"], sent[0]["text"]
    # heybro answered the page's confirm() as the call asked, and said so.
    clicks = [r for r in run.results("click") if r.get("result", {}).get("dialog")]
    assert clicks and clicks[0]["result"]["dialog"]["answer"] == "accepted", run.results("click")


def test_a_mail_is_written_in_the_rich_text_editor_of_a_frame_after_a_confirm(roundcube: Any) -> None:
    task = CorpusTask("roundcube", "writes a mail in the HTML editor", "Send bob@example.com a mail 'Two kettles' "
                      "asking for two blue kettles by Friday, written in the HTML editor",
                      "/?_task=mail&_action=compose", _html_mail, _html_mail_check, default=_until_sent, kind="create")
    with logged_in(roundcube) as eb:
        run_corpus_task(task, roundcube, eb)


def _folder_question(_: Any) -> dict[str, list[Any]]:
    def read(b: dict[str, Any]) -> dict[str, Any]:
        # The list the page fetched for the folder, read off the map as it is now.
        line = map_line(b, "Budget approval")
        return calls(("answer", {"text": f"The Work folder holds: {line.strip()}"}), ("mark_done", {"summary": "Read the Work folder"}))
    return {
        "scheduler": one_subtask("Open the Work folder and read its messages"),
        "worker": [
            # The folder's messages come by XHR: no navigation; the next look shows them.
            lambda b: call("click", element_id=find_id(b, 'link "Work"'), expect="text:Budget approval"),
            read,
        ],
        "verifier": verified("The Work folder's list is shown"),
    }


def test_a_folder_whose_list_the_page_loads_by_script_is_read_after_the_click(roundcube: Any) -> None:
    work = [m["subject"] for m in roundcube.messages("Work")]
    assert "Budget approval" in work and "Budget approval" not in [m["subject"] for m in roundcube.messages("INBOX")]
    task = CorpusTask("roundcube", "reads a folder loaded by script", "What is in my Work folder?",
                      "/?_task=mail&_mbox=INBOX", _folder_question,
                      lambda rc, run: None, kind="answer")
    with logged_in(roundcube) as eb:
        run = run_corpus_task(task, roundcube, eb)
    answer = run.final.get("answer") or ""
    assert "Budget approval" in answer, (answer, work)
    # The click changed the page without navigating, and the map of the folder came with it.
    click = run.results("click")[0]
    assert click["success"] and not click["result"].get("navigated"), click
    assert "Book club" not in answer  # an Inbox message: the list read is the folder's


# --- a dialog the application opens by itself ----------------------------------------------------------

@pytest.fixture(scope="module")
def syncthing() -> Iterator[Any]:
    if app("syncthing").missing():
        pytest.skip("Syncthing is not installed (scripts/setup installs it)")
    with tempfile.TemporaryDirectory(prefix="heybro-syncthing-") as d, started("syncthing", Path(d)) as running:
        yield running


def _map_id(text: str, line: str) -> str:
    """The id on the page map's line reading `line` (what the model reads, not a selector)."""
    m = re.search(r"\[(e\d+)\] " + re.escape(line) + r"(\n| )", text)
    assert m, f"no line {line!r} in the map:\n{text[:3000]}"
    return m.group(1)


def test_a_dialog_that_opens_by_itself_is_named_in_the_refusal_and_answered_from_the_map(syncthing: Any) -> None:
    with launch(install_host=False) as eb:
        page = eb.ctx.new_page()
        page.set_viewport_size({"width": 1280, "height": 800})
        syncthing.login(page)
        add = _map_id(ok(eb, "observe")["text"], "button Add Folder")
        # The console asks its usage-reporting question on its own (here: after the map was read).
        page.evaluate("$('#ur').modal('show')")
        err = error(eb, "click", {"element_id": add})
        # The refusal names what is in the way by its title — even while it is still fading in.
        assert err["code"] == "covered" and 'the dialog "Allow Anonymous Usage Reporting?"' in err["message"], err
        text = ok(eb, "observe")["text"]
        assert "Under a cover" in text and "[" + add + "]" not in text, text
        ok(eb, "click", {"element_id": _map_id(text, "button No")})
        assert str(syncthing.config()["options"]["urAccepted"]) == "-1", syncthing.config()["options"]
        ok(eb, "click", {"element_id": add})  # the same id, usable again once the dialog is answered
        assert "textbox Folder Label" in ok(eb, "observe")["text"]


def test_a_dialog_open_when_the_page_loads_is_read_with_the_page(syncthing: Any) -> None:
    with launch(install_host=False) as eb:
        page = eb.ctx.new_page()
        page.set_viewport_size({"width": 1280, "height": 800})
        syncthing.login(page)
        # A first visit hours ago: the console asks on load, once its configuration has come.
        page.evaluate("document.cookie = 'firstVisit=' + (Date.now() - 5 * 3600 * 1000) + ';max-age=2592000'")
        syncthing.api("PUT", "/rest/config/options", {**syncthing.config()["options"], "urAccepted": 0})
        page.reload()
        # It opens once the console's configuration has come (later on a loaded machine): waited
        # for as a person waits for the page.
        ok(eb, "wait_for", {"text": "Allow Anonymous Usage Reporting?", "seconds": 20})
        text = ok(eb, "observe")["text"]
        assert "# Allow Anonymous Usage Reporting?" in text and "button Yes" in text, text
        assert "button Add Folder" not in text, text  # behind it: nothing a person can reach
