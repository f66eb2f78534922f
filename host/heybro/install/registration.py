"""Writing and removing the host manifest and the launcher it points to."""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..native.identity import EXTENSION_ID, HOST_NAME, origin_of
from .browsers import Browser


@dataclass
class Registration:
    browser: Browser
    manifest_path: Path
    launcher: Path


def launcher_path() -> Path:
    return paths.data_dir() / "bin" / ("heybro-host.bat" if os.name == "nt" else "heybro-host")


def write_launcher(python: str | None = None) -> Path:
    """A tiny script that runs the host with the interpreter heybro is installed in.

    Chrome starts it with a bare environment and an unknown working directory, so the interpreter
    path is absolute and $HEYBRO_HOME (if set now) is carried along.
    """
    python = python or sys.executable
    target = launcher_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    home = os.environ.get("HEYBRO_HOME")
    if os.name == "nt":
        env = f'set "HEYBRO_HOME={home}"\r\n' if home else ""
        target.write_text(f'@echo off\r\n{env}"{python}" -m heybro.native %*\r\n')
    else:
        env = f"export HEYBRO_HOME={shlex.quote(home)}\n" if home else ""
        target.write_text(f"#!/bin/sh\n# Written by `heybro install`; runs the heybro native host.\n"
                          f"{env}exec {shlex.quote(python)} -m heybro.native \"$@\"\n")
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
    ids = extension_ids or [EXTENSION_ID]
    browser.hosts_dir.mkdir(parents=True, exist_ok=True)
    target = browser.hosts_dir / f"{HOST_NAME}.json"
    target.write_text(json.dumps(host_manifest(launcher, ids), indent=2) + "\n")
    return Registration(browser, target, launcher)


def unregister(browser: Browser) -> Path | None:
    target = browser.hosts_dir / f"{HOST_NAME}.json"
    if target.exists():
        target.unlink()
        return target
    return None


def windows_commands(manifest_path: Path, browsers: list[Browser]) -> list[str]:
    """Windows reads host manifests from the registry; these are the commands that point it there."""
    return [f'REG ADD "{b.windows_reg_key}\\{HOST_NAME}" /ve /t REG_SZ /d "{manifest_path}" /f'
            for b in browsers]
