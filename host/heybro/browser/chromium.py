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


# The viewport of the Chromium heybro starts for itself, headless or not: a desktop's. Narrower,
# applications fold their menus behind a button and lay their navigation over the content, and
# the page map shows a phone's page to a model acting for a person at a desktop.
DESKTOP_SIZE = (1280, 800)


def parse_size(text: str) -> tuple[int, int]:
    """`"1280x800"` as (width, height)."""
    width, _, height = text.lower().partition("x")
    return int(width), int(height)


def window_flags(size: tuple[int, int]) -> list[str]:
    """The window; its tabs and toolbar (reckoned even headless) are added once the browser is up
    (`LaunchedChromium`), as only then can they be measured."""
    return [f"--window-size={size[0]},{size[1]}"]


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
