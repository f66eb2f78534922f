"""The extension's files: which they are, where this heybro has them, and the two things made
of them — the unpacked folder a user loads at chrome://extensions and the Chrome Web Store zip.

A clone has them at the repository root (which is the unpacked extension). A wheel carries a copy
inside the package (`heybro/extension_bundle/`, put there by setup.py from `BUNDLE`), because an
installed package has no repository around it. Standard library only: setup.py loads this file.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

# What the extension is made of, relative to its root (manifest.json's folder). The extension
# imports the generated message schema from shared_schema/ (the one definition of every message).
BUNDLE = ("manifest.json", "extension", "shared_schema/messages.schema.js")
PACKAGED = Path(__file__).resolve().parents[1] / "extension_bundle"
REPOSITORY = Path(__file__).resolve().parents[3]
SKIP_SUFFIXES = (".pyc", ".swp", "~")


def source() -> Path:
    """The extension that belongs to this heybro: the wheel's copy, else the clone's root."""
    for root in (PACKAGED, REPOSITORY):
        if (root / "manifest.json").is_file():
            return root
    raise FileNotFoundError("heybro's extension files are missing from this installation "
                            f"(looked in {PACKAGED} and {REPOSITORY}); reinstall heybro.")


def files(root: Path) -> Iterator[Path]:
    """The extension's files under `root`, relative to it, in a stable order."""
    for entry in BUNDLE:
        path = root / entry
        if path.is_file():
            yield Path(entry)
        elif path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and not f.name.endswith(SKIP_SUFFIXES) and "__pycache__" not in f.parts:
                    yield f.relative_to(root)
        else:
            raise FileNotFoundError(f"the extension's {entry} is missing from {root}")


def copy(root: Path, dest: Path) -> None:
    """Writes the extension's files to `dest` (as setup.py does into the wheel)."""
    for rel in files(root):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, dest / rel)


def write_unpacked(dest: Path, root: Path | None = None) -> Path:
    """The unpacked extension at `dest`, replacing what an earlier version left there.

    The folder stays the same across upgrades, so Chrome keeps it loaded (the manifest's `key`
    keeps the id); the new files are assembled beside it and swapped in, so a failure midway
    leaves the old version whole rather than a mix."""
    root = root or source()
    dest = dest.expanduser().resolve()
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.new-", dir=dest.parent))
    try:
        copy(root, staging)
        old = dest.with_name(f".{dest.name}.old-{os.getpid()}")
        if dest.exists():
            dest.rename(old)
        staging.rename(dest)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return dest


def store_manifest(root: Path) -> dict[str, object]:
    """The manifest as the Chrome Web Store takes it: without `key` (the store refuses one and
    gives the extension its own id)."""
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    manifest.pop("key", None)
    return manifest


def pack(out: Path, root: Path | None = None) -> Path:
    """The zip to upload to the Chrome Web Store: manifest.json at the top, no `key`."""
    root = root or source()
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for rel in files(root):
            if rel == Path("manifest.json"):
                z.writestr("manifest.json", json.dumps(store_manifest(root), indent=2) + "\n")
            else:
                z.write(root / rel, rel.as_posix())
    return out
