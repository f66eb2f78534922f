"""Where the endpoint is announced: `<state_dir>/endpoint.json` {url, port, pid, token}, mode 0600."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from .. import paths


def endpoint_file() -> Path:
    return paths.state_dir() / "endpoint.json"


# Set to "1" in the environment of a host started only to be checked (`heybro doctor`): it serves
# no endpoint, and so leaves the running browser's endpoint file alone.
NO_ENDPOINT = "HEYBRO_NO_ENDPOINT"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def write(info: dict[str, Any]) -> Path:
    target = endpoint_file()
    paths.private_dir(target.parent)
    tmp = target.with_name(f".endpoint.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(info, f)
    os.chmod(tmp, 0o600)
    os.replace(tmp, target)
    return target


def read() -> dict[str, Any] | None:
    try:
        return json.loads(endpoint_file().read_text())
    except (OSError, ValueError):
        return None


def remove_if_mine() -> None:
    info = read()
    if info and info.get("pid") == os.getpid():
        endpoint_file().unlink(missing_ok=True)
