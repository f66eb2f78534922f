"""A real Chromium with the real extension and the real host registered in a throwaway profile."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, Worker, sync_playwright

from heybro.browser.chromium import EXTENSION_ROOT, QUIET_FLAGS, extension_flags, find_chromium
from heybro.native.identity import EXTENSION_ID

PANEL = "extension/pages/panel/panel.html"
POPUP = "extension/pages/popup/popup.html"


@dataclass
class ExtBrowser:
    ctx: BrowserContext
    home: Path
    user_data_dir: Path
    env: dict[str, str]
    ext_id: str = EXTENSION_ID
    _sw: Worker | None = field(default=None, repr=False)

    @property
    def sw(self) -> Worker:
        """The coordinator's service worker (re-found if Chrome restarted it)."""
        live = [w for w in self.ctx.service_workers if self.ext_id in w.url]
        if live:
            self._sw = live[-1]
            return self._sw
        self._sw = self.ctx.wait_for_event(
            "serviceworker", predicate=lambda w: self.ext_id in w.url, timeout=15_000)
        return self._sw

    def url(self, path: str) -> str:
        return f"chrome-extension://{self.ext_id}/{path}"

    def open_panel(self) -> Page:
        page = self.ctx.new_page()
        page.goto(self.url(PANEL))
        return page

    def open_popup(self) -> Page:
        page = self.ctx.new_page()
        page.goto(self.url(POPUP))
        return page

    def heybro(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Runs the real `heybro` CLI against this profile's HEYBRO_HOME."""
        return subprocess.run([sys.executable, "-m", "heybro.cli", *args], env=self.env,
                              capture_output=True, text=True, timeout=60)

    def install_host(self) -> None:
        r = self.heybro("install", "--user-data-dir", str(self.user_data_dir))
        assert r.returncode == 0, r.stderr


def test_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEYBRO_")}
    env["HEYBRO_HOME"] = str(home)
    return env


def _leave_open(dialog: Any) -> None:
    """A browser dialog Playwright saw: left for heybro (or the test) to answer."""


def _close(ctx: BrowserContext) -> None:
    """Closes the browser. A page's "leave this page?" dialog that heybro answered (through the
    debugger) while Playwright was dismissing it makes Playwright's close fail with "No dialog is
    showing": the page is leaving anyway, so the close is done again."""
    from playwright.sync_api import Error as PlaywrightError

    for attempt in range(3):
        try:
            ctx.close()
            return
        except PlaywrightError as err:
            if "No dialog is showing" not in str(err) or attempt == 2:
                raise


@contextmanager
def launch(*, install_host: bool = True, headless: bool = True, extra_args: list[str] | None = None,
           env_extra: dict[str, str] | None = None, user_data_dir: Path | None = None,
           home: Path | None = None, extension_root: Path = EXTENSION_ROOT) -> Iterator[ExtBrowser]:
    chromium = find_chromium()
    if not chromium:
        raise RuntimeError("Chromium not found: `apt-get install chromium` (scripts/test does it)")
    tmp = Path(tempfile.mkdtemp(prefix="heybro-test-"))
    home = home or tmp / "home"
    udd = user_data_dir or tmp / "profile"
    udd.mkdir(parents=True, exist_ok=True)
    env = test_env(home) | (env_extra or {})
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(udd), executable_path=chromium, headless=headless, env=env,
            args=[*QUIET_FLAGS, *extension_flags(extension_root), *(extra_args or [])])
        ctx.set_default_timeout(15_000)
        # Playwright answers a browser dialog itself (dismissed) when a page has no listener for
        # one; with one that does nothing, the dialog stays open as for a person, and heybro
        # answers it (through the debugger) while it acts — as in the user's own browser.
        ctx.on("dialog", _leave_open)
        eb = ExtBrowser(ctx=ctx, home=home, user_data_dir=udd, env=env)
        try:
            if install_host:
                eb.install_host()
            eb.sw  # the coordinator is up
            yield eb
        finally:
            _close(ctx)
    if user_data_dir is None:
        shutil.rmtree(tmp, ignore_errors=True)


def host_pids(home: Path) -> list[int]:
    """PIDs of host processes started for this HEYBRO_HOME (read from /proc)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
            environ = (proc / "environ").read_bytes()
        except OSError:
            continue
        if b"heybro.native" in cmd and f"HEYBRO_HOME={home}".encode() in environ:
            pids.append(int(proc.name))
    return pids


def evaluate(page_or_worker: Any, expr: str, arg: Any = None) -> Any:
    return page_or_worker.evaluate(expr, arg)
