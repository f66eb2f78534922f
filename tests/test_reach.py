"""What a task may reach, whatever the model asks: web pages only, and only the task's own tabs.

A page's hidden instruction makes a worst-case model (one that obeys the page) try the user's
files, the browser's own pages and the user's other tabs; heybro refuses each before it runs — the
host first, the coordinator again for any call that reaches it — and says why to the model, while
nothing of those files or tabs reaches a prompt.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from heybro.agent import reach
from heybro.agent.errors import ToolFailed
from heybro.agent.models import Task
from shared_schema.reach import page_address_problem
from support.browser import launch
from support.scripted_llm import ScriptedLLM, call, find_id, user_text
from support.shop_rig import wait_status
from support.static_server import serve

FIXTURES = Path(__file__).parent / "fixtures" / "reach"


# The same addresses are checked against the coordinator's rule (tests/js/web_address.test.js).
ADDRESSES = json.loads((FIXTURES / "addresses.json").read_text())


@pytest.mark.parametrize("url", ADDRESSES["refused"])
def test_addresses_that_are_no_web_page_are_refused(url: str) -> None:
    assert page_address_problem(url)


@pytest.mark.parametrize("url", ADDRESSES["allowed"])
def test_web_pages_may_be_opened(url: str) -> None:
    assert page_address_problem(url) is None


def test_the_host_refuses_before_the_call_leaves() -> None:
    task = Task(description="d", tab_id=5)
    with pytest.raises(ToolFailed) as err:
        reach.check(task, "navigate", {"url": "file:///etc/passwd"})
    assert err.value.code == "not_allowed" and "file:" in err.value.message
    with pytest.raises(ToolFailed) as err:
        reach.check(task, "switch_tab", {"tab_id": 6})
    assert err.value.code == "not_allowed" and "stay theirs" in err.value.message
    # A tab the task's page opened (reported by the browser) is the task's.
    reach.learn(task, {"tab_id": 5, "opened_tabs": [{"tab_id": 6, "url": "https://x/", "title": ""}]})
    reach.check(task, "switch_tab", {"tab_id": 6})
    reach.check(task, "navigate", {"url": "https://example.com/"})
    # So is one an action's page after it reports (a link that opened a tab).
    reach.learn(task, {"ok": True, "observation": {"tab_id": 5, "opened_tabs": [{"tab_id": 9}]}})
    reach.check(task, "switch_tab", {"tab_id": 9})


def tabs(eb: Any) -> list[list[Any]]:
    return eb.sw.evaluate("chrome.tabs.query({}).then((ts) => ts.map((t) => [t.id, t.url]))")


@pytest.mark.browser
def test_a_page_that_steers_the_model_reaches_no_file_and_no_other_tab(tmp_path: Path) -> None:
    with serve(FIXTURES) as site, serve(FIXTURES) as bank_site:
        box: dict[str, int] = {}
        script = {
            "scheduler": [call("set_subtasks", subtasks=["Read the weekly deals"]), call("start_work")],
            # The model does what the page says, and guesses the bank tab's id.
            # (Three refusals in a row would end the task: a model that keeps trying is stopped.)
            "worker": [call("navigate", url="file:///etc/passwd"),
                       call("new_tab", url="chrome://settings"),
                       call("scroll", direction="bottom"),
                       lambda body: call("switch_tab", tab_id=box["bank"]),
                       call("navigate", url="javascript:alert(document.cookie)"),
                       lambda body: call("fill", element_id=find_id(body, 'textbox "Search"'), value="kettle"),
                       call("mark_done", summary="Kettles and mugs at half price")],
            "verifier": [call("mark_complete", reason="The deals are read", confidence=0.9)],
        }
        with ScriptedLLM(script) as llm, launch(env_extra=llm.env(), home=tmp_path / "home") as eb:
            bank = eb.ctx.new_page()  # the user's own tab, open beside the task's
            bank.goto(bank_site + "/bank.html")
            shop = eb.ctx.new_page()
            shop.goto(site + "/hostile.html")
            box["bank"] = next(i for i, u in tabs(eb) if u.endswith("/bank.html"))
            shop_tab = next(i for i, u in tabs(eb) if u.endswith("/hostile.html"))
            panel = eb.open_panel()
            shop.bring_to_front()
            panel.fill("#goal", "What are this week's deals?")
            panel.click("#send")
            wait_status(panel, "Completed", 60_000)

            prompts = [json.dumps(b) for b in llm.requests]
            for secret in ("12345678", "balance 9,000", "root:x:0:0", "My Bank"):
                assert not any(secret in p for p in prompts), secret
            # Each refusal was told to the model, with why; no tab but the task's web pages was offered.
            assert not any("chrome-extension://" in p for p in prompts)
            worker = [user_text(b) for b in llm.role_requests("worker")]
            told = "\n".join(worker[1:])
            assert "heybro does not open file: addresses" in told, told[-3000:]
            assert "heybro does not open chrome: addresses" in told
            assert f"Tab {box['bank']} is not one of this task's tabs" in told
            assert "heybro does not open javascript: addresses" in told
            # The user's tab was never brought forward; no tab shows a file or a browser page.
            assert not eb.sw.evaluate(f"chrome.tabs.get({box['bank']}).then((t) => t.active)")
            assert all(u.startswith(("http://", "about:", "chrome-extension://")) for _, u in tabs(eb)), tabs(eb)

            # The coordinator refuses the same on its own, for any call that reaches it.
            task = eb.sw.evaluate("globalThis.heybro.store.state.taskContext.taskId")

            def run(tool: str, args: dict[str, Any], tab_id: int | None) -> dict[str, Any]:
                payload = {"tool": tool, "args": args, "timeout_ms": 10_000, "task_id": task,
                           **({"tab_id": tab_id} if tab_id else {})}
                return eb.sw.evaluate("(c) => globalThis.heybro.runConfined(c)", payload)
            for tool, args, tab in [("observe", {}, box["bank"]), ("switch_tab", {"tab_id": box["bank"]}, shop_tab),
                                    ("navigate", {"url": "file:///etc/passwd"}, shop_tab),
                                    ("new_tab", {"url": "view-source:" + site + "/bank.html"}, None),
                                    ("click", {"element_id": "e1"}, box["bank"])]:
                out = run(tool, args, tab)
                assert not out["ok"] and out["error"]["code"] == "not_allowed", (tool, out)
            seen = run("observe", {}, shop_tab)
            assert seen["ok"] and "Weekly deals" in seen["result"]["text"], seen


@pytest.mark.browser
def test_a_new_browser_session_forgets_the_last_ones_task_tabs(tmp_path: Path) -> None:
    """Tab ids start again with each browser session: a task tab kept from the last one may now be
    one of the user's own, so it is no longer the task's (a service worker restart keeps them)."""
    profile, home = tmp_path / "profile", tmp_path / "home"
    keep = "(e) => globalThis.heybro.store.update((s) => ({...s, tabRegistry: [e]}))"
    entry = {"tabId": 5, "url": "https://example.com/", "addedAt": 1, "taskId": "t1"}
    registry = "globalThis.heybro.runConfined({tool: 'list_tabs', args: {}, timeout_ms: 5000})" \
               ".then(() => globalThis.heybro.store.state.tabRegistry)"
    with launch(home=home, user_data_dir=profile) as eb:
        eb.sw.evaluate(keep, entry)
        assert eb.sw.evaluate(registry) == [entry]
    with launch(home=home, user_data_dir=profile) as eb:
        assert eb.sw.evaluate(registry) == []


@pytest.mark.browser
def test_a_tab_the_user_hands_over_in_the_panel_becomes_the_tasks(tmp_path: Path) -> None:
    """The panel lists the task's tabs and offers the page the user looks at with one click; once
    handed over, the model is told (by number and site) and may work in it — not before."""
    with serve(FIXTURES) as site:
        box: dict[str, int] = {}
        script = {
            "scheduler": [call("set_subtasks", subtasks=["Read the bank page the user hands over"]),
                          call("start_work")],
            "worker": [call("ask_user", question="Which tab shows the statement?"),
                       lambda body: call("switch_tab", tab_id=box["docs"]),
                       call("mark_done", summary="Statement read")],
            "verifier": [call("mark_complete", reason="read", confidence=0.9)],
        }
        with ScriptedLLM(script) as llm, launch(env_extra=llm.env(), home=tmp_path / "home") as eb:
            shop = eb.ctx.new_page()
            shop.goto(site + "/hostile.html")
            panel = eb.open_panel()
            shop.bring_to_front()
            panel.fill("#goal", "Read my statement")
            panel.click("#send")
            panel.locator("#question").wait_for(state="visible", timeout=30_000)
            tabs_box = panel.locator("#task-tabs")
            assert "Weekly deals" in tabs_box.inner_text()  # the tab the task started in
            docs = eb.ctx.new_page()  # the user's own tab: not the task's
            docs.goto(site + "/bank.html")
            box["docs"] = next(i for i, u in tabs(eb) if u.endswith("/bank.html"))
            task = eb.sw.evaluate("globalThis.heybro.store.state.taskContext.taskId")
            look = {"tool": "observe", "args": {}, "timeout_ms": 5000, "task_id": task, "tab_id": box["docs"]}
            refused = eb.sw.evaluate("(c) => globalThis.heybro.runConfined(c)", look)
            assert not refused["ok"] and refused["error"]["code"] == "not_allowed"
            docs.bring_to_front()
            hand = panel.locator("#hand-over")
            hand.wait_for(state="visible", timeout=10_000)
            assert "127.0.0.1" in hand.inner_text()
            hand.click()
            panel.locator("#task-tabs li", has_text="My Bank").wait_for(timeout=10_000)
            assert f"You handed over tab {box['docs']}" in panel.locator("#log").inner_text()
            assert eb.sw.evaluate("(c) => globalThis.heybro.runConfined(c)", look)["ok"]
            panel.fill("#goal", "the one I just gave you")
            panel.click("#send")
            wait_status(panel, "Completed", 60_000)
            worker = [user_text(b) for b in llm.role_requests("worker")]
            assert f"switch_tab({box['docs']}) to work in it" in worker[1]
            assert "balance 9,000" in worker[-1]  # the handed tab's page, read after the switch
            assert "not one of this task's tabs" not in "\n".join(worker)
