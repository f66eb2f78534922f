"""What a person sees: the side panel and popup in every state (idle, planning, running, paused,
failed, completed, host missing), light and dark, compared with the reference pictures in
tests/reference/ (looked at when made). HEYBRO_UPDATE_SCREENSHOTS=1 remakes them after a
deliberate change; a missing reference is written and the test fails until it is looked at and
committed.

The pictures do not depend on timing: animations are stopped for the shot, and the host-missing
banner shows one fixed retry delay instead of wherever the coordinator's backoff happens to be."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from PIL import Image, ImageChops
from playwright.sync_api import Page, expect

from heybro.store import TaskStore
from heybro.store.lease import TaskLease
from support.browser import ExtBrowser, launch
from support.states import STATES, STEP_EVENTS

pytestmark = pytest.mark.browser
REFERENCE = Path(__file__).parent / "reference"
UPDATE = os.environ.get("HEYBRO_UPDATE_SCREENSHOTS") == "1"
BADGE = {"planning": "Planning", "running": "Working", "paused": "Paused", "failed": "Failed",
         "completed": "Completed"}
PANEL = ("extension/pages/panel/panel.html", {"width": 400, "height": 720})
POPUP = ("extension/pages/popup/popup.html", {"width": 324, "height": 200})
OPTIONS = ("extension/pages/options/options.html", {"width": 820, "height": 1480})
SCHEMES = ["light", "dark"]


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


def shot(page: Page) -> bytes:
    """The whole page as it rests: no caret, no focus ring, animations stopped."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    return page.screenshot(full_page=True, animations="disabled", caret="hide")


def set_state(eb: ExtBrowser, state: dict) -> None:  # type: ignore[type-arg]
    ctx = state.get("taskContext")
    if ctx is not None:  # the host's record says the same (see `known_to_the_host`)
        with _home(eb):
            store = TaskStore()
            store.update_status(ctx["taskId"], ctx["status"], ctx.get("reason"), ctx.get("pause"))
            store.close()
    eb.sw.evaluate("s => globalThis.heybro.store.update(() => s)", state)


@contextmanager
def _home(eb: ExtBrowser) -> Iterator[None]:
    with mock.patch.dict(os.environ, {"HEYBRO_HOME": str(eb.home)}):
        os.environ.pop("HEYBRO_DB", None)
        yield


@contextmanager
def known_to_the_host(eb: ExtBrowser, task_id: str, goal: str) -> Iterator[None]:
    """The shown task is in the host's record, held by a live run (this test's lease), as a task
    of the panel is: whenever the coordinator connects, it reads the same task back (unknown, it
    would be marked failed; unheld, a starting host would mark it cut off), so a picture does not
    depend on whether a connection happened to come before it was taken."""
    with _home(eb):
        store = TaskStore()
        if store.get_task(task_id) is None:
            store.create_task(goal, task_id=task_id)
        store.close()
        lease = TaskLease(task_id)
        assert lease.acquire()
    try:
        yield
    finally:
        with _home(eb):
            lease.release()


@pytest.fixture(scope="module")
def browser() -> Iterator[ExtBrowser]:
    ctx = STATES["running"]["taskContext"]
    with launch() as eb, known_to_the_host(eb, ctx["taskId"], ctx["goal"]):
        yield eb


def open_page(eb: ExtBrowser, where: tuple[str, dict], scheme: str) -> Page:  # type: ignore[type-arg]
    page = eb.ctx.new_page()
    page.set_viewport_size(where[1])
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.goto(eb.url(where[0]))
    return page


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list(STATES))
def test_panel_state(browser: ExtBrowser, name: str, scheme: str, tmp_path: Path) -> None:
    set_state(browser, STATES[name])
    page = open_page(browser, PANEL, scheme)
    try:
        expect(page.locator("#host-pill")).to_have_text("Host connected")
        if name == "idle":
            expect(page.locator("#task")).to_be_hidden()
            expect(page.locator("#send")).to_have_text("Start")
        else:
            expect(page.locator("#task-status")).to_have_text(BADGE[name])
        if name == "planning":  # a sign that it works, not an empty gap
            expect(page.locator("#progress")).to_have_text("Planning the steps…")
        compare(shot(page), f"panel-{name}-{scheme}", tmp_path)
    finally:
        page.close()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list(STATES))
def test_popup_state(browser: ExtBrowser, name: str, scheme: str, tmp_path: Path) -> None:
    set_state(browser, STATES[name])
    page = open_page(browser, POPUP, scheme)
    try:
        expect(page.locator("#host-pill")).to_have_text("Host connected")
        if name != "idle":
            expect(page.locator("#task-line")).to_contain_text("Order the blue kettle")
        if name == "failed":  # the reason, and what to do
            expect(page.locator("#outcome")).to_contain_text("Guardrail: 3 consecutive actions")
        if name == "planning":
            expect(page.locator("#subtask-line")).to_have_text("Planning the steps…")
        compare(shot(page), f"popup-{name}-{scheme}", tmp_path)
    finally:
        page.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_step_stream(browser: ExtBrowser, scheme: str, tmp_path: Path) -> None:
    running = STATES["running"]
    # Connected first: on connecting, the coordinator asks the host about the shown task (which
    # this host does not know, and would mark failed).
    browser.sw.evaluate("globalThis.heybro.link.ensure()")
    now = {"tool": "click", "parameters": {"element_id": "e14"}, "role": "worker",
           "target": 'button "Add to cart"', "reason": "Put the kettle in the cart"}
    verdict = {"decision": "continue_work", "reason": "The product page is open, but the cart is "
               "still empty.", "confidence": 0.55, "threshold": 0.7, "accepted": False}
    # The run as the coordinator holds it: the panel draws its steps from the state alone.
    set_state(browser, {**running, "taskContext": {**running["taskContext"], "lastSeq": 16,
                                                   "currentAction": now, "lastVerdict": verdict},
                        "actionHistory": STEP_EVENTS})
    page = open_page(browser, PANEL, scheme)
    try:
        expect(page.locator("#host-pill")).to_have_text("Host connected")
        expect(page.locator("#task-status")).to_have_text("Working")
        current = page.locator("#plan > li[aria-current=step]")
        expect(current.locator("li[data-kind=action]")).to_have_count(4)
        expect(current.locator("li[data-kind=action][data-ok=false]")).to_contain_text("Covered by a cookie banner")
        expect(current.locator("li[data-ok=running]")).to_have_text('… click button "Add to cart"')
        expect(current.locator("li[data-kind=verdict] .chip")).to_have_text("55%")
        done = page.locator("#plan > li[data-index='0']")
        expect(done.locator(".count")).to_have_text("2 actions")
        expect(done.locator("details")).not_to_have_attribute("open", "")  # done: folded
        compare(shot(page), f"panel-steps-{scheme}", tmp_path)
    finally:
        page.close()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_options_page(browser: ExtBrowser, scheme: str, tmp_path: Path) -> None:
    r = browser.heybro("config", "--base-url", "https://openrouter.ai/api/v1", "--model",
                       "openai/gpt-4o-mini", "--api-key", "sk-or-v1-example")
    assert r.returncode == 0, r.stderr
    page = open_page(browser, OPTIONS, scheme)
    try:
        expect(page.locator("#host-pill")).to_have_text("Host connected")
        expect(page.locator("#key-status")).to_have_text("Key set")
        expect(page.get_by_role("radio", name="OpenRouter")).to_have_attribute("aria-checked", "true")
        expect(page.locator("#model")).to_have_value("openai/gpt-4o-mini")
        # The settings file's path changes with every test profile: one fixed path in the picture.
        page.evaluate("document.getElementById('file-line').textContent = 'Saved by the heybro host "
                      "in /home/ann/.config/heybro/config.json (readable only by you); `heybro "
                      "config` edits the same file.'")
        compare(shot(page), f"options-{scheme}", tmp_path)
    finally:
        page.close()


@pytest.fixture(scope="module")
def missing_host(browser: ExtBrowser) -> Iterator[dict]:  # type: ignore[type-arg]
    """The host unregistered; yields the coordinator's status once it says so."""
    set_state(browser, STATES["idle"])
    browser.heybro("uninstall", "--user-data-dir", str(browser.user_data_dir))
    try:
        browser.sw.evaluate("globalThis.heybro.commands.reconnect().catch(() => null)")
        status: dict = {}  # type: ignore[type-arg]
        for _ in range(100):
            status = browser.sw.evaluate("globalThis.heybro.link.status")
            if status["state"] == "not_installed":
                break
            time.sleep(0.05)
        assert status["state"] == "not_installed", status
        yield status
    finally:
        browser.install_host()


FREEZE = """([client, status]) => {
    // From here on the page shows this one status: later retries would change the delay shown.
    const c = globalThis[client].client;
    const show = c.onPush;
    c.onPush = (p) => { if (p.kind !== 'host_status') show(p); };
    show({kind: 'host_status', status});
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("where", ["panel", "popup"])
def test_host_missing(browser: ExtBrowser, missing_host: dict, where: str, scheme: str,  # type: ignore[type-arg]
                      tmp_path: Path) -> None:
    page = open_page(browser, PANEL if where == "panel" else POPUP, scheme)
    try:
        expect(page.locator("#host-pill")).to_have_text("Host not installed")
        fixed = {**missing_host, "retryInMs": 1000}
        page.evaluate(FREEZE, ["heybroPanel" if where == "panel" else "heybroPopup", fixed])
        expect(page.locator("#host-banner [data-field=fix]")).to_have_text("heybro install")
        expect(page.locator("#host-banner")).to_contain_text("Retrying in 1 s.")
        page.wait_for_timeout(300)
        expect(page.locator("#host-banner")).to_contain_text("Retrying in 1 s.")
        compare(shot(page), f"{where}-host-missing-{scheme}", tmp_path)
    finally:
        page.close()

