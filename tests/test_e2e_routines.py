"""Routines end to end: the demo order runs through the real extension and host (the scripted
model), is saved as a routine from the panel and from the terminal, listed, shown and deleted, and
exported as a Playwright test that pytest-playwright runs against the demo shop in Debian's
Chromium: green on the shop, red when the page lacks an outcome the routine expects."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from support import demo_script
from support.browser import ExtBrowser, launch
from support.scripted_llm import ScriptedLLM
from support.shop_policy import GOAL
from support.shop_rig import wait_status

from heybro.browser.chromium import find_chromium
from heybro.demo import DemoSite

pytestmark = pytest.mark.browser

CONFTEST = """
import pytest

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Debian's Chromium (never `playwright install`), kept off the network.
    return {**browser_type_launch_args, "executable_path": %r,
            "args": ["--no-first-run", "--disable-background-networking", "--disable-sync",
                     '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1']}
"""


@dataclass
class Recorded:
    eb: ExtBrowser
    site: DemoSite
    panel: Page
    task_id: str


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorded]:
    """The demo order, run once from the panel to completion (the scripted model)."""
    tmp = tmp_path_factory.mktemp("routines")
    with DemoSite() as site, ScriptedLLM(demo_script.lean()) as llm, \
            launch(env_extra=llm.env(), home=tmp / "home", user_data_dir=tmp / "profile") as eb:
        shop = eb.ctx.new_page()
        shop.goto(site.url)
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host connected", timeout=30_000)
        panel.fill("#goal", GOAL)
        panel.click("#send")
        wait_status(panel, "Completed", 90_000)
        assert len(site.orders) == 1
        listed = eb.heybro("tasks", "--json")
        [task] = json.loads(listed.stdout)
        yield Recorded(eb, site, panel, task["task_id"])


def pytest_playwright(script: Path, base_url: str) -> subprocess.CompletedProcess[str]:
    """The exported test run as its user runs it: pytest with pytest-playwright, in its folder."""
    (script.parent / "conftest.py").write_text(CONFTEST % find_chromium())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEYBRO_", "PYTEST_"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(script), "--base-url", base_url], cwd=script.parent, env=env,
                          capture_output=True, text=True, timeout=180)


class UnconfirmedShop(DemoSite):
    """The shop whose confirmation page no longer says "Order confirmed"."""

    def _route(self, method: str, path: str, query: dict[str, list[str]],
               form: dict[str, list[str]]) -> tuple[int, bytes, dict[str, str]]:
        status, body, headers = super()._route(method, path, query, form)
        return status, body.replace(b"Order confirmed", b"Order received"), headers


def test_the_terminal_saves_lists_shows_and_exports_a_routine(recorded: Recorded,
                                                              tmp_path: Path) -> None:
    eb = recorded.eb
    saved = eb.heybro("routine", "save", recorded.task_id, "kettle-order")
    assert saved.returncode == 0, saved.stderr
    assert "Saved routine kettle-order: 7 steps" in saved.stdout
    assert "search='blue kettle'" in saved.stdout and "full_name='Ann Lee'" in saved.stdout \
        and "email='ann@example.com'" in saved.stdout, saved.stdout
    again = eb.heybro("routine", "save", recorded.task_id, "kettle-order")
    assert again.returncode == 1 and "'kettle-order' exists already" in again.stderr
    missing = eb.heybro("routine", "save", "t-nope", "other")
    assert missing.returncode == 1 and "no task 't-nope'" in missing.stderr

    listed = eb.heybro("routine", "list")
    assert re.search(r"^kettle-order\s+7\s+search, full_name, email\s+never\s+-\s+0\s+-$",
                     listed.stdout, re.M), listed.stdout
    shown = eb.heybro("routine", "show", "kettle-order")
    assert shown.returncode == 0, shown.stderr
    assert "Routine kettle-order: Buy one {{param:search}} for {{param:full_name}} " \
           "({{param:email}})" in shown.stdout
    assert "  email = 'ann@example.com'" in shown.stdout
    assert "click button \"Place order\"" in shown.stdout
    assert "expect text:Order confirmed" in shown.stdout

    out = tmp_path / "kettle_order_test.py"
    exported = eb.heybro("routine", "export", "kettle-order", "-o", str(out))
    assert exported.returncode == 0, exported.stderr
    text = out.read_text()
    assert "def kettle_order(page: Page, search: str = 'blue kettle', full_name: str = " \
           "'Ann Lee', email: str = 'ann@example.com'" in text
    assert "page.get_by_role('button', name='Place order', exact=True).click()" in text
    assert ".fill(full_name)" in text
    assert "expect(page.get_by_text('Order confirmed').first).to_be_visible()" in text

    gone = eb.heybro("routine", "export", "nothing-here")
    assert gone.returncode == 1 and "no routine named 'nothing-here'" in gone.stderr


def _export(recorded: Recorded, folder: Path) -> Path:
    eb = recorded.eb
    eb.heybro("routine", "save", recorded.task_id, "kettle-export", "--replace")
    out = folder / "test_kettle_export.py"
    r = eb.heybro("routine", "export", "kettle-export", "-o", str(out))
    assert r.returncode == 0, r.stderr
    return out


def test_the_exported_script_places_the_order_under_pytest_playwright(recorded: Recorded,
                                                                      tmp_path: Path) -> None:
    script = _export(recorded, tmp_path)
    with DemoSite() as shop:
        run = pytest_playwright(script, shop.url)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "1 passed" in run.stdout
        assert [(o["product"], o["name"], o["email"]) for o in shop.orders] == [
            ("p1", "Ann Lee", "ann@example.com")]


def test_the_exported_script_fails_when_the_page_lacks_an_expected_outcome(
        recorded: Recorded, tmp_path: Path) -> None:
    script = _export(recorded, tmp_path)
    with UnconfirmedShop() as shop:
        run = pytest_playwright(script, shop.url)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed" in run.stdout
    assert "Order confirmed" in run.stdout and "to_be_visible" in run.stdout, run.stdout


def test_the_panel_saves_the_completed_task_lists_runs_and_deletes_routines(
        recorded: Recorded) -> None:
    panel, eb = recorded.panel, recorded.eb
    errors: list[str] = []
    panel.on("pageerror", lambda e: errors.append(str(e)))
    # Save as routine, on the completed task: a name is offered; a bad one is explained.
    panel.click("#save-routine")
    name = panel.locator("#routine-name")
    expect(name).to_have_value("buy-one-blue-kettle")
    name.fill("my kettle")
    panel.click("#routine-save button[type=submit]")
    expect(panel.locator("#routine-note")).to_contain_text("no spaces")
    name.fill("panel-kettle")
    panel.click("#routine-save button[type=submit]")
    expect(panel.locator("#routine-note")).to_have_text(
        "Saved routine “panel-kettle”: 7 steps, takes search, full_name, email. "
        "Run it from Routines below.")
    expect(panel.locator("#routine-save")).to_be_hidden()
    # The host refuses a second routine of that name, and the panel says why.
    panel.click("#save-routine")
    name.fill("panel-kettle")
    panel.click("#routine-save button[type=submit]")
    expect(panel.locator("#routine-note")).to_contain_text("'panel-kettle' exists already")
    panel.click("#routine-save-cancel")

    # The list: each routine with its last run, result, heals and time.
    panel.click("#routines > summary")
    item = panel.locator("#routine-list li[data-routine=panel-kettle]")
    expect(item).to_contain_text("7 steps · takes search, full_name, email")
    expect(item.locator("[data-field=facts]")).to_have_text("never run · 0 heals")

    # Run: the parameters' recorded values, editable, go with the run to the host.
    eb.sw.evaluate("""() => {
        const link = globalThis.heybro.link, call = link.call.bind(link);
        link.call = (type, payload, ...rest) => {
            if (type === "routine.run") globalThis.routineRunSent = payload;
            return call(type, payload, ...rest);
        };
    }""")
    item.get_by_role("button", name="Run").click()
    fields = item.locator("form.routine-params input")
    expect(fields).to_have_count(3)
    assert [fields.nth(i).input_value() for i in range(3)] == [
        "blue kettle", "Ann Lee", "ann@example.com"]
    item.get_by_label("full_name").fill("Bo Day")
    item.get_by_role("button", name="Start run").click()
    sent = None
    for _ in range(100):  # the coordinator sends it once it has found the page's tab
        if (sent := eb.sw.evaluate("() => globalThis.routineRunSent ?? null")) is not None:
            break
        panel.wait_for_timeout(100)
    assert sent is not None and sent["name"] == "panel-kettle", sent
    assert isinstance(sent.get("tab_id"), int), sent
    assert sent["params"] == {"search": "blue kettle", "full_name": "Bo Day",
                              "email": "ann@example.com"}
    # The host replays it as a task: the order is placed for Bo Day without a model call, and the
    # list says how the run went.
    for _ in range(600):
        if any(o["name"] == "Bo Day" for o in recorded.site.orders):
            break
        panel.wait_for_timeout(100)
    assert [(o["product"], o["name"]) for o in recorded.site.orders][-1] == ("p1", "Bo Day")
    expect(item.locator("[data-field=facts]")).to_contain_text("0 heals", timeout=60_000)
    expect(item.locator("[data-field=facts]")).to_contain_text("last run", timeout=60_000)
    listed = json.loads(eb.heybro("routine", "list", "--json").stdout)
    [run] = [r for r in listed if r["name"] == "panel-kettle"]
    assert (run["runs"], run["last_status"], run["last_model_calls"]) == (1, "completed", 0), run

    # Delete asks once more, then the routine is gone (from the list and the store).
    delete = item.get_by_role("button", name="Delete")
    delete.click()
    expect(item.get_by_role("button", name="Delete for good?")).to_be_visible()
    item.get_by_role("button", name="Delete for good?").click()
    expect(item).to_have_count(0)
    assert "panel-kettle" not in eb.heybro("routine", "list").stdout
    assert errors == []


def test_a_saved_routine_replays_from_the_terminal_without_the_model(recorded: Recorded) -> None:
    """The saved routine replays from the terminal with another value, the model never asked."""
    eb = recorded.eb
    saved = eb.heybro("routine", "save", recorded.task_id, "kettle-replay", "--replace")
    assert saved.returncode == 0, saved.stderr
    before = len(recorded.site.orders)
    ran = eb.heybro("routine", "run", "kettle-replay", "--param", "full_name=Cy Fox", "--json")
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr
    assert [(o["name"], o["email"]) for o in recorded.site.orders[before:]] == [
        ("Cy Fox", "ann@example.com")]
    [row] = [r for r in json.loads(eb.heybro("routine", "list", "--json").stdout)
             if r["name"] == "kettle-replay"]
    assert (row["last_status"], row["last_model_calls"], row["last_heals"]) == (
        "completed", 0, 0), row
    # A run is a task like any other: it can be saved as a routine in turn, its values its own.
    again = eb.heybro("routine", "save", row["last_task"], "kettle-again")
    assert again.returncode == 0, again.stderr
    assert "search='blue kettle'" in again.stdout and "full_name='Cy Fox'" in again.stdout, \
        again.stdout
