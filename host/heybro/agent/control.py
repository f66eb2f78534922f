"""Pause/stop check points between actions: lifecycle controls hook in here."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class TaskStopped(Exception):
    """The user stopped the task."""


class RunControl:
    def __init__(self) -> None:
        self._running = asyncio.Event()
        self._running.set()
        self.stopped = False
        self.stop_reason = "stopped by the user"
        self.on_pause: Callable[[], Awaitable[None]] | None = None
        self.on_resume: Callable[[], Awaitable[None]] | None = None
        self._messages: list[str] = []

    def tell(self, text: str) -> None:
        """A follow-up from the user; the scheduler reads it at the next safe point."""
        self._messages.append(text)

    @property
    def has_messages(self) -> bool:
        return bool(self._messages)

    def take_messages(self) -> list[str]:
        taken, self._messages = self._messages, []
        return taken

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def stop(self, reason: str = "stopped by the user") -> None:
        self.stopped = True
        self.stop_reason = reason
        self._running.set()

    async def checkpoint(self) -> None:
        """Returns when the task may go on; raises TaskStopped when it must end."""
        if self.stopped:
            raise TaskStopped(self.stop_reason)
        if not self._running.is_set():
            if self.on_pause:
                await self.on_pause()
            await self._running.wait()
            if self.stopped:
                raise TaskStopped(self.stop_reason)
            if self.on_resume:
                await self.on_resume()
