"""Talking to a host process the way Chrome does: used by `heybro doctor` and the tests."""

from __future__ import annotations

import json
import os
import select
import struct
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shared_schema import PROTOCOL_VERSION, build

from .framing import MAX_OUTGOING
from .identity import EXTENSION_ID, origin_of

STDERR_KEPT = 64 * 1024  # the end of the host's stderr kept for explaining a failure


class HostOutputError(Exception):
    """The host wrote something on stdout that Chrome would not take as a frame."""


def _looks_like_text(data: bytes) -> bool:
    return bool(data) and all(32 <= b < 127 or b in b"\t\r\n" for b in data)


def _drain(fd: int, deadline: float) -> str:
    """What is left to read on `fd` (its end, up to STDERR_KEPT bytes), waiting no later than
    `deadline` for a writer that is still alive (a child of the host holding the pipe open)."""
    data = b""
    while (left := deadline - time.monotonic()) > 0 and select.select([fd], [], [], left)[0]:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        data = (data + chunk)[-STDERR_KEPT:]
    return data.decode("utf-8", "replace")


class HostProcess:
    """A host started as Chrome would start it (origin as first argument, frames on stdio)."""

    def __init__(self, command: Sequence[str], *, origin: str | None = None,
                 env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen([*command, origin or origin_of(EXTENSION_ID)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=cwd)
        self.stderr_text = ""  # what the host wrote on stderr, once it has been closed

    def send_raw(self, body: bytes, *, length: int | None = None) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(struct.pack("=I", len(body) if length is None else length) + body)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(json.dumps(message).encode())

    def _read_exact(self, n: int, deadline: float, *, got: bytes = b"") -> bytes:
        assert self.proc.stdout
        fd = self.proc.stdout.fileno()
        buf = got
        while len(buf) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                if _looks_like_text(buf):
                    raise HostOutputError(f"the host printed text on stdout: {buf.decode()!r}")
                raise TimeoutError(f"no frame within the time limit ({len(buf)}/{n} bytes)")
            chunk = os.read(fd, n - len(buf))
            if not chunk:
                if _looks_like_text(buf):
                    raise HostOutputError(f"the host printed text on stdout: {buf.decode()!r}")
                raise EOFError("the host closed its stdout" +
                               (f" inside a frame ({len(buf)}/{n} bytes)" if buf else ""))
            buf += chunk
        return buf

    def _text_after(self, start: bytes, limit: int = 120) -> str:
        """`start` and whatever else the host prints within a moment, for quoting it."""
        assert self.proc.stdout
        fd = self.proc.stdout.fileno()
        buf, deadline = start, time.monotonic() + 0.2
        while len(buf) < limit:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            chunk = os.read(fd, limit - len(buf))
            if not chunk:
                break
            buf += chunk
        return buf.decode("utf-8", "replace").rstrip()

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame as JSON; HostOutputError for anything Chrome would refuse."""
        deadline = time.monotonic() + timeout
        header = self._read_exact(4, deadline)
        (n,) = struct.unpack("=I", header)
        if n > MAX_OUTGOING:
            if _looks_like_text(header):
                raise HostOutputError(f"the host printed text on stdout: {self._text_after(header)!r}")
            raise HostOutputError(f"the host announced a {n}-byte frame, over Chrome's "
                                  f"{MAX_OUTGOING}-byte limit")
        body = self._read_exact(n, deadline)
        try:
            message = json.loads(body)
        except ValueError:  # not UTF-8 or not JSON
            raise HostOutputError(f"the host wrote a frame that is not JSON: {body[:80]!r}") from None
        if not isinstance(message, dict):
            raise HostOutputError(f"the host wrote a frame that is not a message: {body[:80]!r}")
        return message

    def request(self, type_: str, payload: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        msg = build(type_, payload)
        self.send(msg)
        deadline = time.monotonic() + timeout
        while True:
            reply = self.recv(max(0.01, deadline - time.monotonic()))
            if reply.get("re") == msg["id"]:
                return reply

    def hello(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.request("hello", {"protocol": PROTOCOL_VERSION, "extension_version": "probe"},
                            timeout)

    def close(self, timeout: float = 5.0) -> int:
        """Ends the host (closing stdin, as Chrome does) and keeps the end of its stderr."""
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass  # the host is already gone
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
        finally:
            if self.proc.stderr and not self.proc.stderr.closed:
                self.stderr_text = _drain(self.proc.stderr.fileno(), time.monotonic() + 1.0)
            for f in (self.proc.stdout, self.proc.stderr):
                if f:
                    f.close()

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines the host wrote on stderr (after `close`)."""
        return "\n".join(self.stderr_text.strip().splitlines()[-lines:])

    def __enter__(self) -> HostProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
