"""The demo shop, the scripted shop model and Chromium with the extension and host, with the side
panel open in a tab: what the end-to-end lifecycle and control tests drive."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page, expect

from heybro.demo import DemoSite

from .browser import ExtBrowser, launch
from .scripted_llm import ScriptedLLM
from .shop_policy import GOAL, ShopPolicy


@dataclass
class Rig:
    eb: ExtBrowser
    site: DemoSite
    policy: ShopPolicy
    llm: ScriptedLLM
    panel: Page
    shop: Page


@contextmanager
def shop_rig(tmp_path: Path, env: dict[str, str] | None = None) -> Iterator[Rig]:
    policy = ShopPolicy()
    with DemoSite() as site, ScriptedLLM({}, default=policy.defaults()) as llm, \
            launch(env_extra=llm.env() | (env or {}), home=tmp_path / "home",
                   user_data_dir=tmp_path / "profile") as eb:
        shop = eb.ctx.new_page()
        shop.goto(site.url)
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host connected")
        try:
            yield Rig(eb, site, policy, llm, panel, shop)
        finally:
            policy.release.set()


def start(r: Rig, goal: str = GOAL) -> None:
    r.panel.fill("#goal", goal)
    r.panel.click("#send")
    expect(r.panel.locator("#task-goal")).to_have_text(goal)


def wait_status(page: Page, want: str, timeout: float = 60_000) -> None:
    """Waits for the panel's status badge; on failure says what the panel showed instead."""
    try:
        expect(page.locator("#task-status")).to_have_text(want, timeout=timeout)
    except AssertionError:
        shown = page.evaluate("() => [document.querySelector('#task-status').textContent, "
                              "document.querySelector('#task-error').textContent, "
                              "document.querySelector('#log').innerText]")
        raise AssertionError(f"wanted {want!r}, the panel shows {shown}") from None
