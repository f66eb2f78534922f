"""Who may talk to the host: the extension whose id the `key` in manifest.json fixes."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path

HOST_NAME = "com.heybro.host"
# SHA-256 of the public key in manifest.json, first 32 hex digits mapped 0-f → a-p.
EXTENSION_ID = "ponfjjpfdplmpknalndhmlnomomgojgf"
# Other extension ids the host accepts, comma-separated: set by the launcher `heybro install` writes
# (from `--extension-id`), so the manifest's allowed_origins and the host agree.
EXTRA_IDS_VAR = "HEYBRO_EXTENSION_IDS"


def extension_id_from_key(key_b64: str) -> str:
    digest = hashlib.sha256(base64.b64decode(key_b64)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


def extension_id_from_manifest(manifest: Path) -> str:
    return extension_id_from_key(json.loads(manifest.read_text())["key"])


def allowed_ids() -> set[str]:
    """The built-in id plus any listed in $HEYBRO_EXTENSION_IDS (comma-separated), for forks."""
    extra = os.environ.get(EXTRA_IDS_VAR, "")
    return {EXTENSION_ID, *(i.strip() for i in extra.split(",") if i.strip())}


def origin_of(extension_id: str) -> str:
    return f"chrome-extension://{extension_id}/"


def origin_allowed(origin: str | None) -> bool:
    """Chrome passes the caller's origin as the first argument; anything else is refused."""
    if not origin or not origin.startswith("chrome-extension://"):
        return False
    return origin.removeprefix("chrome-extension://").rstrip("/") in allowed_ids()
