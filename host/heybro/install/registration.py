"""Writing and removing the host manifest and the launcher it points to.

The launcher is the one place that says how Chrome runs the host: which Python, which HEYBRO_HOME,
and which extension ids the host accepts (HEYBRO_EXTENSION_IDS). The manifests list the same ids in
`allowed_origins`, so the browser, the host and `heybro doctor` read one decision.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .. import paths
from ..native.identity import EXTENSION_ID, EXTRA_IDS_VAR, HOST_NAME, origin_of
from .browsers import Browser

_ID = re.compile(r"^[a-p]{32}$")


@dataclass
class Registration:
    browser: Browser
    manifest_path: Path
    launcher: Path


@dataclass
class LauncherInfo:
    """What a launcher runs: its Python and the extension ids it lets the host accept."""

    python: str | None
    extension_ids: list[str] = field(default_factory=lambda: [EXTENSION_ID])


def launcher_path() -> Path:
    return paths.data_dir() / "bin" / ("heybro-host.bat" if paths.is_windows() else "heybro-host")


def manifest_file(browser: Browser) -> Path:
    """Where this browser's host manifest lives (on Windows: one file the registry points at)."""
    if paths.is_windows():
        return paths.data_dir() / f"{HOST_NAME}.json"
    return browser.hosts_dir / f"{HOST_NAME}.json"


def check_extension_ids(ids: list[str]) -> list[str]:
    """The built-in id first, then the others once each; ValueError for anything not an id."""
    bad = [i for i in ids if not _ID.match(i)]
    if bad:
        raise ValueError(f"not an extension id: {', '.join(bad)} (an id is 32 letters a–p, as "
                         "chrome://extensions shows it)")
    return list(dict.fromkeys([EXTENSION_ID, *ids]))


def read_launcher(launcher: Path) -> LauncherInfo:
    """The Python and extension ids a launcher written by `write_launcher` uses."""
    python: str | None = None
    extra: list[str] = []
    for line in launcher.read_text(errors="replace").splitlines():
        if line.startswith("exec "):
            python = shlex.split(line)[1]
        elif line.startswith('"') and "-m heybro.native" in line:
            python = line.split('"')[1]
        elif EXTRA_IDS_VAR + "=" in line:
            value = line.split("=", 1)[1].strip().strip("\"'")
            extra = [i for i in value.split(",") if i]
    return LauncherInfo(python, list(dict.fromkeys([EXTENSION_ID, *extra])))


def write_launcher(python: str | None = None, extension_ids: list[str] | None = None) -> Path:
    """A tiny script that runs the host with the interpreter heybro is installed in.

    Chrome starts it with a bare environment and an unknown working directory, so the interpreter
    path is absolute and $HEYBRO_HOME (if set now) is carried along. `extension_ids` (the built-in
    one is always included) are the callers the host accepts; None keeps what the launcher already
    allows, so rewriting it (as `heybro run` does) never drops an id `heybro install` recorded.
    """
    python = python or sys.executable
    target = launcher_path()
    if extension_ids is None:
        extension_ids = read_launcher(target).extension_ids if target.exists() else [EXTENSION_ID]
    extra = ",".join(i for i in check_extension_ids(extension_ids) if i != EXTENSION_ID)
    target.parent.mkdir(parents=True, exist_ok=True)
    home = os.environ.get("HEYBRO_HOME")
    if paths.is_windows():
        env = f'set "HEYBRO_HOME={home}"\r\n' if home else ""
        target.write_text(f'@echo off\r\n{env}set "{EXTRA_IDS_VAR}={extra}"\r\n'
                          f'"{python}" -m heybro.native %*\r\n')
    else:
        env = f"export HEYBRO_HOME={shlex.quote(home)}\n" if home else ""
        target.write_text(f"#!/bin/sh\n# Written by `heybro install`; runs the heybro native host.\n"
                          f"{env}export {EXTRA_IDS_VAR}={shlex.quote(extra)}\n"
                          f"exec {shlex.quote(python)} -m heybro.native \"$@\"\n")
        target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return target


def host_manifest(launcher: Path, extension_ids: list[str]) -> dict[str, object]:
    return {
        "name": HOST_NAME,
        "description": "heybro native host: runs the agent's planner, worker and verifier",
        "path": str(launcher.resolve()),
        "type": "stdio",
        "allowed_origins": [origin_of(i) for i in extension_ids],
    }


def register(browser: Browser, launcher: Path, extension_ids: list[str] | None = None) -> Registration:
    ids = check_extension_ids(extension_ids or [])
    target = manifest_file(browser)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(host_manifest(launcher, ids), indent=2) + "\n")
    return Registration(browser, target, launcher)


def unregister(browser: Browser) -> Path | None:
    target = manifest_file(browser)
    if target.exists():
        target.unlink()
        return target
    return None


def windows_commands(manifest_path: Path, browsers: list[Browser]) -> list[str]:
    """Windows reads host manifests from the registry; these are the commands that point it there."""
    return [f'REG ADD "{b.windows_reg_key}\\{HOST_NAME}" /ve /t REG_SZ /d "{manifest_path}" /f'
            for b in browsers]


def windows_remove_commands(browsers: list[Browser]) -> list[str]:
    """The commands that take the registration out of the registry again."""
    return [f'REG DELETE "{b.windows_reg_key}\\{HOST_NAME}" /f' for b in browsers]
