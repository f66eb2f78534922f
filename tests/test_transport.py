"""The host's native channel, in process: framing, typed errors, chunking, correlation."""

from __future__ import annotations

import asyncio
import base64
import json
import struct
from typing import Any

import pytest

from heybro.native import framing
from heybro.native.channel import CHUNK_BYTES, NativeChannel, RemoteError


def frame(obj: Any) -> bytes:
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return struct.pack("=I", len(body)) + body


def msg(type_: str, payload: dict[str, Any], id_: str = "m1", **extra: Any) -> dict[str, Any]:
    return {"v": 1, "id": id_, "type": type_, "payload": payload, **extra}


class Harness:
    def __init__(self) -> None:
        self.reader = asyncio.StreamReader()
        self.out: list[dict[str, Any]] = []
        self.raw_frames: list[bytes] = []
        self.channel = NativeChannel(self.reader, self._write)

    async def _write(self, data: bytes) -> None:
        (n,) = struct.unpack("=I", data[:4])
        assert n == len(data) - 4 and n <= framing.MAX_OUTGOING
        self.raw_frames.append(data)
        self.out.append(json.loads(data[4:]))

    def feed(self, data: bytes) -> None:
        self.reader.feed_data(data)


def ping_handler(h: Harness) -> None:
    async def on_ping(env, payload):  # type: ignore[no-untyped-def]
        return "pong", {"nonce": payload.nonce, "data": payload.data, "host_pid": 1}
    h.channel.on("ping", on_ping)


async def settle(h: Harness) -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("bad, code", [
    (b"\xff\xfe{}", "invalid_utf8"),
    (b"{not json", "invalid_json"),
    (b"[1, 2]", "schema_violation"),
    (json.dumps(msg("teleport", {})).encode(), "unknown_type"),
    (json.dumps(msg("ping", {"nonce": 5})).encode(), "schema_violation"),
    (json.dumps(msg("event", {"task_id": "t", "seq": 0, "kind": "status", "at": 0})).encode(),
     "unknown_type"),
    (json.dumps({"v": 1, "type": "ping", "payload": {}, "id": ""}).encode(), "schema_violation"),
])
def test_malformed_message_gets_typed_error_and_serving_continues(bad: bytes, code: str) -> None:
    async def go() -> Harness:
        h = Harness()
        ping_handler(h)
        h.feed(frame(bad) + frame(msg("ping", {"nonce": "after"}, "p2")))
        h.reader.feed_eof()
        await h.channel.serve()
        await settle(h)
        return h
    h = asyncio.run(go())
    assert h.out[0]["type"] == "error" and h.out[0]["payload"]["code"] == code
    assert h.out[1]["type"] == "pong" and h.out[1]["payload"]["nonce"] == "after"


@pytest.mark.parametrize("length", [framing.MAX_INCOMING + 1, 0xFFFFFFFF])
def test_an_impossible_length_is_answered_at_once_and_ends_the_stream(length: int) -> None:
    async def go() -> Harness:
        h = Harness()
        ping_handler(h)
        # Only the header arrives, and the stream stays open: nothing announced ever comes. The
        # reply must not wait for the announced bytes.
        h.feed(struct.pack("=I", length))
        h.feed(frame(msg("ping", {"nonce": "lost"}, "p3")))
        await asyncio.wait_for(h.channel.serve(), timeout=5)
        return h
    h = asyncio.run(go())
    [err] = h.out  # what followed cannot be told apart from the bogus frame's body: not read
    assert err["type"] == "error" and err["payload"]["code"] == "frame_too_large"
    assert str(length) in err["payload"]["message"]
    assert h.channel.closed.is_set()


def test_truncated_frame_is_reported_then_the_channel_ends() -> None:
    async def go() -> Harness:
        h = Harness()
        h.feed(struct.pack("=I", 100) + b'{"v":1')
        h.reader.feed_eof()
        await h.channel.serve()
        return h
    h = asyncio.run(go())
    assert h.out[0]["payload"]["code"] == "bad_frame"
    assert "6 of 100" in h.out[0]["payload"]["message"]
    assert h.channel.closed.is_set()


def test_large_reply_is_chunked_under_chromes_limit_and_reassembles() -> None:
    data = "é" + "x" * 1_500_000 + "🙂"
    async def go() -> Harness:
        h = Harness()
        ping_handler(h)
        h.feed(frame(msg("ping", {"nonce": "n", "data": data}, "big")))
        h.reader.feed_eof()
        await h.channel.serve()
        await settle(h)
        return h
    h = asyncio.run(go())
    chunks = [m for m in h.out if m["type"] == "chunk"]
    assert len(chunks) >= 2
    assert all(len(f) <= framing.MAX_OUTGOING for f in h.raw_frames)
    ordered = sorted(chunks, key=lambda c: c["payload"]["index"])
    whole = json.loads(b"".join(base64.b64decode(c["payload"]["data"]) for c in ordered))
    assert whole["type"] == "pong" and whole["re"] == "big" and whole["payload"]["data"] == data
    assert {c["payload"]["message_id"] for c in chunks} == {whole["id"]}
    assert max(len(base64.b64decode(c["payload"]["data"])) for c in chunks) <= CHUNK_BYTES


def test_request_reply_correlation_and_remote_error() -> None:
    async def go() -> tuple[Any, Any]:
        h = Harness()
        serve = asyncio.create_task(h.channel.serve())
        req = asyncio.create_task(h.channel.request("tool.call", {"tool": "click", "args": {}},
                                                    timeout=2))
        await asyncio.sleep(0.01)
        call = h.out[-1]
        h.feed(frame(msg("tool.result", {"ok": True, "result": {"x": 1}}, "r1", re=call["id"])))
        env, payload = await req
        req2 = asyncio.create_task(h.channel.request("tool.call", {"tool": "click"}, timeout=2))
        await asyncio.sleep(0.01)
        h.feed(frame(msg("error", {"code": "not_found", "message": "gone"}, "r2",
                         re=h.out[-1]["id"])))
        with pytest.raises(RemoteError) as err:
            await req2
        h.reader.feed_eof()
        await serve
        return payload, err.value
    payload, err = asyncio.run(go())
    assert payload.result == {"x": 1}
    assert err.code == "not_found"


def test_handler_crash_is_an_internal_error_not_a_dead_host() -> None:
    async def go() -> Harness:
        h = Harness()
        async def boom(env, payload):  # type: ignore[no-untyped-def]
            raise RuntimeError("kaput")
        h.channel.on("ping", boom)
        h.feed(frame(msg("ping", {}, "a")) + frame(msg("ping", {}, "b")))
        h.reader.feed_eof()
        await h.channel.serve()
        await settle(h)
        return h
    h = asyncio.run(go())
    assert [m["payload"]["code"] for m in h.out] == ["internal", "internal"]
    assert {m["re"] for m in h.out} == {"a", "b"}
    assert "kaput" in h.out[0]["payload"]["message"]


def _hello_host(h: Harness) -> None:
    from heybro.native.host import install_handshake
    install_handshake(h.channel, "/tmp/host.log")
    ping_handler(h)


@pytest.mark.parametrize("v, protocol", [(2, 2), (1, 2), (2, 1)])
def test_a_hello_of_another_version_gets_a_readable_version_mismatch(v: int, protocol: int) -> None:
    async def go() -> Harness:
        h = Harness()
        _hello_host(h)
        h.feed(frame({"v": v, "id": "h1", "type": "hello",
                      "payload": {"protocol": protocol, "extension_version": "9.0"}}))
        h.feed(frame({"v": v, "id": "p1", "type": "ping", "payload": {}}))
        h.feed(frame(msg("ping", {"nonce": "after"}, "p2")))
        h.reader.feed_eof()
        await h.channel.serve()
        await settle(h)
        return h
    h = asyncio.run(go())
    by_re = {m.get("re"): m for m in h.out}
    err = by_re["h1"]
    # Answered in the requester's own version, so even a side that reads only its own can read it.
    assert err["type"] == "error" and err["v"] == v
    assert err["payload"]["code"] == "version_mismatch"
    assert err["payload"]["detail"]["host_protocol"] == 1
    assert err["payload"]["detail"]["fix"] == (
        "git pull && .venv/bin/pip install -e . && .venv/bin/heybro install")
    if v != 1:
        assert by_re["p1"]["payload"]["code"] == "version_mismatch" and by_re["p1"]["v"] == v
    assert by_re["p2"]["type"] == "pong"  # and the host keeps serving


def test_a_hello_of_this_version_is_accepted() -> None:
    async def go() -> Harness:
        h = Harness()
        _hello_host(h)
        h.feed(frame(msg("hello", {"protocol": 1, "extension_version": "t"}, "h1")))
        h.reader.feed_eof()
        await h.channel.serve()
        await settle(h)
        return h
    [ok] = asyncio.run(go()).out
    assert ok["type"] == "hello_ok" and ok["v"] == 1 and ok["re"] == "h1"


def test_a_posted_event_goes_out_after_the_tool_call_sent_at_once_and_events_keep_their_order() -> None:
    """The run posts a call's event and sends the call in the same breath: the extension gets the
    call first (it starts the action before it takes in the event), and the events in order."""
    async def go() -> list[str]:
        h = Harness()
        serve = asyncio.create_task(h.channel.serve())
        event = {"task_id": "t", "seq": 0, "kind": "message", "at": 0, "data": {"text": "one"}}

        async def step() -> Any:  # as the run does: the call's event, then the call
            h.channel.post("event", event)
            return await h.channel.request("tool.call", {"tool": "click", "args": {}}, timeout=2)
        req = asyncio.create_task(step())
        await asyncio.sleep(0)
        h.channel.post("event", event | {"seq": 1, "data": {"text": "two"}})
        await settle(h)
        call = next(m for m in h.out if m["type"] == "tool.call")
        h.feed(frame(msg("tool.result", {"ok": True, "result": {}}, "r1", re=call["id"])))
        await req
        h.reader.feed_eof()
        await serve
        return [m["type"] if m["type"] != "event" else m["payload"]["data"]["text"] for m in h.out]
    assert asyncio.run(go()) == ["tool.call", "one", "two"]
