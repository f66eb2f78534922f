"""The worker's tools and what it sees of them: results of reading and tab tools in its next
prompt, tabs the page opened, the DOM agent's actions (hover, check, focus, wait_for, scroll),
and expectations checked right after their own action. Real agent core and `openai` client, the
scripted LLM server, the fake browser (tests/test_agent_extension.py runs them in Chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.agent_harness import feedback, plan, prompts, run_task
from support.fake_browser import FakeBrowser, shop
from support.scripted_llm import ScriptedLLM, call, calls

from heybro.agent.browser import Snapshot
from heybro.agent.expect import check
from heybro.agent import history
from heybro.agent.models import ExecutionCycle, ExpectedOutcome, Iteration, RoleResult, Task, TaskStatus, ToolCall
from heybro.store import TaskStore

def script(worker: list, subtasks: tuple[str, ...] = ("Do it",), **more: list) -> dict:
    return {"scheduler": [plan(*subtasks)], "worker": worker,
            "verifier": [call("mark_complete", reason="ok", confidence=0.9)
                         for _ in subtasks], **more}


def completed_worker_prompts(s: dict, b: FakeBrowser, **run: Any) -> list[str]:
    """Runs the scripted task to completion (asserted) and returns the worker's prompts."""
    with ScriptedLLM(s) as llm:
        task, rec, result = run_task(llm, b, **run)
        worker = prompts(llm, "worker")
    assert result.status == TaskStatus.completed, task.result
    return worker


def test_recall_history_shows_the_earlier_cycles_in_the_next_prompt() -> None:
    s = script([calls(("fill", {"element_id": "e1", "value": "kettle"}),
                      ("click", {"element_id": "e2"})),
                call("mark_done", summary="Results for kettle are listed"),
                call("recall_history"),
                call("mark_done", summary="recalled")],
               subtasks=("Search for kettle", "Say what was searched"))
    worker = completed_worker_prompts(s, shop())
    after = worker[3]
    assert "- recall_history() → ok\n  result:\n    Cycle 1: assignment: Search for kettle" in after
    assert "fill(element_id='e1', value='kettle') → ok" in after
    assert "worker: Results for kettle are listed" in after
    assert "verifier: mark_complete (model 0.90 ≥ 0.70; page: nothing checked): ok" in after


def test_tabs_the_page_opens_are_shown_and_tab_tools_say_where_the_worker_is() -> None:
    b = shop()
    s = script([call("click", element_id="e3"),          # opens Help in a new tab
                call("list_tabs"),
                call("switch_tab", tab_id=8),
                call("new_tab", url="http://shop/"),
                call("mark_done", summary="Help says 30 days")])
    worker = completed_worker_prompts(s, b, url="http://shop/terms")
    assert "OTHER TABS" not in worker[0]
    assert ("OTHER TABS (opened by this page; switch_tab(tab_id) to work there):\n"
            "[tab 8] help — http://shop/help") in worker[1]
    assert ("- list_tabs() → ok\n  result:\n    [tab 7] terms — http://shop/terms (active)\n"
            "    [tab 8] help — http://shop/help") in worker[2]
    assert "switch_tab(tab_id=8) → ok, page changed\n  result:\n    now in [tab 8] help" in worker[3]
    assert "URL: http://shop/help" in worker[3] and "Help centre: returns within 30 days" in worker[3]
    assert "now in [tab 9] page — http://shop/ (active)" in worker[4]
    # The older results are kept short; the latest one is shown in full.
    assert worker[4].count("result:") == 3


def test_dom_agent_tools_reach_the_browser_with_its_argument_names() -> None:
    b = shop()
    s = script([calls(("hover", {"element_id": "e2"}), ("check", {"element_id": "e1"}),
                      ("focus", {"element_id": "e2"})),
                calls(("scroll", {"direction": "bottom"}), ("scroll", {"element_id": "e3"}),
                      ("wait_for", {"text": "I accept", "seconds": 2})),
                call("wait_for", text="Account menu", gone=True, seconds=1),
                call("uncheck", element_id="e1"),
                call("mark_done", summary="terms unticked")],
               verifier=[call("mark_complete", reason="unticked", confidence=0.9,
                              overrule="Account menu: it stays, as menus do; the terms are unticked")])
    worker = completed_worker_prompts(s, b, url="http://shop/terms")
    sent = [(t, {k: v for k, v in a.items() if k not in ("signature", "observe_after", "gate")})
            for t, a in b.calls if t not in ("observe", "navigate")]
    # Every act carries the page agent's last look, for the page it was judged on (a wait does not).
    assert {t: (a.get("gate") or {}).get("origin") for t, a in b.calls if t not in ("observe", "navigate")} == {
        "hover": "http://shop", "check": "http://shop", "focus": "http://shop", "scroll": "http://shop",
        "wait_for": None, "uncheck": "http://shop"}
    assert sent == [("hover", {"element_id": "e2"}), ("check", {"element_id": "e1"}),
                    ("focus", {"element_id": "e2"}), ("scroll", {"direction": "bottom"}),
                    ("scroll", {"element_id": "e3"}),
                    ("wait_for", {"text": "I accept", "gone": False, "seconds": 2}),
                    ("wait_for", {"text": "Account menu", "gone": True, "seconds": 1}),
                    ("uncheck", {"element_id": "e1"})]
    assert b.hovered == ["e2"]
    assert "[e1] checkbox \"I accept the terms\" checked" in worker[1]
    assert "wait_for(text='I accept', seconds=2) → ok\n  result:\n    text found" in worker[2]
    # The menu never went away: the typed timeout reaches the worker.
    assert "wait_for(text='Account menu', gone=True, seconds=1) → FAILED timeout" in worker[3]
    assert "[e1] checkbox \"I accept the terms\" unchecked" in worker[4]


def test_wait_for_an_element_not_there_yet_by_role_and_name() -> None:
    b = shop()
    s = script([call("wait_for", role="button", name="Place order", seconds=1),
                call("mark_done", summary="it came")])
    with ScriptedLLM(s) as llm:
        run_task(llm, b)
    sent = [a for t, a in b.calls if t == "wait_for"]
    assert [{k: v for k, v in a.items() if k != "observe_after"} for a in sent] == [
        {"role": "button", "name": "Place order", "gone": False, "seconds": 1}]


def test_scroll_and_wait_for_need_something_to_act_on() -> None:
    s = script([call("scroll"), call("wait_for", seconds=3), call("scroll", direction="sideways"),
                call("mark_done", summary="nothing")])
    with ScriptedLLM(s, default={"worker": call("mark_done", summary="x")}) as llm:
        run_task(llm, shop(), env_extra={"HEYBRO_MAX_REPAIRS": "3"})
        said = " ".join(feedback(llm, "worker"))
    assert "give a direction (the page), or an element_id (to scroll to it)" in said
    assert "give text, element_id, role/name or url_contains to wait for" in said
    assert "call 1 scroll: direction: Input should be 'up', 'down', 'left', 'right', 'top' or " \
           "'bottom'" in said


def test_each_expectation_is_checked_right_after_its_own_action() -> None:
    """fill then click in one batch: the fill's expectation is read on the page it left (the
    search form), not on the results page the click leads to."""
    b = shop()
    s = script([calls(("fill", {"element_id": "e1", "value": "kettle",
                                "expect": 'text:value="kettle"; element:button "Go"'}),
                      ("click", {"element_id": "e2",
                                 "expect": "element:Blue Kettle; no element:Search"})),
                call("mark_done", summary="results")])
    with ScriptedLLM(s) as llm:
        task, rec, result = run_task(llm, b)
    checks = [(d["tool"], d["expectation"]["met"], d["expectation"]["detail"])
              for d in rec.kinds("tool_result") if d["expectation"]]
    assert checks == [
        # (the button was there before the fill too: true, and no sign of the fill)
        ("fill", True, "text 'value=\"kettle\"' is on the page; element button \"Go\" is on the "
                       "page (e2) — and already so before the action (it proves nothing about it)"),
        ("click", True, "element Blue Kettle is on the page (e1); element Search is gone")]
    assert result.status == TaskStatus.completed, task.result


def test_an_unmet_expectation_stops_the_batch_there() -> None:
    b = shop()
    s = script([calls(("check", {"element_id": "e1",
                                 "expect": {"element_disappears": "Account menu"}}),
                      ("click", {"element_id": "e2"}),
                      ("click", {"element_id": "e3"})),
                call("mark_done", summary="checked")])
    with ScriptedLLM(s) as llm:
        task, rec, result = run_task(llm, b, url="http://shop/terms")
        worker = prompts(llm, "worker")
    assert [t for t, _ in b.calls if t in ("check", "click")] == ["check"]
    assert ("check(element_id='e1') → ok; expected: NOT met (element Account menu is still on "
            "the page (e2))") in worker[1]
    assert ("NOT RUN: the batch stopped after check because its expectation was not met: "
            "click(element_id='e2'); click(element_id='e3').") in worker[1]
    facts = rec.kinds("verdict")[0]["facts"]
    assert [f["met"] for f in facts] == [False]


def test_element_expectations_by_name_or_role_and_name() -> None:
    snap = Snapshot(url="http://x/", elements={
        "e1": {"tag": "button", "role": "button", "name": "Place order"},
        "e2": {"tag": "input", "role": "textbox", "name": "", "label": "Email",
               "attrs": {"placeholder": "you@example.com"}}})

    def met(**expect: str) -> bool:
        return check("click", ExpectedOutcome(**expect), {}, {}, snap).met

    assert met(element_appears='button "Place order"') and met(element_appears="place  ORDER")
    assert not met(element_appears='link "Place order"')
    assert met(element_appears="you@example") and met(element_appears='textbox "Email"')
    assert met(element_disappears="Cancel order") and not met(element_disappears="Place order")


def images_of(body: dict) -> list[str]:
    content = body["messages"][1]["content"]
    return [p["image_url"]["url"] for p in content if p.get("type") == "image_url"] \
        if isinstance(content, list) else []


def test_vision_screenshots_carry_the_numbered_boxes_and_leave_none_behind() -> None:
    """With vision on, every observe asks the page for its numbered boxes, the screenshot is taken
    with them and removes them; a screenshot that cannot be taken is said in the prompt."""
    b = shop()
    b.fail = {}
    s = script([call("fill", element_id="e1", value="kettle"), call("mark_done", summary="typed")])
    with ScriptedLLM(s) as llm:
        orig = b.call

        async def flaky(tool: str, args: dict, **kw):  # type: ignore[no-untyped-def]
            if tool == "screenshot" and sum(t == "screenshot" for t, _ in b.calls) == 1:
                b.calls.append((tool, args))
                b.highlighted = False  # the coordinator clears the boxes when it cannot capture
                from heybro.agent.errors import ToolFailed
                raise ToolFailed("unsupported", "The task's tab is in the background.")
            return await orig(tool, args, **kw)

        b.call = flaky  # type: ignore[method-assign]
        task, rec, result = run_task(llm, b, env_extra={"HEYBRO_VISION": "1"})
        worker = llm.role_requests("worker")
    assert result.status == TaskStatus.completed, task.result
    observes = [a for t, a in b.calls if t == "observe"] + [
        a["observe_after"] for t, a in b.calls if "observe_after" in a]
    assert observes and all(o["highlight"] is True for o in observes)
    shots = [a for t, a in b.calls if t == "screenshot"]
    assert shots and all(a == {"clear_boxes": True} for a in shots)
    assert images_of(worker[0]) == ["data:image/png;base64,Qk9YRVM="]  # taken with the boxes
    assert images_of(worker[1]) == []
    assert "(No screenshot this step: The task's tab is in the background.)" in \
        worker[1]["messages"][1]["content"]
    assert not b.highlighted  # nothing left drawn on the page


def test_expect_is_written_as_checks_and_an_unreadable_one_is_sent_back() -> None:
    b = shop()
    s = script([call("click", element_id="e2", expect="the results page opens"),
                call("click", element_id="e2", expect="url:/results; text:Blue Kettle $20"),
                call("mark_done", summary="results")])
    with ScriptedLLM(s) as llm:
        task, rec, result = run_task(llm, b)
        said = feedback(llm, "worker")
    assert result.status == TaskStatus.completed, task.result
    assert ("call 1 click: expect: Value error, cannot read 'the results page opens': write "
            "checks as url:…, text:…, no text:…, element:…, no element:… or value:…") in said[0]
    assert len([t for t, _ in b.calls if t == "click"]) == 1
    (fact,) = [d["expectation"] for d in rec.kinds("tool_result") if d["expectation"]]
    assert fact["met"] and fact["expect"]["clauses"][0] == {"kind": "url", "what": "/results"}
    assert fact["detail"] == "URL contains '/results'; text 'Blue Kettle $20' is on the page"


def test_a_refused_refind_shows_the_worker_the_candidates_and_it_picks_one() -> None:
    """The element the worker named went stale and re-finding would not guess between two look-alikes:
    the typed `ambiguous` error reaches the worker's next prompt with the candidates' ids and names,
    and the worker's pick by id is what gets clicked."""
    b = shop()
    b.fail["click"] = "ambiguous"
    b.fail_detail["click"] = {"element_id": "e1", "candidates": [
        {"id": "e1", "tag": "a", "name": "Blue Kettle $20", "score": 0.71},
        {"id": "e2", "tag": "a", "name": "Red Kettle $35", "score": 0.69}]}
    s = script([call("click", element_id="e1"), call("click", element_id="e2"),
                call("mark_done", summary="Opened the red kettle")])
    worker = completed_worker_prompts(s, b, url="http://shop/results")
    assert ("click(element_id='e1') → FAILED ambiguous: scripted ambiguous Closest elements now: "
            "e1 a 'Blue Kettle $20' (0.71); e2 a 'Red Kettle $35' (0.69) — choose one by its id") in worker[1]
    assert [a for t, a in b.calls if t == "click"][-1]["element_id"] == "e2"


def test_a_refused_refind_is_still_shown_with_its_candidates_after_a_resume(tmp_path: Path) -> None:
    """A task cut off after re-finding refused to guess is resumed from its checkpoint in the real
    SQLite store (as the session restores it): the typed `ambiguous` error and its candidates are
    still what the worker's recall_history shows, so it picks by id or re-plans rather than retrying
    the stale element blindly."""
    store = TaskStore(tmp_path / "tasks.sqlite3")
    row = store.create_task("Retweet Bob's post")
    refused = ToolCall(tool="click", parameters={"element_id": "e7"}, success=False, error_code="ambiguous",
                       error="Element e7 is gone and several elements match its description about equally well; refusing to guess.",
                       result={"candidates": [{"id": "e9", "tag": "span", "name": "Retweet", "score": 0.64},
                                              {"id": "e12", "tag": "span", "name": "Retweet", "score": 0.63}]})
    task = Task(id=row.id, description=row.goal, execution_history=[ExecutionCycle(
        index=1, assignment="Retweet Bob's post", worker_summary="(paused before finishing; continued in the next cycle)",
        worker=RoleResult(role="worker", iterations=[Iteration(role="worker", tool_calls=[refused])]))])
    store.checkpoint(task.id, task.model_dump(mode="json"))
    resumed = Task.model_validate(store.load_checkpoint(task.id))
    shown = history.cycles(resumed, detail=True)
    assert ("click(element_id='e7') → FAILED ambiguous: Element e7 is gone and several elements match its "
            "description about equally well; refusing to guess. Closest elements now: e9 span 'Retweet' (0.64); "
            "e12 span 'Retweet' (0.63) — choose one by its id if it is the one meant, else re-plan.") in shown


def test_a_prompt_is_answered_with_the_words_the_worker_gives_and_the_record_says_which() -> None:
    """A page asks for a name in the browser's own prompt(): the worker learns how to answer it
    with words (dialog="Cooking"), heybro answers with them, and the record says what it typed."""
    b = shop()
    orig = b.call

    async def with_prompt(tool: str, args: dict, **kw):  # type: ignore[no-untyped-def]
        result = await orig(tool, args, **kw)
        if tool == "click" and args.get("element_id") == "e2":  # as the coordinator answers it
            words = args.get("dialog_text")
            result["dialog"] = {"name": "prompt", "kind": "prompt", "text": "Name of the category?",
                                **({"answer": "accepted", "value": words} if words is not None
                                   else {"answer": "dismissed"})}
        return result

    b.call = with_prompt  # type: ignore[method-assign]
    s = script([call("click", element_id="e2"), call("click", element_id="e2", dialog="Cooking"),
                call("mark_done", summary="category added")])
    with ScriptedLLM(s) as llm:
        task, rec, result = run_task(llm, b)
        worker = prompts(llm, "worker")
    assert result.status == TaskStatus.completed, task.result
    assert ('the page asked (prompt) "Name of the category?" and heybro answered Cancel, so it did '
            'not go ahead; to answer it, repeat the action with dialog="the words to type"') in worker[1]
    sent = [a for t, a in b.calls if t == "click"]
    assert "dialog" not in sent[0] and (sent[1]["dialog"], sent[1]["dialog_text"]) == ("accept", "Cooking")
    from heybro.agent.toolbox import CLICK
    said = [CLICK.said_of(d["result"]) for d in rec.kinds("tool_result") if d["tool"] == "click"]
    assert said[1] == 'the page asked (prompt) "Name of the category?" and heybro answered OK with "Cooking"'


def test_a_file_the_page_downloads_is_a_resource_the_worker_is_given(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    b = shop()
    saved = tmp_path / "cooking.opml"
    saved.write_text("<opml/>")
    orig = b.call

    async def downloading(tool: str, args: dict, **kw):  # type: ignore[no-untyped-def]
        result = await orig(tool, args, **kw)
        if tool == "click":  # as the coordinator reports a file the page downloaded
            result["downloads"] = [{"name": "cooking.opml", "path": str(saved),
                                    "url": "http://shop/export", "bytes": 7}]
        return result

    b.call = downloading  # type: ignore[method-assign]
    s = script([call("click", element_id="e2"), call("mark_done", summary="exported")])
    with ScriptedLLM(s) as llm:
        task, rec, result = run_task(llm, b)
        worker = prompts(llm, "worker")
    assert result.status == TaskStatus.completed, task.result
    # Kept in the task's workspace (a copy of its bytes, the user's alone), listed by its name,
    # type and size.
    kept = Path(task.resources["cooking.opml"])
    assert kept.parent.name == "downloads" and kept.parent.parent.name == task.id
    assert kept.read_text() == "<opml/>" and kept.stat().st_mode & 0o777 == 0o600
    assert "RESOURCES (for upload): cooking.opml (file, 7 bytes)" in worker[1]
    assert any("The file cooking.opml (file, 7 bytes) is now a resource of the task (downloaded "
               "from shop)" in m["text"] for m in rec.kinds("message"))
