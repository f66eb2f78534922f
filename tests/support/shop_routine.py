"""The demo order as a saved routine, built the way saving a finished task builds it: each step's
element signature is taken from a real observe of the shop's page by the extension's DOM agent
(so re-finding meets exactly what it meets after a real task), the user's values are parameters."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from heybro.agent.expect import parse_expect
from heybro.routines.model import Outcome, Parameter, Routine, Step
from heybro.store import TaskStore
from heybro.store.routines import StoreRoutines

from .browser import ExtBrowser
from .demo_script import CHECKED_PLAN, EMAIL, NAME

QUERY = "blue kettle"


def observe_tab(eb: ExtBrowser, page: Page) -> dict[str, Any]:
    """`observe` through the coordinator on `page`'s tab (as the host asks for it)."""
    return run_tool(eb, page, "observe", {"max_tokens": 4000})


def run_tool(eb: ExtBrowser, page: Page, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """A DOM tool through the coordinator on `page`'s tab; its result."""
    page.bring_to_front()
    res = eb.sw.evaluate(
        """async ([url, tool, args]) => {
            const tabs = await chrome.tabs.query({});
            const tab = tabs.find(t => t.url === url);
            return await globalThis.heybro.runTool({tool, args, tab_id: tab.id,
                                                   timeout_ms: 15000});
        }""", [page.url, tool, args])
    assert res["ok"], res
    return res["result"]


def signature(obs: dict[str, Any], name: str, role: str | None = None) -> dict[str, Any]:
    for sig in obs["elements"].values():
        if " ".join(str(sig.get("name") or "").split()) == name and role in (None, sig.get("role")):
            return sig
    raise AssertionError(f"{name!r} not among {[s.get('name') for s in obs['elements'].values()]}")


def demo_order(eb: ExtBrowser, page: Page, base: str, name: str = "kettle-order") -> Routine:
    """Visits the shop's pages in `page` and returns the order routine (page left on the start)."""
    sigs: dict[str, dict[str, Any]] = {}
    for path, wanted in (("", [("Search products", None), ("Search", "button")]),
                         ("search?q=blue+kettle", [("Blue Kettle", "link")]),
                         ("product/p1", [("Buy now", "link")]),
                         ("checkout/p1", [("Full name", None), ("Email", None),
                                          ("Place order", "button")])):
        page.goto(base + path)
        obs = observe_tab(eb, page)
        for label, role in wanted:
            sigs[label] = signature(obs, label, role)
    page.goto(base)

    def step(tool: str, on: str, sub: int, intent: str, expect: str | None = None,
             **args: Any) -> Step:
        return Step(tool=tool, args=args, signature=sigs[on], intent=intent, subtask=sub,
                    expect=parse_expect(expect) if expect else None, url=base)

    return Routine(
        name=name, goal="Buy a {{param:query}} for {{param:name}}", start_url=base,
        parameters=[Parameter(name="query", default=QUERY, description="what to search for"),
                    Parameter(name="name", default=NAME, description="the buyer's full name"),
                    Parameter(name="email", default=EMAIL, description="the buyer's e-mail")],
        subtasks=[Outcome(text=p["subtask"], done_when=parse_expect(p["done_when"]))
                  for p in CHECKED_PLAN],
        steps=[step("fill", "Search products", 0, "type the search words",
                    "value:{{param:query}}", value="{{param:query}}"),
               step("click", "Search", 0, "run the search", "url:/search"),
               step("click", "Blue Kettle", 1, "open the Blue Kettle product page",
                    "url:/product/p1"),
               step("click", "Buy now", 2, "go to the checkout", "url:/checkout"),
               step("fill", "Full name", 2, "enter the buyer's name", value="{{param:name}}"),
               step("fill", "Email", 2, "enter the buyer's e-mail", value="{{param:email}}"),
               step("click", "Place order", 2, "place the order", "text:Order confirmed")])


def save(home_store: TaskStore, routine: Routine) -> None:
    StoreRoutines(home_store).save(routine, replace=True)
