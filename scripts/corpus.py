#!/usr/bin/env python3
"""The corpus of real web applications (tests/support/corpus/): install, start, look at.

    .venv/bin/python scripts/corpus.py list
    .venv/bin/python scripts/corpus.py install [APP ...]          # all when none is named
    .venv/bin/python scripts/corpus.py serve APP [--data DIR]     # start it and wait (look around)
    .venv/bin/python scripts/corpus.py check APP [--shots DIR]    # log in, open every page, say what broke

`check` opens each page in a plain headless Chromium (1280×800) as the logged-in user, does the
page's `open` step, and reports per page: the final address, HTTP status, script errors, and a
screenshot when --shots is given (look at them: a page that shows an error message is no page).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.corpus import APPS, app, need  # noqa: E402
from support.corpus.base import DIALOG_GRACE_MS, Page, Running  # noqa: E402


def cmd_list(_: argparse.Namespace) -> None:
    for a in APPS.values():
        state = a.missing() or "installed"
        print(f"{a.name:14} {a.half:8} {a.kind:22} {a.built_from}  [{state}]")


def cmd_install(ns: argparse.Namespace) -> None:
    for name in ns.apps or list(APPS):
        a = app(name)
        t = time.monotonic()
        a.install()
        left = a.missing()
        print(f"{name}: {'installed' if not left else 'still missing ' + left} ({time.monotonic() - t:.0f} s)")
        if left:
            sys.exit(1)


@contextlib.contextmanager
def started(name: str, data: str | None):
    a = app(name)
    need(a)
    with contextlib.ExitStack() as stack:
        folder = Path(data) if data else Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"heybro-{name}-")))
        folder.mkdir(parents=True, exist_ok=True)
        t = time.monotonic()
        running = stack.enter_context(a.start(folder))
        print(f"{name}: started in {time.monotonic() - t:.1f} s at {running.url}", file=sys.stderr)
        yield running


def cmd_serve(ns: argparse.Namespace) -> None:
    with started(ns.app, ns.data) as running:
        print(json.dumps({"url": running.url, "user": running.user, "password": running.password,
                          "pages": [running.url + p.path for p in running.pages()]}, indent=1), flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()


@contextlib.contextmanager
def logged_in(name: str, extension: Path, purpose: str) -> Iterator[tuple[Any, Running, Any, Any]]:
    """An application of the corpus started with its seeded content in a scratch folder, and a
    Chromium with the extension at `extension` (no host) whose one page, at a desktop's 1280×800,
    is logged in to it: (the app, the running app, the browser, the page) — what a bench walks
    the app's pages with."""
    from support.browser import launch

    a = APPS[name]
    need(a)
    with tempfile.TemporaryDirectory(prefix=f"heybro-{purpose}-{name}-") as d, a.start(Path(d)) as running, \
            launch(install_host=False, extension_root=extension) as eb:
        page = eb.ctx.new_page()
        page.set_viewport_size({"width": 1280, "height": 800})
        running.login(page)
        yield a, running, eb, page


def open_page(page, running: Running, spec: Page, network_idle: bool = True) -> int | None:
    """Goes to a page as a person would and does its `open` step; the document's HTTP status.
    network_idle=False: the application never goes quiet (long polling): a short settle instead."""
    def settle(timeout: int) -> None:
        if not network_idle:
            page.wait_for_timeout(1000)
            return
        with contextlib.suppress(Exception):
            page.wait_for_load_state("networkidle", timeout=timeout)
    # Leaving a page that asks "leave this page?" (a compose form someone typed in): yes, as a person
    # going on to the next page answers; any other dialog stays open for heybro to see. One heybro
    # said "stay" to (see DIALOG_GRACE_MS) is asked again once heybro lets the tab's dialogs be.
    def leave(dialog: Any) -> None:
        if dialog.type == "beforeunload":
            with contextlib.suppress(Exception):  # answered by heybro first
                dialog.accept()
    page.on("dialog", leave)
    try:
        try:
            resp = page.goto(running.url + spec.path, timeout=60_000)
        except Exception as e:
            if "ERR_ABORTED" not in str(e):
                raise
            page.wait_for_timeout(DIALOG_GRACE_MS)
            resp = page.goto(running.url + spec.path, timeout=60_000)
    finally:
        page.remove_listener("dialog", leave)
    page.wait_for_load_state("load")
    settle(10_000)
    if spec.ready:
        page.wait_for_selector(spec.ready, timeout=30_000)
    if spec.open:
        spec.open(page)
        settle(5_000)
    page.wait_for_timeout(300)  # transitions
    return resp.status if resp else None


def cmd_check(ns: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    from heybro.browser.chromium import QUIET_FLAGS, find_chromium
    shots = Path(ns.shots) if ns.shots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    bad = 0
    with started(ns.app, ns.data) as running, sync_playwright() as p:
        udd = tempfile.mkdtemp(prefix="heybro-corpus-")
        try:
            ctx = p.chromium.launch_persistent_context(udd, executable_path=find_chromium(), headless=True,
                                                       args=QUIET_FLAGS, viewport={"width": 1280, "height": 800})
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)[:200]))
            running.login(page)
            pages = running.pages()
            print(f"{ns.app}: {len(pages)} pages", file=sys.stderr)
            for spec in pages:
                if ns.only and spec.name not in ns.only:
                    continue
                errors.clear()
                t = time.monotonic()
                try:
                    status = open_page(page, running, spec, app(ns.app).network_idle)
                    note = ""
                except Exception as e:  # a page that cannot be opened is reported, and the rest go on
                    status, note = None, f"FAILED: {str(e).splitlines()[0][:160]}"
                    bad += 1
                if shots:
                    with contextlib.suppress(Exception):
                        page.screenshot(path=str(shots / f"{spec.name}.png"))
                print(f"{spec.name:28} {spec.kind:8} {status!s:4} {time.monotonic() - t:5.1f}s {page.url[len(running.url):][:60]:60} "
                      f"{note}{' script errors: ' + '; '.join(errors[:2]) if errors else ''}")
            ctx.close()
        finally:
            shutil.rmtree(udd, ignore_errors=True)
    sys.exit(1 if bad else 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list").set_defaults(fn=cmd_list)
    i = sub.add_parser("install")
    i.add_argument("apps", nargs="*")
    i.set_defaults(fn=cmd_install)
    s = sub.add_parser("serve")
    s.add_argument("app")
    s.add_argument("--data")
    s.set_defaults(fn=cmd_serve)
    c = sub.add_parser("check")
    c.add_argument("app")
    c.add_argument("--data")
    c.add_argument("--shots")
    c.add_argument("--only", nargs="*")
    c.set_defaults(fn=cmd_check)
    ns = ap.parse_args()
    ns.fn(ns)


if __name__ == "__main__":
    main()
