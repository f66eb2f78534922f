"""What every application of the corpus is: how it is installed (from Debian, PyPI or npm), how it
starts on 127.0.0.1 with seeded content in a throwaway folder, how a person logs in, and the pages
a person works on there.

An application is one module of this package exposing `APP` (an `App`); `corpus/__init__.py` lists
them. Installed files that are not Debian packages live under `.corpus/` at the repository root
(one virtualenv or npm folder per application, git-ignored), so installing twice does nothing and
removing the folder undoes it.

The halves: a `tune` application's failures may be looked at and fixed; a `heldout` one is only
measured, and a failure seen there is fixed only after a like case was added to a tune application
(its own page or a fixture), so the held-out figures keep saying how heybro does on pages nobody
tuned it on.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

ROOT = Path(__file__).resolve().parents[3]
CORPUS_DIR = Path(os.environ.get("HEYBRO_CORPUS_DIR") or ROOT / ".corpus")

# heybro answers a tab's dialogs itself ("no" to one nobody asked it about) for a while after its
# last request (extension/background/dialog_answers.js GRACE_MS): a dialog the harness means to
# answer (a page's "leave this page?", an open step's confirm) comes once that while is over.
DIALOG_GRACE_MS = 10_500

Half = Literal["tune", "heldout"]
# What a person does on a page (the report groups pages by it).
PageKind = Literal["view", "list", "grid", "form", "editor", "settings", "dialog", "search"]


class NotInstalled(RuntimeError):
    """The application is not installed here; the message says what is missing."""


@dataclass(frozen=True)
class Page:
    """One page of an application as a logged-in person reaches it.

    path: appended to the running application's `url` ("" for its start page; may hold a query).
    open: what the person then does to get to the state measured (open a dialog, a menu, a tab),
      done by the harness with Playwright selectors (the harness may know the page; heybro may not).
    ready: a CSS selector present once a page built by script is ready (waited for after load).
    """

    name: str
    path: str
    kind: PageKind
    open: Callable[[Any], None] | None = None
    ready: str | None = None


class Running(Protocol):
    """A started application: its address, its user, and the pages to read."""

    url: str
    user: str
    password: str

    def login(self, page: Any) -> None:
        """Logs a Playwright page's browser in (cookies then serve every page)."""

    def pages(self) -> list[Page]:
        """The pages a person works on, logged in (15 or more for a corpus application)."""


@dataclass(frozen=True)
class App:
    """An application of the corpus.

    kind: what sort of application it is ("webmail", "issue tracker" …).
    built_from: the packages and versions it is installed from, for the reports.
    missing: None when installed, else what is missing (in words).
    install: installs it (apt-get, a virtualenv under .corpus/, npm under .corpus/); safe to repeat.
    start: starts it with its seeded content in the given (empty or reused) folder.
    network_idle: its pages go quiet on the network once loaded; one that keeps a request open to
      hear of events (long polling) never does, and its pages are read after a short settle instead.
    """

    name: str
    kind: str
    half: Half
    built_from: str
    missing: Callable[[], str | None]
    install: Callable[[], None]
    start: Callable[[Path], AbstractContextManager[Running]]
    notes: list[str] = field(default_factory=list)
    network_idle: bool = True


def then(*steps: Callable[[Any], None]) -> Callable[[Any], None]:
    """A page's `open` step made of several, done in order."""
    def go(page: Any) -> None:
        for s in steps:
            s(page)
    return go


def click_until(selector: str, shown: str, settle_ms: int = 300) -> Callable[[Any], None]:
    """A page's `open` step: a click on the first element matching `selector`, then a wait until
    `shown` is visible and its transition (a fold, a menu's fade) has settled."""
    def go(page: Any) -> None:
        page.locator(selector).first.click()
        page.wait_for_selector(shown, state="visible", timeout=10_000)
        page.wait_for_timeout(settle_ms)
    return go


# --- installing -----------------------------------------------------------------------------------

def apt_missing(packages: list[str]) -> list[str]:
    """The Debian packages of the list that are not installed."""
    out = []
    for p in packages:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True)
        if "ok installed" not in r.stdout:
            out.append(p)
    return out


def apt_install(packages: list[str]) -> None:
    """Installs the missing ones with apt-get (through sudo when not root); no service is started
    (the corpus runs its own servers)."""
    need = apt_missing(packages)
    if not need:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # policy-rc.d answering 101 keeps the packages' own daemons from starting at install.
    policy = Path("/usr/sbin/policy-rc.d")
    made = False
    if os.geteuid() == 0 and not policy.exists():
        policy.write_text("#!/bin/sh\nexit 101\n")
        policy.chmod(0o755)
        made = True
    try:
        subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *need],
                       check=True, env=env, stdout=subprocess.DEVNULL)
    finally:
        if made:
            policy.unlink(missing_ok=True)


def _stamp(parts: list[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def venv_dir(app: str) -> Path:
    return CORPUS_DIR / app / "venv"


def venv_missing(app: str, requirements: list[str]) -> str | None:
    stamp = venv_dir(app) / ".heybro-reqs"
    if not stamp.exists() or stamp.read_text() != _stamp(requirements):
        return f"a virtualenv with {' '.join(requirements)} in {venv_dir(app)}"
    return None


def venv_install(app: str, requirements: list[str], python: str | None = None) -> Path:
    """A virtualenv of the application's own under .corpus/APP/venv with the pinned requirements
    (reinstalled only when the list changes); returns its folder."""
    d = venv_dir(app)
    if venv_missing(app, requirements) is None:
        return d
    if not (d / "bin" / "python").exists():
        d.parent.mkdir(parents=True, exist_ok=True)
        base = python or getattr(sys, "_base_executable", None) or sys.executable
        subprocess.run([base, "-m", "venv", str(d)], check=True)
    pip = [str(d / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "-U", "pip"], check=True)
    subprocess.run([*pip, *requirements], check=True)
    (d / ".heybro-reqs").write_text(_stamp(requirements))
    return d


def npm_dir(app: str) -> Path:
    return CORPUS_DIR / app / "npm"


def npm_missing(app: str, packages: list[str]) -> str | None:
    stamp = npm_dir(app) / ".heybro-pkgs"
    if not stamp.exists() or stamp.read_text() != _stamp(packages):
        return f"npm packages {' '.join(packages)} in {npm_dir(app)}"
    return None


def npm_install(app: str, packages: list[str], overrides: dict[str, str] | None = None) -> Path:
    """npm packages (pinned) under .corpus/APP/npm; returns the folder (its node_modules/.bin has
    their commands). overrides: versions pinned for packages deep in the tree (npm's `overrides`),
    for a dependency asked for by a tag the registry no longer has."""
    d = npm_dir(app)
    if npm_missing(app, packages) is None:
        return d
    d.mkdir(parents=True, exist_ok=True)
    if not shutil.which("npm"):
        raise NotInstalled("npm is missing: scripts/setup installs Node.js and npm")
    if overrides:
        (d / "package.json").write_text(json.dumps({"name": f"heybro-corpus-{app}", "private": True, "overrides": overrides}))
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", str(d),
                    *packages], check=True)
    (d / ".heybro-pkgs").write_text(_stamp(packages))
    return d


def first_missing(*checks: str | None) -> str | None:
    """The first thing missing of several, or None."""
    return next((c for c in checks if c), None)


def need(app: App) -> None:
    """Raises NotInstalled naming what is missing, unless the application is ready."""
    what = app.missing()
    if what:
        raise NotInstalled(f"{app.name} is not installed ({what}): run `scripts/corpus install {app.name}`")


def pages_of(running: Running) -> Iterator[Page]:
    seen: set[str] = set()
    for p in running.pages():
        if p.name in seen:
            raise ValueError(f"two pages named {p.name!r}")
        seen.add(p.name)
        yield p
