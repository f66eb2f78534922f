"""Shared by the benchmarks: machine description, percentiles, and writing a section of
BENCHMARKS.md (each benchmark owns the text between its own markers)."""

from __future__ import annotations

import os
import platform
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "BENCHMARKS.md"
sys.path.insert(0, str(ROOT / "tests"))  # the real-browser harness lives with the tests


def machine() -> str:
    cpu = ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in
                   Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor()
    chromium = ""
    try:
        from heybro.browser.chromium import find_chromium
        exe = find_chromium()
        if exe:
            chromium = subprocess.run([exe, "--version"], capture_output=True, text=True,
                                      timeout=20).stdout.strip()
    except Exception:  # noqa: BLE001 - a description, not a requirement
        pass
    return (f"{platform.system()} {platform.release()}, {os.cpu_count()} cores ({cpu}), "
            f"Python {platform.python_version()}, {chromium or 'Chromium ?'}")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50": pct(values, 50), "p95": pct(values, 95),
            "mean": statistics.fmean(values) if values else float("nan")}


def write_section(name: str, body: str) -> None:
    """Replaces the section `name` of BENCHMARKS.md (appends it the first time)."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    block = f"{start}\n{body.strip()}\n{end}"
    text = BENCHMARKS.read_text() if BENCHMARKS.exists() else (
        "# Benchmarks\n\nEach section is written by the script it names; rerun the command to "
        "refresh it. Figures come from the machine described in the section.\n")
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else (
        text.rstrip() + "\n\n" + block + "\n")
    BENCHMARKS.write_text(text)
