"""`heybro doctor`: every way an installation can be wrong, checked, with the fix in plain words."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from shared_schema.fixes import FIXES

from .. import logs, paths
from ..endpoint.files import NO_ENDPOINT
from ..native.client import HostOutputError, HostProcess
from ..native.identity import EXTENSION_ID, HOST_NAME, origin_of
from .browsers import Browser, known_browsers, snap_chromium
from .registration import launcher_path, manifest_file, read_launcher


@dataclass
class Check:
    ok: bool
    what: str
    fix: str = ""
    warn: bool = False  # a problem that does not stop heybro from working


def _install_command(ids: list[str], browser: Browser | None = None) -> str:
    parts = [FIXES["not_installed"]]
    if browser is not None and browser.key != "custom":
        parts.append(f"--browser {browser.key}")
    elif browser is not None:
        parts.append(f"--user-data-dir {browser.profile_root}")
    parts += [f"--extension-id {i}" for i in ids if i != EXTENSION_ID]
    return " ".join(parts)


def _launcher_ids() -> list[str]:
    launcher = launcher_path()
    return read_launcher(launcher).extension_ids if launcher.exists() else [EXTENSION_ID]


def check_launcher() -> Iterator[Check]:
    launcher = launcher_path()
    if not launcher.exists():
        yield Check(False, f"host launcher missing ({launcher})", f"run `{FIXES['not_installed']}`")
        return
    yield Check(True, f"host launcher present ({launcher})")
    if not paths.is_windows():
        executable = os.access(launcher, os.X_OK)
        yield Check(executable, "host launcher is executable",
                    "" if executable else f"run `chmod +x {launcher}` or `heybro install` again")
    python = read_launcher(launcher).python
    exists = bool(python and Path(python).exists())
    yield Check(exists, f"launcher's Python interpreter exists ({python})",
                "" if exists else "the virtualenv heybro was installed from is gone: reinstall "
                "heybro and run `heybro install` from the new environment")


def _read_manifest(browser: Browser) -> dict[str, object] | None:
    try:
        data = json.loads(manifest_file(browser).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def check_manifest(browser: Browser, *, required: bool) -> Iterator[Check]:
    target = manifest_file(browser)
    if not target.exists():
        if required:
            yield Check(False, f"{browser.name}: host manifest missing ({target})",
                        f"run `{_install_command(_launcher_ids(), browser)}`")
        elif browser.profile_root.exists():
            # The browser is installed (it has a user folder) but cannot reach the host.
            yield Check(False, f"{browser.name} is installed ({browser.profile_root}) but heybro's "
                        "host is not registered with it", f"run `{_install_command(_launcher_ids(), browser)}`"
                        " if you use heybro there", warn=True)
        return
    try:
        data = json.loads(target.read_text())
    except (OSError, ValueError) as err:
        yield Check(False, f"{browser.name}: host manifest unreadable ({err})",
                    f"run `{FIXES['not_installed']}`")
        return
    if not isinstance(data, dict):
        yield Check(False, f"{browser.name}: host manifest is not a JSON object ({target})",
                    f"run `{FIXES['not_installed']}`")
        return
    ids = _launcher_ids()
    problems = []
    if data.get("name") != HOST_NAME:
        problems.append(f"name is {data.get('name')!r}, not {HOST_NAME!r}")
    path = Path(str(data.get("path", "")))
    if not path.is_absolute():
        problems.append("path is not absolute (Chrome ignores such manifests)")
    elif not path.exists():
        problems.append(f"path {path} does not exist")
    elif not paths.is_windows() and not os.access(path, os.X_OK):
        problems.append(f"path {path} is not executable")
    origins = data.get("allowed_origins") or []
    if not isinstance(origins, list):
        origins = []
    if origin_of(EXTENSION_ID) not in origins:
        bare = f"chrome-extension://{EXTENSION_ID}"
        problems.append("allowed_origins lacks the trailing '/'" if bare in origins else
                        f"allowed_origins does not list this extension ({origin_of(EXTENSION_ID)})")
    refused = [o for o in origins if isinstance(o, str) and o != origin_of(EXTENSION_ID)
               and o.removeprefix("chrome-extension://").rstrip("/") not in ids]
    if refused:
        problems.append(f"allowed_origins lists {', '.join(refused)}, which the host refuses (its "
                        "launcher does not allow that id)")
    if problems:
        listed = [o.removeprefix("chrome-extension://").rstrip("/") for o in origins
                  if isinstance(o, str)]
        yield Check(False, f"{browser.name}: host manifest wrong: {'; '.join(problems)}",
                    f"run `{_install_command(list(dict.fromkeys(ids + listed)), browser)}`")
    else:
        yield Check(True, f"{browser.name}: host manifest OK ({target})")


def _registered_launchers(targets: list[Browser]) -> dict[Path, list[str]]:
    """Each launcher the browsers' manifests name (as Chrome would run it), with its origins."""
    found: dict[Path, list[str]] = {}
    for b in targets:
        data = _read_manifest(b)
        path = data.get("path") if data else None
        if not data or not isinstance(path, str) or not Path(path).is_absolute():
            continue
        listed = data.get("allowed_origins")
        origins = [o for o in listed if isinstance(o, str)] if isinstance(listed, list) else []
        entry = found.setdefault(Path(path), [])
        entry += [o for o in origins if o not in entry]
    return found


def _host_failure(err: Exception, host: HostProcess, command: Path) -> Check:
    code = host.close(timeout=3)
    tail = host.stderr_tail()
    what = f"host did not answer ({err})"
    if host.proc.returncode is not None and not isinstance(err, HostOutputError):
        what += f"; it exited with code {code}"
    if tail:
        what += "; its last words on stderr:\n         " + tail.replace("\n", "\n         ")
    if "No module named" in tail and "heybro" in tail:
        fix = ("the launcher's Python does not have heybro installed: in your heybro folder run "
               "`.venv/bin/pip install -e . && .venv/bin/heybro install`")
    elif isinstance(err, HostOutputError):
        fix = ("something prints on the host's stdout, which must carry frames only: see the "
               f"text above, and read {paths.log_dir() / 'host.log'}")
    else:
        fix = (f"run `{command} {origin_of(EXTENSION_ID)}` to see its error, and read "
               f"{paths.log_dir() / 'host.log'}")
    return Check(False, what, fix)


def check_host_answers(targets: list[Browser]) -> Iterator[Check]:
    """Starts the host exactly as Chrome would: the launcher a manifest names, with each origin."""
    launchers = _registered_launchers(targets)
    if not launchers:
        yield Check(False, "host not tested: no browser's host manifest names a launcher, so no "
                    "browser can start the host", f"run `{FIXES['not_installed']}`")
        return
    for launcher, origins in launchers.items():
        if not launcher.exists():
            yield Check(False, f"host not tested: the registered launcher {launcher} does not "
                        "exist", f"run `{FIXES['not_installed']}`")
            continue
        for origin in origins or [origin_of(EXTENSION_ID)]:
            yield from _ping(launcher, origin)


def _ping(launcher: Path, origin: str) -> Iterator[Check]:
    started = time.monotonic()
    who = "" if origin == origin_of(EXTENSION_ID) else f" for {origin}"
    try:
        host = HostProcess([str(launcher)], origin=origin, cwd=launcher.parent,
                           env={**os.environ, NO_ENDPOINT: "1"})
    except OSError as err:
        yield Check(False, f"host launcher {launcher} cannot be started ({err})",
                    f"run `{FIXES['not_installed']}`")
        return
    try:
        reply = host.hello(timeout=10)
        if reply.get("type") != "hello_ok":
            payload = reply.get("payload") or {}
            yield Check(False, f"host answered the handshake{who} with {reply.get('type')}: "
                        f"{payload.get('message', payload)}", f"run `{FIXES['wrong_version']}`"
                        if payload.get("code") == "version_mismatch" else
                        f"run `{FIXES['not_installed']}` again")
            host.close()
            return
        pong = host.request("ping", {"nonce": "doctor"}, timeout=5)
    except (TimeoutError, EOFError, OSError, ValueError, HostOutputError) as err:
        yield _host_failure(err, host, launcher)
        return
    host.close()
    ok = pong.get("type") == "pong"
    ms = (time.monotonic() - started) * 1000
    info = reply.get("payload") or {}
    yield Check(ok, f"host starts and answers a ping{who} ({ms:.0f} ms, version "
                f"{info.get('host_version')})", "" if ok else "see the host log")
    log_file = str(info.get("log_file", ""))
    if log_file.startswith("stderr"):
        yield Check(False, f"the host cannot write its log file and logs to {log_file}, which "
                    "Chrome does not keep", "see the log folder check", warn=True)


def check_log_dir() -> Iterator[Check]:
    log_file = paths.log_dir() / "host.log"
    try:
        logs.file_handler(log_file).close()
        yield Check(True, f"log folder writable ({log_file.parent})")
    except OSError as err:
        d = log_file.parent
        yield Check(False, f"log folder unusable ({log_file}: {err.strerror or err}); the host "
                    "still runs but logs to stderr, which Chrome does not keep",
                    f"make it a writable folder: `mkdir -p {d} && chmod u+rwx {d}` (move away "
                    "any file of that name), or set HEYBRO_HOME", warn=True)


def check_snap() -> Iterator[Check]:
    snap = snap_chromium()
    if snap:
        yield Check(False, f"Chromium is installed as a snap ({snap}): a snap cannot start "
                    "native-messaging hosts, so heybro cannot work in that Chromium",
                    "use Google Chrome, Edge, Brave or a Chromium that is not a snap, and run "
                    f"`{FIXES['not_installed']}` again", warn=True)


# A check of one capability (the model's settings, the task store, the extension's folder): heybro.app
# lists them.
ExtraCheck = Callable[[], Iterator[Check]]


def run_checks(browsers: list[Browser] | None = None, extra: Sequence[ExtraCheck] = ()) -> list[Check]:
    checks: list[Check] = []
    checks += check_launcher()
    targets = browsers if browsers is not None else known_browsers()
    registered = [b for b in targets if manifest_file(b).exists()]
    if browsers is None and not registered:
        checks.append(Check(False, "the host is not registered with any browser",
                            f"run `{FIXES['not_installed']}`"))
    for b in targets:
        checks += check_manifest(b, required=browsers is not None)
    if browsers is None:
        checks += check_snap()
    checks += check_log_dir()
    checks += check_host_answers(targets)
    for more in extra:
        checks += more()
    return checks


def report(checks: list[Check]) -> tuple[str, bool]:
    lines = []
    for c in checks:
        mark = "ok " if c.ok else ("warn" if c.warn else "FAIL")
        lines.append(f"[{mark}] {c.what}")
        if not c.ok and c.fix:
            lines.append(f"       fix: {c.fix}")
    healthy = all(c.ok or c.warn for c in checks)
    lines.append("Everything looks right." if healthy else
                 "Some checks failed; the fixes are listed above.")
    return "\n".join(lines), healthy
