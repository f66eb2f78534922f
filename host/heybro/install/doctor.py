"""`heybro doctor`: every way an installation can be wrong, checked, with the fix in plain words."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..native.client import HostProcess
from ..native.identity import EXTENSION_ID, HOST_NAME, origin_of
from .browsers import Browser, known_browsers
from .registration import launcher_path


@dataclass
class Check:
    ok: bool
    what: str
    fix: str = ""
    warn: bool = False  # a problem that does not stop heybro from working


def _launcher_python(launcher: Path) -> str | None:
    for line in launcher.read_text(errors="replace").splitlines():
        if line.startswith("exec "):
            return shlex.split(line)[1]
        if line.startswith('"') and "-m heybro.native" in line:
            return line.split('"')[1]
    return None


def check_launcher() -> Iterator[Check]:
    launcher = launcher_path()
    if not launcher.exists():
        yield Check(False, f"host launcher missing ({launcher})", "run `heybro install`")
        return
    yield Check(True, f"host launcher present ({launcher})")
    if os.name != "nt":
        executable = os.access(launcher, os.X_OK)
        yield Check(executable, "host launcher is executable",
                    "" if executable else f"run `chmod +x {launcher}` or `heybro install` again")
    python = _launcher_python(launcher)
    exists = bool(python and Path(python).exists())
    yield Check(exists, f"launcher's Python interpreter exists ({python})",
                "" if exists else "the virtualenv heybro was installed from is gone: reinstall "
                "heybro and run `heybro install` from the new environment")


def check_manifest(browser: Browser, *, required: bool) -> Iterator[Check]:
    target = browser.hosts_dir / f"{HOST_NAME}.json"
    if not target.exists():
        if required:
            yield Check(False, f"{browser.name}: host manifest missing ({target})",
                        f"run `heybro install --browser {browser.key}`")
        return
    try:
        data = json.loads(target.read_text())
    except (OSError, json.JSONDecodeError) as err:
        yield Check(False, f"{browser.name}: host manifest unreadable ({err})", "run `heybro install`")
        return
    problems = []
    if data.get("name") != HOST_NAME:
        problems.append(f"name is {data.get('name')!r}, not {HOST_NAME!r}")
    path = Path(str(data.get("path", "")))
    if not path.is_absolute():
        problems.append("path is not absolute (Chrome ignores such manifests)")
    elif not path.exists():
        problems.append(f"path {path} does not exist")
    elif os.name != "nt" and not os.access(path, os.X_OK):
        problems.append(f"path {path} is not executable")
    origins = data.get("allowed_origins") or []
    if origin_of(EXTENSION_ID) not in origins:
        bare = f"chrome-extension://{EXTENSION_ID}"
        problems.append("allowed_origins lacks the trailing '/'" if bare in origins else
                        f"allowed_origins does not list this extension ({origin_of(EXTENSION_ID)})")
    if problems:
        yield Check(False, f"{browser.name}: host manifest wrong: {'; '.join(problems)}",
                    "run `heybro install` again")
    else:
        yield Check(True, f"{browser.name}: host manifest OK ({target})")


def check_host_answers() -> Iterator[Check]:
    launcher = launcher_path()
    command = [str(launcher)] if launcher.exists() else [sys.executable, "-m", "heybro.native"]
    started = time.monotonic()
    try:
        with HostProcess(command) as host:
            reply = host.hello(timeout=10)
            if reply.get("type") != "hello_ok":
                yield Check(False, f"host answered the handshake with {reply.get('type')}: "
                            f"{reply.get('payload')}", "run `heybro install` again")
                return
            pong = host.request("ping", {"nonce": "doctor"}, timeout=5)
            ok = pong.get("type") == "pong"
            ms = (time.monotonic() - started) * 1000
            yield Check(ok, f"host starts and answers a ping ({ms:.0f} ms, version "
                        f"{reply['payload']['host_version']})", "" if ok else "see the host log")
    except (TimeoutError, EOFError, OSError) as err:
        yield Check(False, f"host did not answer ({err})",
                    f"run `{' '.join(command)} {origin_of(EXTENSION_ID)}` to see its error, and "
                    f"read {paths.log_dir() / 'host.log'}")


def check_log_dir() -> Iterator[Check]:
    d = paths.log_dir()
    try:
        d.mkdir(parents=True, exist_ok=True)
        probe = d / ".doctor-write-test"
        probe.write_text("ok")
        probe.unlink()
        yield Check(True, f"log folder writable ({d})")
    except OSError as err:
        yield Check(False, f"log folder not writable ({d}: {err})",
                    f"make it writable: `mkdir -p {d} && chmod u+rwx {d}`, or set HEYBRO_HOME")


# Later capabilities (LLM configuration, the CLI endpoint) add their checks here.
EXTRA_CHECKS: list[Callable[[], Iterator[Check]]] = []


def run_checks(browsers: list[Browser] | None = None) -> list[Check]:
    checks: list[Check] = []
    checks += check_launcher()
    targets = browsers if browsers is not None else known_browsers()
    registered = [b for b in targets if (b.hosts_dir / f"{HOST_NAME}.json").exists()]
    if browsers is None and not registered:
        checks.append(Check(False, "the host is not registered with any browser",
                            "run `heybro install`"))
    for b in targets:
        checks += check_manifest(b, required=browsers is not None)
    checks += check_log_dir()
    checks += check_host_answers()
    for extra in EXTRA_CHECKS:
        checks += extra()
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
