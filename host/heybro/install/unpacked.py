"""The unpacked extension the user loads at chrome://extensions, and whether it is current.

A clone is the extension itself (developers reload their edits). An installed heybro writes its
bundled copy to one fixed folder, replaced on every `heybro install`: upgrades keep the folder,
and the manifest's `key` keeps the id, so Chrome needs only a reload."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from .. import paths
from . import bundle
from .doctor import Check


def folder() -> Path:
    source = bundle.source()
    return source if source == bundle.REPOSITORY else paths.data_dir() / "extension"


def write() -> Path:
    """Makes the folder hold this heybro's extension; returns it."""
    target, source = folder(), bundle.source()
    return target if target == source else bundle.write_unpacked(target, source)


def differences(target: Path, source: Path) -> list[str]:
    """The files that are missing, extra or different in `target` compared with `source`."""
    try:
        have = {str(p) for p in bundle.files(target)}
    except FileNotFoundError:
        have = set()
    want = {str(p) for p in bundle.files(source)}
    changed = [p for p in sorted(have & want)
               if (target / p).read_bytes() != (source / p).read_bytes()]
    return sorted(want ^ have) + changed


def check_folder() -> Iterator[Check]:
    target, source = folder(), bundle.source()
    if target == source:
        yield Check(True, f"extension folder: this clone ({target})")
    elif not (target / "manifest.json").exists():
        yield Check(False, f"the extension's folder was not written ({target})",
                    "run `heybro install`, then load that folder at chrome://extensions")
    elif (diff := differences(target, source)):
        yield Check(False, f"the extension's folder {target} holds another version of heybro's "
                    f"extension ({len(diff)} file{' differs' if len(diff) == 1 else 's differ'}, e.g. "
                    f"{diff[0]})",
                    "run `heybro install`, then press the extension's reload button at "
                    "chrome://extensions", warn=True)
    else:
        yield Check(True, f"extension folder matches this heybro ({target})")

