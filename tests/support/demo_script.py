"""Scripted LLM replies for the demo shop, reading element ids from the real DOM agent's page map."""

from __future__ import annotations

import re
from typing import Any

from .scripted_llm import call, calls, fault, find_id, user_text

NAME, EMAIL = "Ann Lee", "ann@example.com"
PLAN = ["Search the shop for a blue kettle", "Open the Blue Kettle product page",
        f"Order one Blue Kettle as {NAME}, {EMAIL}"]


def search(b: dict[str, Any]) -> Any:
    return calls(("fill", {"element_id": find_id(b, '"Search products"'), "value": "blue kettle",
                           "expect": "value:blue kettle"}),
                 ("click", {"element_id": find_id(b, 'button "Search"'),
                            "expect": "url:/search"}))


def open_product(b: dict[str, Any]) -> Any:
    return call("click", element_id=find_id(b, 'link "Blue Kettle"'),
                expect="url:/product/p1")


def buy_now(b: dict[str, Any]) -> Any:
    return call("click", element_id=find_id(b, "Buy now"), expect="url:/checkout")


def fill_form(b: dict[str, Any]) -> Any:
    return calls(("fill", {"element_id": find_id(b, '"Full name"'), "value": NAME}),
                 ("fill", {"element_id": find_id(b, '"Email"'), "value": EMAIL}),
                 ("click", {"element_id": find_id(b, "Place order"),
                            "expect": "text:Order confirmed"}))


def order_number(b: dict[str, Any]) -> str | None:
    """The order number the confirmation page shows (read off the page in the prompt)."""
    m = re.search(r"\bKC\d+\b", user_text(b).split("PAGE", 1)[-1])
    return m.group(0) if m else None


def note_order(b: dict[str, Any]) -> Any:
    num = order_number(b)
    if num is None:
        return call("mark_done", summary="Order placed, but the page shows no order number")
    return call("extract", name="order_number", value=num)


def report_order(b: dict[str, Any]) -> Any:
    return call("mark_done", summary=f"Order {order_number(b)} placed for {NAME}")


def confirm_order(b: dict[str, Any]) -> Any:
    num = order_number(b)
    if num is None:
        return call("continue_work", instructions="Find the order number on the page",
                    confidence=0.9)
    return call("mark_complete", reason=f"The shop confirms order {num} for {NAME}",
                confidence=0.95)


def happy(*, faults: bool = False, correction: bool = False) -> dict[str, list[Any]]:
    worker: list[Any] = [search, call("mark_done", summary="Search results are shown"),
                         open_product, call("mark_done", summary="Blue Kettle page open"),
                         buy_now, fill_form, note_order, report_order]
    verifier: list[Any] = [call("mark_complete", reason="Results listed", confidence=0.9),
                           call("mark_complete", reason="Product page open", confidence=0.9),
                           confirm_order]
    scheduler: list[Any] = [calls(("set_subtasks", {"subtasks": PLAN}), ("start_work", {}))]
    if faults:
        scheduler = [fault(429), fault(500), *scheduler]
        worker.insert(4, call("click", element_id="e999"))  # hallucinated: refused, repaired
    if correction:
        # The worker claims success on the product page before opening it; the verifier objects.
        worker[2:2] = [call("mark_done", summary="Done")]
        verifier.insert(1, call("continue_work", instructions="Open the Blue Kettle product page",
                                confidence=0.9))
    return {"scheduler": scheduler, "worker": worker, "verifier": verifier}


# The plan with what the page shows once each subtask is done (checked by the host).
CHECKED_PLAN = [{"subtask": PLAN[0], "done_when": "url:/search; element:link \"Blue Kettle\""},
                {"subtask": PLAN[1], "done_when": "url:/product/p1"},
                {"subtask": PLAN[2], "done_when": "text:Order confirmed"}]


def _reporting(step: Any, summary: str) -> Any:
    """`step`'s actions followed by mark_done in the same reply (its last action has expect)."""
    def reply(b: dict[str, Any]) -> Any:
        return {"calls": [*step(b)["calls"], ("mark_done", {"summary": summary})]}
    return reply


def note_and_report(b: dict[str, Any]) -> Any:
    num = order_number(b)
    return calls(("extract", {"name": "order_number", "value": num or "?"}),
                 ("mark_done", {"summary": f"Order {num} placed for {NAME}"}))


def lean() -> dict[str, list[Any]]:
    """The same moves as happy(), as a model uses heybro's checks: subtasks declare what the page
    shows when done, and a report closes a batch whose last action carries an expectation."""
    return {"scheduler": [calls(("set_subtasks", {"subtasks": CHECKED_PLAN}), ("start_work", {}))],
            "worker": [_reporting(search, "Search results are shown"),
                       _reporting(open_product, "Blue Kettle page open"),
                       buy_now, fill_form, note_and_report],
            "verifier": [confirm_order]}


def unreported() -> dict[str, list[Any]]:
    """The same moves as lean(), by a model that reports a subtask only when asked about a page
    that shows it done (it never closes a batch with a report): the worker reads the page it is
    shown and does the next thing — what heybro's done_when check after each batch saves."""
    def worker(b: dict[str, Any]) -> Any:
        text = user_text(b)
        page = text.split("PAGE", 1)[-1]
        url = re.search(r"^URL: (\S+)", page, re.M)
        at = url.group(1) if url else ""
        if f"ASSIGNMENT: {PLAN[0]}" in text:
            return call("mark_done", summary="Search results are shown") if "/search" in at else search(b)
        if f"ASSIGNMENT: {PLAN[1]}" in text:
            return call("mark_done", summary="Blue Kettle page open") if "/product/p1" in at else open_product(b)
        if "Order confirmed" in page:
            return note_and_report(b)
        return fill_form(b) if "/checkout" in at else buy_now(b)
    return {"scheduler": [calls(("set_subtasks", {"subtasks": CHECKED_PLAN}), ("start_work", {}))],
            "worker": [worker] * 8, "verifier": [confirm_order]}
