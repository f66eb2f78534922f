"""Servers the tests and benchmarks start themselves: a free port on 127.0.0.1, a process in its
own group (stopped with everything it forked), waiting until an address answers, and a command run
to completion with its error said."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Process:
    """A server started in its own process group (PHP's server forks workers), stopped with it."""

    proc: subprocess.Popen[bytes]
    log: Path

    @classmethod
    def start(cls, cmd: list[str], log: Path, env: dict[str, str] | None = None,
              cwd: Path | None = None) -> Process:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=cwd,
                                    stdin=subprocess.DEVNULL,
                                    env={**os.environ, **(env or {})}, start_new_session=True)
        return cls(proc, log)

    def failed(self, what: str) -> RuntimeError:
        tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
        return RuntimeError(f"{what} (exit {self.proc.poll()}); its log {self.log}:\n{tail}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


def wait_http(url: str, server: Process, timeout: float = 30) -> None:
    """Waits until `url` answers (any HTTP status counts), failing early when the server exits."""
    deadline = time.monotonic() + timeout
    while True:
        if server.proc.poll() is not None:
            raise server.failed(f"the server for {url} exited")
        try:
            with urllib.request.urlopen(url, timeout=10):
                return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            if time.monotonic() > deadline:
                raise server.failed(f"{url} did not answer in {timeout:.0f} s") from None
            time.sleep(0.1)


def run(cmd: list[str], env: dict[str, str] | None = None, stdin: str | None = None,
        cwd: Path | None = None, timeout: float = 120) -> str:
    """Runs a command to its end; its output, or an error carrying the end of what it said."""
    r = subprocess.run(cmd, env={**os.environ, **(env or {})}, input=stdin, capture_output=True,
                       text=True, timeout=timeout, cwd=cwd)
    if r.returncode != 0:
        raise RuntimeError(f"{cmd[:3]} failed ({r.returncode}): {r.stderr[-2000:] or r.stdout[-2000:]}")
    return r.stdout
