"""`scripts/demo`, the README's main job, run as a person runs it (with the scripted stand-in
model, headless): the shop takes exactly one order and the terminal shows the plan, every action
and every verdict."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]


def test_scripts_demo_scripted_headless_places_one_order_and_shows_the_run(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEYBRO_")}
    env["HEYBRO_HOME"] = str(tmp_path / "home")  # nothing of the run lands in the user's folders
    proc = subprocess.run([str(ROOT / "scripts" / "demo"), "--scripted", "--headless"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    # The plan, with its three steps.
    assert "Plan:" in out and "1. Search the shop for a blue kettle" in out, out
    assert "3. Order one Blue Kettle as Ann Lee, ann@example.com" in out
    # Actions named by the element the page shows, and their expectations.
    assert re.search(r'fill\(.*value=.blue kettle.\) → searchbox "Search products"', out), out
    assert 'click(element_id=' in out and '→ button "Place order"' in out
    assert "expected met" in out
    # A verdict for each subtask, and the end.
    assert len(re.findall(r"verifier: mark_complete \(model 0\.\d\d ≥ 0\.70; page: [^)]*\)", out)) == 3, out
    assert "✓ completed: The shop confirms order KC1001 for Ann Lee" in out
    # The shop's own count: exactly one order, for Ann.
    orders = re.findall(r"Orders recorded by the shop: (\[.*\])", out)
    assert orders and orders[-1].count("'id': 'KC") == 1 and "'name': 'Ann Lee'" in orders[-1], out
