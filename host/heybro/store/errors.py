"""The task store failing is a state, not a crash: a write SQLite refuses becomes StoreUnwritable,
carrying the reason in words and the file's path, so the task can pause saying so."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

from shared_schema import ErrorCode, ProtocolError

LOW_SPACE_BYTES = 50 * 1024 * 1024  # `heybro doctor` warns below this


class StoreUnwritable(ProtocolError):
    """heybro cannot write its record; `why` says what a person can do something about. A
    command that meets it is answered with this typed error (`store_unwritable`)."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(ErrorCode.store_unwritable,
                         f"heybro cannot write its record at {path}: {why}",
                         detail={"path": str(path), "why": why})
        self.path = path
        self.why = why


def explain(err: sqlite3.Error, path: Path) -> str:
    """SQLite's words for a failed write, as what happened to the disk, folder or file."""
    text = str(err).lower()
    if "full" in text or _free_bytes(path) < 1024 * 1024:
        return "the disk is full"
    if "readonly" in text or "read-only" in text or not _writable(path.parent):
        return "the file or its folder is read-only"
    if "locked" in text or "busy" in text:
        return "another program holds it locked"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "the file is damaged"
    return f"the disk refused the write ({err})"


def _free_bytes(path: Path) -> int:
    try:
        return shutil.disk_usage(path.parent).free
    except OSError:
        return 1 << 62


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK)
