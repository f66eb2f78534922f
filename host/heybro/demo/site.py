"""The demo shop: search → results → product → checkout form → confirmation.

Every accepted order is recorded (`DemoSite.orders`, and `GET /api/orders`) so tests can assert a
side effect happened exactly once. Binds 127.0.0.1 on a free port.
"""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

PRODUCTS: list[dict[str, Any]] = [
    {"id": "p1", "name": "Blue Kettle", "price": 24.0, "color": "blue", "kind": "kettle"},
    {"id": "p2", "name": "Red Kettle", "price": 35.0, "color": "red", "kind": "kettle"},
    {"id": "p3", "name": "Steel Kettle", "price": 49.0, "color": "steel", "kind": "kettle"},
    {"id": "p4", "name": "Blue Mug", "price": 8.5, "color": "blue", "kind": "mug"},
    {"id": "p5", "name": "Green Teapot", "price": 29.0, "color": "green", "kind": "teapot"},
]

STYLE = ("body{font-family:sans-serif;max-width:720px;margin:2em auto}"
         "nav a{margin-right:1em}.card{border:1px solid #ccc;padding:.8em;margin:.5em 0}"
         "label{display:block;margin:.5em 0}")


def page(title: str, body: str) -> bytes:
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{html.escape(title)} · "
            f"Kettle & Co</title><style>{STYLE}</style></head><body><nav><a href='/'>Home</a>"
            f"<a href='/search'>All products</a></nav><main><h1>{html.escape(title)}</h1>{body}"
            "</main></body></html>").encode()


def search_form(q: str = "") -> str:
    return ("<form action='/search' method='get' role='search'><label>Search products "
            f"<input name='q' type='search' placeholder='e.g. kettle' value='{html.escape(q)}'>"
            "</label><button type='submit'>Search</button></form>")


@dataclass
class DemoSite:
    orders: list[dict[str, Any]] = field(default_factory=list)
    # Called with each new order before the browser gets its answer (tests crash things here).
    on_order: Callable[[dict[str, Any]], None] | None = None
    # Called with (method, path) as each request arrives, before it is answered (tests hold a
    # page's answer here to cut things off while a navigation is in flight).
    on_request: Callable[[str, str], None] | None = None
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def _route(self, method: str, path: str, query: dict[str, list[str]],
               form: dict[str, list[str]]) -> tuple[int, bytes, dict[str, str]]:
        def one(d: dict[str, list[str]], k: str) -> str:
            return (d.get(k) or [""])[0].strip()

        if path == "/":
            return 200, page("Welcome to Kettle & Co", search_form() +
                             "<p>Kettles, mugs and teapots, shipped tomorrow.</p>"), {}
        if path == "/search":
            q = one(query, "q").lower()
            hits = [p for p in PRODUCTS if not q or all(w in f"{p['name']} {p['kind']}".lower()
                                                         for w in q.split())]
            items = "".join(f"<div class='card'><a href='/product/{p['id']}'>{p['name']}</a> — "
                            f"${p['price']:.2f}</div>" for p in hits) or "<p>No products found.</p>"
            return 200, page(f"Results for “{q}”" if q else "All products",
                             search_form(q) + f"<p>{len(hits)} result(s)</p>{items}"), {}
        if path.startswith("/product/"):
            p = next((p for p in PRODUCTS if p["id"] == path.rsplit("/", 1)[-1]), None)
            if not p:
                return 404, page("Not found", "<p>No such product.</p>"), {}
            return 200, page(p["name"], f"<p>Price: ${p['price']:.2f}</p><p>Colour: {p['color']}"
                             f"</p><a href='/checkout/{p['id']}'>Buy now</a>"), {}
        if path.startswith("/checkout/") and method == "GET":
            p = next((p for p in PRODUCTS if p["id"] == path.rsplit("/", 1)[-1]), None)
            if not p:
                return 404, page("Not found", "<p>No such product.</p>"), {}
            return 200, page(f"Checkout: {p['name']}", (
                f"<form action='/order' method='post'><input type='hidden' name='product' "
                f"value='{p['id']}'><label>Full name <input name='name' required></label>"
                "<label>Email <input name='email' type='email' required></label>"
                "<label>Quantity <select name='qty'><option>1</option><option>2</option>"
                "<option>3</option></select></label><button type='submit'>Place order</button>"
                "</form>")), {}
        if path == "/order" and method == "POST":
            name, email, pid = one(form, "name"), one(form, "email"), one(form, "product")
            if not name or "@" not in email:
                return 400, page("Order problem", "<p>Name and a valid email are needed.</p>"
                                 f"<a href='/checkout/{html.escape(pid)}'>Back</a>"), {}
            with self._lock:
                order = {"id": f"KC{1000 + len(self.orders) + 1}", "product": pid, "name": name,
                         "email": email, "qty": int(one(form, "qty") or 1)}
                self.orders.append(order)
            if self.on_order:
                self.on_order(order)
            return 303, b"", {"Location": f"/confirm/{order['id']}"}
        if path.startswith("/confirm/"):
            oid = path.rsplit("/", 1)[-1]
            found = next((o for o in self.orders if o["id"] == oid), None)
            if not found:
                return 404, page("Not found", "<p>No such order.</p>"), {}
            return 200, page("Order confirmed", f"<p>Thank you, {html.escape(found['name'])}. "
                             f"Your order number is <strong>{oid}</strong>.</p>"), {}
        if path == "/api/orders":
            return 200, json.dumps(self.orders).encode(), {"Content-Type": "application/json"}
        return 404, page("Not found", "<p>Nothing here.</p>"), {}

    def start(self, port: int = 0) -> DemoSite:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self, method: str) -> None:
                parts = urlsplit(self.path)
                form: dict[str, list[str]] = {}
                if method == "POST":
                    n = int(self.headers.get("content-length", 0))
                    form = parse_qs(self.rfile.read(n).decode())
                if site.on_request:
                    site.on_request(method, parts.path)
                status, body, headers = site._route(method, parts.path, parse_qs(parts.query), form)
                self.send_response(status)
                headers.setdefault("Content-Type", "text/html; charset=utf-8")
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                self._serve("GET")

            def do_POST(self) -> None:  # noqa: N802
                self._serve("POST")

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> DemoSite:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
