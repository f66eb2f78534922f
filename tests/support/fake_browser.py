"""A tiny in-memory browser speaking the DOM agent's tool contract, for host-side unit tests.

Pages are lists of elements; links navigate, fields keep values, a "Book" button records a booking
(the side effect tests count), an element with `opens` opens a new tab (as target=_blank does).
End-to-end tests use the real extension instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from heybro.agent.errors import ToolFailed
from shared_schema.effects import SECRET_VALUE

MAIN_TAB = 7


@dataclass
class El:
    id: str
    tag: str
    label: str
    href: str | None = None
    value: str = ""
    submit: bool = False
    checked: bool | None = None
    opens: str | None = None  # clicking opens this URL in a new tab
    risk: str | None = None  # what a press on it may do ("spend money"), as the page's agent judges it
    posts_to: str | None = None  # a submit button whose form is sent to this address
    place: str = ""  # the item it is in, as the page's agent reads it (a feed's row)


@dataclass
class FakeBrowser:
    pages: dict[str, list[El]]
    url: str = "about:blank"  # the current tab's
    bookings: list[dict[str, str]] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    fail: dict[str, str] = field(default_factory=dict)  # tool → error code, once
    fail_detail: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool → that error's detail
    covered: set[str] = field(default_factory=set)  # element ids a click always finds covered
    hovered: list[str] = field(default_factory=list)
    tab: int = MAIN_TAB
    tabs: dict[int, str] = field(default_factory=dict)  # the other tabs' URLs
    openers: dict[int, int] = field(default_factory=dict)  # tab → the tab that opened it
    highlighted: bool = False

    def _els(self) -> list[El]:
        return self.pages.get(self.url, [])

    def _find(self, eid: str) -> El:
        for e in self._els():
            if e.id == eid:
                return e
        raise ToolFailed("not_found", f"No element {eid} (and no match for its signature).")

    def _switch(self, tab: int) -> None:
        if tab == self.tab:
            return
        if tab not in self.tabs:
            raise ToolFailed("no_tab", f"There is no tab {tab}.")
        self.tabs[self.tab] = self.url
        self.tab, self.url = tab, self.tabs.pop(tab)

    def _info(self, tab: int | None = None) -> dict[str, Any]:
        tab = self.tab if tab is None else tab
        url = self.url if tab == self.tab else self.tabs[tab]
        return {"tab_id": tab, "url": url, "title": url.rsplit("/", 1)[-1] or "page",
                "active": tab == self.tab}

    def snapshot(self) -> dict[str, Any]:
        def line(e: El) -> str:
            extra = f" value=\"{e.value}\"" if e.tag == "input" else ""
            if e.checked is not None:
                extra += " checked" if e.checked else " unchecked"
            return f"[{e.id}] {e.tag} \"{e.label}\"{extra}"
        opened = [self._info(t) for t, o in self.openers.items() if o == self.tab
                  and (t in self.tabs or t == self.tab)]
        return {"url": self.url, "title": self.url.rsplit("/", 1)[-1] or "page",
                "text": "\n".join(line(e) for e in self._els()),
                "elements": {e.id: {"tag": e.tag, "name": e.label, "value": e.value}
                             for e in self._els()},
                "opened_tabs": opened, "tab_id": self.tab}

    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000, sites: Any = None) -> dict[str, Any]:
        self.calls.append((tool, args))
        if tool in self.fail:
            code = self.fail.pop(tool)
            raise ToolFailed(code, f"scripted {code}", self.fail_detail.get(tool))
        if tab_id is not None and tool not in ("switch_tab", "list_tabs", "new_tab"):
            self._switch(tab_id)
        if tool == "observe":
            self.highlighted = bool(args.get("highlight"))
            return self.snapshot()
        if tool == "navigate":
            self.url = args["url"]
            return self._info()
        if tool == "new_tab":
            self.tabs[self.tab] = self.url
            self.tab = max([self.tab, *self.tabs]) + 1
            self.url = args["url"]
            return self._info()
        if tool == "switch_tab":
            self._switch(args["tab_id"])
            return self._info()
        if tool == "list_tabs":
            return {"tabs": [self._info(t) for t in sorted([self.tab, *self.tabs])]}
        if tool == "back":
            return self._info()
        if tool == "screenshot":
            shot = {"tab_id": self.tab, "data_url": "data:image/png;base64,"
                    + ("Qk9YRVM=" if self.highlighted else "QUFBQQ==")}  # "BOXES" / "AAAA"
            if args.get("clear_boxes"):
                self.highlighted = False
            return shot
        if tool == "highlight":
            self.highlighted = bool(args.get("on"))
            return {"ok": True, "on": self.highlighted}
        if tool in ("click", "fill", "type", "select", "check", "uncheck", "hover", "focus",
                    "scroll", "press", "wait_for"):
            result = self._act(tool, args)
            if args.get("observe_after"):  # as the extension does: the page after the action
                result["observation"] = self.snapshot()
            return result
        raise ToolFailed("unsupported", f"no tool {tool}")

    def _act(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        def base() -> dict[str, Any]:  # the page after the action
            return {"url": self.url, "action": tool, "ok": True}

        if tool == "wait_for":
            text = args.get("text")
            present = text is not None and any(text in e.label for e in self._els())
            if text is not None and present == bool(args.get("gone")):
                raise ToolFailed("timeout", f"Waited {args.get('seconds', 5)} s and {text!r} "
                                 f"did not {'appear' if present is False else 'go away'}.")
            return {"ok": True, "action": "wait_for", "matched": "text", "waited_ms": 5}
        if tool in ("scroll", "press") and not args.get("element_id"):
            return base() | {"found_by": None}
        el = self._find(args["element_id"])
        self._gate(tool, el, args.get("gate") or {})
        if tool == "click":
            if el.id in self.covered:
                raise ToolFailed("covered", f"{el.label!r} is covered by another element.")
            if el.submit:
                values = {e.label: e.value for e in self._els() if e.tag == "input"}
                self.bookings.append(values)
            if el.opens:
                new = max([self.tab, *self.tabs]) + 1
                self.tabs[new] = el.opens
                self.openers[new] = self.tab
            if el.href:
                self.url = el.href
            return base() | {"found_by": "id"}
        if tool in ("check", "uncheck"):
            el.checked = tool == "check"
            return base() | {"checked": el.checked}
        if tool == "hover":
            self.hovered.append(el.id)
            return base()
        if tool in ("focus", "scroll", "press"):
            return base()
        el.value = args.get("value", args.get("text", ""))
        return base() | {"value": el.value}


    def _gate(self, tool: str, el: El, gate: dict[str, Any]) -> None:
        """The page agent's last look (content/act_gate.js), as far as these pages need: the
        origin judged, and a risky press held for the user's yes (its digest approved)."""
        origin = "/".join(self.url.split("/")[:3])
        if gate.get("origin") and gate["origin"] != origin:
            raise ToolFailed("origin_changed", f"The page is now on {origin}.", {"origin": origin})
        digest = f"{el.id}:{el.label}:{el.place}"
        reasons: list[dict[str, Any]] = []
        if tool in ("click", "press") and el.risk and gate.get("confirm"):
            reasons.append({"kind": "risk", "what": el.risk, "said": el.label})
        site = el.posts_to.split("/")[2] if el.posts_to else ""
        if tool in ("click", "press") and site and site != self.url.split("/")[2] \
                and not any(site == p or site.endswith("." + p) for p in gate.get("named", [])):
            reasons.append({"kind": "leaves", "site": site})
        if reasons and digest not in gate.get("approved", []):
            fields = [{"name": e.id, "label": e.label, "type": "text",
                       "value": SECRET_VALUE if "password" in e.label.lower() else e.value}
                      for e in self._els() if e.tag == "input" and e.value]
            raise ToolFailed("needs_approval", "held", {
                "effect": {"words": el.label, "kind": el.tag, "target": el.posts_to or el.href,
                           "method": "post" if el.posts_to else None, "fields": fields, "beside": "",
                           "place": el.place},
                "digest": digest, "reasons": reasons})


def shop() -> FakeBrowser:
    return FakeBrowser(pages={
        "http://shop/": [El("e1", "input", "Search"), El("e2", "button", "Go", href="http://shop/results")],
        "http://shop/results": [El("e1", "link", "Blue Kettle $20", href="http://shop/item"),
                                El("e2", "link", "Red Kettle $35", href="http://shop/item")],
        "http://shop/item": [El("e5", "button", "Buy", href="http://shop/form")],
        "http://shop/form": [El("e1", "input", "Name"), El("e2", "input", "Email"),
                             El("e3", "button", "Book", href="http://shop/done", submit=True)],
        "http://shop/done": [El("e1", "text", "Thank you, order confirmed #A1")],
        # A button that does nothing: the page never changes (loops, failures).
        "http://shop/stuck": [El("e1", "button", "Next"), El("e2", "button", "Other")],
        # Terms to accept, a menu shown on hover, a link that opens a new tab.
        "http://shop/terms": [El("e1", "checkbox", "I accept the terms", checked=False),
                              El("e2", "button", "Account menu"),
                              El("e3", "link", "Help (new tab)", opens="http://shop/help")],
        "http://shop/help": [El("e1", "text", "Help centre: returns within 30 days")],
    })
