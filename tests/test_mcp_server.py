"""`heybro mcp` end to end: the official SDK's client drives the real `heybro mcp` over real stdio;
it reaches the real host of a real Chromium with the real extension loaded, whose side panel
(Playwright, playing the user) shows the calling agent's task and where the user answers, pauses
and stops. The demo shop counts its orders; the model, for run_task, is the scripted stand-in."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from heybro.demo import DemoSite
from heybro.endpoint import files
from support import demo_script
from support.browser import ExtBrowser, host_pids, launch
from support.browser import test_env as base_env
from support.mcp_client import McpClient, text_of
from support.scripted_llm import ScriptedLLM, call, calls, user_text
from support.shop_rig import wait_status

pytestmark = pytest.mark.browser


@dataclass
class Rig:
    site: DemoSite
    eb: ExtBrowser
    panel: Page
    agent: McpClient


@contextmanager
def rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: dict | None = None
        ) -> Iterator[Rig]:
    """The user's browser with heybro's panel open (its host announced), and an MCP client
    connected to `heybro mcp`, whose environment has the scripted model's settings."""
    with DemoSite() as site, ScriptedLLM(script or {}) as llm, \
            launch(home=tmp_path / "home") as eb:
        panel = eb.open_panel()
        monkeypatch.setenv("HEYBRO_HOME", str(eb.home))
        deadline = time.monotonic() + 30
        while files.read() is None:
            assert time.monotonic() < deadline, "the browser's host never announced itself"
            time.sleep(0.1)
        with McpClient(eb.env | llm.env()) as agent:
            yield Rig(site, eb, panel, agent)


def element(page_map: str, words: str) -> str:
    """The id of the page map's control line that holds `words`."""
    m = re.search(r"\[(e\d+)\b[^\n]*" + re.escape(words), page_map)
    assert m, f"no control {words!r} in:\n{page_map}"
    return m.group(1)


def test_run_task_is_heybros_own_task_with_its_steps_as_progress(tmp_path: Path,
                                                                 monkeypatch) -> None:
    with rig(tmp_path, monkeypatch, demo_script.lean()) as r:
        done = r.agent.call("run_task", goal="Buy a blue kettle for Ann Lee", url=r.site.url,
                            timeout=180)
        outcome = done.structured_content
        assert not done.is_error, text_of(done)
        assert outcome["status"] == "completed"
        assert len(r.site.orders) == 1
        assert r.site.orders[0]["id"] in outcome["reason"]
        # Each step reached the caller as a progress notification while the task ran.
        steps = [p for p in r.agent.progress if p.lstrip().startswith("[step")]
        assert any('click(' in s and 'Place order' in s for s in steps), r.agent.progress
        assert any("checked by heybro" in p for p in r.agent.progress)
        # It is a task of heybro's history, shown in the user's panel.
        listed = r.agent.call("list_tasks").structured_content["tasks"]
        assert listed[0]["task_id"] == outcome["task_id"] and listed[0]["status"] == "completed"
        wait_status(r.panel, "Completed")
        expect(r.panel.locator("#task-goal")).to_contain_text("Buy a blue kettle")


def test_page_calls_act_through_heybros_checks_in_a_task_the_user_sees(tmp_path: Path,
                                                                       monkeypatch) -> None:
    with rig(tmp_path, monkeypatch) as r:
        # No tab yet: heybro never takes the tab the user is looking at by itself.
        first = r.agent.call("observe")
        assert first.is_error and first.structured_content["error_code"] == "no_tab"
        task_id = first.structured_content["task_id"]
        expect(r.panel.locator("#task-goal")).to_contain_text("Test Agent acting in your browser")
        r.agent.call("navigate", url=r.site.url)
        page = text_of(r.agent.call("observe"))
        assert page.startswith("PAGE (untrusted content")
        filled = r.agent.call("fill", element_id=element(page, "Search products"),
                              value="blue kettle", expect="value:blue kettle")
        assert filled.structured_content["checked"].startswith("expected met")
        searched = r.agent.call("click", element_id=element(page, "button Search"),
                                expect="text:No such product")
        # heybro checked the expectation on the page the click left, and says it did not hold.
        assert searched.structured_content["checked"].startswith("expected NOT met")
        assert searched.structured_content["page_changed"] is True
        page = text_of(r.agent.call("observe"))
        r.agent.call("click", element_id=element(page, "link Blue Kettle"))
        page = text_of(r.agent.call("observe"))
        # "Buy now" leads to the checkout page: followed without a question.
        bought = r.agent.call("click", element_id=element(page, "Buy now"))
        assert not bought.is_error, text_of(bought)
        page = text_of(r.agent.call("observe"))
        r.agent.call("fill", element_id=element(page, "Full name"), value="Ann Lee")
        r.agent.call("fill", element_id=element(page, "Email"), value="ann@example.com")
        # A risky click waits for the user's yes in the panel, never the caller's.
        placing = r.agent.start("click", element_id=element(page, "Place order"),
                                expect="text:Order confirmed")
        question = r.panel.locator("#question")
        expect(question).to_contain_text('button "Place order"', timeout=30_000)
        assert r.site.orders == []
        question.get_by_role("button", name="Yes").click()
        placed = placing.result(60)
        assert placed.structured_content["checked"].startswith("expected met"), text_of(placed)
        assert len(r.site.orders) == 1
        # The task's record in heybro's history holds each call, by element, as the panel shows.
        shown = r.eb.heybro("show", task_id)
        assert 'click button "Place order"' in shown.stdout or "Place order" in shown.stdout, \
            shown.stdout
    # The agent disconnected: its task is over in the record.
    listed = r.eb.heybro("tasks")
    assert task_id in listed.stdout and "completed" in listed.stdout.split(task_id, 1)[1][:60]


def test_what_the_caller_may_not_reach_or_decide(tmp_path: Path, monkeypatch) -> None:
    with rig(tmp_path, monkeypatch) as r:
        user_tab = r.eb.ctx.new_page()
        user_tab.goto(r.site.url + "search?q=teapot")
        r.panel.bring_to_front()
        refused = r.agent.call("navigate", url="file:///etc/passwd")
        assert refused.is_error and refused.structured_content["error_code"] == "not_allowed"
        opened = r.agent.call("navigate", url=r.site.url + "product/p1").structured_content
        task_id = opened["task_id"]
        tabs = r.agent.call("list_tabs").structured_content["result"]
        assert "teapot" not in str(tabs)  # the user's other tab is only counted, never shown
        switched = r.agent.call("switch_tab", tab_id=123456789)
        assert switched.is_error and switched.structured_content["error_code"] == "not_allowed"
        page = text_of(r.agent.call("observe"))
        r.agent.call("click", element_id=element(page, "Buy now"))  # (to the checkout: no question)
        page = text_of(r.agent.call("observe"))
        buying = r.agent.start("click", element_id=element(page, "Place order"))
        question = r.panel.locator("#question")
        expect(question).to_contain_text('button "Place order"', timeout=30_000)
        # While heybro waits for the user, the caller's calls are not run, and its "yes" is no
        # answer: confirmations are the user's alone.
        held = r.agent.call("observe").structured_content
        assert held["error_code"] == "waiting"
        said = r.agent.call("message", task_id=task_id, text="Yes")
        assert said.is_error and "only they answer that" in text_of(said)
        question.get_by_role("button", name="No").click()
        declined = buying.result(60)
        assert declined.is_error and declined.structured_content["error_code"] == "declined"
        assert "the user said no" in declined.structured_content["decided"]
        page = text_of(r.agent.call("observe"))
        assert "/checkout" in page.split("TITLE:", 1)[0]  # still on the checkout page
        assert r.site.orders == []


def test_the_user_pauses_and_stops_the_agent_from_the_panel_mid_call(tmp_path: Path,
                                                                     monkeypatch) -> None:
    with rig(tmp_path, monkeypatch) as r:
        r.agent.call("navigate", url=r.site.url)
        waiting = r.agent.start("wait_for", text="Never on this page", seconds=6)
        wait_status(r.panel, "Working")
        r.panel.click("#pause")
        waited = waiting.result(30)  # the call in flight ends as it would have
        assert waited.structured_content["error_code"] in ("timeout", None), text_of(waited)
        wait_status(r.panel, "Paused", 30_000)
        held = r.agent.call("observe")
        assert held.is_error and held.structured_content["error_code"] == "paused"
        task_id = held.structured_content["task_id"]
        status = r.agent.call("task_status", task_id=task_id).structured_content
        assert status["status"] == "paused"
        r.panel.click("#resume")
        wait_status(r.panel, "Working", 30_000)
        assert not r.agent.call("observe").is_error
        waiting = r.agent.start("wait_for", text="Never on this page", seconds=6)
        time.sleep(1)
        r.panel.click("#stop")
        waiting.result(30)
        wait_status(r.panel, "Stopped", 30_000)
        after = r.agent.call("observe")
        assert after.is_error and "stopped your heybro task" in text_of(after)
        # heybro does not reopen what the user closed: still refused, no new task in the panel.
        again = r.agent.call("navigate", url=r.site.url)
        assert again.is_error
        assert r.agent.call("list_tasks", limit=5).structured_content["tasks"][0]["status"] \
            == "stopped"


def test_the_caller_answers_heybros_plain_question_and_follows_the_task_on(
        tmp_path: Path, monkeypatch) -> None:
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Pick the kettle's colour"]}),
                                  ("start_work", {}))],
              "worker": [call("ask_user", question="Which colour?", kind="choice",
                              choices=["blue", "red"]),
                         lambda b: call("mark_done", summary="The user chose "
                                        + ("blue" if '"blue"' in user_text(b) else "??"))],
              "verifier": [lambda b: call("mark_complete", confidence=0.9, reason=(
                  "The user chose blue" if "The user chose blue" in user_text(b) else "??"))]}
    with rig(tmp_path, monkeypatch, script) as r:
        asked = r.agent.call("run_task", goal="Choose a kettle colour", url=r.site.url)
        outcome = asked.structured_content
        assert outcome["status"] == "waiting" and outcome["question"]["text"] == "Which colour?"
        assert "message(task_id=" in text_of(asked)
        said = r.agent.call("message", task_id=outcome["task_id"], text="blue")
        assert not said.is_error, text_of(said)
        done = r.agent.call("task_status", task_id=outcome["task_id"], wait=True)
        assert done.structured_content["status"] == "completed", text_of(done)
        assert "The user chose blue" in text_of(done)
        # The panel shows whose answer it was.
        expect(r.panel.locator("#log")).to_contain_text("Test Agent (outside agent): blue")


def test_with_no_browser_running_it_launches_one_on_the_first_page_call_and_closes_it(
        tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {k: v for k, v in base_env(home).items() if k != "DISPLAY"}  # (as from a desktop app)
    with DemoSite() as site:
        with McpClient(env) as agent:
            assert len(agent.tools()) > 20
            assert host_pids(home) == []  # listing the tools starts nothing
            listed = agent.call("list_tasks")  # nor does a look at heybro's record
            assert not listed.is_error and host_pids(home) == [], text_of(listed)
            missing = agent.call("run_routine", name="no-such-routine")
            assert missing.is_error and "no-such-routine" in text_of(missing)
            moved = agent.call("navigate", url=site.url, timeout=120)
            assert not moved.is_error, text_of(moved)
            assert host_pids(home), "the launched browser's host"
            page = text_of(agent.call("observe"))
            assert "Welcome to Kettle & Co" in page
        deadline = time.monotonic() + 20
        while host_pids(home) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert host_pids(home) == []  # the browser it launched went with it
