"""One native-messaging connection: reads, checks and routes incoming messages; sends checked
messages, cutting anything over Chrome's 1 MiB limit into chunks; correlates requests and replies."""

from __future__ import annotations

import asyncio
import base64
import collections
import itertools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from shared_schema import (PROTOCOL_VERSION, Envelope, ErrorCode, ProtocolError, build, new_id,
                           parse)
from shared_schema.messages import Payload

from .. import logs
from .framing import MAX_OUTGOING, FrameError, decode, dumps, encode, read_frame

log = logs.get("heybro.native")

CHUNK_BYTES = 700_000  # base64 makes it 933,336 characters: a chunk frame stays under 1 MiB
MAX_CHUNKED = 64 * 1024 * 1024

Reply = tuple[str, Payload | dict[str, Any]] | None
Handler = Callable[[Envelope, Payload], Awaitable[Reply]]
P = TypeVar("P", bound=Payload)
WriteFn = Callable[[bytes], Awaitable[None]]


class RemoteError(Exception):
    """The other side answered a request with an `error` message."""

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.detail = detail or {}


class NativeChannel:
    def __init__(self, reader: asyncio.StreamReader, write: WriteFn) -> None:
        self._reader = reader
        self._write = write
        self._write_lock = asyncio.Lock()
        self._handlers: dict[str, Handler] = {}
        self._pending: dict[str, asyncio.Future[tuple[Envelope, Payload]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.frames_in = itertools.count()
        self.closed = asyncio.Event()  # set once the close hooks have run
        self.ended = False  # the stream ended: nothing sent from now on can be answered
        self._close_hooks: list[Callable[[], Awaitable[None]]] = []
        self._posted: collections.deque[dict[str, Any]] = collections.deque()
        self._poster: asyncio.Task[None] | None = None

    def on(self, type_: str, handler: Callable[[Envelope, P], Awaitable[Reply]]) -> None:
        """`handler` gets the payload as `type_`'s model (parse checked it against MESSAGES)."""
        self._handlers[type_] = cast(Handler, handler)

    def on_close(self, hook: Callable[[], Awaitable[None]]) -> None:
        """Runs when the stream ends (Chrome closed the port), before `serve` returns."""
        self._close_hooks.append(hook)

    # --- sending ------------------------------------------------------------------------------

    async def send(self, type_: str, payload: Payload | dict[str, Any], *,
                   re: str | None = None, v: int = PROTOCOL_VERSION) -> str:
        message = build(type_, payload, re=re, v=v)
        await self._send_raw(message)
        return message["id"]

    def post(self, type_: str, payload: Payload | dict[str, Any]) -> None:
        """Sends without waiting for the write: after what the calling task writes before it next
        waits (a request it makes at once goes first), and in order with everything else posted.
        For what the other side only follows (a task's events): one posted just before a request
        does not stand between that request and the side that carries it out."""
        self._posted.append(build(type_, payload))
        if self._poster is None or self._poster.done():
            self._poster = asyncio.get_running_loop().create_task(self._send_posted())

    async def _send_posted(self) -> None:
        while self._posted:
            message = self._posted.popleft()
            try:
                await self._send_raw(message)
            except Exception:  # noqa: BLE001 - the other side may be gone; the poster kept its record
                log.warning("posted_not_sent", type=message["type"])

    async def send_error(self, code: ErrorCode | str, message: str, *, re: str | None = None,
                         detail: dict[str, Any] | None = None, v: int | None = None) -> None:
        """A typed error; `v` answers a sender of another protocol version in its own version."""
        payload: dict[str, Any] = {"code": ErrorCode(code).value, "message": message}
        if detail:
            payload["detail"] = detail
        await self.send("error", payload, re=re, v=v or PROTOCOL_VERSION)

    async def _send_raw(self, message: dict[str, Any]) -> None:
        body = dumps(message)
        if len(body) + 4 <= MAX_OUTGOING:
            frames = [encode(body)]
        elif len(body) > MAX_CHUNKED:
            log.warning("reply_too_large", type=message["type"], size=len(body))
            await self.send_error(ErrorCode.reply_too_large,
                                  f"A {message['type']} message of {len(body)} bytes is too large "
                                  "to send.", re=message.get("re"))
            return
        else:
            count = -(-len(body) // CHUNK_BYTES)
            frames = []
            for index in range(count):
                piece = base64.b64encode(body[index * CHUNK_BYTES:(index + 1) * CHUNK_BYTES])
                chunk = build("chunk", {"message_id": message["id"], "index": index,
                                        "count": count, "data": piece.decode("ascii")})
                frames.append(encode(dumps(chunk)))
            log.info("chunked", type=message["type"], size=len(body), chunks=count)
        async with self._write_lock:  # chunks of one message are never interleaved with others
            for frame in frames:
                await self._write(frame)

    async def request(self, type_: str, payload: Payload | dict[str, Any], *,
                      timeout: float) -> tuple[Envelope, Payload]:
        """Send and wait for the message whose `re` names it; an `error` reply raises RemoteError."""
        message = build(type_, payload)
        fut: asyncio.Future[tuple[Envelope, Payload]] = asyncio.get_running_loop().create_future()
        self._pending[message["id"]] = fut
        try:
            await self._send_raw(message)
            env, reply = await asyncio.wait_for(fut, timeout)
        finally:
            self._pending.pop(message["id"], None)
        if env.type == "error":
            raise RemoteError(reply.code.value, reply.message, reply.detail)  # type: ignore[attr-defined]
        return env, reply

    # --- receiving ----------------------------------------------------------------------------

    async def serve(self) -> None:
        """Read until the stream ends. A bad message is answered with a typed error and logged, and
        serving goes on; a frame the stream cannot go on from (an impossible length, the stream
        ending inside a frame) is answered and logged too, and ends the channel."""
        try:
            while True:
                try:
                    body = await read_frame(self._reader)
                except FrameError as err:
                    log.warning("bad_frame", code=err.code, error=err.message, fatal=err.fatal,
                                **err.detail)
                    await self._try_error(err.code, err.message)
                    if err.fatal:
                        log.warning("stream_unusable", reason=err.code)
                        return
                    continue
                if body is None:
                    log.info("stream_closed")
                    return
                next(self.frames_in)
                await self._handle_body(body)
        finally:
            self.ended = True
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("the native channel closed"))
            for hook in self._close_hooks:
                try:
                    await hook()
                except Exception:  # noqa: BLE001 - every hook gets its turn
                    log.exception("close_hook_failed")
            self.closed.set()

    async def _try_error(self, code: str, message: str, re: str | None = None,
                         detail: dict[str, Any] | None = None, v: int | None = None) -> None:
        try:
            await self.send_error(code, message, re=re, detail=detail, v=v)
        except OSError:
            log.warning("error_reply_failed", code=code)

    async def _handle_body(self, body: bytes) -> None:
        try:
            raw = decode(body)
        except FrameError as err:
            log.warning("bad_message", code=err.code, error=err.message, size=len(body))
            await self._try_error(err.code, err.message, detail=err.detail)
            return
        try:
            env, payload = parse(raw, direction="to_host")
        except ProtocolError as err:
            log.warning("rejected_message", code=err.code.value, error=err.message,
                        msg_id=err.msg_id, detail=err.detail, sender_v=err.sender_v)
            await self._try_error(err.code.value, err.message, err.msg_id, err.detail,
                                  err.sender_v)
            return
        if env.re and env.re in self._pending:
            fut = self._pending[env.re]
            if not fut.done():
                fut.set_result((env, payload))
            return
        handler = self._handlers.get(env.type)
        if handler is None:
            log.warning("no_handler", type=env.type, msg_id=env.id)
            await self._try_error(ErrorCode.unknown_type, f"The host does not handle {env.type!r} "
                                  "messages.", env.id)
            return
        # Each message is handled on its own so a long task never blocks tool results.
        task = asyncio.create_task(self._run_handler(handler, env, payload))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run_handler(self, handler: Handler, env: Envelope, payload: Payload) -> None:
        try:
            reply = await handler(env, payload)
            if reply is not None:
                await self.send(reply[0], reply[1], re=env.id)
        except ProtocolError as err:
            log.warning("refused", type=env.type, code=err.code.value, error=err.message,
                        msg_id=env.id, sender_v=err.sender_v)
            await self._try_error(err.code.value, err.message, env.id, err.detail, err.sender_v)
        except Exception as err:  # noqa: BLE001 - the host must keep serving
            log.exception("handler_failed", type=env.type, msg_id=env.id)
            await self._try_error(ErrorCode.internal, f"The host failed while handling "
                                  f"{env.type!r}: {err}", env.id)


__all__ = ["NativeChannel", "RemoteError", "new_id"]
