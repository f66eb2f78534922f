"""`fetch` against a real HTTP server on 127.0.0.1: readable text, limits, redirects — and the
refusal of loopback/private addresses unless the user allows them."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from heybro.tools import HostTools, ToolContext, ToolError, ToolOk, ToolSettings

PAGE = """<!doctype html><html><head><title>Kettle  – Shop</title>
<style>body { color: red }</style><script>var secret = "not for the model";</script></head>
<body><nav>Home &amp; garden</nav><h1>Steel kettle</h1><p>Price: <b>39.99</b>&nbsp;EUR</p>
<table><tr><td>Volume</td><td>1.7 l</td></tr></table><noscript>Enable JS</noscript></body></html>"""


class _Site(BaseHTTPRequestHandler):
    hits: list[str] = []

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def _send(self, status: int, body: bytes, kind: str, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading (its time or size limit): what the test wants

    def _slow(self) -> None:
        time.sleep(3)
        self._send(200, b"late", "text/plain")

    def do_GET(self) -> None:  # noqa: N802
        self.hits.append(self.path)
        port = self.server.server_address[1]  # type: ignore[index]
        routes: dict[str, Any] = {
            "/page": lambda: self._send(200, PAGE.encode(), "text/html; charset=utf-8"),
            "/latin1": lambda: self._send(200, "café".encode("latin-1"),
                                          "text/plain; charset=iso-8859-1"),
            "/moved": lambda: self._send(302, b"", "text/plain", Location="/page"),
            "/loop": lambda: self._send(302, b"", "text/plain", Location="/loop"),
            "/to-localhost": lambda: self._send(
                301, b"", "text/plain", Location=f"http://localhost:{port}/page"),
            "/to-file": lambda: self._send(302, b"", "text/plain", Location="file:///etc/passwd"),
            "/big": lambda: self._send(200, b"word " * 100_000, "text/plain"),
            "/image": lambda: self._send(200, b"\x89PNG\r\n", "image/png"),
            "/missing": lambda: self._send(404, b"no", "text/plain"),
            "/broken": lambda: self._send(500, b"oops", "text/plain"),
            "/slow": self._slow,
            "/host": lambda: self._send(200, self.headers["Host"].encode(), "text/plain"),
        }
        routes.get(self.path, routes["/missing"])()


@pytest.fixture
def site() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Site.hits = []
    try:
        yield f"{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def fetch(url: str, tmp_path: Path, **settings: Any) -> ToolOk | ToolError:
    ctx = ToolContext(tmp_path, ToolSettings(**settings))
    return asyncio.run(HostTools(ctx.settings).call("fetch", {"url": url}, ctx))


def test_a_page_comes_back_as_its_readable_text(site: str, tmp_path: Path) -> None:
    out = fetch(f"http://127.0.0.1:{site}/page", tmp_path, allow_private_addresses=True)
    assert isinstance(out, ToolOk), out
    assert out.text == (f"URL: http://127.0.0.1:{site}/page\nTitle: Kettle – Shop\n\n"
                        "Home & garden\nSteel kettle\nPrice: 39.99 EUR\nVolume 1.7 l")
    assert out.data == {"url": f"http://127.0.0.1:{site}/page", "status": 200,
                        "title": "Kettle – Shop", "truncated": False}
    moved = fetch(f"http://127.0.0.1:{site}/moved", tmp_path, allow_private_addresses=True)
    assert isinstance(moved, ToolOk) and moved.text.startswith(
        f"URL: http://127.0.0.1:{site}/page\nTitle: Kettle")
    latin = fetch(f"http://127.0.0.1:{site}/latin1", tmp_path, allow_private_addresses=True)
    assert isinstance(latin, ToolOk) and latin.text.endswith("\ncafé")
    # The name the user wrote travels in the Host header (the connection goes to the checked address).
    host = fetch(f"http://localhost:{site}/host", tmp_path, allow_private_addresses=True)
    assert isinstance(host, ToolOk) and host.text.endswith(f"\nlocalhost:{site}")


def test_limits_and_failures_are_errors_in_words(site: str, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{site}"
    big = fetch(f"{base}/big", tmp_path, allow_private_addresses=True, fetch_max_bytes=5000)
    assert isinstance(big, ToolOk) and big.data and big.data["truncated"]
    assert big.text.endswith("word\n[… cut at the size limit]") and len(big.text) < 5100
    cut = fetch(f"{base}/big", tmp_path, allow_private_addresses=True, fetch_max_chars=300)
    assert isinstance(cut, ToolOk) and len(cut.text) < 400
    expected = {
        "/image": ("tool_error", f"{base}/image is image/png, not text"),
        "/missing": ("not_found", f"{base}/missing answered HTTP 404 Not Found"),
        "/broken": ("tool_error", f"{base}/broken answered HTTP 500 Internal Server Error"),
        "/loop": ("tool_error", f"more than 5 redirects; stopped at {base}/loop"),
        "/to-file": ("refused", "'file:///etc/passwd' is not an http(s) URL with a host name"),
    }
    for path, (code, words) in expected.items():
        out = fetch(f"{base}{path}", tmp_path, allow_private_addresses=True)
        assert isinstance(out, ToolError) and out.code == code and words in out.message, out
    slow = fetch(f"{base}/slow", tmp_path, allow_private_addresses=True, timeout_s=0.5)
    assert isinstance(slow, ToolError) and slow.code == "timeout"
    assert slow.message == "fetch ran longer than 0.5 s and was stopped"
    for url, words in (("ftp://example.com/x", "is not an http(s) URL"),
                       ("not a url", "is not an http(s) URL"),
                       ("http://example.com:99999/", "has an invalid port"),
                       ("http://no-such-host.invalid/", "cannot resolve the host name")):
        out = fetch(url, tmp_path)
        assert isinstance(out, ToolError) and words in out.message, out


def test_loopback_and_private_addresses_are_refused_by_default(site: str, tmp_path: Path) -> None:
    refusals = {
        f"http://127.0.0.1:{site}/page": "127.0.0.1 is a loopback address (this computer)",
        f"http://localhost:{site}/page": "a loopback address",  # a name: checked once resolved
        f"http://[::1]:{site}/page": "a loopback address (this computer)",
        "http://10.1.2.3/": "a private network address",
        "http://192.168.1.1/admin": "a private network address",
        "http://169.254.169.254/latest/meta-data/": "a link-local address",
        "http://[::ffff:127.0.0.1]/": "a loopback address",
        "http://0.0.0.0/": "an unspecified address",
    }
    for url, words in refusals.items():
        out = fetch(url, tmp_path)
        assert isinstance(out, ToolError) and out.code == "refused", (url, out)
        assert words in out.message and "unless you allow it in the settings" in out.message
        if "localhost" in url:
            assert out.message.startswith("localhost resolves to ")
    assert _Site.hits == []  # refused before any connection


def test_a_redirect_to_a_private_address_is_refused(site: str, tmp_path: Path) -> None:
    # The user allows this one host; the page it redirects to is another name for loopback.
    out = fetch(f"http://127.0.0.1:{site}/to-localhost", tmp_path,
                allow_private_hosts=["127.0.0.1"])
    assert isinstance(out, ToolError) and out.code == "refused", out
    assert "localhost resolves to" in out.message and "loopback" in out.message
    assert _Site.hits == ["/to-localhost"]  # the redirect's target was never requested
    allowed = fetch(f"http://127.0.0.1:{site}/page", tmp_path, allow_private_hosts=["127.0.0.1"])
    assert isinstance(allowed, ToolOk)
