"""Replaying a saved routine end to end: the real `heybro routine run` asks the real host (started
by the real extension in Chromium) to replay the demo order; steps re-find their elements by the
signatures a real observe gave, and the shop records what happened. The routine is recorded on the
demo shop; changed copies of the shop (tests/support/mutated_pages.py) are what it meets later."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.browser import ExtBrowser, launch  # noqa: E402
from support.heal_policy import HealPolicy  # noqa: E402
from support.mutated_pages import MutatedShop  # noqa: E402
from support.scripted_llm import ScriptedLLM  # noqa: E402
from support.shop_policy import ShopPolicy  # noqa: E402
from support.shop_routine import demo_order  # noqa: E402

from heybro.demo import DemoSite  # noqa: E402
from heybro.routines.model import Routine  # noqa: E402
from heybro.store import TaskStore  # noqa: E402
from heybro.store.routines import StoreRoutines  # noqa: E402

pytestmark = pytest.mark.browser


@dataclass
class Rig:
    eb: ExtBrowser
    site: DemoSite  # where the routine was recorded
    changed: MutatedShop  # the same shop after a redesign
    llm: ScriptedLLM
    heal: HealPolicy
    panel: Page
    routine: Routine
    store: TaskStore

    def replay(self, *extra: str, name: str | None = None,
               timeout: float = 120) -> tuple[int, list[dict[str, Any]], str]:
        p = subprocess.run([sys.executable, "-m", "heybro.cli", "routine", "run",
                            name or self.routine.name, "--json", *extra], env=self.eb.env,
                           capture_output=True, text=True, timeout=timeout)
        events = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
        Path("/tmp/rp/last.jsonl").write_text(p.stdout)
        return p.returncode, events, p.stderr

    def saved(self) -> Routine:
        got = StoreRoutines(self.store).get(self.routine.name)
        assert got is not None
        return got


@contextmanager
def rig(tmp_path: Path, mutations: list[str] | None = None, can_heal: bool = True) -> Iterator[Rig]:
    heal = HealPolicy(ShopPolicy().defaults(), can_heal=can_heal)
    with DemoSite() as site, MutatedShop(mutations=mutations or []) as changed, \
            ScriptedLLM({}, default=heal.defaults()) as llm, \
            launch(env_extra=llm.env(), home=tmp_path / "home",
                   user_data_dir=tmp_path / "profile") as eb:
        shop = eb.ctx.new_page()
        routine = demo_order(eb, shop, site.url)
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host connected")
        store = TaskStore(eb.home / "data" / "tasks.sqlite3")
        StoreRoutines(store).save(routine)
        try:
            yield Rig(eb, site, changed, llm, heal, panel, routine, store)
        finally:
            store.close()


def final(events: list[dict[str, Any]]) -> dict[str, Any]:
    return [e for e in events if e["kind"] == "status"][-1]["data"]


def order(name: str, email: str) -> dict[str, Any]:
    return {"id": "x", "product": "p1", "name": name, "email": email, "qty": 1}


def test_unchanged_page_replays_the_order_without_a_model_call(tmp_path: Path) -> None:
    with rig(tmp_path) as r:
        rc, events, err = r.replay("--param", "name=Bo Chen", "--param", "email=bo@example.com")
        assert rc == 0, (err, events[-3:])
        assert [o | {"id": "x"} for o in r.site.orders] == [order("Bo Chen", "bo@example.com")]
        assert r.llm.requests == []
        (listed,) = StoreRoutines(r.store).listing()
        assert (listed.last_task, listed.last_status, listed.last_model_calls,
                listed.last_heals) == (events[0]["task_id"], "completed", 0, 0)
        assert "0 healed, 0 model call" in final(events)["reason"]
        assert r.saved() == r.routine  # nothing healed: the routine is as saved


def test_changed_page_is_healed_and_the_routine_updated_after_it_verifies(tmp_path: Path) -> None:
    mutations = ["classes hashed", "wrappers added", "text tweaked", "button moved",
                 "links as buttons"]
    with rig(tmp_path, mutations) as r:
        rc, events, err = r.replay("--url", r.changed.url)
        assert rc == 0, (err, [e["data"] for e in events][-6:])
        assert [o | {"id": "x"} for o in r.changed.orders] == [order("Ann Lee", "ann@example.com")]
        assert r.site.orders == []
        saved = r.saved()
        print(r.heal.heals, final(events)["reason"])
        assert saved.heals == len(r.heal.heals) >= 1
        # A second replay on the changed shop needs no model: the healed steps re-find.
        calls = len(r.llm.requests)
        rc, events, err = r.replay("--url", r.changed.url)
        assert rc == 0, (err, [e["data"] for e in events][-6:])
        assert len(r.llm.requests) == calls
        assert len(r.changed.orders) == 2
