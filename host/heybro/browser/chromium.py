"""Finding Chromium and the flags for a quiet, offline-safe throwaway profile."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..install import bundle

# The unpacked extension this heybro belongs to: a clone's root, or the copy inside the wheel.
EXTENSION_ROOT = bundle.source()

CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
              "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
              "/Applications/Chromium.app/Contents/MacOS/Chromium"]

# No first-run UI, no background downloads, and Chromium's own pings fail at DNS instead of
# leaving the machine.
QUIET_FLAGS = [
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-gpu",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]


def find_chromium() -> str | None:
    env = os.environ.get("HEYBRO_CHROMIUM")
    if env:
        return env
    for c in CANDIDATES:
        if Path(c).exists():
            return c
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if (p := shutil.which(name)):
            return p
    return None


def extension_flags(root: Path = EXTENSION_ROOT) -> list[str]:
    return [f"--disable-extensions-except={root}", f"--load-extension={root}"]
