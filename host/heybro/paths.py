"""Where heybro keeps its files: the platform's user folders, or everything under $HEYBRO_HOME."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def is_windows() -> bool:
    """One test for "on Windows" (sys.platform, so tests can simulate it)."""
    return sys.platform == "win32"


def _windows_base() -> Path:
    """%LOCALAPPDATA%\\heybro: per user, per machine (nothing here should roam)."""
    value = os.environ.get("LOCALAPPDATA")
    return (Path(value) if value else Path.home() / "AppData" / "Local") / "heybro"


def _home_override() -> Path | None:
    value = os.environ.get("HEYBRO_HOME")
    return Path(value).expanduser().resolve() if value else None


def _xdg(var: str, default: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value and Path(value).is_absolute() else Path.home() / default


def data_dir() -> Path:
    """The task store, the native-host launcher."""
    if (h := _home_override()):
        return h / "data"
    if is_windows():
        return _windows_base() / "data"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "heybro"
    return _xdg("XDG_DATA_HOME", ".local/share") / "heybro"


def state_dir() -> Path:
    """Runtime state: the websocket token and port file."""
    if (h := _home_override()):
        return h / "state"
    if is_windows():
        return _windows_base() / "state"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "heybro" / "state"
    return _xdg("XDG_STATE_HOME", ".local/state") / "heybro"


def log_dir() -> Path:
    if (h := _home_override()):
        return h / "logs"
    if is_windows():
        return _windows_base() / "logs"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Logs" / "heybro"
    return state_dir() / "logs"


def config_dir() -> Path:
    if (h := _home_override()):
        return h / "config"
    if is_windows():
        return _windows_base() / "config"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "heybro"
    return _xdg("XDG_CONFIG_HOME", ".config") / "heybro"
