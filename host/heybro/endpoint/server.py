"""The websocket endpoint: 127.0.0.1 only, a token from the 0600 endpoint file, Origin checked.

Messages are the same envelopes as native messaging, answered from the one command table
(`session/commands.py`) the native channel serves too: `task.start` (answered `task.accepted` or
`error`, then the task's `event`s reach this connection), `task.pause` / `task.resume` /
`task.stop` / `task.message`, `task.list`, `task.get`, and whatever else the table holds. Only
what streams is the endpoint's own: `task.watch` follows a task by id from a sequence number on
(a terminal back after a host restart).
A connection without the right token, or with a web page's Origin, is refused with HTTP 403.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
from http import HTTPStatus
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from shared_schema import ErrorCode, ProtocolError, build, parse
from shared_schema.messages import TaskGet

from .. import logs
from ..native.identity import EXTENSION_ID
from ..session.commands import COMMANDS, CONCURRENT
from . import files

if TYPE_CHECKING:
    from ..session.core import Session

log = logs.get("heybro.endpoint")

ALLOWED_ORIGINS = {f"chrome-extension://{EXTENSION_ID}"}


def origin_ok(origin: str | None) -> bool:
    """No Origin (a terminal client) or heybro's own extension; never a web page."""
    return origin is None or origin.rstrip("/") in ALLOWED_ORIGINS


def token_of(request: Request) -> str | None:
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        return auth[7:].strip()
    q = parse_qs(urlsplit(request.path).query)
    return q["token"][0] if q.get("token") else None


class Endpoint:
    def __init__(self, session: Session, token: str) -> None:
        self.session = session
        self.token = token
        self.server: Server | None = None

    def check(self, connection: ServerConnection, request: Request) -> Response | None:
        origin = request.headers.get("Origin")
        if not origin_ok(origin):
            log.warning("ws_refused_origin", origin=origin)
            return connection.respond(HTTPStatus.FORBIDDEN, "Origin not allowed\n")
        given = token_of(request)
        if not given or not hmac.compare_digest(given, self.token):
            log.warning("ws_refused_token", has_token=bool(given))
            return connection.respond(HTTPStatus.FORBIDDEN, "Missing or wrong token\n")
        return None

    async def handle(self, ws: ServerConnection) -> None:
        held: list[dict[str, Any]] | None = None  # live events held while missed ones replay

        async def listener(event: dict[str, Any]) -> None:
            if held is not None:
                held.append(event)
            else:
                await ws.send(json.dumps(build("event", event)))

        def hold(on: bool) -> list[dict[str, Any]] | None:
            nonlocal held
            was, held = held, ([] if on else None)
            return was
        listener.hold = hold  # type: ignore[attr-defined]

        running: set[asyncio.Task[None]] = set()
        try:
            async for raw in ws:
                if _type_of(raw) in CONCURRENT:
                    job = asyncio.create_task(self._one(ws, raw, listener))
                    running.add(job)
                    job.add_done_callback(running.discard)
                else:
                    await self._one(ws, raw, listener)
        except ConnectionClosed:
            pass
        finally:
            await self.session.caller_gone(listener)
            for job in running:
                job.cancel()

    async def _follow(self, ws: ServerConnection, msg_id: str, ask: TaskGet, listener: Any) -> None:
        """`task.watch`: the events the terminal missed (after its last seq), then live ones,
        in order, for as long as it stays connected."""
        listener.hold(True)
        try:
            missed = self.session.follow(ask.task_id, listener, ask.after_seq)
            await ws.send(json.dumps(build("ack", {}, re=msg_id)))
            last = ask.after_seq
            for e in missed:
                await ws.send(json.dumps(build("event", e)))
                last = e.seq
            while (waiting := listener.hold(True)):  # what arrived meanwhile, not yet sent
                for ev in waiting:
                    if ev["seq"] > last:
                        await ws.send(json.dumps(build("event", ev)))
                        last = ev["seq"]
        finally:
            for ev in listener.hold(False) or []:
                await ws.send(json.dumps(build("event", ev)))

    async def _one(self, ws: ServerConnection, raw: Any, listener: Any) -> None:
        try:
            await self._answer(ws, raw, listener)
        except ConnectionClosed:
            pass  # (a concurrent call whose caller left)

    async def _answer(self, ws: ServerConnection, raw: Any, listener: Any) -> None:
        msg_id = None
        try:
            data = json.loads(raw)
            msg_id = data.get("id") if isinstance(data, dict) else None
            env, payload = parse(data, direction="to_host")
            if (command := COMMANDS.get(env.type)):
                # The same table as the native channel's; a task started here is heard here.
                type_, answer = await command(self.session, payload, listener)
                reply = build(type_, answer, re=env.id)
            elif isinstance(payload, TaskGet) and env.type == "task.watch":
                await self._follow(ws, env.id, payload, listener)
                return
            elif env.type == "ping":
                reply = build("pong", {"nonce": getattr(payload, "nonce", None), "data": "",
                                       "host_pid": os.getpid()}, re=env.id)
            else:
                raise ProtocolError(ErrorCode.unsupported, f"{env.type} is not served here.")
        except ProtocolError as err:
            reply = build("error", {"code": err.code.value if hasattr(err.code, "value") else
                                    str(err.code), "message": err.message,
                                    **({"detail": err.detail} if err.detail else {})}, re=msg_id)
        except (ValueError, TypeError) as err:
            reply = build("error", {"code": "invalid_json", "message": str(err)}, re=msg_id)
        except RecursionError:  # (as the native channel answers it: a typed error, the line kept)
            reply = build("error", {"code": "invalid_json", "message": "The message is nested too deeply to read."},
                          re=msg_id)
        await ws.send(json.dumps(reply))


def _type_of(raw: Any) -> str | None:
    """The message's type, at a glance (the whole message is checked when it is answered)."""
    try:
        data = json.loads(raw)
    except (ValueError, TypeError, RecursionError):
        return None
    return data.get("type") if isinstance(data, dict) else None


async def run_endpoint(session: Session, closed: asyncio.Event | None = None) -> Endpoint:
    ep = Endpoint(session, files.new_token())
    # (A loopback socket gains nothing from deflate: every event would be compressed here and
    # inflated by the terminal, on the CPU the browser needs meanwhile.)
    ep.server = await serve(ep.handle, "127.0.0.1", 0, process_request=ep.check,
                            max_size=8 * 1024 * 1024, compression=None)
    port = ep.server.sockets[0].getsockname()[1]
    files.write({"url": f"ws://127.0.0.1:{port}/", "port": port, "pid": os.getpid(),
                 "token": ep.token})
    log.info("endpoint_listening", port=port)
    if closed is not None:
        async def cleanup() -> None:
            await closed.wait()
            files.remove_if_mine()
            ep.server.close()  # type: ignore[union-attr]
        asyncio.get_running_loop().create_task(cleanup())
    return ep


def start_endpoint(session: Session, channel: Any) -> None:
    """Called from the native installer (inside the running loop)."""
    loop = asyncio.get_running_loop()
    task = loop.create_task(run_endpoint(session, channel.closed))
    channel._endpoint_task = task  # keep a reference
