"""`heybro install`, `doctor` and `uninstall` as a user runs them, in a throwaway home."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from heybro.install import browsers
from heybro.native.identity import EXTENSION_ID, HOST_NAME, extension_id_from_manifest

ROOT = Path(__file__).resolve().parents[1]


def heybro(home: Path, *args: str, fake_home: Path | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEYBRO_", "XDG_"))}
    env["HEYBRO_HOME"] = str(home)
    if fake_home:
        env["HOME"] = str(fake_home)
    return subprocess.run([sys.executable, "-m", "heybro.cli", *args], env=env, input=stdin,
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
    # Given on the command line, everyone sees it in `ps`: said. Kept out of argv, it is not.
    assert "visible to every user of this machine" in r.stderr


def test_the_key_is_read_from_a_pipe_or_a_file_never_needing_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "config" / "config.json"
    r = heybro(tmp_path, "config", "--model", "m", "--api-key", stdin="sk-from-a-pipe\n")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert json.loads(path.read_text())["api_key"] == "sk-from-a-pipe"
    keyfile = tmp_path / "key.txt"
    keyfile.write_text("sk-from-a-file\n")
    r = heybro(tmp_path, "config", "--api-key-file", str(keyfile))
    assert r.returncode == 0 and json.loads(path.read_text())["api_key"] == "sk-from-a-file"
    assert "sk-from" not in r.stdout + r.stderr


# --- doctor tests the host the way Chrome starts it ---------------------------------------------


def _installed(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A configured install into a profile: (HEYBRO_HOME, profile, launcher)."""
    home, udd = tmp_path / "home", tmp_path / "profile"
    assert heybro(home, "install", "--user-data-dir", str(udd)).returncode == 0
    heybro(home, "config", "--model", "m", "--api-key", "k")
    manifest = json.loads((udd / "NativeMessagingHosts" / f"{HOST_NAME}.json").read_text())
    return home, udd, Path(manifest["path"])


def _doctor_with_launcher(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """Doctor's report on an install whose registered launcher is a shell script running `body`."""
    home, udd, launcher = _installed(tmp_path)
    launcher.write_text("#!/bin/sh\n" + body + "\n")
    launcher.chmod(0o755)
    return heybro(home, "doctor", "--user-data-dir", str(udd))


def test_doctor_warns_about_a_browser_without_the_host(tmp_path: Path) -> None:
    fake_home = tmp_path / "user"
    (fake_home / ".config" / "google-chrome").mkdir(parents=True)
    heybro(tmp_path / "home", "install", "--browser", "chrome", fake_home=fake_home)
    heybro(tmp_path / "home", "config", "--model", "m", "--api-key", "k")
    (fake_home / ".config" / "BraveSoftware" / "Brave-Browser").mkdir(parents=True)  # Brave, later
    r = heybro(tmp_path / "home", "doctor", fake_home=fake_home)
    assert "[warn] Brave is installed" in r.stdout and "not registered with it" in r.stdout
    assert "fix: run `heybro install --browser brave`" in r.stdout
    assert r.returncode == 0  # Chrome works: a warning, not a failure
    heybro(tmp_path / "home", "install", "--browser", "brave", fake_home=fake_home)
    r = heybro(tmp_path / "home", "doctor", fake_home=fake_home)
    assert "Brave is installed" not in r.stdout and "Brave: host manifest OK" in r.stdout


def test_doctor_fails_when_no_registered_launcher_can_start_the_host(tmp_path: Path) -> None:
    home, udd, launcher = _installed(tmp_path)
    launcher.unlink()
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert r.returncode == 1
    assert "host starts and answers a ping" not in r.stdout
    assert f"the registered launcher {launcher} does not exist" in r.stdout
    heybro(home, "uninstall", "--user-data-dir", str(udd))
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert r.returncode == 1 and "host starts and answers a ping" not in r.stdout
    assert "no browser's host manifest names a launcher" in r.stdout


def test_doctor_runs_the_launcher_the_manifest_names(tmp_path: Path) -> None:
    # A launcher that is not the host at all: doctor must not ping some other Python instead.
    r = _doctor_with_launcher(tmp_path, "exit 3")
    assert r.returncode == 1 and "host starts and answers a ping" not in r.stdout
    assert "it exited with code 3" in r.stdout


def test_doctor_recognises_text_on_the_hosts_stdout(tmp_path: Path) -> None:
    r = _doctor_with_launcher(tmp_path, 'echo "Starting up... debug output"\nsleep 30')
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "the host printed text on stdout: 'Starting up... debug output'" in r.stdout
    assert "stdout, which must carry frames only" in r.stdout


@pytest.mark.parametrize("frame, said", [
    (r"\005\000\000\000hello", "the host wrote a frame that is not JSON: b'hello'"),
    (r"\002\000\000\000[]", "the host wrote a frame that is not a message"),
    (r"\000\000\100\000", "announced a 4194304-byte frame, over Chrome's 1048576-byte limit"),
])
def test_doctor_explains_a_frame_chrome_would_refuse(tmp_path: Path, frame: str, said: str) -> None:
    r = _doctor_with_launcher(tmp_path, f"printf '{frame}'\nsleep 30")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert said in r.stdout


def test_doctor_shows_why_the_launchers_python_cannot_run_the_host(tmp_path: Path) -> None:
    bare = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    r = _doctor_with_launcher(tmp_path, f'exec {bare}/bin/python -m heybro.native "$@"')
    assert r.returncode == 1
    assert "its last words on stderr" in r.stdout and "No module named heybro" in r.stdout.replace("'", "")
    assert "the launcher's Python does not have heybro installed" in r.stdout


# --- extension ids: the manifest, the launcher and the host agree --------------------------------

FORK = "abcdefghijklmnopabcdefghijklmnop"


def test_install_with_an_extra_extension_id_lets_that_extension_start_the_host(tmp_path: Path) -> None:
    from heybro.native.client import HostProcess

    home, udd = tmp_path / "home", tmp_path / "profile"
    r = heybro(home, "install", "--user-data-dir", str(udd), "--extension-id", FORK)
    assert r.returncode == 0, r.stderr
    manifest = json.loads((udd / "NativeMessagingHosts" / f"{HOST_NAME}.json").read_text())
    assert manifest["allowed_origins"] == [f"chrome-extension://{EXTENSION_ID}/",
                                           f"chrome-extension://{FORK}/"]
    # Chrome runs the manifest's path with the caller's origin, in its own environment.
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEYBRO_")}
    for ext in (FORK, EXTENSION_ID):
        with HostProcess([manifest["path"]], origin=f"chrome-extension://{ext}/", env=env) as h:
            assert h.hello()["type"] == "hello_ok"
    with HostProcess([manifest["path"]], origin="chrome-extension://" + "b" * 32 + "/", env=env) as h:
        assert h.close() == 2  # and nobody else
    heybro(home, "config", "--model", "m", "--api-key", "k")
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert r.returncode == 0, r.stdout
    assert f"answers a ping for chrome-extension://{FORK}/" in r.stdout
    # `heybro run` rewrites the launcher: the recorded id survives.
    from heybro.install.registration import read_launcher
    assert read_launcher(Path(manifest["path"])).extension_ids == [EXTENSION_ID, FORK]


def test_doctor_catches_a_manifest_that_allows_an_id_the_host_refuses(tmp_path: Path) -> None:
    home, udd = tmp_path / "home", tmp_path / "profile"
    heybro(home, "install", "--user-data-dir", str(udd), "--extension-id", FORK)
    heybro(home, "config", "--model", "m", "--api-key", "k")
    target = udd / "NativeMessagingHosts" / f"{HOST_NAME}.json"
    saved = target.read_text()
    heybro(home, "install", "--user-data-dir", str(udd))  # the launcher now allows the built-in id only
    target.write_text(saved)  # … but the profile keeps a manifest listing the fork
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert r.returncode == 1
    assert f"lists chrome-extension://{FORK}/, which the host refuses" in r.stdout
    assert f"fix: run `heybro install --user-data-dir {udd.resolve()} --extension-id {FORK}`" in r.stdout
    assert "refusing caller" in r.stdout  # the host itself, started for the fork, says no


def test_a_malformed_extension_id_is_refused(tmp_path: Path) -> None:
    r = heybro(tmp_path, "install", "--user-data-dir", str(tmp_path / "p"), "--extension-id", "xyz")
    assert r.returncode == 2 and "not an extension id: xyz" in r.stderr


# --- the log folder -------------------------------------------------------------------------------


def test_doctor_says_the_host_logs_to_stderr_when_the_log_folder_is_unusable(tmp_path: Path) -> None:
    home, udd, _ = _installed(tmp_path)
    logs = home / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.write_text("a file where the log folder should be")
    r = heybro(home, "doctor", "--user-data-dir", str(udd))
    assert "[warn] log folder unusable" in r.stdout and "logs to stderr" in r.stdout
    assert "move away any file of that name" in r.stdout
    assert "host starts and answers a ping" in r.stdout  # the host itself still works
    assert "[warn] the host cannot write its log file and logs to stderr" in r.stdout
    assert r.returncode == 0


# --- Windows (simulated) ---------------------------------------------------------------------------


def test_windows_install_and_uninstall_print_the_registry_commands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from heybro import cli

    local = tmp_path / "AppData" / "Local"
    for folder in ("Microsoft/Edge/User Data", "BraveSoftware/Brave-Browser/User Data"):
        (local / folder).mkdir(parents=True)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(local))
    monkeypatch.delenv("HEYBRO_HOME", raising=False)
    assert cli.main(["install"]) == 0
    out = capsys.readouterr().out
    manifest = local / "heybro" / "data" / f"{HOST_NAME}.json"
    assert json.loads(manifest.read_text())["path"].endswith("heybro-host.bat")
    edge = f'REG ADD "HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\{HOST_NAME}" /ve /t REG_SZ /d "{manifest}" /f'
    brave = f'REG ADD "HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\{HOST_NAME}"'
    assert edge in out and brave in out
    assert "Google\\Chrome" not in out  # not installed on this machine
    launcher = local / "heybro" / "data" / "bin" / "heybro-host.bat"
    assert f'"{sys.executable}" -m heybro.native %*' in launcher.read_text()
    assert cli.main(["uninstall"]) == 0
    out = capsys.readouterr().out
    assert not manifest.exists() and not launcher.exists()
    for key in ("Google\\Chrome", "Chromium", "Microsoft\\Edge", "BraveSoftware\\Brave-Browser"):
        assert f'REG DELETE "HKCU\\Software\\{key}\\NativeMessagingHosts\\{HOST_NAME}" /f' in out


def test_snap_chromium_is_called_out_by_install_and_doctor(tmp_path: Path) -> None:
    fake_home = tmp_path / "user"
    (fake_home / "snap" / "chromium" / "common" / "chromium").mkdir(parents=True)
    (fake_home / ".config" / "google-chrome").mkdir(parents=True)
    r = heybro(tmp_path / "home", "install", fake_home=fake_home)
    assert "Chromium here is a snap" in r.stdout and "cannot start native-messaging hosts" in r.stdout
    r = heybro(tmp_path / "home", "doctor", fake_home=fake_home)
    assert "[warn] Chromium is installed as a snap" in r.stdout
