"""The calls an outside agent sent to its task, waiting to run in order (one at a time)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from shared_schema.outside import OutsideActed


@dataclass
class Call:
    tool: str
    parameters: dict[str, Any]
    reply: asyncio.Future[OutsideActed] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())

    def answer(self, acted: OutsideActed) -> None:
        if not self.reply.done():
            self.reply.set_result(acted)


class Inbox:
    def __init__(self) -> None:
        self._calls: asyncio.Queue[Call | None] = asyncio.Queue()
        self.closed = False

    async def send(self, tool: str, parameters: dict[str, Any]) -> OutsideActed:
        call = Call(tool, parameters)
        self._calls.put_nowait(call)
        return await call.reply

    def close(self) -> None:
        """The outside agent is done: its task ends once the call running now is answered."""
        self.closed = True
        self._calls.put_nowait(None)

    async def next(self, timeout: float) -> Call | None:
        """The next call; None once closed; raises TimeoutError after `timeout` s without one."""
        if self.closed and self._calls.empty():
            return None
        return await asyncio.wait_for(self._calls.get(), timeout)

    def refuse_waiting(self, acted: OutsideActed) -> None:
        """Answers every call not run (the task ended before it)."""
        while not self._calls.empty():
            call = self._calls.get_nowait()
            if call is not None:
                call.answer(acted)
