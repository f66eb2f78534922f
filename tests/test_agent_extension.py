"""The agent core acting through the real extension in real Chromium: hover, check, wait_for, a
tab the page opens itself, switch_tab, and vision screenshots with numbered boxes.

The worker's tool calls run the coordinator's own `runTool` (the path of the host's `tool.call`)
in the service worker; the LLM is the scripted server through the real `openai` client.
"""

from __future__ import annotations

import asyncio
import base64
import io
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.async_api import async_playwright

from support.extension_browser import ExtensionBrowser, with_extension
from support.scripted_llm import ScriptedLLM, call, calls, find_id, user_text
from support.static_server import serve

from heybro import config
from heybro.agent.env import AgentEnv
from heybro.agent.executor import TaskExecutor
from heybro.agent.models import Task, TaskStatus
from heybro.agent.recorder import MemoryRecorder
from heybro.llm import LLMClient

pytestmark = pytest.mark.browser
FIXTURES = Path(__file__).parent / "fixtures" / "agent"
# The overlay's box colours (extension/content/dom_overlay.js); the fixture pages use none of them.
BOX_COLOURS = [(0xe6, 0x19, 0x4b), (0x3c, 0xb4, 0x4b), (0x43, 0x63, 0xd8), (0xf5, 0x82, 0x31),
               (0x91, 0x1e, 0xb4), (0x00, 0x80, 0x80), (0x9a, 0x63, 0x24), (0x80, 0x00, 0x00)]


def box_pixels(data_url: str) -> int:
    """How many pixels of a screenshot have an overlay box's colour."""
    assert data_url.startswith("data:image/png;base64,"), data_url[:40]
    img = Image.open(io.BytesIO(base64.b64decode(data_url.split(",", 1)[1]))).convert("RGB")
    colours = img.getcolors(maxcolors=img.width * img.height) or []
    return sum(n for n, (r, g, b) in colours
               if any(abs(r - cr) <= 10 and abs(g - cg) <= 10 and abs(b - cb) <= 10
                      for cr, cg, cb in BOX_COLOURS))


def images(body: dict[str, Any]) -> list[str]:
    content = body["messages"][1]["content"]
    return [p["image_url"]["url"] for p in content if p.get("type") == "image_url"] \
        if isinstance(content, list) else []


def worker_script() -> list[Any]:
    def by(label: str):  # type: ignore[no-untyped-def]
        return lambda body: find_id(body, label)

    def open_help_tab(body: dict[str, Any]) -> Any:
        m = re.search(r"\[tab (\d+)\] .*help\.html", user_text(body))
        assert m, user_text(body)[:2000]
        return call("switch_tab", tab_id=int(m.group(1)))

    return [
        lambda b: call("hover", element_id=by('button "Account"')(b)),
        lambda b: call("check", element_id=by('checkbox "I accept the terms"')(b),
                       expect={"text_appears": "Terms accepted",
                               "element_appears": 'link "Order history"'}),
        lambda b: calls(("click", {"element_id": by('button "Load offers"')(b)}),
                        ("wait_for", {"text": "3 offers found", "seconds": 5})),
        lambda b: call("click", element_id=by('link "Help (new tab)"')(b)),
        open_help_tab,
        call("mark_done", summary="Terms accepted, 3 offers, help says 30 days"),
    ]


async def scenario(base: str, llm: ScriptedLLM, profile: Path) -> dict[str, Any]:
    async with async_playwright() as p:
        async with with_extension(p, profile) as (ctx, sw):
            browser = ExtensionBrowser(sw)
            settings = config.load(env=llm.env(HEYBRO_VISION="1"), file=Path("/nonexistent"))
            client = LLMClient(settings)
            task = Task(description="Accept the terms, load the offers, read the help page",
                        url=f"{base}/tools.html")
            rec = MemoryRecorder()
            env = AgentEnv(task=task, llm=client, settings=settings, browser=browser, recorder=rec)
            try:
                result = await TaskExecutor(env).execute()
            finally:
                await client.close()
            tools_page = next(pg for pg in ctx.pages if pg.url.endswith("/tools.html"))
            help_page = next(pg for pg in ctx.pages if pg.url.endswith("/help.html"))
            out = {
                "result": result, "task": task, "rec": rec, "calls": browser.calls,
                "terms_checked": await tools_page.evaluate("document.getElementById('terms').checked"),
                # (heybro's boxes are drawn on the model's screenshots: never in a page)
                "heybro_in_pages": [await pg.evaluate("!!document.querySelector('[data-heybro-overlay], :popover-open')")
                                    for pg in (tools_page, help_page)],
                "help_tab": env.state.tab_id,
            }
            # The task's first tab is in the background now: no screenshot, and it stays there.
            tools_tab = next(c for c in browser.calls if c[0] == "observe")[2]
            out["background_shot"] = await sw.evaluate(
                "(tab) => globalThis.heybro.runTool({tool: 'screenshot', args: {}, tab_id: tab, "
                "timeout_ms: 5000})", tools_tab)
            out["active_after"] = await sw.evaluate(
                "async () => (await chrome.tabs.query({active: true})).map((t) => t.id)")
            # The help tab as it is, without boxes: the control image.
            out["plain_shot"] = (await browser.call("screenshot", {}, tab_id=env.state.tab_id))["data_url"]
            return out


def test_worker_acts_through_the_real_extension_with_vision_boxes() -> None:
    script = {"scheduler": [calls(("set_subtasks", {"subtasks": ["Accept terms, offers, help"]}),
                                  ("start_work", {}))],
              "worker": worker_script(),
              "verifier": [call("mark_complete", reason="all done", confidence=0.9)]}
    with serve(FIXTURES) as base, ScriptedLLM(script) as llm, \
            tempfile.TemporaryDirectory() as tmp:
        out = asyncio.run(scenario(base, llm, Path(tmp) / "profile"))
        worker = llm.role_requests("worker")
        verifier = llm.role_requests("verifier")
    task, result = out["task"], out["result"]
    assert result.status == TaskStatus.completed, task.result
    text = [user_text(b) for b in worker]

    # hover: the menu the page shows on mouseenter is in the next page map.
    assert "Order history" not in text[0] and 'link "Order history"' not in text[0]
    assert re.search(r"\[e\d+\] link Order history", text[1]), text[1][-1500:]
    # check: ticked on the page, said in the map, its expectation met right after it.
    assert out["terms_checked"] is True
    assert re.search(r"\[e\d+\] checkbox I accept the terms checked", text[2])
    assert "expected: met (text 'Terms accepted' is on the page; element link \"Order history\"" \
           in text[2]
    # wait_for: the text the page adds 0.7 s after the click.
    assert "wait_for(text='3 offers found', seconds=5) → ok\n  result:\n    text found after" \
           in text[3]
    assert "3 offers found" in text[3].split("PAGE", 1)[1]
    # the page opened a tab itself: listed, then switched to.
    assert "OTHER TABS (opened by this page" in text[4] and "/help.html" in text[4]
    assert "Returns are free within 30 days" in text[5]
    assert f"now in [tab {out['help_tab']}] Help centre" in text[5]

    # vision: each screenshot is a PNG taken with the numbered boxes on, removed afterwards.
    shots = [images(b) for b in worker + verifier]
    assert all(len(s) <= 1 for s in shots)
    with_boxes = [s[0] for s in shots if s]
    assert len(with_boxes) >= 5
    assert all(box_pixels(s) > 200 for s in with_boxes), [box_pixels(s) for s in with_boxes]
    assert box_pixels(out["plain_shot"]) < 20
    assert out["heybro_in_pages"] == [False, False]
    assert all(a.get("highlight") is True for t, a, _ in out["calls"] if t == "observe")
    shots_asked = [a for t, a, _ in out["calls"] if t == "screenshot"]
    assert shots_asked[-1] == {} and all(a == {"clear_boxes": True} for a in shots_asked[:-1])
    # The tab that opened the help page was left in the background by the page itself: the step
    # after that click says there is no screenshot rather than pulling the tab to the front.
    assert shots[4] == [] and "(No screenshot this step: The task's tab is in the background" in text[4]
    assert out["background_shot"]["ok"] is False
    assert out["background_shot"]["error"]["code"] == "unsupported"
    assert out["help_tab"] in out["active_after"]
