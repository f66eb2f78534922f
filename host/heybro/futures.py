"""A future set from a callback that may fire after it was already settled or cancelled."""

from __future__ import annotations

import asyncio
from typing import TypeVar

T = TypeVar("T")


def settle(fut: asyncio.Future[T], value: T) -> None:
    """Sets `fut`'s result unless it is done (a second event, or the waiter gave up)."""
    if not fut.done():
        fut.set_result(value)
