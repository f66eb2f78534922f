"""The terminal side of the endpoint: connect with the token, start a task, stream its events."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from shared_schema import build

from . import files


class EndpointUnavailable(Exception):
    pass


async def open_endpoint(info: dict[str, Any] | None = None) -> ClientConnection:
    info = info or files.read()
    if not info:
        raise EndpointUnavailable("no running heybro host announced an endpoint")
    try:
        return await connect(info["url"], additional_headers={
            "Authorization": f"Bearer {info['token']}"}, max_size=8 * 1024 * 1024,
            open_timeout=5, compression=None)
    except (OSError, TimeoutError, Exception) as err:  # noqa: BLE001 - any failure: not usable
        raise EndpointUnavailable(f"the host's endpoint did not answer ({err})") from err


async def start_task(ws: ClientConnection, goal: str, url: str | None,
                     resources: dict[str, str], llm: dict[str, Any] | None = None) -> dict[str, Any]:
    """Starts a task; `llm`: the LLM settings to run it with (the terminal's)."""
    payload: dict[str, Any] = {"goal": goal, "resources": resources}
    if url:
        payload["url"] = url
    if llm is not None:
        payload["llm"] = llm
    return await request(ws, "task.start", payload)


async def request(ws: ClientConnection, type_: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Sends one request and returns its answer (an `error` message included); the task's events
    that arrive meanwhile are passed over."""
    msg = build(type_, payload)
    await ws.send(json.dumps(msg))
    while True:
        reply = json.loads(await ws.recv())
        if reply.get("re") == msg["id"]:
            return reply


async def events(ws: ClientConnection) -> AsyncIterator[dict[str, Any]]:
    async for raw in ws:
        msg = json.loads(raw)
        if msg.get("type") == "event":
            yield msg["payload"]


async def send_control(ws: ClientConnection, kind: str, task_id: str) -> None:
    await ws.send(json.dumps(build(f"task.{kind}", {"task_id": task_id})))
