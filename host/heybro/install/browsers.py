"""Where each browser looks for native-messaging host manifests (user-level, no root needed)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..paths import is_windows


@dataclass(frozen=True)
class Browser:
    key: str
    name: str
    profile_root: Path  # the browser's user folder; exists once the browser has run
    windows_reg_key: str

    @property
    def hosts_dir(self) -> Path:
        return self.profile_root / "NativeMessagingHosts"


def _roots() -> dict[str, tuple[str, Path, str]]:
    home = Path.home()
    if is_windows():
        # The user-data folders say which browsers are installed; the registry (not a folder)
        # is where Windows browsers look for hosts.
        local = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
        paths = {
            "chrome": local / "Google" / "Chrome" / "User Data",
            "chromium": local / "Chromium" / "User Data",
            "edge": local / "Microsoft" / "Edge" / "User Data",
            "brave": local / "BraveSoftware" / "Brave-Browser" / "User Data",
        }
    elif sys.platform == "darwin":
        sup = home / "Library" / "Application Support"
        paths = {
            "chrome": sup / "Google" / "Chrome",
            "chromium": sup / "Chromium",
            "edge": sup / "Microsoft Edge",
            "brave": sup / "BraveSoftware" / "Brave-Browser",
        }
    else:
        cfg = home / ".config"
        paths = {
            "chrome": cfg / "google-chrome",
            "chromium": cfg / "chromium",
            "edge": cfg / "microsoft-edge",
            "brave": cfg / "BraveSoftware" / "Brave-Browser",
        }
    names = {"chrome": "Google Chrome", "chromium": "Chromium", "edge": "Microsoft Edge",
             "brave": "Brave"}
    reg = {"chrome": r"HKCU\Software\Google\Chrome\NativeMessagingHosts",
           "chromium": r"HKCU\Software\Chromium\NativeMessagingHosts",
           "edge": r"HKCU\Software\Microsoft\Edge\NativeMessagingHosts",
           "brave": r"HKCU\Software\BraveSoftware\Brave-Browser\NativeMessagingHosts"}
    return {k: (names[k], p, reg[k]) for k, p in paths.items()}


def known_browsers() -> list[Browser]:
    return [Browser(k, name, root, reg) for k, (name, root, reg) in _roots().items()]


def custom_profile(user_data_dir: Path) -> Browser:
    """A browser started with --user-data-dir reads hosts from <dir>/NativeMessagingHosts only."""
    return Browser("custom", f"profile {user_data_dir}", user_data_dir.resolve(), "")


def select(keys: list[str] | None) -> list[Browser]:
    """The named browsers; by default those present on this machine, else Chrome and Chromium."""
    everything = known_browsers()
    if keys:
        unknown = set(keys) - {b.key for b in everything} - {"all"}
        if unknown:
            raise ValueError(f"unknown browser(s): {', '.join(sorted(unknown))}; choose from "
                             f"{', '.join(b.key for b in everything)} or all")
        return everything if "all" in keys else [b for b in everything if b.key in keys]
    present = [b for b in everything if b.profile_root.exists()]
    return present or [b for b in everything if b.key in ("chrome", "chromium")]


def snap_chromium() -> Path | None:
    """Chromium installed as a snap (Ubuntu's `chromium` package), if any.

    A snap's confinement keeps it from starting native-messaging hosts, so heybro cannot work
    in it: Google Chrome, Edge, Brave or a Chromium that is not a snap can.
    """
    if sys.platform != "linux":
        return None
    for place in (Path.home() / "snap" / "chromium", Path("/snap/bin/chromium")):
        if place.exists():
            return place
    return None
