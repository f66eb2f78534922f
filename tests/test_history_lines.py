"""What the worker's next prompt says an action did: a browser dialog the action opened — and the
answer heybro gave it — is said, since a confirm answered Cancel means the deletion did not
happen."""

from __future__ import annotations

from heybro.agent.history import call_line
from heybro.agent.models import ToolCall


def _click(dialog: dict | None, **result: object) -> ToolCall:
    return ToolCall(tool="click", parameters={"element_id": "e22"}, success=True, page_changed=True,
                    result={"ok": True, **result, **({"dialog": dialog} if dialog else {})})


def test_a_confirm_answered_cancel_is_said_with_how_to_answer_ok() -> None:
    line = call_line(_click({"kind": "confirm", "text": "Are you sure?", "answer": "dismissed"}))
    assert 'asked (confirm) "Are you sure?"' in line and "answered Cancel, so it did not go ahead" in line
    assert 'dialog="accept"' in line and "page changed" not in line, line


def test_a_confirm_answered_ok_and_an_alert_are_said() -> None:
    line = call_line(_click({"kind": "confirm", "text": "Delete order 14?", "answer": "accepted"}, navigated=True))
    assert 'answered OK' in line and "page changed" in line, line
    line = call_line(_click({"kind": "alert", "text": "Saved!", "answer": "accepted"}))
    assert 'showed an alert "Saved!"' in line, line


def test_an_action_without_a_dialog_reads_as_before() -> None:
    assert call_line(_click(None, navigated=True)) == "click(element_id='e22') → ok, page changed"


def test_a_click_whose_replay_was_withheld_says_why() -> None:
    # The page ignored the script's click as far as anyone could see, but had sent a request: the
    # browser's own click was not used (it would have been a second one); the model reads why.
    why = ("The browser's own input was not used: the page had already reacted to the script's click "
           "(it started a request (fetch), answered or not), so doing it again would have done it twice.")
    line = call_line(_click(None, trusted_withheld=why))
    assert line == f"click(element_id='e22') → ok, page changed; {why}"
