"""The attack suite's hosts file: in a Python process started with this folder on PYTHONPATH (the
heybro host Chromium starts, its MCP servers), every *.test name resolves to 127.0.0.1 — what
Chromium's --host-resolver-rules does for the browser — so a host tool's request to evil.test
reaches the attacker's server as the browser's does. heybro's own code is not touched."""

from __future__ import annotations

import socket
from typing import Any

_real = socket.getaddrinfo


def _getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    name = host.decode() if isinstance(host, bytes) else host
    if isinstance(name, str) and name.rstrip(".").lower().endswith(".test"):
        host = "127.0.0.1"
    return _real(host, *args, **kwargs)


socket.getaddrinfo = _getaddrinfo  # type: ignore[assignment]
