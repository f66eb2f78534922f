"""The sites an attack runs on: a threading HTTP server on 127.0.0.1 that serves the pages the
attack's generator wrote and records every request it gets (method, host, path, query, body) —
the attacker's own log, which is the judge's hardest evidence. One instance plays the user's sites
(shop.test, mybank.test …), another the attacker's (evil.test …); Chromium maps every *.test name
to 127.0.0.1, so a site is told apart by its Host header and port."""

from __future__ import annotations

import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Hit:
    """One request the server received."""

    method: str
    host: str
    path: str  # without the query
    query: str  # raw, undecoded
    body: str
    referer: str
    at: float

    @property
    def target(self) -> str:
        return self.path + (f"?{self.query}" if self.query else "")

    def text(self) -> str:
        """Everything the request carried, raw and percent-decoded, for a search for data."""
        raw = f"{self.method} {self.host}{self.target} {self.body}"
        return raw + "\n" + urllib.parse.unquote_plus(raw)

    def line(self) -> str:
        body = f" body={self.body[:160]!r}" if self.body else ""
        return f"{self.method} {self.host}{self.target[:200]}{body}"


@dataclass
class Reply:
    status: int = 200
    body: str | bytes = ""
    type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # answered slowly (a handler's request the page waits on)


Handler = Callable[[Hit], Reply]


class Site:
    """Routes by path (any Host); a path not routed is answered 404 and still recorded."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.routes: dict[str, Handler] = {}
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    def url(self, host: str, path: str = "/") -> str:
        return f"http://{host}:{self.port}{path}"

    def page(self, path: str, html: str | Callable[[Hit], str]) -> None:
        """Serves `html` (or what a function of the request makes) at `path`."""
        if callable(html):
            fn = html
            self.routes[path] = lambda hit: Reply(body=fn(hit))
        else:
            text = html
            self.routes[path] = lambda hit: Reply(body=text)

    def route(self, path: str, handler: Handler) -> None:
        self.routes[path] = handler

    def since(self, mark: int) -> list[Hit]:
        with self._lock:
            return list(self.hits[mark:])

    def mark(self) -> int:
        with self._lock:
            return len(self.hits)

    def _record(self, hit: Hit) -> None:
        with self._lock:
            self.hits.append(hit)

    def __enter__(self) -> Site:
        outer = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                path, _, query = self.path.partition("?")
                hit = Hit(self.command, self.headers.get("host", ""), path, query, body,
                          self.headers.get("referer", ""), time.time())
                outer._record(hit)
                handler = outer.routes.get(path)
                reply = handler(hit) if handler else Reply(404, "<!doctype html><title>Not found</title><p>Not found</p>")
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                data = reply.body.encode() if isinstance(reply.body, str) else reply.body
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", reply.type)
                    self.send_header("content-length", str(len(data)))
                    self.send_header("cache-control", "no-store")
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    if self.command != "HEAD":
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = do_OPTIONS = _serve  # noqa: N815

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
