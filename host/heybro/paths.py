"""Where heybro keeps its files: the platform's user folders, or everything under $HEYBRO_HOME."""

from __future__ import annotations

import os
import stat
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


# --- heybro's files are its user's alone ------------------------------------------------------------
# Goals, typed values, page text and keys live in these folders: on a machine shared with others,
# nobody else may read them. Folders 0700, files 0600; an existing one (an older install's) is
# tightened when heybro opens it. Never on Windows (per-user folders there already).


def private_dir(path: Path) -> Path:
    """One of heybro's folders, made (with its parents) if missing, readable by its user alone —
    and, under $HEYBRO_HOME, that folder too."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    _tighten(path)
    # (Its parents were made as the system makes folders: heybro's own roots among them, tightened.)
    roots = {data_dir(), state_dir(), log_dir(), config_dir(), *([h] if (h := _home_override()) else [])}
    for root in roots & set(path.parents):
        _tighten(root)
    return path


def private_file(path: Path) -> Path:
    """Creates an empty file readable by its user alone (or tightens the existing one)."""
    private_dir(path.parent)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    _tighten(path)
    return path


def write_private(path: Path, text: str) -> None:
    """Writes a file readable by its user alone (an export, a lease, a request)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    _tighten(path)


def _tighten(path: Path) -> None:
    """Takes group and others' access away from a path of the user's (another user's is left be)."""
    if is_windows():
        return
    try:
        st = path.stat()
        if st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) & 0o077:
            path.chmod(stat.S_IMODE(st.st_mode) & 0o700)
    except OSError:
        pass
