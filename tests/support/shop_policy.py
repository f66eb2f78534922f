"""A scripted model that decides from the page it is shown, not from a fixed queue: after a crash
or a pause it answers for the page as it is now, like a real model would. Drives the demo shop."""

from __future__ import annotations

import threading
from typing import Any

from .scripted_llm import call, calls, find_id, user_text

NAME, EMAIL = "Ann Lee", "ann@example.com"
GOAL = f"Buy one Blue Kettle for {NAME} ({EMAIL})"
# What a person types to call the purchase off; the scheduler plans to stop at checkout then.
CALL_OFF = "Actually do NOT place the order, just stop at checkout"
STAY = "Stay on the checkout page without placing the order"


def page_of(body: dict[str, Any]) -> str:
    return user_text(body).split("PAGE (untrusted", 1)[-1]


class ShopPolicy:
    """Per-role callables for ScriptedLLM(default=...). `hold_before_order`, when set, makes the
    worker's reply that would place the order wait until `release` is set (a window to pause,
    stop or crash things while the task is mid-run)."""

    def __init__(self) -> None:
        self.hold_before_order = threading.Event()
        self.release = threading.Event()
        self.waiting = threading.Event()
        self.scheduler_calls: list[str] = []

    def scheduler(self, body: dict[str, Any]) -> Any:
        prompt = user_text(body)
        self.scheduler_calls.append(prompt)
        plan = STAY if "do NOT place the order" in prompt else GOAL
        return calls(("set_subtasks", {"subtasks": [plan]}), ("start_work", {}))

    def worker(self, body: dict[str, Any]) -> Any:
        page = page_of(body)
        if STAY in user_text(body).split("OVERALL GOAL", 1)[0]:
            return call("mark_done", summary="Staying on the checkout page; no order placed")
        if "Order confirmed" in page:
            return call("mark_done", summary="The order is confirmed on the page")
        if "Place order" in page:
            if self.hold_before_order.is_set() and not self.release.is_set():
                self.waiting.set()
                self.release.wait(60)
            return calls(("fill", {"element_id": find_id(body, "Full name"), "value": NAME}),
                         ("fill", {"element_id": find_id(body, "Email"), "value": EMAIL}),
                         ("click", {"element_id": find_id(body, "Place order")}))
        if "Buy now" in page:
            return call("click", element_id=find_id(body, "Buy now"))
        try:
            return call("click", element_id=find_id(body, 'link "Blue Kettle"'))
        except AssertionError:
            return calls(("fill", {"element_id": find_id(body, "Search products"),
                                   "value": "blue kettle"}),
                         ("click", {"element_id": find_id(body, 'button "Search"')}))

    def verifier(self, body: dict[str, Any]) -> Any:
        if STAY in user_text(body).split("PAGE (untrusted", 1)[0]:
            return call("mark_complete", reason="Stopped at checkout as asked", confidence=0.95)
        if "Order confirmed" in page_of(body):
            return call("mark_complete", reason="The confirmation page shows the order",
                        confidence=0.95)
        return call("continue_work", instructions="Finish placing the order", confidence=0.9)

    def defaults(self) -> dict[str, Any]:
        return {"scheduler": self.scheduler, "worker": self.worker, "verifier": self.verifier}
