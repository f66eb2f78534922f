"""`heybro doctor`: can the task store be written, with room to grow? Was a damaged one moved aside?"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..install import doctor
from .errors import LOW_SPACE_BYTES, explain
from .task_store import default_path


def check_store(path: Path | None = None) -> Iterator[doctor.Check]:
    path = path or default_path()
    folder = path.parent
    fix_folder = (f"make {folder} writable for your user, or point HEYBRO_DB at a file in a "
                  "writable folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".heybro-write-test-") as f:
            f.write(b"x" * 4096)
            f.flush()
            os.fsync(f.fileno())
    except OSError as err:
        yield doctor.Check(False, f"task store folder cannot be written ({folder}: "
                           f"{err.strerror or err})", fix_folder)
        return
    free = shutil.disk_usage(folder).free
    if free < LOW_SPACE_BYTES:
        yield doctor.Check(False, f"task store disk nearly full ({free // (1024 * 1024)} MB free "
                           f"at {folder})", "free some space on that disk: when it is full, tasks "
                           "pause until there is room again", warn=free > 1024 * 1024)
    if path.exists():
        yield from _check_file(path)
    else:
        yield doctor.Check(True, f"task store will be created at {path} "
                           f"({free // (1024 * 1024)} MB free)")
    for aside in sorted(folder.glob(f"{path.name}.damaged-*")):
        if aside.name.endswith(("-wal", "-shm")):
            continue
        yield doctor.Check(False, f"a damaged task store was moved aside to {aside} (its tasks are "
                           "not in the current record)", "keep it to recover from, or delete it",
                           warn=True)


def _check_file(path: Path) -> Iterator[doctor.Check]:
    try:
        conn = sqlite3.connect(path, timeout=1.0, isolation_level=None)
        try:
            (ok,) = conn.execute("PRAGMA quick_check").fetchone()
            if ok != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed ({ok})")
            conn.execute("BEGIN IMMEDIATE")  # takes the write lock, writes nothing
            conn.execute("ROLLBACK")
        finally:
            conn.close()
    except sqlite3.Error as err:
        yield doctor.Check(False, f"task store cannot be written ({path}: {explain(err, path)})",
                           "free space, make it writable, or close the program that locks it; a "
                           "damaged file is moved aside when heybro next starts")
        return
    free = shutil.disk_usage(path.parent).free
    yield doctor.Check(True, f"task store writable ({path}, {free // (1024 * 1024)} MB free)")

