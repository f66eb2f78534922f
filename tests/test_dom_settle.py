"""Settling after an action, in the real extension in real Chromium: an action reports what it
changed and the very next `observe` reads the settled page — after async re-renders, after a
navigation to a slow page or through a form post and redirect, and after same-document route
changes — without fixed sleeps (the agent waits for the page, not for a clock)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from shared_schema.tools import TOOLS
from support.browser import ExtBrowser, launch

pytestmark = pytest.mark.browser
INDEX = (Path(__file__).parent / "fixtures" / "settle" / "index.html").read_bytes()
MAIL = (Path(__file__).parent / "fixtures" / "settle" / "mail.html").read_bytes()


def _page(title: str, body: str) -> bytes:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body>{body}</body></html>").encode()


class _Site(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for k, v in {"content-type": "text/html; charset=utf-8", "content-length": str(len(body)),
                     "cache-control": "no-store", **(headers or {})}.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        u = urlparse(self.path)
        if u.path in ("/", "/index.html", "/app/settings", "/app/inbox"):
            self._send(200, INDEX)
        elif u.path == "/slow":
            # The server takes its time: the old page stays up meanwhile.
            time.sleep(int(parse_qs(u.query).get("ms", ["300"])[0]) / 1000)
            self._send(200, _page("Slow page", "<h1>Slow page loaded</h1><button>Continue</button>"))
        elif u.path == "/mail":
            self._send(200, MAIL)
        elif u.path == "/mail-tidy":  # the same app, whose script removes its own element once it ran
            self._send(200, MAIL.replace(b"</script>", b"document.currentScript.remove();\n</script>"))
        elif u.path == "/api/mail":
            q = parse_qs(u.query)
            time.sleep(int(q["ms"][0]) / 1000)
            first = 1 + 10 * (int(q["page"][0]) - 1)
            self._send(200, json.dumps([f"Message {n}" for n in range(first, first + 10)]).encode(),
                       {"content-type": "application/json"})
        elif u.path == "/api/events":
            time.sleep(20)  # a long poll: nothing happens
            self._send(200, b"[]", {"content-type": "application/json"})
        elif u.path == "/done":
            self._send(200, _page("Thanks", "<h1>Thanks for sending</h1>"))
        else:
            self._send(404, b"not found")

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("content-length", 0)))
        time.sleep(0.2)
        self._send(303, headers={"location": "/done"})


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    httpd.daemon_threads = True
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    t.join(timeout=5)


@pytest.fixture(scope="module")
def browser() -> Iterator[ExtBrowser]:
    with launch(install_host=False) as eb:
        yield eb


@pytest.fixture
def page(browser: ExtBrowser, site: str):
    p = browser.ctx.new_page()
    p.goto(site + "/")
    p.bring_to_front()
    p.wait_for_load_state("load")
    yield p
    p.close()


def tool(eb: ExtBrowser, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """Runs a tool through the coordinator (the host's path); the result must match the schema."""
    res = eb.sw.evaluate(
        """async ([name, args]) => {
            const [tab] = await chrome.tabs.query({active: true});
            return await globalThis.heybro.runTool({tool: name, args, tab_id: tab.id, timeout_ms: 15000});
        }""", [name, args or {}])
    assert res["ok"], res
    TOOLS[name].result.model_validate(res["result"])
    return res["result"]


def find_id(obs: dict[str, Any], name: str) -> str:
    for eid, sig in obs["elements"].items():
        if sig["name"] == name:
            return eid
    raise AssertionError(f"{name!r} not in {[s['name'] for s in obs['elements'].values()]}")


def test_typing_into_a_plain_field_reports_no_change_and_the_value(browser, page):
    obs = tool(browser, "observe")
    r = tool(browser, "fill", {"element_id": find_id(obs, "Plain field"), "value": "hello"})
    assert r["mutations"]["summary"] == "no change" and not r["url_changed"] and not r.get("navigated")
    assert r["element"]["state"]["value"] == "hello"
    assert page.input_value("#plain") == "hello"


def test_click_with_async_results_waits_while_busy_and_observe_sees_them(browser, page):
    obs = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Load results")})
    assert r["mutations"]["added"] >= 3, r["mutations"]
    after = tool(browser, "observe")  # straight away: no wait of our own
    assert "Result 3" in after["text"] and "Loading…" not in after["text"]


def test_link_to_a_slow_page_waits_for_the_new_document(browser, page, site):
    obs = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Slow page")})
    assert r["navigated"] is True and r["url_changed"] is True and r["url"] == site + "/slow?ms=400"
    assert r["mutations"]["summary"] == "the page navigated" and r["page_ms"] >= 0
    after = tool(browser, "observe")  # the old page stayed up while the server thought
    assert after["url"] == site + "/slow?ms=400" and "Slow page loaded" in after["text"]
    assert find_id(after, "Continue")


def test_an_action_can_bring_back_the_page_it_leads_to(browser, page, site):
    """`observe_after`: the new page, once loaded, comes back with the click (one round trip)."""
    obs = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Slow page"), "observe_after": {"max_tokens": 1000}})
    seen = r["observation"]
    assert r["navigated"] is True and seen["url"] == site + "/slow?ms=400"
    assert "Slow page loaded" in seen["text"] and find_id(seen, "Continue") in seen["elements"]
    # Without it the result stays small.
    back = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(back, "Continue")})
    assert "observation" not in r or r["observation"] is None


def test_form_post_and_redirect_land_on_the_result_page(browser, page, site):
    obs = tool(browser, "observe")
    tool(browser, "fill", {"element_id": find_id(obs, "Name"), "value": "Ann"})
    r = tool(browser, "click", {"element_id": find_id(obs, "Send")})
    assert r["navigated"] is True and r["url"] == site + "/done"
    after = tool(browser, "observe")
    assert after["url"] == site + "/done" and "Thanks for sending" in after["text"]


def test_press_enter_submits_and_waits_like_a_click(browser, page, site):
    obs = tool(browser, "observe")
    tool(browser, "fill", {"element_id": find_id(obs, "Name"), "value": "Bo"})
    r = tool(browser, "press", {"element_id": find_id(obs, "Name"), "keys": "Enter"})
    assert r["navigated"] is True and r["url"] == site + "/done"
    assert "Thanks for sending" in tool(browser, "observe")["text"]


def test_same_document_navigation_is_a_page_change_not_a_load(browser, page, site):
    obs = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Details below")})
    assert r["url_changed"] is True and r["url"].endswith("#details") and not r.get("navigated")
    r = tool(browser, "click", {"element_id": find_id(obs, "Open settings view")})
    assert r["url"] == site + "/app/settings" and r["url_changed"] and not r.get("navigated")
    assert r["mutations"]["added"] >= 1
    assert find_id(tool(browser, "observe"), "Save settings")


def test_navigation_taken_over_by_the_page_router_or_cancelled_is_no_page_load(browser, page, site):
    obs = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Inbox")})
    assert r["url"] == site + "/app/inbox" and r["url_changed"] and not r.get("navigated")
    assert r["mutations"]["added"] >= 1
    assert find_id(tool(browser, "observe"), "Archive all")
    obs = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Blocked link")})
    assert not r["url_changed"] and not r.get("navigated") and r["url"] == site + "/app/inbox"


def test_a_page_whose_server_takes_seconds_is_waited_for_not_reported_lost(browser, page, site):
    """A server that thinks for seconds (a big report, a cold cache) is still a navigation under
    way: the action waits for the new page instead of saying nothing loaded."""
    obs = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Very slow page")})
    assert r["navigated"] is True and r["url"] == site + "/slow?ms=3000", r
    after = tool(browser, "observe")
    assert after["url"] == site + "/slow?ms=3000" and "Slow page loaded" in after["text"]


def test_an_application_that_fetches_its_content_is_read_once_it_is_drawn(browser, page, site):
    """A page that loads its list from its server after the load event, with no loading marker,
    and keeps a long poll open: the new page comes back with its list, and a click that fetches
    more returns with what it drew; the long poll never holds an action."""
    obs = tool(browser, "observe")
    started = time.monotonic()
    r = tool(browser, "click", {"element_id": find_id(obs, "Mail app"), "observe_after": {"max_tokens": 1000}})
    assert r["navigated"] is True and "Message 1" in r["observation"]["text"], r["observation"]["text"]
    after = tool(browser, "observe")
    assert "Message 10" in after["text"]
    r = tool(browser, "click", {"element_id": find_id(after, "Older messages")})
    assert r["mutations"]["added"] >= 10, r["mutations"]
    assert "Message 11" in tool(browser, "observe")["text"]
    assert time.monotonic() - started < 15  # the 20 s long poll was never waited for
    # Read without an action (a page the user opened): its list too.
    page.goto(site + "/mail", wait_until="load")
    assert "Message 10" in tool(browser, "observe")["text"]


def test_a_page_whose_script_removed_itself_is_still_read_once_its_content_is_drawn(browser, page, site):
    """A page without script settles at once (nothing of its own can be on its way); one whose
    script ran and then took its own element away is no such page: its content, fetched after
    the load, is waited for all the same."""
    page.goto(site + "/mail-tidy", wait_until="load")
    assert page.evaluate("document.scripts.length") == 0
    assert "Message 10" in tool(browser, "observe")["text"]
    page.goto(site + "/", wait_until="load")
    obs = tool(browser, "observe")
    page.evaluate("(u) => { const a = document.createElement('a'); a.href = u; a.textContent = 'Tidy mail';"
                  " document.body.prepend(a); }", site + "/mail-tidy")
    obs = tool(browser, "observe")
    r = tool(browser, "click", {"element_id": find_id(obs, "Tidy mail"), "observe_after": {"max_tokens": 1000}})
    assert r["navigated"] is True and "Message 1" in r["observation"]["text"], r["observation"]["text"]


def test_a_menu_that_slides_in_is_read_where_it_stops(browser, page):
    obs = tool(browser, "observe")
    tool(browser, "click", {"element_id": find_id(obs, "Open menu")})
    after = tool(browser, "observe")  # straight away
    box = after["elements"][find_id(after, "Profile settings")]["box"]
    assert box["x"] >= 0, box  # not half-way in from the left edge
