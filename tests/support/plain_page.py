"""A fixture page of the repository in a plain headless Chromium (no extension), served from the
repository root so it can import extension/content/*.js as modules the way outside evaluations do."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from heybro.browser.chromium import QUIET_FLAGS, find_chromium
from support.static_server import serve

ROOT = Path(__file__).resolve().parent.parent.parent


@contextmanager
def plain_page(path: str) -> Iterator[Page]:
    """The page at `path` (from the repository root), once its body says data-ready="1"."""
    with serve(ROOT) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=list(QUIET_FLAGS))
        try:
            pg = browser.new_page()
            pg.goto(f"{base}/{path}")
            pg.wait_for_selector("body[data-ready='1']")
            yield pg
        finally:
            browser.close()
