"""Random and hostile frames thrown at the real host process: it never dies, never writes a frame
Chrome would drop, and answers every single one (a reply or a typed error)."""

from __future__ import annotations

import json
import os
import struct
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from heybro.native.client import HostProcess
from heybro.native.framing import MAX_INCOMING, MAX_OUTGOING
from shared_schema import ErrorCode

EXAMPLES = [json.loads(p.read_text()) for p in
            sorted((Path(__file__).parents[1] / "shared_schema" / "examples").glob("*.json"))]
CODES = {c.value for c in ErrorCode}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=5),
    max_leaves=20,
)


@st.composite
def mutated_message(draw: st.DrawFn) -> bytes:
    msg = json.loads(json.dumps(draw(st.sampled_from(EXAMPLES))))
    target = draw(st.sampled_from(["top", "payload"]))
    obj = msg if target == "top" else msg.setdefault("payload", {})
    if not isinstance(obj, dict):
        obj = msg
    key = draw(st.sampled_from(sorted(obj) + ["extra"]))
    if draw(st.booleans()):
        obj.pop(key, None)
    else:
        obj[key] = draw(json_values)
    return json.dumps(msg).encode()


frames = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v).encode()),
    mutated_message(),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


@pytest.fixture
def host(tmp_path: Path):  # type: ignore[no-untyped-def]
    env = {**os.environ, "HEYBRO_HOME": str(tmp_path)}
    with HostProcess([sys.executable, "-m", "heybro.native"], env=env) as h:
        yield h


def replies_until_sentinel(host: HostProcess, nonce: str, *, at_least: int = 0) -> list[dict[str, Any]]:
    """Other frames read until our sentinel ping is answered and `at_least` others arrived
    (handlers answer concurrently, so a reply may come after the sentinel's pong)."""
    host.send({"v": 1, "id": f"s-{nonce}", "type": "ping", "payload": {"nonce": nonce}})
    seen: list[dict[str, Any]] = []
    sentinel = False
    while not (sentinel and len(seen) >= at_least):
        m = host.recv(timeout=10)
        if m.get("type") == "pong" and m["payload"].get("nonce") == nonce:
            sentinel = True
        else:
            seen.append(m)
    return seen


def test_random_frames_are_each_answered(host: HostProcess) -> None:
    counter = iter(range(10**9))

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=frames)
    def one(body: bytes) -> None:
        host.send_raw(body)
        replies = replies_until_sentinel(host, f"n{next(counter)}", at_least=1)
        assert host.proc.poll() is None, "the host died"
        assert len(replies) >= 1, f"no answer to {body[:80]!r}"
        for r in replies:
            if r["type"] == "error":
                assert r["payload"]["code"] in CODES

    one()


def test_empty_and_blank_frames(host: HostProcess) -> None:
    host.send_raw(b"")
    host.send_raw(b"   ")
    codes = [r["payload"]["code"] for r in replies_until_sentinel(host, "after-empty")]
    assert codes == ["invalid_json", "invalid_json"]


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(length=st.integers(MAX_INCOMING + 1, 2**32 - 1), valid_before=st.integers(0, 3))
def test_an_impossible_length_prefix_is_answered_logged_and_ends_the_host(
        tmp_path_factory: pytest.TempPathFactory, length: int, valid_before: int) -> None:
    home = tmp_path_factory.mktemp("home")
    env = {**os.environ, "HEYBRO_HOME": str(home)}
    with HostProcess([sys.executable, "-m", "heybro.native"], env=env) as h:
        for i in range(valid_before):  # earlier frames are served as usual
            h.send({"v": 1, "id": f"p{i}", "type": "ping", "payload": {"nonce": str(i)}})
            assert h.recv()["payload"]["nonce"] == str(i)
        h.send_raw(b"", length=length)  # the header alone: the reply must not wait for a body
        err = h.recv(timeout=10)
        assert err["type"] == "error" and err["payload"]["code"] == "frame_too_large"
        assert str(length) in err["payload"]["message"]
        assert h.proc.wait(timeout=10) == 0  # a clean exit: Chrome starts a fresh host
    log = (home / "logs" / "host.log").read_text()
    assert '"code": "frame_too_large"' in log and '"event": "stream_unusable"' in log
    assert '"event": "host_exit"' in log


# --- the framing layer itself: random byte streams, split anywhere, cut off anywhere -------------


class LogRecorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def _record(self, event: str, **kw: Any) -> None:
        self.events.append((event, kw))

    warning = info = error = exception = debug = _record


@st.composite
def byte_streams(draw: st.DrawFn) -> tuple[list[tuple[str, bytes]], list[int], int | None]:
    """Frames of three kinds, then where the stream is split into writes and where it is cut off."""
    parts: list[tuple[str, bytes]] = []
    for i in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["ping", "ping", "garbage", "huge"]))
        if kind == "ping":
            body = json.dumps({"v": 1, "id": f"p{i}", "type": "ping",
                               "payload": {"nonce": str(i), "data": draw(st.text(max_size=30))}})
            parts.append((kind, struct.pack("=I", len(body.encode())) + body.encode()))
        elif kind == "garbage":
            body = draw(frames)
            parts.append((kind, struct.pack("=I", len(body)) + body))
        else:
            parts.append((kind, struct.pack("=I", draw(st.integers(MAX_INCOMING + 1, 2**32 - 1)))))
    total = sum(len(b) for _, b in parts)
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, total - 1)), max_size=12))))
    end = draw(st.none() | st.integers(0, total))  # None: the whole stream arrives
    return parts, cuts, end


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(stream=byte_streams())
def test_framing_survives_any_stream_split_anywhere(stream: tuple[list[tuple[str, bytes]], list[int],
                                                                   int | None]) -> None:
    import asyncio

    from heybro.native import channel as channel_module
    from heybro.native.channel import NativeChannel

    parts, cuts, end = stream
    data = b"".join(b for _, b in parts)
    delivered = data if end is None else data[:end]
    out: list[dict[str, Any]] = []
    replies_before_eof: list[dict[str, Any]] = []
    closed_before_eof: list[bool] = []
    recorder = LogRecorder()

    async def write(frame: bytes) -> None:
        (n,) = struct.unpack("=I", frame[:4])
        assert n == len(frame) - 4 and n <= MAX_OUTGOING
        out.append(json.loads(frame[4:]))

    async def on_ping(env, payload):  # type: ignore[no-untyped-def]
        return "pong", {"nonce": payload.nonce, "data": payload.data, "host_pid": 1}

    async def go() -> NativeChannel:
        reader = asyncio.StreamReader()
        ch = NativeChannel(reader, write)
        ch.on("ping", on_ping)
        serving = asyncio.create_task(ch.serve())
        at = 0
        for cut in [c for c in cuts if c < len(delivered)] + [len(delivered)]:
            reader.feed_data(delivered[at:cut])  # one write of Chrome's, landing at a random point
            at = cut
            await asyncio.sleep(0)
        for _ in range(5):
            await asyncio.sleep(0)
        closed_before_eof.append(ch.closed.is_set())
        replies_before_eof.extend(out)
        reader.feed_eof()
        await asyncio.wait_for(serving, timeout=10)
        for _ in range(5):  # handlers answer on their own tasks
            await asyncio.sleep(0)
        return ch

    real_log = channel_module.log
    channel_module.log = recorder  # type: ignore[assignment]
    try:
        ch = asyncio.run(go())
    finally:
        channel_module.log = real_log
    assert ch.closed.is_set()
    # What the channel must have done with the bytes that arrived, frame by frame.
    at, complete, our_pings, stopped_by = 0, 0, set(), None
    for i, (kind, frame_bytes) in enumerate(parts):
        if at >= len(delivered):
            break
        if kind == "huge" and at + 4 <= len(delivered):
            stopped_by = "frame_too_large"  # answered as soon as its header is read
            break
        if at + len(frame_bytes) > len(delivered):
            stopped_by = "bad_frame"  # the stream ended inside this frame
            break
        complete += 1
        if kind == "ping":
            our_pings.add(f"p{i}")
        at += len(frame_bytes)
    # Exactly one reply per whole frame (a pong, or a typed error for anything else — garbage
    # that happens to be a valid ping gets its pong), plus one for the frame that ended the stream.
    assert len(out) == complete + (1 if stopped_by else 0), (out, parts, cuts, end)
    assert our_pings <= {m.get("re") for m in out if m["type"] == "pong"}
    errors = [m for m in out if m["type"] == "error"]
    assert all(e["payload"]["code"] in CODES for e in errors)
    if stopped_by:
        assert errors[-1]["payload"]["code"] == stopped_by
        assert ("stream_unusable", {"reason": stopped_by}) in recorder.events
    if stopped_by == "frame_too_large":  # answered and closed on the header, not at the end
        assert closed_before_eof == [True]
        assert any(m["payload"].get("code") == "frame_too_large" for m in replies_before_eof)
    # … and every error that went out was logged as well.
    logged = [ev for ev, _ in recorder.events
              if ev in ("bad_frame", "bad_message", "rejected_message", "no_handler")]
    assert len(logged) == len(errors)


def test_truncated_frame_at_exit_is_logged(tmp_path: Path) -> None:
    env = {**os.environ, "HEYBRO_HOME": str(tmp_path)}
    h = HostProcess([sys.executable, "-m", "heybro.native"], env=env)
    assert h.proc.stdin
    h.proc.stdin.write(struct.pack("=I", 50) + b'{"v": 1')
    h.proc.stdin.flush()
    h.proc.stdin.close()  # the stream ends inside the frame
    err = h.recv(timeout=10)
    assert err["payload"]["code"] == "bad_frame"
    assert h.close() == 0
    assert '"code": "bad_frame"' in (tmp_path / "logs" / "host.log").read_text()


def test_frames_written_never_exceed_chromes_limit(host: HostProcess) -> None:
    data = "z" * (3 * MAX_OUTGOING)
    host.send({"v": 1, "id": "big", "type": "ping", "payload": {"data": data}})
    sizes = []
    assert host.proc.stdout
    while True:
        m = host.recv(timeout=20)
        sizes.append(len(json.dumps(m)))
        if m["type"] == "chunk" and m["payload"]["index"] == m["payload"]["count"] - 1:
            break
    assert len(sizes) >= 3 and max(sizes) < MAX_OUTGOING


def test_stray_print_cannot_corrupt_the_channel(tmp_path: Path) -> None:
    # A library that prints to stdout while the host runs: the text goes to stderr, not the pipe.
    code = ("import heybro.native.host as h\n"
            "raise SystemExit(h.main(installers=[lambda ch: print('noise on stdout', flush=True)]))\n")
    env = {**os.environ, "HEYBRO_HOME": str(tmp_path)}
    with HostProcess([sys.executable, "-c", code], env=env) as h:
        assert h.hello()["type"] == "hello_ok"


def test_wrong_origin_is_refused(tmp_path: Path) -> None:
    env = {**os.environ, "HEYBRO_HOME": str(tmp_path)}
    h = HostProcess([sys.executable, "-m", "heybro.native"], env=env,
                    origin="chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/")
    assert h.close() == 2
    assert "origin_refused" in (tmp_path / "logs" / "host.log").read_text()


def test_host_answers_when_the_log_folder_cannot_be_used(tmp_path: Path) -> None:
    (tmp_path / "logs").write_text("a file where the log folder should be")
    env = {**os.environ, "HEYBRO_HOME": str(tmp_path)}
    with HostProcess([sys.executable, "-m", "heybro.native"], env=env) as h:
        hello = h.hello()
        assert hello["type"] == "hello_ok"
        assert hello["payload"]["log_file"].startswith("stderr (log file unusable:")
        assert h.request("ping", {"nonce": "x"})["type"] == "pong"
    # The logs went to stderr (stdout carried the frames above, and nothing else).
    assert '"event": "log_file_unusable"' in h.stderr_text
    assert '"event": "hello"' in h.stderr_text
