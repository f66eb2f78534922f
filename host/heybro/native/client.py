"""Talking to a host process the way Chrome does: used by `heybro doctor` and the tests."""

from __future__ import annotations

import json
import os
import select
import struct
import subprocess
import time
from collections.abc import Sequence
from typing import Any

from shared_schema import PROTOCOL_VERSION, build

from .identity import EXTENSION_ID, origin_of


class HostProcess:
    """A host started as Chrome would start it (origin as first argument, frames on stdio)."""

    def __init__(self, command: Sequence[str], *, origin: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([*command, origin or origin_of(EXTENSION_ID)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)

    def send_raw(self, body: bytes, *, length: int | None = None) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(struct.pack("=I", len(body) if length is None else length) + body)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(json.dumps(message).encode())

    def _read_exact(self, n: int, deadline: float) -> bytes:
        assert self.proc.stdout
        fd = self.proc.stdout.fileno()
        buf = b""
        while len(buf) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError(f"no frame within the time limit ({len(buf)}/{n} bytes)")
            chunk = os.read(fd, n - len(buf))
            if not chunk:
                raise EOFError("the host closed its stdout")
            buf += chunk
        return buf

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        (n,) = struct.unpack("=I", self._read_exact(4, deadline))
        return json.loads(self._read_exact(n, deadline))

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
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
        finally:
            for f in (self.proc.stdout, self.proc.stderr):
                if f:
                    f.close()

    def __enter__(self) -> HostProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
