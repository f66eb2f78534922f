"""The host's Session over a fake channel and the in-memory shop, driven by a scripted model that
decides from the page it is shown, with a window to pause, stop or talk while a reply is held."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from shared_schema.events import ControlData, MessageData, StatusData, dump

from heybro.agent.browser import Browser
from heybro.session import Session
from heybro.store import TaskStore

from .fake_browser import FakeBrowser, shop
from .scripted_llm import ScriptedLLM, call, calls, user_text

HOLD_OFF = "do NOT book"


class FakeChannel:
    """Collects what the session sends to the extension."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    async def send(self, type_: str, payload: Any) -> None:
        self.sent.append((type_, payload))

    def post(self, type_: str, payload: Any) -> None:
        self.sent.append((type_, payload))

    def events(self, task_id: str | None = None) -> list[Any]:
        return [p for t, p in self.sent if t == "event" and (task_id is None or p.task_id == task_id)]


def page_of(body: dict[str, Any]) -> str:
    return user_text(body).split("PAGE (untrusted", 1)[-1]


@dataclass
class BookingPolicy:
    """The fake shop's booking flow; `hold` makes the reply that books wait for `release`."""

    hold: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    waiting: threading.Event = field(default_factory=threading.Event)
    scheduler_calls: list[str] = field(default_factory=list)
    worker_calls: int = 0
    delay_s: float = 0.0

    def scheduler(self, body: dict[str, Any]) -> Any:
        prompt = user_text(body)
        self.scheduler_calls.append(prompt)
        goal = ("Stay on the booking form without booking" if HOLD_OFF in prompt
                else "Book the blue kettle for Ann")
        return calls(("set_subtasks", {"subtasks": [goal]}), ("start_work", {}))

    def worker(self, body: dict[str, Any]) -> Any:
        self.worker_calls += 1
        time.sleep(self.delay_s)
        page, prompt = page_of(body), user_text(body)
        if "without booking" in prompt.split("OVERALL GOAL", 1)[0] or "confirmed" in page:
            return call("mark_done", summary="Done as asked")
        if 'button "Book"' in page:
            if self.hold.is_set() and not self.release.is_set():
                self.waiting.set()
                self.release.wait(30)
            return calls(("fill", {"element_id": "e1", "value": "Ann"}),
                         ("fill", {"element_id": "e2", "value": "ann@x.io"}),
                         ("click", {"element_id": "e3"}))
        if 'button "Buy"' in page:
            return call("click", element_id="e5")
        if "Blue Kettle" in page:
            return call("click", element_id="e1")
        return calls(("fill", {"element_id": "e1", "value": "kettle"}),
                     ("click", {"element_id": "e2"}))

    def verifier(self, body: dict[str, Any]) -> Any:
        prompt = user_text(body)
        if "confirmed" in page_of(body) or "without booking" in prompt:
            return call("mark_complete", reason="As asked", confidence=0.95)
        return call("continue_work", instructions="Go on with the booking", confidence=0.9)

    def defaults(self) -> dict[str, Any]:
        return {"scheduler": self.scheduler, "worker": self.worker, "verifier": self.verifier}


@dataclass
class SessionRig:
    session: Session
    channel: FakeChannel
    store: TaskStore
    browser: FakeBrowser
    policy: BookingPolicy
    llm: ScriptedLLM
    acting: list[Browser]  # the browser the next run acts in (the shop, or a wrapper of it)

    def act_in(self, browser: Browser) -> None:
        """Runs started or resumed from now on act in `browser`."""
        self.acting[0] = browser

    def statuses(self, task_id: str) -> list[str]:
        return [e.data.status for e in self.channel.events(task_id)
                if isinstance(e.data, StatusData)]

    def messages(self, task_id: str) -> list[dict[str, Any]]:
        return [dump(e.data) for e in self.channel.events(task_id)
                if isinstance(e.data, MessageData)]

    def controls(self, task_id: str) -> list[str]:
        """The pause, resume and stop requests the task took in, in order."""
        return [e.data.what for e in self.channel.events(task_id)
                if isinstance(e.data, ControlData)]

    def status(self, task_id: str) -> str:
        row = self.store.get_task(task_id)
        assert row is not None
        return row.status


@contextmanager
def session_rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                env: dict[str, str] | None = None) -> Iterator[SessionRig]:
    policy = BookingPolicy()
    browser = shop()
    with ScriptedLLM({}, default=policy.defaults()) as llm:
        monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
        for k, v in (llm.env() | (env or {})).items():
            monkeypatch.setenv(k, v)
        store = TaskStore(tmp_path / "tasks.sqlite3")
        channel = FakeChannel()
        acting: list[Browser] = [browser]

        def browsers(channel: Any, task_id: str) -> Browser:
            return acting[0]
        rig = SessionRig(Session(channel, store, browsers),  # type: ignore[arg-type]
                         channel, store, browser, policy, llm, acting)
        try:
            yield rig
        finally:
            policy.release.set()
            store.close()


async def until(pred: Callable[[], bool], timeout: float = 10.0, what: str = "") -> float:
    """Waits (on the event loop) until `pred()`; returns the seconds it took."""
    began = time.monotonic()
    while not pred():
        if time.monotonic() - began > timeout:
            raise AssertionError(f"timed out waiting for {what or pred}")
        await asyncio.sleep(0.01)
    return time.monotonic() - began


async def wait_thread(ev: threading.Event, timeout: float = 10.0) -> None:
    assert await asyncio.to_thread(ev.wait, timeout), "the scripted model was never asked"
