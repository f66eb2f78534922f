"""The task's files as the roles and the user see them (name, type, size), and a file a page
downloaded kept in the task's workspace: its bytes copied into `downloads/` there, readable by its
user alone, never opened or run — under a name neither the folder nor the task's resources hold
yet (the site's name, cleaned: no folders, no control characters, no leading dot)."""

from __future__ import annotations

import mimetypes
import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path

from shared_schema.page_text import neutral

from ..paths import private_dir

NAME_CHARS = 100  # of a site's file name kept (its extension too)


def described(name: str, path: str) -> str:
    """`report.csv (text/csv, 182 bytes)`: the file's name, its type (by its name) and size."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        return f"{neutral(name)} (missing)"
    return f"{neutral(name)} ({kind(name)}, {size} bytes)"


def kind(name: str) -> str:
    """The file's type as its name says it (a MIME type), `file` when it says none."""
    return mimetypes.guess_type(name, strict=False)[0] or "file"


def clean_name(name: str) -> str:
    """A site's name for a file, safe as one file's name in a folder."""
    base = re.split(r"[\\/]", name)[-1]
    base = re.sub(r"[\x00-\x1f\x7f<>:\"|?*]", "_", base).strip().lstrip(".")
    stem, dot, ext = base.rpartition(".")
    if dot and len(base) > NAME_CHARS:
        base = stem[:NAME_CHARS - len(ext) - 1] + "." + ext[:20]
    return base[:NAME_CHARS] or "download"


def keep_download(workspace: Path, name: str, source: Path, taken: Mapping[str, str]) -> Path:
    """Copies the downloaded file into the workspace's `downloads/` folder (0600, as bytes) under
    the site's name, numbered when the folder or the task's resources (`taken`) hold it already;
    the kept file's path (its name is the resource's)."""
    folder = private_dir(workspace / "downloads")
    base = clean_name(name)
    stem, dot, ext = base.rpartition(".") if "." in base else (base, "", "")
    target, n = folder / base, 1
    while target.exists() or target.name in taken:
        n += 1
        target = folder / (f"{stem} ({n}){dot}{ext}")
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out, source.open("rb") as src:
        shutil.copyfileobj(src, out)
    return target
