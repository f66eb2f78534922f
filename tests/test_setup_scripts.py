"""scripts/find_python: setup builds the virtualenv with a Python heybro runs on, or says why not."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fake_python(bin_dir: Path, name: str, version: str) -> None:
    bin_dir.mkdir(exist_ok=True)
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\necho {version}\n")
    path.chmod(0o755)


def find_python(bin_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["/bin/bash", str(ROOT / "scripts" / "find_python")],
                          env={"PATH": str(bin_dir)}, capture_output=True, text=True, timeout=30)


def test_ubuntu_2204s_python_310_is_refused_with_what_to_do(tmp_path: Path) -> None:
    fake_python(tmp_path, "python3", "3.10")
    r = find_python(tmp_path)
    assert r.returncode == 1 and r.stdout == ""
    assert "heybro needs Python 3.11 or newer; python3 is 3.10." in r.stderr
    assert "HEYBRO_PYTHON" in r.stderr


def test_a_newer_python_beside_an_old_python3_is_picked(tmp_path: Path) -> None:
    fake_python(tmp_path, "python3", "3.10")
    fake_python(tmp_path, "python3.12", "3.12")
    r = find_python(tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == str(tmp_path / "python3.12")


def test_no_python_at_all_is_said_plainly(tmp_path: Path) -> None:
    tmp_path.joinpath("empty").mkdir()
    r = find_python(tmp_path / "empty")
    assert r.returncode == 1 and "no python3 was found on PATH" in r.stderr
