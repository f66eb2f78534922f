"""Syncthing (Debian's 1.19): a file synchronisation daemon's administration console — an AngularJS
single page of collapsible folder and device panels with Bootstrap modals (add/edit folder and
device, settings, logs, restore versions) — behind HTTP basic auth.

Seeded through its REST API with nine folders on disk (family photos, work documents with staggered
versioning and some old versions, recipes, invoices, music; send-only, receive-only and paused ones;
ignore patterns in several), six remote devices (one paused), an ignored device and ignored folders
offered by devices. Discovery, relays, NAT, STUN, local announcements, crash and usage reporting are
off, so nothing calls out: remote devices are "dynamic" (never dialled) or paused.

The usage-reporting question is left undecided (urAccepted 0, urSeen at its newest version), so the
GUI asks it by itself only four hours after the browser's first visit (its `firstVisit` cookie): it
does not show on the ordinary pages, and the page `usage-report-prompt` backdates that cookie so the
dialog opens by itself on load.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, apt_install, apt_missing, then

NAME = "syncthing"
PACKAGES = ["syncthing"]
USER, PASSWORD = "admin", "heybro-sync-pass-1"
DEVICE_NAME = "Home Desktop"

_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _luhn32(s: str) -> str:
    factor, total = 1, 0
    for c in s:
        a = factor * _B32.index(c)
        factor = 1 if factor == 2 else 2
        total += a // 32 + a % 32
    return _B32[(32 - total % 32) % 32]


def device_id(seed: str) -> str:
    """A valid device ID (Syncthing's own scheme: base32 of a SHA-256 with Luhn check characters),
    made from a name instead of a certificate so the seeded devices stay the same across starts."""
    s = base64.b32encode(hashlib.sha256(seed.encode()).digest()).decode().rstrip("=")
    s = "".join(s[i * 13:(i + 1) * 13] + _luhn32(s[i * 13:(i + 1) * 13]) for i in range(4))
    return "-".join(s[i:i + 7] for i in range(0, 56, 7))


# name, address, paused, compression, introducer
DEVICES = [
    ("Ann's Laptop", "dynamic", False, "metadata", False),
    ("Office NAS", "dynamic", False, "always", True),
    ("Bob's Phone", "dynamic", False, "metadata", False),
    ("Kitchen Tablet", "dynamic", False, "never", False),
    ("Backup Server", "dynamic", False, "metadata", False),
    ("Cleo's Desktop", "tcp://192.0.2.25:22000", True, "metadata", False),  # paused: never dialled
]

# id, label, type, paused, devices shared with, versioning, files, .stignore
FOLDERS: list[tuple[str, str, str, bool, list[str], dict[str, Any] | None, dict[str, str], list[str]]] = [
    ("kq7vd-2mxpa", "Family Photos", "sendreceive", False, ["Ann's Laptop", "Office NAS", "Bob's Phone"],
     {"type": "simple", "params": {"keep": "5", "cleanoutDays": "0"}},
     {f"2026/{m}/IMG_{1000 + i}.jpg": f"jpeg {m} {i}\n" * 40 for m in ("06-june", "07-july", "08-august")
      for i in range(6)} | {"albums/Wedding/cake.jpg": "cake\n" * 50, "albums/Wedding/vows.jpg": "vows\n" * 60},
     ["*.tmp", "Thumbs.db", ".DS_Store", "// camera thumbnails", "(?i)*.thm"]),
    ("w3rtn-8hd0c", "Work Documents", "sendreceive", False, ["Ann's Laptop", "Office NAS", "Backup Server"],
     {"type": "staggered", "params": {"maxAge": "31536000", "cleanInterval": "3600"}},
     {"Reports/q3-summary.txt": "Q3 revenue grew 8% on the Red Mug line.\n",
      "Reports/q4-plan.txt": "Launch the Blue Kettle in October.\n",
      "Contracts/acme-supply-2026.txt": "Supply contract with Acme Ltd.\n",
      "Contracts/harbor-lease.txt": "Lease for the Harbor Street unit.\n",
      "Minutes/2026-09-14-board.txt": "Board meeting minutes.\n",
      "Minutes/2026-10-02-team.txt": "Team meeting minutes.\n",
      "budget-2027.csv": "item,amount\nrent,24000\nsalaries,180000\n", "todo.md": "- call Dev Shah\n"},
     ["~$*", "*.swp", "/build", "!/Reports/keep.tmp", "*.tmp"]),
    ("rc5pe-0lmna", "Recipes", "sendreceive", False, ["Kitchen Tablet", "Ann's Laptop"], None,
     {f"{n}.md": f"# {n.replace('-', ' ').title()}\n\nServes 4.\n" for n in (
         "banana-bread", "green-curry", "lemon-tart", "minestrone", "pancakes", "paella", "ramen",
         "shortbread", "tomato-soup", "apple-crumble")}, []),
    ("inv26-x0q4r", "Invoices 2026", "sendonly", False, ["Office NAS", "Backup Server"],
     {"type": "trashcan", "params": {"cleanoutDays": "30"}},
     {f"INV-2026-{n:03d}.pdf": f"%PDF invoice {n}\n" for n in range(1, 15)}, ["*.bak"]),
    ("mu8zk-44cvb", "Music Library", "sendreceive", False, ["Office NAS"], None,
     {f"{a}/{t}.flac": f"{a} {t}\n" * 30 for a in ("Nina Simone", "Miles Davis", "Bach") for t in
      ("track-01", "track-02", "track-03")}, ["*.m3u", "cover-cache/"]),
    ("ph0ne-cam77", "Phone Camera", "receiveonly", False, ["Bob's Phone"], None,
     {f"DCIM/Camera/PXL_2026100{d}_1200.jpg": f"pixel {d}\n" * 20 for d in range(1, 8)}, []),
    ("bk9up-zz1ab", "Server Backups", "sendonly", False, ["Backup Server"],
     {"type": "external", "params": {"command": "/usr/local/bin/archive-version %FOLDER_PATH% %FILE_PATH%"}},
     {"db/shop-2026-10-01.sql": "-- dump\n", "db/shop-2026-10-08.sql": "-- dump\n",
      "etc/nginx.conf": "server { listen 80; }\n"}, ["*.lock"]),
    ("pr0j-atlas", "Project Atlas", "sendreceive", False, ["Ann's Laptop", "Cleo's Desktop"], None,
     {"README.md": "# Atlas\nMaps for the Leeds office.\n", "src/main.py": "print('atlas')\n",
      "docs/design.md": "Design notes.\n", "data/cities.csv": "city\nLeeds\nYork\nBath\n"},
     ["node_modules", ".git", "__pycache__", "*.pyc"]),
    ("old-n0tes1", "Old Notes", "sendreceive", True, ["Cleo's Desktop"], None,
     {"2019/ideas.txt": "ideas\n", "2020/reading-list.txt": "books\n"}, []),
]

# Versions the staggered versioner keeps under .stversions (name~YYYYMMDD-HHMMSS.ext).
VERSIONS = {"w3rtn-8hd0c": ["Reports/q3-summary~20260930-101500.txt", "Reports/q3-summary~20261003-164210.txt",
                            "Reports/q4-plan~20261005-090000.txt", "todo~20261001-080000.md",
                            "budget-2027~20261007-113000.csv"]}

IGNORED_DEVICE = ("Unknown Android", "tcp://192.0.2.44:22000")
IGNORED_FOLDERS = {"Ann's Laptop": [("ann-games", "Ann's Game Saves")],
                   "Office NAS": [("nas-tmp", "NAS Scratch"), ("nas-cctv", "CCTV Recordings")]}

# Options that keep the daemon from calling out; the question of usage reporting stays open.
_OPTIONS = {
    "globalAnnounceEnabled": "false", "localAnnounceEnabled": "false", "relaysEnabled": "false",
    "natEnabled": "false", "startBrowser": "false", "crashReportingEnabled": "false",
    "autoUpgradeIntervalH": "0", "stunKeepaliveStartS": "0", "announceLANAddresses": "false",
    "urAccepted": "0", "urSeen": "3", "urURL": "http://127.0.0.1:9/", "releasesURL": "http://127.0.0.1:9/",
    "crashReportingURL": "http://127.0.0.1:9/",
}


@dataclass
class Syncthing:
    url: str
    home: Path
    folders_dir: Path
    api_key: str
    user: str = USER
    password: str = PASSWORD

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """The REST API (/rest/...) with the API key from config.xml; the JSON answer."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"{self.url}{path}", data=data, method=method,
                                     headers={"X-API-Key": self.api_key, "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode()
        return json.loads(text) if text.strip() else None

    def config(self) -> dict[str, Any]:
        return self.api("GET", "/rest/config")  # type: ignore[no-any-return]

    def folders(self) -> list[dict[str, Any]]:
        """The configured folders (id, label, path, type, paused, devices, versioning …)."""
        return self.api("GET", "/rest/config/folders")  # type: ignore[no-any-return]

    def folder(self, label: str) -> dict[str, Any] | None:
        return next((f for f in self.folders() if f["label"] == label), None)

    def devices(self) -> list[dict[str, Any]]:
        """The configured devices, this one included (deviceID, name, addresses, paused …)."""
        return self.api("GET", "/rest/config/devices")  # type: ignore[no-any-return]

    def device(self, name: str) -> dict[str, Any] | None:
        return next((d for d in self.devices() if d["name"] == name), None)

    def options(self) -> dict[str, Any]:
        return self.api("GET", "/rest/config/options")  # type: ignore[no-any-return]

    def gui(self) -> dict[str, Any]:
        return self.api("GET", "/rest/config/gui")  # type: ignore[no-any-return]

    def ignores(self, folder_id: str) -> list[str]:
        """A folder's ignore patterns (its .stignore)."""
        return self.api("GET", f"/rest/db/ignores?folder={folder_id}").get("ignore") or []

    def config_xml(self) -> str:
        return (self.home / "config.xml").read_text()

    def login(self, page: Any) -> None:
        # Syncthing 1.19 has no login form: HTTP basic auth only. Credentials in the address once;
        # Chromium keeps them for the origin and Syncthing answers with a session cookie.
        host = self.url.split("://", 1)[1]
        resp = page.goto(f"http://{self.user}:{self.password}@{host}/")
        if resp is None or resp.status != 200:
            raise RuntimeError(f"syncthing refused the login ({resp.status if resp else 'no answer'})")
        page.wait_for_selector("#folders .panel", timeout=30_000)

    def pages(self) -> list[Page]:
        ready = "#folders .panel-title"

        def modal(mid: str) -> Callable[[Any], None]:
            def wait(page: Any) -> None:
                page.wait_for_selector(f"#{mid}.in", state="visible", timeout=10_000)
                page.wait_for_timeout(400)  # the fade
            return wait

        def menu(page: Any) -> None:
            page.click(".action-menu > a.dropdown-toggle")
            page.wait_for_selector(".action-menu.open .dropdown-menu", state="visible", timeout=5000)

        def action(item: str, mid: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                menu(page)
                page.click(f".action-menu .dropdown-menu a:has-text('{item}')")
                modal(mid)(page)
            return go

        def tab(first: Callable[[Any], None], mid: str, target: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                first(page)
                page.click(f"#{mid} a[href='#{target}']")
                page.wait_for_selector(f"#{target}.active", state="visible", timeout=5000)
            return go

        def expand(section: str, label: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                panel = page.locator(f"#{section} > .panel", has=page.locator(".panel-title", has_text=label))
                panel.locator("button.panel-heading").click()
                panel.locator(".panel-collapse.in").wait_for(state="visible", timeout=5000)
                page.wait_for_timeout(400)  # the collapse animation
                # Its buttons in sight, above the fixed page footer.
                panel.locator(".panel-footer").first.evaluate("e => e.scrollIntoView({block: 'center'})")
            return go

        def panel_button(section: str, label: str, button: str, mid: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                expand(section, label)(page)
                panel = page.locator(f"#{section} > .panel", has=page.locator(".panel-title", has_text=label))
                panel.locator(f".panel-footer button:has-text('{button}')").click()
                modal(mid)(page)
            return go

        def click(selector: str, mid: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(selector)
                modal(mid)(page)
            return go

        def expand_advanced(section: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(f"#{section}Heading")
                page.wait_for_selector(f"#{section}Config.in", state="visible", timeout=5000)
                page.wait_for_timeout(400)
            return go

        add_folder = click("button[ng-click='addFolder()']", "editFolder")
        edit_docs = panel_button("folders", "Work Documents", "Edit", "editFolder")
        settings = action("Settings", "settings")
        edit_nas = panel_button("devices", "Office NAS", "Edit", "editDevice")

        def ur_prompt(page: Any) -> None:
            # A first visit more than four hours ago: the GUI then asks by itself on load.
            page.evaluate("document.cookie = 'firstVisit=' + (Date.now() - 5 * 3600 * 1000) + ';max-age=2592000'")
            page.reload()
            page.wait_for_selector(ready, timeout=30_000)
            modal("ur")(page)
            # Back to a recent first visit, so other pages opened later do not ask.
            page.evaluate("document.cookie = 'firstVisit=' + Date.now() + ';max-age=2592000'")

        return [
            Page("dashboard", "", "view", ready=ready),
            Page("folder-expanded", "", "view", ready=ready, open=expand("folders", "Work Documents")),
            Page("folder-receiveonly-expanded", "", "view", ready=ready, open=expand("folders", "Phone Camera")),
            Page("device-expanded", "", "view", ready=ready, open=expand("devices", "Office NAS")),
            Page("add-folder", "", "form", ready=ready, open=add_folder),
            Page("add-folder-sharing", "", "form", ready=ready, open=tab(add_folder, "editFolder", "folder-sharing")),
            Page("add-folder-advanced", "", "form", ready=ready, open=tab(add_folder, "editFolder", "folder-advanced")),
            Page("edit-folder", "", "form", ready=ready, open=edit_docs),
            Page("edit-folder-versioning", "", "form", ready=ready,
                 open=tab(edit_docs, "editFolder", "folder-versioning")),
            Page("edit-folder-ignores", "", "editor", ready=ready, open=tab(edit_docs, "editFolder", "folder-ignores")),
            Page("remove-folder-confirm", "", "dialog", ready=ready,
                 open=then(edit_docs, click("#editFolder button[data-target='#remove-folder-confirmation']",
                                            "remove-folder-confirmation"))),
            Page("restore-versions", "", "dialog", ready=ready,
                 open=then(panel_button("folders", "Work Documents", "Versions", "restoreVersions"),
                           lambda p: p.wait_for_selector("#restoreTree .fancytree-title", timeout=10_000))),
            Page("add-device", "", "form", ready=ready, open=click("button[ng-click='addDevice()']", "editDevice")),
            Page("edit-device", "", "form", ready=ready, open=edit_nas),
            Page("edit-device-sharing", "", "form", ready=ready, open=tab(edit_nas, "editDevice", "device-sharing")),
            Page("edit-device-advanced", "", "form", ready=ready, open=tab(edit_nas, "editDevice", "device-advanced")),
            Page("remove-device-confirm", "", "dialog", ready=ready,
                 open=then(edit_nas, click("#editDevice button[data-target='#remove-device-confirmation']",
                                           "remove-device-confirmation"))),
            Page("actions-menu", "", "dialog", ready=ready, open=menu),
            Page("settings-general", "", "settings", ready=ready, open=settings),
            Page("settings-gui", "", "settings", ready=ready, open=tab(settings, "settings", "settings-gui")),
            Page("settings-connections", "", "settings", ready=ready,
                 open=tab(settings, "settings", "settings-connections")),
            Page("settings-ignored-devices", "", "settings", ready=ready,
                 open=tab(settings, "settings", "settings-ignored-devices")),
            Page("settings-ignored-folders", "", "settings", ready=ready,
                 open=tab(settings, "settings", "settings-ignored-folders")),
            Page("advanced-config-options", "", "settings", ready=ready,
                 open=then(action("Advanced", "advanced"), expand_advanced("options"))),
            Page("show-id", "", "dialog", ready=ready, open=action("Show ID", "idqr")),
            Page("logs", "", "dialog", ready=ready, open=action("Logs", "logViewer")),
            Page("about", "", "dialog", ready=ready, open=action("About", "about")),
            Page("usage-report-prompt", "", "dialog", ready=ready, open=ur_prompt),
        ]


def _generate(home: Path, listen_port: int) -> None:
    run(["syncthing", "generate", f"--home={home}", "--no-default-folder", "--skip-port-probing",
         f"--gui-user={USER}", f"--gui-password={PASSWORD}"])
    path = home / "config.xml"
    tree = ET.parse(path)
    root = tree.getroot()
    me = root.find("device")
    if me is not None:
        me.set("name", DEVICE_NAME)
    opts = root.find("options")
    assert opts is not None
    for key, value in {**_OPTIONS, "listenAddress": f"tcp://127.0.0.1:{listen_port}"}.items():
        el = opts.find(key)
        if el is None:
            el = ET.SubElement(opts, key)
        el.text = value
    tree.write(path)


def _seed_files(folders_dir: Path) -> None:
    for fid, _label, _type, _paused, _devs, _ver, files, ignores in FOLDERS:
        d = folders_dir / fid
        for rel, text in files.items():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            (d / rel).write_text(text)
        if ignores:
            (d / ".stignore").write_text("\n".join(ignores) + "\n")
        for rel in VERSIONS.get(fid, []):
            v = d / ".stversions" / rel
            v.parent.mkdir(parents=True, exist_ok=True)
            v.write_text(f"an older version of {rel}\n")


def _seed_config(st: Syncthing) -> None:
    """Folders, devices and ignore lists through the REST API, as an admin's script would."""
    cfg = st.config()
    if cfg["folders"]:
        return
    my_id = cfg["devices"][0]["deviceID"]
    ids = {name: device_id(f"heybro-syncthing-{name}") for name, *_ in DEVICES}
    dev_default = st.api("GET", "/rest/config/defaults/device")
    for name, address, paused, compression, introducer in DEVICES:
        d = {**dev_default, "deviceID": ids[name], "name": name, "addresses": [address], "paused": paused,
             "compression": compression, "introducer": introducer,
             "ignoredFolders": [{"id": fid, "label": lbl, "time": "2026-10-0%dT09:30:00Z" % (i + 1)}
                                for i, (fid, lbl) in enumerate(IGNORED_FOLDERS.get(name, []))]}
        cfg["devices"].append(d)
    fol_default = st.api("GET", "/rest/config/defaults/folder")
    for fid, label, ftype, paused, devs, versioning, _files, _ign in FOLDERS:
        f = {**fol_default, "id": fid, "label": label, "path": str(st.folders_dir / fid), "type": ftype,
             "paused": paused, "fsWatcherEnabled": False, "rescanIntervalS": 3600,
             "devices": [{"deviceID": i, "introducedBy": "", "encryptionPassword": ""}
                         for i in [my_id, *(ids[n] for n in devs)]]}
        if versioning:
            f["versioning"] = {**fol_default["versioning"], **versioning}
        cfg["folders"].append(f)
    cfg["remoteIgnoredDevices"] = [{"deviceID": device_id("heybro-syncthing-ignored"), "name": IGNORED_DEVICE[0],
                                    "address": IGNORED_DEVICE[1], "time": "2026-10-04T18:12:00Z"}]
    st.api("PUT", "/rest/config", cfg)
    # Running as root makes the daemon warn once; that notice is not part of the seeded state.
    st.api("POST", "/rest/system/error/clear")


def _missing() -> str | None:
    need = apt_missing(PACKAGES)
    return f"Debian packages {' '.join(need)}" if need else None


def _install() -> None:
    apt_install(PACKAGES)


@contextmanager
def _start(data: Path) -> Iterator[Syncthing]:
    home, folders_dir = data / "home", data / "folders"
    if not (home / "config.xml").exists():
        shutil.rmtree(home, ignore_errors=True)
        _generate(home, free_port())
        _seed_files(folders_dir)
    port = free_port()
    api_key = ET.parse(home / "config.xml").getroot().findtext("gui/apikey") or ""
    server = Process.start(["syncthing", "serve", f"--home={home}", "--no-browser", f"--gui-address=127.0.0.1:{port}",
                            "--no-restart", "--no-upgrade", "--no-default-folder", "--logflags=3"],
                           data / "syncthing.log",
                           env={"HOME": str(data), "STNORESTART": "1", "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1"})
    try:
        st = Syncthing(url=f"http://127.0.0.1:{port}", home=home, folders_dir=folders_dir, api_key=api_key)
        wait_http(f"{st.url}/rest/noauth/health", server)
        _seed_config(st)
        yield st
    finally:
        server.stop()


APP = App(name=NAME, kind="administration console", half="tune",
          built_from="Debian syncthing 1.19.2~ds1 (Go, AngularJS GUI)", missing=_missing, install=_install, start=_start,
          notes=["login is HTTP basic auth (credentials in the address once)",
                 "usage-report-prompt: the usage-reporting question opens by itself on load there only"],
          network_idle=False)  # the page keeps a request open to hear of events
