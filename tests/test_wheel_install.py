"""heybro as a user installs it, without a clone: the wheel `python -m build` makes from this
repository, installed into a fresh virtualenv outside the checkout. `heybro install` writes the
unpacked extension to a fixed folder, `heybro doctor` passes, a real Chromium loads that folder,
and that install's `heybro run` buys a kettle on the demo shop. `heybro pack` makes the store zip."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from support import demo_script
from support.browser import launch
from support.browser import test_env as base_env
from support.scripted_llm import ScriptedLLM

from heybro.demo import DemoSite
from heybro.install import bundle
from heybro.native.identity import EXTENSION_ID

pytestmark = pytest.mark.browser
REPO = bundle.REPOSITORY


def _ok(r: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert r.returncode == 0, (r.args, r.stdout[-3000:], r.stderr[-3000:])
    return r


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv (outside the checkout) with heybro installed from the built wheel."""
    tmp = tmp_path_factory.mktemp("wheel")
    _ok(subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp / "dist"), str(REPO)],
                       capture_output=True, text=True, timeout=600, cwd=tmp))
    wheel = next((tmp / "dist").glob("heybro-*.whl"))
    _ok(subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], capture_output=True,
                       text=True, timeout=120))
    _ok(subprocess.run([str(tmp / "venv/bin/python"), "-m", "pip", "install", "-q",
                        "--disable-pip-version-check", str(wheel)], capture_output=True,
                       text=True, timeout=600, cwd=tmp))
    return tmp / "venv"


def test_wheel_install_writes_the_extension_folder_and_runs_a_task(installed: Path,
                                                                    tmp_path: Path) -> None:
    heybro = str(installed / "bin/heybro")
    home, profile = tmp_path / "home", tmp_path / "profile"
    env = base_env(home)
    env.pop("PYTHONPATH", None)
    where = _ok(subprocess.run([str(installed / "bin/python"), "-c",
                                "import heybro; print(heybro.__file__)"], capture_output=True,
                               text=True, env=env, cwd=tmp_path)).stdout
    assert where.startswith(str(installed)), where  # the installed copy, not this checkout

    def run(*args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([heybro, *args], capture_output=True, text=True, timeout=240,
                              env=env | (extra or {}), cwd=tmp_path)

    out = _ok(run("install", "--user-data-dir", str(profile))).stdout
    folder = home / "data" / "extension"
    assert f"Extension: {folder}\n" in out and "load this folder at chrome://extensions" in out
    manifest = json.loads((folder / "manifest.json").read_text())
    assert "key" in manifest  # the key fixes the id the host allows
    shipped = sorted(map(str, bundle.files(REPO)))
    assert sorted(map(str, bundle.files(folder))) == shipped
    # An upgrade installs again: the same folder, its files replaced, nothing stale left behind.
    (folder / "extension" / "old_module.js").write_text("// from an older heybro")
    (folder / "manifest.json").write_text("{}")
    assert f"Extension: {folder}\n" in _ok(run("install", "--user-data-dir", str(profile))).stdout
    assert sorted(map(str, bundle.files(folder))) == shipped
    assert json.loads((folder / "manifest.json").read_text()) == manifest

    with DemoSite() as site, ScriptedLLM(demo_script.happy()) as llm:
        # An upgrade without `heybro install` leaves the folder behind the package: doctor says so.
        (folder / "extension" / "pages" / "panel" / "panel.js").write_text("// an older panel")
        stale = run("doctor", "--user-data-dir", str(profile), extra=llm.env()).stdout
        assert (f"[warn] the extension's folder {folder} holds another version of heybro's "
                "extension (1 file differs, e.g. extension/pages/panel/panel.js)") in stale
        assert "fix: run `heybro install`, then press the extension's reload button" in stale
        _ok(run("install", "--user-data-dir", str(profile)))
        doctor = _ok(run("doctor", "--user-data-dir", str(profile), extra=llm.env())).stdout
        assert f"[ok ] extension folder matches this heybro ({folder})" in doctor
        assert "host starts and answers a ping" in doctor and "Everything looks right." in doctor
        with launch(install_host=False, user_data_dir=profile, home=home,
                    extension_root=folder) as eb:
            assert eb.sw.url.startswith(f"chrome-extension://{EXTENSION_ID}/")
            eb.open_panel()  # the panel connects the extension, which starts the wheel's host
            deadline = time.monotonic() + 30
            while not (home / "state" / "endpoint.json").exists():
                assert time.monotonic() < deadline, "the installed host never announced itself"
                time.sleep(0.1)
            host_pid = json.loads((home / "state" / "endpoint.json").read_text())["pid"]
            host_cmd = Path(f"/proc/{host_pid}/cmdline").read_bytes().split(b"\0")
            assert host_cmd[0].decode().startswith(str(installed)), host_cmd
            r = run("run", "Buy a blue kettle for Ann Lee", "--url", site.url, extra=llm.env())
            assert r.returncode == 0, (r.stdout, r.stderr)
        assert f"Using your running browser (heybro host pid {host_pid})" in r.stdout
        assert "✓ completed" in r.stdout
        assert len(site.orders) == 1 and site.orders[0]["name"] == "Ann Lee"


def test_pack_makes_the_store_zip_without_the_key(installed: Path, tmp_path: Path) -> None:
    out = tmp_path / "store.zip"
    r = _ok(subprocess.run([str(installed / "bin/heybro"), "pack", "-o", str(out)],
                           capture_output=True, text=True, env=base_env(tmp_path / "home"),
                           cwd=tmp_path))
    assert f"Chrome Web Store package: {out}" in r.stdout and "--extension-id" in r.stdout
    with zipfile.ZipFile(out) as z:
        names = sorted(z.namelist())
        manifest = json.loads(z.read("manifest.json"))
    assert names == sorted(p.as_posix() for p in bundle.files(REPO))  # manifest.json at the top
    ours = json.loads((REPO / "manifest.json").read_text())
    assert "key" not in manifest and manifest == {k: v for k, v in ours.items() if k != "key"}
