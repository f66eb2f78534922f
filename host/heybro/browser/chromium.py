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


# For the Chromium heybro starts for itself (its own profile, heybro its only extension): no
# "started debugging this browser" bar. The bar is Chrome's word to the person that an extension
# holds its debugger (heybro does while it acts, to answer the page's dialogs); here the person
# asked heybro to run this browser. Shown, it slides in above the page heybro works on, and again
# with each page loaded after: the page shrinks by the bar's height and is laid out anew (a 493 px
# viewport read 436 to 468 px during a run, resized 2-3 times within 200 ms of each navigation),
# under an agent that located its elements a moment before, and each step pays for the drawing
# (about 10 ms on the benchmark machine). Your own Chrome shows the bar.
OWN_BROWSER_FLAGS = ["--silent-debugger-extension-api"]


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
