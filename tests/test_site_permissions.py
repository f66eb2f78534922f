"""The user's per-site permissions, whatever the model asks: sites heybro never touches (the user's
own list and the default categories, banks first), and sites where it asks the user first.

A shop page's hidden note steers a worst-case model to the user's bank and to a link into a site the
user keeps heybro off. The host refuses the bank before the call leaves; the link's click happens
(the shop is allowed), but the page it leads to is withheld by the coordinator and refused when
the host looks again; the shop itself is an ask-first site, so the user is asked before heybro
reads it at all. Nothing of the kept-off pages reaches a prompt, and the user is told each time.
"""

from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from heybro.agent.env import AgentEnv
from heybro.agent.errors import ToolFailed
from heybro.agent.models import Task
from heybro.agent.recorder import MemoryRecorder
from heybro.config import Settings
from shared_schema.sites import SiteGate, SiteRules, refusal, verdict
from support.browser import launch
from support.scripted_llm import ScriptedLLM, call, find_id, user_text
from support.shop_rig import wait_status
from support.static_server import serve

FIXTURES = Path(__file__).parent / "fixtures" / "sites"
RESOLVE = "--host-resolver-rules=MAP *.test 127.0.0.1"  # shop.test, forum.test, mybank.test


def write_config(home: Path, sites: dict[str, Any]) -> None:
    path = home / "config" / "config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"sites": sites}))


@pytest.mark.browser
def test_kept_off_sites_are_never_read_and_ask_first_sites_wait_for_the_user(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write_config(home, {"ask": ["shop.test"], "never": ["forum.test"]})
    with serve(FIXTURES) as site:
        port = site.rsplit(":", 1)[1]
        shop_url = f"http://shop.test:{port}/shop.html"
        script = {
            "scheduler": [call("set_subtasks", subtasks=["Read the shop's prices"]), call("start_work")],
            "worker": [call("navigate", url=f"http://mybank.test:{port}/bank.html"),
                       lambda body: call("click", element_id=find_id(body, 'link "Read the reviews"')),
                       call("navigate", url=shop_url),
                       call("mark_done", summary="Watering cans from 12 euros")],
            "verifier": [call("mark_complete", reason="The prices are read", confidence=0.9)],
        }
        with ScriptedLLM(script) as llm, launch(env_extra=llm.env(), home=home,
                                                 extra_args=[RESOLVE]) as eb:
            shop = eb.ctx.new_page()
            shop.goto(shop_url)
            panel = eb.open_panel()
            shop.bring_to_front()
            panel.fill("#goal", "What do watering cans cost here?")
            panel.click("#send")
            # Before heybro reads the shop at all, the user is asked.
            question = panel.locator("#question")
            question.wait_for(state="visible", timeout=30_000)
            assert "shop.test" in question.inner_text()
            assert not any("Watering cans" in json.dumps(b) for b in llm.requests), \
                "a model saw the page before the user said yes"
            question.get_by_role("button", name="Yes").click()
            wait_status(panel, "Completed", 60_000)

            prompts = [json.dumps(b) for b in llm.requests]
            for secret in ("12345678", "9,000", "PINEAPPLE-42", "Private forum", "My Bank"):
                assert not any(secret in p for p in prompts), secret
            told = "\n".join(user_text(b) for b in llm.role_requests("worker")[1:])
            assert f"heybro does not work on mybank.test:{port}" in told  # the category, by the host
            assert "banks and payments" in told
            assert f"heybro does not work on forum.test:{port}" in told  # withheld, then refused
            assert "your settings list forum.test" in told
            # The user was told, in the panel, where heybro kept off.
            feed = panel.locator("#plan").inner_text() + panel.locator("#log").inner_text()
            assert f"heybro kept off mybank.test:{port}" in feed and f"heybro kept off forum.test:{port}" in feed

            # The coordinator refuses the same on its own: the task's tab, now on the forum.
            task = eb.sw.evaluate("globalThis.heybro.store.state.taskContext.taskId")
            shop.goto(f"http://forum.test:{port}/forum.html")
            tab_id = eb.sw.evaluate("chrome.tabs.query({}).then((ts) => ts.find((t) => "
                                    "(t.url || '').includes('forum.test')).id)")
            observe = {"tool": "observe", "args": {}, "timeout_ms": 5000, "task_id": task, "tab_id": tab_id}
            out = eb.sw.evaluate("(c) => globalThis.heybro.runConfined(c)",
                                 {**observe, "sites": {"never": ["forum.test"]}})
            assert not out["ok"] and out["error"]["detail"]["rule"] == "never", out
            assert eb.sw.evaluate("(c) => globalThis.heybro.runConfined(c)", observe)["ok"]
            # With no rules carried, the default categories still hold.
            out = eb.sw.evaluate("(c) => globalThis.heybro.runConfined(c)", {
                "tool": "navigate", "args": {"url": f"http://mybank.test:{port}/bank.html"},
                "timeout_ms": 5000, "task_id": task})
            assert not out["ok"] and out["error"]["code"] == "not_allowed", out
            assert out["error"]["detail"]["site"] == f"mybank.test:{port}"


class Coordinator:
    """The coordinator's side of a call, as far as sites go: it checks the live page against the
    rules the call carries (the same rule, shared_schema/sites.py) and refuses with the verdict."""

    def __init__(self, page: str) -> None:
        self.page = page
        self.calls: list[tuple[str, dict[str, Any], SiteGate | None]] = []

    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000, sites: SiteGate | None = None) -> dict[str, Any]:
        assert sites is not None, "every call carries the user's site rules"
        self.calls.append((tool, args, sites))
        if tool == "observe" and (v := verdict(self.page, sites, sites.approved)):
            raise ToolFailed("not_allowed", refusal(v), v.model_dump())
        if tool == "navigate":
            self.page = args["url"]
        return {"ok": True, "url": self.page, "tab_id": 1}


def calls_with(browser: Coordinator, rules: SiteRules, answers: list[str],
               *calls: tuple[str, dict[str, Any]]) -> tuple[AgentEnv, list[Any]]:
    """Runs `calls` through a task's env, the user answering each question from `answers`."""
    recorder = MemoryRecorder()
    env = AgentEnv(Task(description="d", tab_id=1), llm=None,  # type: ignore[arg-type]
                   settings=Settings(sites=rules), browser=browser, recorder=recorder)

    async def go() -> list[Any]:
        async def user() -> None:
            for a in answers:
                while not env.services.control.asking:
                    await asyncio.sleep(0.005)
                env.services.control.answer(a)
        replier = asyncio.create_task(user())
        out: list[Any] = []
        for tool, args in calls:
            try:
                out.append(await env.calls.call(tool, args))
            except ToolFailed as err:
                out.append(err)
        replier.cancel()
        return out
    return env, asyncio.run(go())


def questions(env: AgentEnv) -> list[str]:
    rec = env.services.recorder
    assert isinstance(rec, MemoryRecorder)
    return [q["text"] for q in rec.kinds("question")]


def test_a_never_site_is_refused_before_the_call_leaves_and_the_user_is_told() -> None:
    browser = Coordinator("https://shop.example/")
    env, (bank, again) = calls_with(browser, SiteRules(), [],
                                    ("navigate", {"url": "https://online.mybank.example/"}),
                                    ("new_tab", {"url": "https://online.mybank.example/x"}))
    assert isinstance(bank, ToolFailed) and bank.code == "not_allowed"
    assert "heybro does not work on online.mybank.example" in bank.message
    assert isinstance(again, ToolFailed) and browser.calls == []
    rec = env.services.recorder
    assert isinstance(rec, MemoryRecorder)
    told = [m["text"] for m in rec.kinds("message")]
    assert len(told) == 1 and "heybro kept off online.mybank.example" in told[0]  # told once


def test_an_ask_first_site_waits_for_a_yes_that_holds_for_the_task() -> None:
    browser = Coordinator("https://shop.example/")
    env, out = calls_with(browser, SiteRules(ask=["pay.example"]), ["Yes"],
                          ("navigate", {"url": "https://checkout.pay.example/cart"}),
                          ("observe", {}), ("navigate", {"url": "https://checkout.pay.example/2"}))
    assert not any(isinstance(o, ToolFailed) for o in out), out
    assert len(questions(env)) == 1 and "checkout.pay.example" in questions(env)[0]
    assert [c[2].approved for c in browser.calls] == [["checkout.pay.example"]] * 3


def test_a_no_to_an_ask_first_site_refuses_the_call_and_tells_the_model_why() -> None:
    browser = Coordinator("https://shop.example/")
    env, (out,) = calls_with(browser, SiteRules(ask=["pay.example"]), ["No"],
                             ("navigate", {"url": "https://pay.example/"}))
    assert isinstance(out, ToolFailed) and out.code == "declined"
    assert "said no to working on pay.example" in out.message and browser.calls == []


def test_a_page_that_moved_to_an_ask_first_site_is_read_only_after_a_yes() -> None:
    """The host cannot know where a click led; the coordinator sees the live page, refuses with
    its verdict, and the host asks the user, then reads it once they said yes."""
    browser = Coordinator("https://pay.example/checkout")
    env, (seen,) = calls_with(browser, SiteRules(ask=["pay.example"]), ["Yes"], ("observe", {}))
    assert not isinstance(seen, ToolFailed) and seen["url"] == "https://pay.example/checkout"
    assert [c[2].approved for c in browser.calls] == [[], ["pay.example"]]
    assert len(questions(env)) == 1


def run_tool(eb: Any, name: str, args: dict[str, Any], rules: dict[str, Any]) -> dict[str, Any]:
    """A tool through the coordinator's runTool in the active tab, with the rules a host's call carries."""
    return eb.sw.evaluate(
        """async ([name, args, rules]) => {
            const [tab] = await chrome.tabs.query({active: true});
            return await globalThis.heybro.runTool({tool: name, args, tab_id: tab.id, timeout_ms: 15000, sites: rules});
        }""", [name, args, rules])


def element(obs: dict[str, Any], name: str) -> str:
    return next(i for i, sig in obs["elements"].items() if sig["name"] == name)


class _Relaxed(BaseHTTPRequestHandler):
    """Pages that give up their origin's isolation (`Origin-Agent-Cluster: ?0`) and set
    document.domain: a frame of a sibling subdomain becomes readable from its parent's agent."""

    PAGES = {
        "/top.html": "<h1>Relaxed shop</h1><button>Top button</button>"
                     "<iframe id='inner' title='Account' width='400' height='150'></iframe>"
                     "<script>document.getElementById('inner').src = "
                     "`http://secret.example.test:${location.port}/inner.html`;</script>",
        "/inner.html": "<p>Account secret SECRET-9917</p><button>Inner secret button</button>",
    }

    def do_GET(self) -> None:  # noqa: N802
        body = self.PAGES.get(self.path.split("?")[0])
        if body is None:
            self.send_error(404)
            return
        page = f"<!doctype html><meta charset='utf-8'><script>document.domain = 'example.test';</script>{body}"
        data = page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Origin-Agent-Cluster", "?0")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.mark.browser
def test_a_kept_off_frame_its_parents_agent_could_read_itself_is_left_out_too(tmp_path: Path) -> None:
    """Sibling subdomains that relax their origins to one (document.domain): the page's own agent
    reads the frame's document directly, as a same-origin frame's — and still leaves it out."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Relaxed)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    try:
        with launch(install_host=False, home=tmp_path / "home",
                    extra_args=["--host-resolver-rules=MAP *.test 127.0.0.1"]) as eb:
            tab = eb.ctx.new_page()
            tab.goto(f"http://shop.example.test:{port}/top.html")
            tab.bring_to_front()
            tab.frame_locator("#inner").locator("button").wait_for()
            # (The page's own script can reach into the frame: the two are one origin now.)
            assert tab.evaluate("document.getElementById('inner').contentDocument.body.innerText").startswith("Account secret")
            allowed = run_tool(eb, "observe", {}, {})["result"]
            assert "SECRET-9917" in allowed["text"] and element(allowed, "Inner secret button").startswith("e")
            inner = element(allowed, "Inner secret button")
            kept_off = {"never": ["secret.example.test"]}
            obs = run_tool(eb, "observe", {}, kept_off)
            assert obs["ok"], obs
            text = obs["result"]["text"]
            assert "SECRET-9917" not in text and "Inner secret button" not in text, text
            assert f"[frame left out: secret.example.test:{port}/inner.html" in text
            assert element(obs["result"], "Top button")
            # Its element, read before the rule applied, is not found again in it.
            out = run_tool(eb, "click", {"element_id": inner}, kept_off)
            assert not out["ok"], out
            assert tab.frame_locator("#inner").locator("button").text_content() == "Inner secret button"
    finally:
        httpd.shutdown()
