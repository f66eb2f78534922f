"""An action is done once — in real Chromium with the real extension.

When a page ignores a script's action as far as anyone can see, heybro does it again with the
browser's own input. A page can react without any change on it — a request still on its way to a
slow server, an image pinged, a confirm() heybro answered for it — and the browser's input must
then not do the action a second time: the coordinator, which hears the tab's requests and dialogs
from the browser itself, refuses the replay, and the result says why the browser's input was not
used."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from support.dom_rig import browser, find_id, ok, open_page, page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

PAGES = Path(__file__).parent / "fixtures" / "press"


class _Site(SimpleHTTPRequestHandler):
    """The pages, and /slow: a server that counts each request and answers it after `ms`."""

    hits: list[float]

    def log_message(self, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:  # noqa: N802
        u = urlparse(self.path)
        if u.path != "/slow":
            super().do_GET()
            return
        self.hits.append(time.monotonic())
        time.sleep(int(parse_qs(u.query).get("ms", ["1500"])[0]) / 1000)
        self.send_response(204)
        self.end_headers()


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, list[float]]]:
    hits: list[float] = []
    handler = partial(type("Site", (_Site,), {"hits": hits}), directory=str(PAGES))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", hits
    finally:
        httpd.shutdown()
        httpd.server_close()
        t.join(timeout=5)


def test_a_click_whose_request_is_still_on_its_way_is_not_clicked_again(browser, page, site) -> None:
    # The server answers after 1.5 s (or 3 s) and the page changes nothing: no change a person
    # would see, but the page did react — the browser's own click would have sent the report a
    # second time. (A 3 s answer did: the request outlived every wait for a late effect; a 1.5 s one
    # did or not, by how loaded the machine was.)
    base, hits = site
    for ms in (1500, 3000):
        hits.clear()
        open_page(page, f"{base}/reacts.html?ms={ms}")
        r = ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "Send report")})
        page.wait_for_timeout(1000)
        assert len(hits) == 1, (ms, hits)  # the server's count: the handler ran once
        assert r.get("input") != "trusted" and "already reacted" in r["trusted_withheld"], r
        assert "request" in r["trusted_withheld"]


def test_a_click_that_pinged_an_image_is_not_clicked_again(browser, page, site) -> None:
    # Only the browser's own record of the tab's requests shows this one: the coordinator refuses
    # the replay itself, whatever the page's side concluded.
    base, hits = site
    hits.clear()
    open_page(page, f"{base}/reacts.html")
    r = ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "Count my visit")})
    page.wait_for_timeout(1000)
    assert len(hits) == 1, hits
    assert r.get("input") != "trusted" and "image" in r["trusted_withheld"], r


def test_a_click_that_asked_confirm_is_not_clicked_again(browser, page, site) -> None:
    open_page(page, f"{site[0]}/reacts.html")
    r = ok(browser, "click", {"element_id": find_id(ok(browser, "observe"), "Send it"), "dialog": "accept"})
    assert r["dialog"]["text"] == "Send it?" and r["dialog"]["answer"] == "accepted"
    assert page.evaluate("[window.asked, window.sent]") == [1, 1]  # one dialog, answered once
    assert r.get("input") != "trusted" and "dialog" in r["trusted_withheld"], r


def test_a_key_whose_effect_is_on_the_focus_is_pressed_once_and_says_nothing_more(browser, page, site) -> None:
    # Tab leaves the field: that is the key's effect, not the page reacting to it, and not a key to
    # press again.
    open_page(page, f"{site[0]}/focus_swap.html?on=none")
    r = ok(browser, "press", {"element_id": find_id(ok(browser, "observe"), "Name"), "keys": "Tab"})
    assert page.evaluate("document.activeElement.id") == "email"
    assert r.get("input") != "trusted" and r.get("trusted_withheld") is None, r
