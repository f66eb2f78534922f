"""Pause/stop check points between actions, and the user's follow-ups: lifecycle controls hook in here.

Semantics (the status machine's):
- pause takes effect at the next safe point (between actions). A model reply that arrives after the
  pause is kept in the record, never acted on: when the task resumes, the actions it proposed are set
  aside and the agent looks at the page again (`HeldReplySetAside`).
- a follow-up message never resumes a paused task by itself; whenever one is waiting, the scheduler
  hears it before any further action (`NewInformation`).
- stop ends the task at once: a model call in flight is cancelled (`interruptible`).
- time spent paused does not count towards the task's wall-clock limit (`paused_s`).
- a question to the user holds the task until it is answered (`ask` / `answer`); that wait is
  not counted either, and stop ends it at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from .errors import HeldReplySetAside, NewInformation, TaskStopped

T = TypeVar("T")


class RunControl:
    def __init__(self) -> None:
        self._running = asyncio.Event()
        self._running.set()
        self.stopped = False
        self.stop_reason = "stopped by the user"
        self.on_pause: Callable[[], Awaitable[None]] | None = None
        self.on_resume: Callable[[], Awaitable[None]] | None = None
        self._messages: list[str] = []
        self._inflight: set[asyncio.Future[Any]] = set()
        self.paused_s = 0.0  # total time spent waiting at a pause or for an answer
        # The task's clock stops while it waits for the user (set by the executor).
        self.on_hold: Callable[[], None] | None = None
        self.on_release: Callable[[], None] | None = None
        self._answer: asyncio.Future[str] | None = None

    # --- follow-ups ---------------------------------------------------------------------------

    def tell(self, text: str) -> None:
        """A follow-up from the user; the scheduler reads it before any further action."""
        self._messages.append(text)

    @property
    def has_messages(self) -> bool:
        return bool(self._messages)

    def take_messages(self) -> list[str]:
        taken, self._messages = self._messages, []
        return taken

    # --- questions to the user ------------------------------------------------------------------

    @property
    def asking(self) -> bool:
        return self._answer is not None and not self._answer.done()

    async def ask(self) -> str:
        """Waits for the user's answer to the question just asked; raises TaskStopped on stop."""
        if self.stopped:
            raise TaskStopped(self.stop_reason)
        self._answer = asyncio.get_running_loop().create_future()
        if self.on_hold:
            self.on_hold()
        began = time.monotonic()
        try:
            return await self.interruptible(self._answer)
        finally:
            self.paused_s += time.monotonic() - began
            self._answer = None
            if self.on_release:
                self.on_release()

    def answer(self, text: str) -> bool:
        """The user's answer; False when nothing was asked."""
        if not self.asking:
            return False
        assert self._answer is not None
        self._answer.set_result(text)
        return True

    # --- pause / resume / stop ----------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def stop(self, reason: str = "stopped by the user") -> None:
        """Ends the task: a model call in flight is cancelled, a paused task wakes to end."""
        self.stopped = True
        self.stop_reason = reason
        self._running.set()
        for fut in list(self._inflight):
            fut.cancel()

    async def interruptible(self, aw: Awaitable[T]) -> T:
        """Awaits `aw` (a model call), cancelling it when the task is stopped meanwhile."""
        if self.stopped:
            raise TaskStopped(self.stop_reason)
        fut = asyncio.ensure_future(aw)
        self._inflight.add(fut)
        try:
            return await fut
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if self.stopped and fut.cancelled() and not (me and me.cancelling()):
                raise TaskStopped(self.stop_reason) from None
            raise
        finally:
            self._inflight.discard(fut)
            if not fut.done():
                fut.cancel()

    async def checkpoint(self) -> bool:
        """Returns when the task may go on (True when it had to wait at a pause); raises
        TaskStopped when it must end."""
        if self.stopped:
            raise TaskStopped(self.stop_reason)
        if self._running.is_set():
            return False
        if self.on_pause:
            await self.on_pause()
        began = time.monotonic()
        try:
            await self._running.wait()
        finally:
            self.paused_s += time.monotonic() - began
        if self.stopped:
            raise TaskStopped(self.stop_reason)
        if self.on_resume:
            await self.on_resume()
        return True
