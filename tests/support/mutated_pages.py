"""Changed copies of pages, as a redesign changes them: ids renamed, classes hashed, wrappers
added, words tweaked, a button moved. Each mutation is a plain function over an HTML page, so the
same ones apply to the demo shop and to the real applications (served through a rewriting proxy)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from heybro.demo import DemoSite

Mutation = Callable[[str], str]


def _hash(word: str) -> str:
    return "c" + hashlib.sha1(word.encode()).hexdigest()[:7]


def ids_renamed(html: str) -> str:
    """Every id (and what points at it: label for=, href=#, aria-*) gets a generated name."""
    ids = set(re.findall(r'\bid=["\']([^"\']+)["\']', html))
    for old in sorted(ids, key=len, reverse=True):
        new = "x" + hashlib.sha1(old.encode()).hexdigest()[:6]
        html = re.sub(r'(\b(?:id|for|aria-labelledby|aria-describedby|aria-controls)=["\'])'
                      + re.escape(old) + r'(["\'])', r"\g<1>" + new + r"\g<2>", html)
        html = html.replace(f'href="#{old}"', f'href="#{new}"').replace(f"href='#{old}'",
                                                                        f"href='#{new}'")
    return html


def classes_hashed(html: str) -> str:
    """Class names become build hashes (CSS-in-JS style), in the markup and in the page's own
    style sheets alike (hashed_css; the proxy applies it to linked ones), so the page looks the
    same. Scripts that add class names of their own are not rewritten."""
    def swap(m: re.Match[str]) -> str:
        return m.group(1) + " ".join(_hash(c) for c in m.group(2).split()) + m.group(3)
    html = re.sub(r'(\bclass=["\'])([^"\']*)(["\'])', swap, html)
    return re.sub(r"(<style\b[^>]*>)(.*?)(</style>)",
                  lambda m: m.group(1) + hashed_css(m.group(2)) + m.group(3), html, flags=re.S)


def hashed_css(css: str) -> str:
    """A style sheet's class selectors hashed as classes_hashed hashes the markup's classes
    (declarations, where url(…) lives, are left alone)."""
    parts = re.split(r"(\{[^{}]*\})", css)
    for i in range(0, len(parts), 2):
        if "@import" not in parts[i]:
            parts[i] = re.sub(r"\.(-?[_a-zA-Z][\w-]*)", lambda m: "." + _hash(m.group(1)),
                              parts[i])
    return "".join(parts)


def wrappers_added(html: str) -> str:
    """Two layers of divs around the main content and a span around every control."""
    html = re.sub(r"(<main[^>]*>)", r"\1<div class='shell'><div class='inner'>", html, count=1)
    html = html.replace("</main>", "</div></div></main>", 1)
    html = re.sub(r"(<button\b[^>]*>.*?</button>)", r"<span class='ctl'>\1</span>", html,
                  flags=re.S)
    return re.sub(r"(<input\b[^>]*>)", r"<span class='ctl'>\1</span>", html)


TEXT_TWEAKS = {"Place order": "Place your order", "Buy now": "Buy it now",
               "Full name": "Your full name", "Search products": "Search our products",
               "Log in": "Sign in", "Save page": "Save this page", "Save changes": "Save your changes",
               "Publish": "Publish now", "Summary": "Edit summary"}


def text_tweaked(html: str) -> str:
    """A few words of controls and labels reworded (the kind of copy edit a redesign makes)."""
    for old, new in TEXT_TWEAKS.items():
        html = re.sub(r"(>\s*)" + re.escape(old) + r"(\s*<)", r"\g<1>" + new + r"\g<2>", html)
        html = re.sub(r"(\bvalue=[\"'])" + re.escape(old) + r"([\"'])", r"\g<1>" + new + r"\g<2>",
                      html)
    return html


def button_moved(html: str) -> str:
    """The first form's submit button moves to the top of its form (before the fields)."""
    m = re.search(r"(<form\b[^>]*>)(.*?)(<button\b[^>]*type=['\"]?submit[^>]*>.*?</button>|"
                  r"<button\b(?![^>]*type=)[^>]*>.*?</button>|<input\b[^>]*type=['\"]submit"
                  r"['\"][^>]*>)(.*?</form>)", html, flags=re.S)
    if not m:
        return html
    form, before, button, after = m.groups()
    return html[:m.start()] + form + button + before + after + html[m.end():]


def links_as_buttons(html: str) -> str:
    """The page's own links (in <main>, not the site menu) become buttons of one-button forms:
    another kind of control, found by neither its tag nor its role any more."""
    head, sep, main = html.partition("<main")
    if not sep:
        return html

    def swap(m: re.Match[str]) -> str:
        return (f"<form method='get' action='{m.group(1)}' style='display:inline'><button>"
                f"{m.group(2)}</button></form>")
    return head + sep + re.sub(r"<a href='([^'#]+)'>(.*?)</a>", swap, main, flags=re.S)


MUTATIONS: dict[str, Mutation] = {"links as buttons": links_as_buttons, "ids renamed": ids_renamed, "classes hashed": classes_hashed,
                                  "wrappers added": wrappers_added, "text tweaked": text_tweaked,
                                  "button moved": button_moved}


def apply(html: str, names: list[str]) -> str:
    for name in names:
        html = MUTATIONS[name](html)
    return html


@dataclass
class MutatedShop(DemoSite):
    """The demo shop with its pages changed by `mutations` (its orders are its own)."""

    mutations: list[str] = field(default_factory=list)

    def _route(self, method: str, path: str, query: dict[str, list[str]],
               form: dict[str, list[str]]) -> tuple[int, bytes, dict[str, str]]:
        status, body, headers = super()._route(method, path, query, form)
        if body.startswith(b"<!doctype html>"):
            body = apply(body.decode(), self.mutations).encode()
        return status, body, headers


def describe(names: list[Any]) -> str:
    return " + ".join(str(n) for n in names) or "unchanged"


class MutatingProxy:
    """A real application's pages changed on their way to the browser: a local proxy in front of
    `target` (an origin such as http://127.0.0.1:8080) that applies `mutations` to every HTML
    page and speaks of itself wherever the application names its own address (links, redirects),
    so the whole visit stays on the changed copy. Binds 127.0.0.1 on a free port."""

    def __init__(self, target: str, mutations: list[str]) -> None:
        self.target = target.rstrip("/")
        self.mutations = mutations
        self._server: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> MutatingProxy:
        import http.client
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlsplit

        proxy = self
        host = urlsplit(self.target)

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _forward(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(size) if size else None
                headers = {k: v.replace(proxy.url, proxy.target) for k, v in self.headers.items()
                           if k.lower() not in ("host", "accept-encoding", "connection")}
                conn = http.client.HTTPConnection(host.hostname, host.port, timeout=60)
                conn.request(self.command, self.path, body=body,
                             headers=headers | {"Host": host.netloc})
                got = conn.getresponse()
                data = got.read()
                kind = got.getheader("Content-Type") or ""
                if "text/css" in kind and "classes hashed" in proxy.mutations:
                    data = hashed_css(data.decode("utf-8", "replace")).encode()
                if "text/html" in kind:
                    text = data.decode("utf-8", "replace").replace(proxy.target, proxy.url)
                    data = apply(text, proxy.mutations).encode()
                self.send_response(got.status)
                for k, v in got.getheaders():
                    if k.lower() in ("content-length", "transfer-encoding", "connection"):
                        continue
                    self.send_header(k, v.replace(proxy.target, proxy.url))
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                conn.close()

            do_GET = do_POST = do_HEAD = _forward  # noqa: N815

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
