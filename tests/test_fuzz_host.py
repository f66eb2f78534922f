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


def test_hostile_lengths(host: HostProcess) -> None:
    # A length prefix far over the limit, followed by that much data: skipped, reported, in sync.
    size = MAX_INCOMING + 1
    host.send_raw(b"", length=size)
    assert host.proc.stdin
    block = b"A" * (1 << 20)
    left = size
    while left:
        n = min(left, len(block))
        host.proc.stdin.write(block[:n])
        left -= n
    host.proc.stdin.flush()
    [err] = replies_until_sentinel(host, "after-huge")
    assert err["payload"]["code"] == "frame_too_large"
    # An empty frame and a frame of only whitespace.
    host.send_raw(b"")
    host.send_raw(b"   ")
    codes = [r["payload"]["code"] for r in replies_until_sentinel(host, "after-empty")]
    assert codes == ["invalid_json", "invalid_json"]


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
            "h.add_installer(lambda ch: print('noise on stdout', flush=True))\n"
            "raise SystemExit(h.main())\n")
    env = {**os.environ, "HEYBRO_HOME": str(tmp_path)}
    with HostProcess([sys.executable, "-c", code], env=env) as h:
        assert h.hello()["type"] == "hello_ok"


def test_wrong_origin_is_refused(tmp_path: Path) -> None:
    env = {**os.environ, "HEYBRO_HOME": str(tmp_path)}
    h = HostProcess([sys.executable, "-m", "heybro.native"], env=env,
                    origin="chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/")
    assert h.close() == 2
    assert "origin_refused" in (tmp_path / "logs" / "host.log").read_text()
