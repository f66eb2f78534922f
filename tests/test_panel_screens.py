"""What a person sees: the side panel and popup in every state, light and dark, compared with the
reference pictures in tests/reference/ (looked at when made). HEYBRO_UPDATE_SCREENSHOTS=1 remakes
them after a deliberate change."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Page, expect

from support.browser import ExtBrowser, launch
from support.states import STATES

pytestmark = pytest.mark.browser
REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("HEYBRO_UPDATE_SCREENSHOTS") == "1"
BADGE = {"planning": "Planning", "running": "Working", "paused": "Paused", "failed": "Failed",
         "completed": "Completed"}


def compare(png: bytes, name: str, tmp_path: Path) -> None:
    ref = REFERENCE / f"{name}.png"
    if UPDATE or not ref.exists():
        ref.write_bytes(png)
        if not UPDATE:
            pytest.fail(f"new reference {ref.name} written: look at it, then commit it")
        return
    got_path = tmp_path / f"{name}.png"
    got_path.write_bytes(png)
    got, want = Image.open(got_path).convert("RGB"), Image.open(ref).convert("RGB")
    assert got.size == want.size, f"{name}: size {got.size} != {want.size}"
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > 40 else 0)
    changed = (diff.histogram()[255]) / (got.size[0] * got.size[1])
    assert changed < 0.01, f"{name}: {changed:.1%} of pixels differ from {ref} (see {got_path})"


def set_state(eb: ExtBrowser, state: dict) -> None:  # type: ignore[type-arg]
    eb.sw.evaluate("s => globalThis.heybro.store.update(() => s)", state)


@pytest.fixture(scope="module")
def browser() -> Iterator[ExtBrowser]:
    with launch() as eb:
        yield eb


def open_page(eb: ExtBrowser, path: str, scheme: str, size: dict) -> Page:  # type: ignore[type-arg]
    page = eb.ctx.new_page()
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.goto(eb.url(path))
    expect(page.locator("#host-pill")).to_have_text("Host connected")
    return page


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", list(STATES))
def test_panel_state(browser: ExtBrowser, name: str, scheme: str, tmp_path: Path) -> None:
    set_state(browser, STATES[name])
    page = open_page(browser, "extension/panel/panel.html", scheme, {"width": 400, "height": 720})
    try:
        if name == "idle":
            expect(page.locator("#task")).to_be_hidden()
            expect(page.locator("#send")).to_have_text("Start")
        else:
            expect(page.locator("#task-status")).to_have_text(BADGE[name])
        page.locator("#goal").blur()
        compare(page.screenshot(), f"panel-{name}-{scheme}", tmp_path)
    finally:
        page.close()


@pytest.mark.parametrize("name", ["idle", "running", "paused", "completed"])
def test_popup_state(browser: ExtBrowser, name: str, tmp_path: Path) -> None:
    set_state(browser, STATES[name])
    page = open_page(browser, "extension/popup/popup.html", "light", {"width": 324, "height": 200})
    try:
        if name != "idle":
            expect(page.locator("#task-line")).to_contain_text("Order the blue kettle")
        compare(page.screenshot(), f"popup-{name}", tmp_path)
    finally:
        page.close()


def test_panel_host_missing(browser: ExtBrowser, tmp_path: Path) -> None:
    set_state(browser, STATES["idle"])
    browser.heybro("uninstall", "--user-data-dir", str(browser.user_data_dir))
    page = browser.ctx.new_page()
    try:
        page.set_viewport_size({"width": 400, "height": 720})
        page.goto(browser.url("extension/panel/panel.html"))
        browser.sw.evaluate("globalThis.heybro.commands.reconnect().catch(() => null)")
        expect(page.locator("#host-pill")).to_have_text("Host not installed")
        page.locator("#goal").blur()
        page.evaluate("document.querySelector('[data-field=retry]').textContent = ''")
        compare(page.screenshot(), "panel-host-missing", tmp_path)
    finally:
        page.close()
        browser.install_host()
