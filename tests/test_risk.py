"""Ask first before risky actions: the page's agent holds a risky press for the user's yes
(content/act_gate.js, tested in the real browser by tests/test_act_gate.py), and the host asks and
sends it again with the yes bound to it, or tells the worker the user said no (agent core, real
openai client, scripted LLM, fake browser)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.agent_harness import answering, prompts, run_task
from support.fake_browser import El, FakeBrowser
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.models import TaskStatus


def shop() -> FakeBrowser:
    return FakeBrowser(pages={
        "http://shop/pay": [El("e1", "input", "Card number"),
                            El("e2", "button", "Place order", href="http://shop/done", submit=True,
                               risk="spend money")],
        "http://shop/done": [El("e1", "text", "Order confirmed #A1")]})


def order_script(*extra_worker: Any) -> dict[str, list[Any]]:
    return {"scheduler": [calls(("set_subtasks", {"subtasks": ["Pay for the order"]}),
                                ("start_work", {}))],
            "worker": [calls(("fill", {"element_id": "e1", "value": "4242"}),
                             ("click", {"element_id": "e2", "expect": "text:Order confirmed"}),
                             ("mark_done", {"summary": "Paid"})), *extra_worker],
            "verifier": [call("mark_complete", reason="done", confidence=0.9)]}


def test_a_risky_click_waits_for_the_users_yes() -> None:
    b = shop()
    with ScriptedLLM(order_script()) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/pay", env_hook=answering("Yes"),
                                     env_extra={"HEYBRO_CONFIRM": "1"})
    assert result.status == TaskStatus.completed, task.result
    assert len(b.bookings) == 1
    q = rec.kinds("question")[0]
    assert q["kind"] == "confirm" and q["choices"] == ["Yes", "No"]
    assert '"Place order"' in q["text"] and "spend money" in q["text"]
    assert rec.kinds("tool_result")[-1]["decided"] == "heybro asked first (spend money); the user said yes" or \
        any(r.get("decided") == "heybro asked first (spend money); the user said yes" for r in rec.kinds("tool_result"))


def test_a_no_means_the_action_never_happens_and_the_worker_is_told() -> None:
    b = shop()
    script = order_script(call("mark_done", summary="The user declined paying"))
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/pay", env_hook=answering("No"),
                                     env_extra={"HEYBRO_CONFIRM": "1"})
        second = prompts(llm, "worker")[1]
    # (the page's agent held the one click it was sent; nothing sent it again)
    assert b.bookings == [] and [a.get("element_id") for t, a in b.calls if t == "click"] == ["e2"]
    assert 'FAILED declined: The user said no to click button "Place order"' in second
    assert "heybro asked first (spend money); the user said no" in second


def test_sites_the_user_trusts_are_not_asked_about(tmp_path: Path) -> None:
    b = shop()
    (tmp_path / "c.json").write_text('{"confirm_off_sites": ["shop"]}')
    with ScriptedLLM(order_script()) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/pay",
                                     env_extra={"HEYBRO_CONFIRM": "1"}, config_file=tmp_path / "c.json")
    assert result.status == TaskStatus.completed and len(b.bookings) == 1
    assert rec.kinds("question") == []


def test_the_question_names_the_item_a_press_acts_on_and_is_asked_again_when_it_changed() -> None:
    """"Unsubscribe" in a feed's row: the question names the feed as the page shows it; the list
    re-drawn with another feed in its place is another press, asked about again."""
    feed = El("e2", "button", "Unsubscribe", risk="delete", place="Cooking at home")
    b = FakeBrowser(pages={"http://reader/feeds": [El("e1", "text", "Your feeds"), feed]})
    orig = b.call

    async def redrawn(tool: str, args: dict, **kw):  # type: ignore[no-untyped-def]
        if tool == "click" and args.get("gate", {}).get("approved"):
            feed.place = "Bank alerts"  # the list moved on between the yes and the press
        return await orig(tool, args, **kw)

    b.call = redrawn  # type: ignore[method-assign]
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Unsubscribe from Cooking at home"]}),
                                  ("start_work", {}))],
              "worker": [call("click", element_id="e2"), call("mark_done", summary="declined")],
              "verifier": [call("mark_complete", reason="done", confidence=0.9)]}
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, url="http://reader/feeds", env_hook=answering("Yes", "No"),
                                     env_extra={"HEYBRO_CONFIRM": "1"})
    first, second = (q["text"] for q in rec.kinds("question"))
    assert first.startswith('About to click button "Unsubscribe" in "Cooking at home" on reader — this may delete')
    assert second.startswith('About to click button "Unsubscribe" in "Bank alerts"')
