"""Every benchmark BENCHMARKS.md names starts from a fresh clone after scripts/setup: its script is
in the repository (a clone holds nothing else), and its imports are what setup installs (the
`bench` extra among them), so `--help` answers (a helper the benchmarks share imports).
Today's setup installs the extras; this holds it to that."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAMED = sorted(set(re.findall(r"scripts/\w+\.py", (ROOT / "BENCHMARKS.md").read_text())))


def test_benchmarks_md_names_its_scripts() -> None:
    assert len(NAMED) > 10, NAMED


def test_each_named_script_is_in_the_repository() -> None:
    tracked = set(subprocess.run(["git", "ls-files", "scripts"], cwd=ROOT, capture_output=True,
                                 text=True, check=True).stdout.split())
    assert [s for s in NAMED if s not in tracked] == []


@pytest.mark.parametrize("script", NAMED)
def test_each_named_script_starts(script: str) -> None:
    r = subprocess.run([sys.executable, script, "--help"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    if "__main__" in (ROOT / script).read_text():  # (a helper of the others only imports)
        assert "usage" in r.stdout.lower(), r.stdout[-500:]
