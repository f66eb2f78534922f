"""Ask first before risky actions: the host's own judgement of a click or Enter from the target's
words, kind and form (risk.judge), and the worker waiting for the user's yes (agent core, real
openai client, scripted LLM, fake browser)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from support.agent_harness import prompts, run_task
from support.fake_browser import El, FakeBrowser
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.env import AgentEnv
from heybro.agent.models import TaskStatus
from heybro.agent.risk import judge
from heybro.agent.toolbox import CLICK, FILL, PRESS


def el(tag: str, text: str = "", role: str | None = None, form: str | None = None,
       value: str = "", focused: bool = False, **attrs: str) -> dict[str, Any]:
    """A page-map signature as the DOM agent captures it (only what risk.judge reads)."""
    return {"tag": tag, "role": role or {"a": "link", "button": "button"}.get(tag, tag),
            "name": text, "text": text, "attrs": attrs, "label": attrs.pop("label", ""),
            "state": {"value": value, "focused": focused},
            "context": {"zones": [form] if form else [], "item": ""}}


@pytest.mark.parametrize("target, what", [
    (el("button", "Place order"), "spend money"),
    (el("button", "Pay now"), "spend money"),
    (el("button", "Complete purchase"), "spend money"),
    (el("a", "Buy now"), "spend money"),
    (el("button", "Subscribe — $9/month"), "spend money"),
    (el("input", "Confirm and pay", type="submit"), "spend money"),
    (el("button", "Send"), "send or publish"),
    (el("button", "Publish"), "send or publish"),
    (el("button", "Post comment"), "send or publish"),
    (el("div", "Tweet", role="button"), "send or publish"),
    (el("button", "Delete"), "delete"),
    (el("a", "Move to Trash"), "delete"),
    (el("button", "", **{"aria-label": "Delete message"}), "delete"),
    (el("menuitem", "Remove from team"), "delete"),
    (el("button", "Cancel my subscription"), "delete"),
])
def test_risky_targets_in_many_wordings(target: dict[str, Any], what: str) -> None:
    risk = judge(CLICK.effects.risk, {"element_id": "t"}, {"t": target})
    assert risk is not None and risk.what == what


@pytest.mark.parametrize("target", [
    el("button", "Search"), el("button", "Next"), el("a", "Posts"), el("a", "New post"),
    el("button", "Add to cart"), el("a", "Checkout"), el("button", "Cancel"),
    el("a", "Send us feedback"),  # a link that opens a page
])
def test_everyday_targets_are_not_asked_about(target: dict[str, Any]) -> None:
    assert judge(CLICK.effects.risk, {"element_id": "t"}, {"t": target}) is None


def test_submitting_a_form_with_personal_data_is_risky_by_click_or_enter() -> None:
    page = {"n": el("input", "Full name", form="form:/register", value="Ann Lee", type="text",
                    name="fullname"),
            "m": el("input", "Email", form="form:/register", value="ann@example.com",
                    type="email", focused=True),
            "s": el("button", "Continue", form="form:/register"),
            "q": el("input", "Search", form="form:/search", value="kettle", type="search"),
            "g": el("button", "Go", form="form:/search")}
    assert judge(CLICK.effects.risk, {"element_id": "s"}, page).what == "submit personal data"  # type: ignore[union-attr]
    assert judge(PRESS.effects.risk, {"element_id": "m", "keys": "Enter"}, page) is not None
    assert judge(PRESS.effects.risk, {"keys": "Enter"}, page) is not None  # to the focused field
    assert judge(CLICK.effects.risk, {"element_id": "g"}, page) is None  # a search is not personal data
    assert judge(PRESS.effects.risk, {"element_id": "q", "keys": "Enter"}, page) is None
    assert judge(FILL.effects.risk, {"element_id": "m", "value": "x"}, page) is None  # typing sends nothing


def shop() -> FakeBrowser:
    return FakeBrowser(pages={
        "http://shop/pay": [El("e1", "input", "Card number"),
                            El("e2", "button", "Place order", href="http://shop/done", submit=True)],
        "http://shop/done": [El("e1", "text", "Order confirmed #A1")]})


def person(*answers: str) -> Any:
    def hook(env: AgentEnv) -> None:
        async def answer() -> None:
            for text in answers:
                while not env.control.asking:
                    await asyncio.sleep(0.01)
                env.control.answer(text)
                while env.control.asking:
                    await asyncio.sleep(0.01)
        asyncio.get_running_loop().create_task(answer())
    return hook


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
        task, rec, result = run_task(llm, b, url="http://shop/pay", env_hook=person("Yes"),
                                     env_extra={"HEYBRO_CONFIRM": "1"})
    assert result.status == TaskStatus.completed, task.result
    assert len(b.bookings) == 1
    q = rec.kinds("question")[0]
    assert q["kind"] == "confirm" and q["choices"] == ["Yes", "No"]
    assert 'button "Place order"' in q["text"] and "spend money" in q["text"]


def test_a_no_means_the_action_never_happens_and_the_worker_is_told() -> None:
    b = shop()
    script = order_script(call("mark_done", summary="The user declined paying"))
    with ScriptedLLM(script) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/pay", env_hook=person("No"),
                                     env_extra={"HEYBRO_CONFIRM": "1"})
        second = prompts(llm, "worker")[1]
    assert b.bookings == [] and ("click", "e2") not in [(t, a.get("element_id")) for t, a in b.calls]
    assert "FAILED declined: The user said no to click on button \"Place order\"" in second


def test_sites_the_user_trusts_are_not_asked_about(tmp_path: Path) -> None:
    b = shop()
    (tmp_path / "c.json").write_text('{"confirm_off_sites": ["shop"]}')
    with ScriptedLLM(order_script()) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/pay",
                                     env_extra={"HEYBRO_CONFIRM": "1"}, config_file=tmp_path / "c.json")
    assert result.status == TaskStatus.completed and len(b.bookings) == 1
    assert rec.kinds("question") == []
