"""A task run by this host: its control, its lease, and the terminals listening to it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from shared_schema.events import EventData
from shared_schema.messages import Event

from ..agent.control import RunControl
from ..agent.models import Task
from ..store import StoreUnwritable
from ..store.lease import TaskLease

# A terminal following a task: gets each event as JSON (the websocket endpoint sends it on).
Listener = Callable[[dict[str, Any]], Awaitable[None]]
Emit = Callable[[EventData], Awaitable[None]]


class Running:
    def __init__(self, task: Task, control: RunControl) -> None:
        self.task = task
        self.control = control
        self.listeners: set[Listener] = set()
        self.runner: asyncio.Task[Any] | None = None
        self.lease = TaskLease(task.id)
        self.done = asyncio.Event()
        # Events for the terminals watching, delivered beside the run: a slow terminal never
        # holds up the next step (they can catch up from the store like the panel).
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.delivery: asyncio.Task[None] | None = None
        # While the store cannot write: why, and the events sent but not yet stored.
        self.store_failed: StoreUnwritable | None = None
        self.unsaved: list[Event] = []
        # Stores an event and sends it to the extension and the terminals (set by the launcher).
        self.emit: Emit | None = None

    @property
    def live(self) -> bool:
        return not self.done.is_set()

    async def deliver(self) -> None:
        while True:
            event = await self.outbox.get()
            for fn in list(self.listeners):
                try:
                    await fn(event)
                except Exception:  # noqa: BLE001 - a closed terminal stops listening
                    self.listeners.discard(fn)
            self.outbox.task_done()

    async def tell(self, data: EventData) -> None:
        """An event from the session that must reach the user even while the store fails."""
        if self.emit is not None:
            try:
                await self.emit(data)
            except StoreUnwritable:
                pass  # sent, and queued for the store
