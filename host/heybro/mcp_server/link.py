"""The MCP server's line to heybro's host: its local endpoint, as `heybro run` reaches it — the
running browser's host, or Chromium launched with heybro when none runs (on the first call that
needs one, not when the client merely lists the tools).

Tool calls share the one connection: requests are answered by id whatever the order, and each
task's events go to whoever follows it (kept from the start, so none is missed between a task's
start and its follower)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from shared_schema import build

from .. import logs
from ..endpoint import files
from ..endpoint.client import EndpointUnavailable, open_endpoint
from ..processes import alive

log = logs.get("heybro.mcp")

KEPT_EVENTS = 2000  # per task, for a follower that comes late
GONE = {"kind": "host_gone"}  # (handed to followers when the connection ends)


class HostGone(Exception):
    """heybro's host went away (the browser closed, the host restarted)."""


class HostLink:
    def __init__(self, profile: Path | None = None, headless: bool = False) -> None:
        self.profile, self.headless = profile, headless
        self.ws: ClientConnection | None = None
        self.host_pid = 0
        self.launched: Any = None  # LaunchedChromium, when this server started the browser
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._events: dict[str, deque[dict[str, Any]]] = {}
        self._followers: dict[str, set[asyncio.Queue[dict[str, Any]]]] = {}
        self._lock = asyncio.Lock()

    async def ensure(self) -> None:
        """Connected to a live host: the running browser's, or a browser launched for it."""
        async with self._lock:
            if self.ws is not None and self._reader is not None and not self._reader.done():
                return
            from ..cli_run import LaunchedChromium

            info = files.read()
            ws = None
            if info and alive(int(info.get("pid", 0))):
                with contextlib.suppress(EndpointUnavailable):
                    ws = await open_endpoint(info)
            if ws is None:
                if self.launched is not None:
                    self.launched.close()
                self.launched = LaunchedChromium(self.profile, headless=self.headless)
                info = await self.launched.endpoint()
                ws = await open_endpoint(info)
            self.ws, self.host_pid = ws, int((info or {}).get("pid", 0))
            self._reader = asyncio.create_task(self._read(ws))
            log.info("mcp_host_connected", host_pid=self.host_pid,
                     launched=self.launched is not None)

    async def request(self, type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Sends one request; its reply (an `error` message included). Raises HostGone."""
        await self.ensure()
        assert self.ws is not None
        msg = build(type_, payload)
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[msg["id"]] = reply
        try:
            await self.ws.send(json.dumps(msg))
            return await reply
        except ConnectionClosed as err:
            raise HostGone("heybro's host closed the connection") from err
        finally:
            self._pending.pop(msg["id"], None)

    async def follow(self, task_id: str, after_seq: int = -1) -> AsyncIterator[dict[str, Any]]:
        """The task's events after `after_seq`, kept ones first, then live ones, in order; ends
        with HostGone when the connection does."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        for ev in self._events.get(task_id, ()):
            queue.put_nowait(ev)
        self._followers.setdefault(task_id, set()).add(queue)
        last = after_seq
        try:
            while True:
                ev = await queue.get()
                if ev is GONE:
                    raise HostGone("heybro's host went away")
                if ev["seq"] <= last:
                    continue
                last = ev["seq"]
                yield ev
        finally:
            self._followers.get(task_id, set()).discard(queue)

    @property
    def host_running(self) -> bool:
        """Whether a heybro host runs now (this link's, or one a browser started)."""
        if self.ws is not None and self._reader is not None and not self._reader.done():
            return True
        info = files.read()
        return bool(info) and alive(int((info or {}).get("pid", 0)))

    def seen(self, task_id: str) -> bool:
        return task_id in self._events

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "event":
                    ev = msg["payload"]
                    kept = self._events.setdefault(ev["task_id"], deque(maxlen=KEPT_EVENTS))
                    kept.append(ev)
                    for queue in self._followers.get(ev["task_id"], ()):
                        queue.put_nowait(ev)
                elif (waiting := self._pending.get(msg.get("re") or "")) and not waiting.done():
                    waiting.set_result(msg)
        except ConnectionClosed:
            pass
        finally:
            log.warning("mcp_host_gone", host_pid=self.host_pid)
            for waiting in self._pending.values():
                if not waiting.done():
                    waiting.set_exception(HostGone("heybro's host went away"))
            for queues in self._followers.values():
                for queue in queues:
                    queue.put_nowait(GONE)
            self.ws = None

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader
        if self.launched is not None:
            await asyncio.to_thread(self.launched.close)
            self.launched = None
