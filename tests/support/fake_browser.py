"""A tiny in-memory browser speaking the DOM agent's tool contract, for host-side unit tests.

Pages are lists of elements; links navigate, fields keep values, a "Book" button records a booking
(the side effect tests count). End-to-end tests use the real extension instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from heybro.agent.browser import ToolFailed


@dataclass
class El:
    id: str
    tag: str
    label: str
    href: str | None = None
    value: str = ""
    submit: bool = False


@dataclass
class FakeBrowser:
    pages: dict[str, list[El]]
    url: str = "about:blank"
    bookings: list[dict[str, str]] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    fail: dict[str, str] = field(default_factory=dict)  # tool → error code, once

    def _els(self) -> list[El]:
        return self.pages.get(self.url, [])

    def _find(self, eid: str) -> El:
        for e in self._els():
            if e.id == eid:
                return e
        raise ToolFailed("not_found", f"No element {eid} (and no match for its signature).")

    def snapshot(self) -> dict[str, Any]:
        lines = [f"[{e.id}] {e.tag} \"{e.label}\"" + (f" value=\"{e.value}\"" if e.tag == "input"
                                                     else "") for e in self._els()]
        return {"url": self.url, "title": self.url.rsplit("/", 1)[-1] or "page",
                "text": "\n".join(lines),
                "elements": {e.id: {"tag": e.tag, "name": e.label, "value": e.value}
                             for e in self._els()}}

    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000) -> dict[str, Any]:
        self.calls.append((tool, args))
        if tool in self.fail:
            code = self.fail.pop(tool)
            raise ToolFailed(code, f"scripted {code}")
        if tool == "observe":
            return self.snapshot()
        if tool == "navigate":
            self.url = args["url"]
            return {"tab_id": 7, "url": self.url, "title": self.url}
        if tool in ("click", "fill", "type"):
            result = self._act(tool, args)
            if args.get("observe_after"):  # as the extension does: the page after the action
                result["observation"] = self.snapshot()
            return result
        if tool == "screenshot":
            return {"data_url": "data:image/png;base64,AAAA"}
        raise ToolFailed("unsupported", f"no tool {tool}")

    def _act(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        el = self._find(args["element_id"])
        if tool == "click":
            if el.submit:
                values = {e.label: e.value for e in self._els() if e.tag == "input"}
                self.bookings.append(values)
            if el.href:
                self.url = el.href
            return {"url": self.url, "found_by": "id"}
        el.value = args.get("value", args.get("text", ""))
        return {"url": self.url, "value": el.value}


def shop() -> FakeBrowser:
    return FakeBrowser(pages={
        "http://shop/": [El("e1", "input", "Search"), El("e2", "button", "Go", href="http://shop/results")],
        "http://shop/results": [El("e1", "link", "Blue Kettle $20", href="http://shop/item"),
                                El("e2", "link", "Red Kettle $35", href="http://shop/item")],
        "http://shop/item": [El("e5", "button", "Buy", href="http://shop/form")],
        "http://shop/form": [El("e1", "input", "Name"), El("e2", "input", "Email"),
                             El("e3", "button", "Book", href="http://shop/done", submit=True)],
        "http://shop/done": [El("e1", "text", "Thank you, order confirmed #A1")],
    })
