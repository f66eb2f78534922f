"""Replaying a saved routine end to end: the real `heybro` CLI asks the real host (started by the
real extension in Chromium) to replay the demo order; steps re-find their elements by the
signatures a real observe gave, and the shop records what happened."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.shop_rig import Rig, shop_rig  # noqa: E402
from support.shop_routine import demo_order  # noqa: E402

from heybro.store import TaskStore  # noqa: E402
from heybro.store.routines import StoreRoutines  # noqa: E402

pytestmark = pytest.mark.browser


def store_of(r: Rig) -> TaskStore:
    """The task store the rig's host uses (under its HEYBRO_HOME)."""
    return TaskStore(r.eb.home / "data" / "tasks.sqlite3")


def replay(r: Rig, name: str, *extra: str, timeout: float = 120) -> tuple[int, list[dict], str]:
    p = subprocess.run([sys.executable, "-m", "heybro.cli", "routine", "run", name, "--json",
                        *extra], env=r.eb.env, capture_output=True, text=True, timeout=timeout)
    events = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    return p.returncode, events, p.stderr


def final(events: list[dict]) -> dict[str, Any]:
    return [e for e in events if e["kind"] == "status"][-1]["data"]


def test_unchanged_page_replays_the_order_without_a_model_call(tmp_path: Path) -> None:
    with shop_rig(tmp_path) as r:
        routine = demo_order(r.eb, r.shop, r.site.url)
        store = store_of(r)
        StoreRoutines(store).save(routine)
        rc, events, err = replay(r, routine.name, "--param", "name=Bo Chen",
                                 "--param", "email=bo@example.com")
        assert rc == 0, (err, events[-3:])
        assert [o | {"id": "x"} for o in r.site.orders] == [
            {"id": "x", "product": "p1", "name": "Bo Chen", "email": "bo@example.com", "qty": 1}]
        assert r.llm.requests == []
        task_id = events[0]["task_id"]
        runs = StoreRoutines(store)
        (listed,) = runs.listing()
        assert (listed.last_task, listed.last_status, listed.last_model_calls,
                listed.last_heals) == (task_id, "completed", 0, 0)
        assert "0 healed, 0 model call" in final(events)["reason"]
        store.close()
