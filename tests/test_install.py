"""`heybro install`, `doctor` and `uninstall` as a user runs them, in a throwaway home."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from heybro.install import browsers
from heybro.native.identity import EXTENSION_ID, HOST_NAME, extension_id_from_manifest

ROOT = Path(__file__).resolve().parents[1]


def heybro(home: Path, *args: str, fake_home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEYBRO_", "XDG_"))}
    env["HEYBRO_HOME"] = str(home)
    if fake_home:
        env["HOME"] = str(fake_home)
    return subprocess.run([sys.executable, "-m", "heybro.cli", *args], env=env,
                          capture_output=True, text=True, timeout=60)


def test_manifest_key_fixes_the_extension_id() -> None:
    assert extension_id_from_manifest(ROOT / "manifest.json") == EXTENSION_ID


def test_install_into_a_profile_then_doctor_is_happy(tmp_path: Path) -> None:
    udd = tmp_path / "profile"
    r = heybro(tmp_path / "home", "install", "--user-data-dir", str(udd))
    assert r.returncode == 0, r.stderr
    manifest = json.loads((udd / "NativeMessagingHosts" / f"{HOST_NAME}.json").read_text())
    assert manifest["name"] == HOST_NAME and manifest["type"] == "stdio"
    assert Path(manifest["path"]).is_absolute() and os.access(manifest["path"], os.X_OK)
    assert manifest["allowed_origins"] == [f"chrome-extension://{EXTENSION_ID}/"]
    # The launcher runs the host with this very interpreter.
    assert sys.executable in Path(manifest["path"]).read_text()
    r = heybro(tmp_path / "home", "doctor", "--user-data-dir", str(udd))
    assert r.returncode == 1 and "no LLM configured" in r.stdout and "heybro config" in r.stdout
    heybro(tmp_path / "home", "config", "--base-url", "http://localhost:11434/v1", "--model", "m")
    r = heybro(tmp_path / "home", "doctor", "--user-data-dir", str(udd))
    assert r.returncode == 0, r.stdout
    assert "host starts and answers a ping" in r.stdout
    assert "Everything looks right." in r.stdout


def test_install_for_every_browser_in_the_users_folders(tmp_path: Path) -> None:
    fake_home = tmp_path / "user"
    (fake_home / ".config" / "google-chrome").mkdir(parents=True)
    (fake_home / ".config" / "BraveSoftware" / "Brave-Browser").mkdir(parents=True)
    r = heybro(tmp_path / "home", "install", fake_home=fake_home)
    assert r.returncode == 0, r.stderr
    assert (fake_home / ".config/google-chrome/NativeMessagingHosts" / f"{HOST_NAME}.json").exists()
    assert (fake_home / ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts"
            / f"{HOST_NAME}.json").exists()
    assert not (fake_home / ".config/microsoft-edge").exists()  # not installed there: left alone
    r = heybro(tmp_path / "home", "install", "--browser", "all", fake_home=fake_home)
    assert (fake_home / ".config/microsoft-edge/NativeMessagingHosts" / f"{HOST_NAME}.json").exists()
    heybro(tmp_path / "home", "config", "--model", "gpt-4o-mini", "--api-key", "k")
    r = heybro(tmp_path / "home", "doctor", fake_home=fake_home)
    assert r.returncode == 0, r.stdout
    r = heybro(tmp_path / "home", "uninstall", fake_home=fake_home)
    assert r.returncode == 0
    assert not list(fake_home.rglob(f"{HOST_NAME}.json"))
    r = heybro(tmp_path / "home", "doctor", fake_home=fake_home)
    assert r.returncode == 1
    assert "run `heybro install`" in r.stdout


def test_doctor_names_each_mistake_and_its_fix(tmp_path: Path) -> None:
    home, udd = tmp_path / "home", tmp_path / "profile"
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert r.returncode == 1
    assert "host launcher missing" in r.stdout and "fix: run `heybro install`" in r.stdout
    heybro(home, "install", "--user-data-dir", str(udd))
    target = udd / "NativeMessagingHosts" / f"{HOST_NAME}.json"
    data = json.loads(target.read_text())
    data["allowed_origins"] = [f"chrome-extension://{EXTENSION_ID}"]  # the classic missing "/"
    target.write_text(json.dumps(data))
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert r.returncode == 1 and "lacks the trailing '/'" in r.stdout
    launcher = Path(data["path"])
    launcher.chmod(0o644)
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert "not executable" in r.stdout and f"chmod +x {launcher}" in r.stdout
    launcher.write_text("#!/bin/sh\nexec /nonexistent/venv/bin/python -m heybro.native \"$@\"\n")
    launcher.chmod(0o755)
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert "interpreter exists (/nonexistent/venv/bin/python)" in r.stdout
    assert "virtualenv heybro was installed from is gone" in r.stdout


def test_unknown_browser_is_a_clear_error(tmp_path: Path) -> None:
    r = heybro(tmp_path, "install", "--browser", "netscape")
    assert r.returncode == 2 and "unknown browser(s): netscape" in r.stderr


@pytest.mark.parametrize("platform, expected", [
    ("linux", ".config/google-chrome/NativeMessagingHosts"),
    ("darwin", "Library/Application Support/Google/Chrome/NativeMessagingHosts"),
])
def test_user_level_locations(monkeypatch: pytest.MonkeyPatch, platform: str, expected: str) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    chrome = next(b for b in browsers.known_browsers() if b.key == "chrome")
    assert str(chrome.hosts_dir).endswith(expected)


def test_windows_gets_the_registry_command(tmp_path: Path) -> None:
    from heybro.install.registration import windows_commands
    [cmd] = windows_commands(tmp_path / "m.json", [b for b in browsers.known_browsers()
                                                  if b.key == "edge"])
    assert cmd.startswith('REG ADD "HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\'
                          'com.heybro.host" /ve /t REG_SZ /d "')


def test_config_saves_the_llm_settings_privately(tmp_path: Path) -> None:
    r = heybro(tmp_path, "config")
    assert r.returncode == 0 and "No LLM configured yet" in r.stdout
    r = heybro(tmp_path, "config", "--base-url", "http://localhost:11434/v1", "--model",
               "qwen2.5:7b", "--api-key", "sk-secret")
    assert r.returncode == 0, r.stderr
    path = tmp_path / "config" / "config.json"
    assert json.loads(path.read_text())["model"] == "qwen2.5:7b"
    assert (path.stat().st_mode & 0o777) == 0o600
    assert "sk-secret" not in r.stdout and "***" in r.stdout
    assert "No LLM configured" not in r.stdout
