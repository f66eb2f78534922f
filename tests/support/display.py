"""A virtual X display for the few tests that need real key events (chrome.commands ignores
synthesized CDP keys, headless or not)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def virtual_display() -> Iterator[str]:
    if not shutil.which("Xvfb") or not shutil.which("xdotool"):
        pytest.fail("Xvfb and xdotool are required (scripts/setup installs them)")
    for n in range(90, 130):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            break
    display = f":{n}"
    proc = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{n}").exists():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("Xvfb did not start")
            time.sleep(0.05)
        yield display
    finally:
        proc.terminate()
        proc.wait(10)


def press_keys(display: str, keys: str) -> None:
    """Real X key events, as a person's keyboard would send them."""
    subprocess.run(["xdotool", "key", "--clearmodifiers", keys], check=True,
                   env={**os.environ, "DISPLAY": display}, timeout=10)
