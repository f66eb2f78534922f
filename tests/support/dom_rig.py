"""Driving the DOM agent's tools in the real extension, as the host does: through the
coordinator's `runTool`, with args and results checked against the shared schema.

The fixtures here are imported into each DOM test module's namespace
(`from support.dom_rig import browser, page, sites`), so each module gets its own module-scoped
servers and browser, and test files that do not import them are untouched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared_schema.tools import TOOLS
from support.browser import ExtBrowser, launch
from support.static_server import serve

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "dom"


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """One static server over tests/fixtures/dom."""
    with serve(FIXTURES) as a:
        yield a


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[str, str]]:
    """Two servers on different ports: the second is another origin (cross-origin frames)."""
    with serve(FIXTURES) as a, serve(FIXTURES) as b:
        yield a, b


@pytest.fixture(scope="module")
def browser() -> Iterator[ExtBrowser]:
    # One browser for the module (2 shared cores): every test opens its own page.
    with launch(install_host=False) as eb:
        yield eb


@pytest.fixture
def page(browser: ExtBrowser):
    p = browser.ctx.new_page()
    yield p
    p.close()


def tool(eb: ExtBrowser, name: str, args: dict[str, Any] | None = None, timeout_ms: int = 15000) -> dict[str, Any]:
    """Runs a tool through the coordinator; a successful result must fit the shared schema."""
    TOOLS[name].args.model_validate(args or {})
    res = eb.sw.evaluate(
        """async ([name, args, timeout]) => {
            const [tab] = await chrome.tabs.query({active: true});
            return await globalThis.heybro.runTool({tool: name, args, tab_id: tab.id, timeout_ms: timeout});
        }""", [name, args or {}, timeout_ms])
    if res["ok"]:
        TOOLS[name].result.model_validate(res["result"])
    return res


def ok(eb: ExtBrowser, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    r = tool(eb, name, args)
    assert r["ok"], r
    return r["result"]


def error(eb: ExtBrowser, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    r = tool(eb, name, args)
    assert not r["ok"], r
    return r["error"]


def open_page(page: Any, url: str) -> None:
    page.goto(url)
    page.bring_to_front()
    page.wait_for_load_state("load")


def find_id(obs: dict[str, Any], name: str, role: str | None = None) -> str:
    for eid, sig in obs["elements"].items():
        if sig["name"] == name and (role is None or sig["role"] == role):
            return eid
    raise AssertionError(f"{name!r} not in {[s['name'] for s in obs['elements'].values()]}")


def fenced(text: str) -> str:
    """The part of an observation's text inside its untrusted-content fences (one or more blocks)."""
    parts = text.split('"""')
    assert len(parts) % 2 == 1, "unbalanced fence"
    return "\n".join(parts[1::2])


def unfenced(text: str) -> str:
    """The part of an observation's text outside every fence: only heybro's own words."""
    return "\n".join(text.split('"""')[0::2])
