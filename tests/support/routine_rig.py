"""A saved demo-order routine in a real Chromium with the real extension and host: the routine
recorded on the demo shop, a changed copy of the shop (mutated_pages) for it to meet, the scripted
model for heals, and the real `heybro routine run` to replay it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from heybro.demo import DemoSite
from heybro.routines.model import Routine
from heybro.store import TaskStore
from heybro.store.routines import StoreRoutines

from .browser import ExtBrowser, launch
from .heal_policy import HealPolicy
from .mutated_pages import MutatedShop
from .scripted_llm import ScriptedLLM
from .shop_policy import ShopPolicy
from .shop_routine import demo_order


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
        return p.returncode, events, p.stderr

    def scheduled(self, *extra: str, model: bool = False,
                  timeout: float = 180) -> subprocess.CompletedProcess[str]:
        """`heybro routine run` as cron or a systemd timer runs it: no terminal (stdin is
        /dev/null), no display, its own browser (launched with a profile of its own), and, unless
        `model`, no model configured anywhere."""
        env = {k: v for k, v in self.eb.env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")
               and (model or k not in ("HEYBRO_LLM_BASE_URL", "HEYBRO_MODEL", "HEYBRO_LLM_API_KEY"))}
        profile = self.eb.home.parent / "scheduled-profile"
        return subprocess.run([sys.executable, "-m", "heybro.cli", "routine", "run",
                               self.routine.name, "--new-browser", "--profile", str(profile),
                               *extra], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=timeout)

    def start(self, *extra: str) -> subprocess.Popen[str]:
        """`heybro routine run` in the background; returns once the run is in the record."""
        proc = subprocess.Popen([sys.executable, "-m", "heybro.cli", "routine", "run",
                                 self.routine.name, "--json", *extra], env=self.eb.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.panel.wait_for_function("() => true")
        for _ in range(300):
            if self.task_id():
                return proc
            self.panel.wait_for_timeout(50)
        proc.kill()
        raise AssertionError(f"the run never started: {proc.communicate()}")

    def task_id(self) -> str | None:
        listed = StoreRoutines(self.store).listing()
        return listed[0].last_task if listed else None

    def status(self) -> str | None:
        task_id = self.task_id()
        row = self.store.get_task(task_id) if task_id else None
        return row.status if row else None

    def until(self, status: str, timeout_s: float = 30) -> None:
        for _ in range(int(timeout_s * 20)):
            if self.status() == status:
                return
            self.panel.wait_for_timeout(50)
        raise AssertionError(f"status stayed {self.status()!r}, not {status!r}")

    def heybro(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "heybro.cli", *args], env=self.eb.env,
                              capture_output=True, text=True, timeout=60)

    def saved(self) -> Routine:
        got = StoreRoutines(self.store).get(self.routine.name)
        assert got is not None
        return got


@contextmanager
def rig(tmp_path: Path, mutations: list[str] | None = None, can_heal: bool = True,
        fallback: dict[str, Any] | None = None, confirm: bool = False) -> Iterator[Rig]:
    heal = HealPolicy(fallback or ShopPolicy().defaults(), can_heal=can_heal)
    with DemoSite() as site, MutatedShop(mutations=mutations or []) as changed, \
            ScriptedLLM({}, default=heal.defaults()) as llm, \
            launch(env_extra=llm.env(HEYBRO_CONFIRM="1" if confirm else "0"),
                   home=tmp_path / "home",
                   user_data_dir=tmp_path / "profile") as eb:
        shop = eb.ctx.new_page()
        routine = demo_order(eb, shop, site.url)
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host connected", timeout=30_000)
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
