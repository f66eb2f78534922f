"""`heybro run` at the command line, and the settings it hands the browser's host."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from heybro import config


def test_heybro_run_with_no_llm_stops_at_once_and_says_how(tmp_path: Path) -> None:
    """A fresh account: no config file, no HEYBRO_* or OPENAI_* variables. The real command
    exits with 2 before starting any browser and tells how to point it at a model."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HEYBRO_", "OPENAI_", "XDG_"))}
    env["HOME"] = str(tmp_path)
    started = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "heybro.cli", "run", "Buy a kettle",
                        "--url", "http://127.0.0.1:9/"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stdout == ""  # no "Started Chromium …": it stopped first
    assert time.monotonic() - started < 20
    err = r.stderr
    assert err.startswith("heybro run: No LLM is configured.")
    assert "heybro config --model gpt-4o-mini --api-key" in err
    assert "heybro config --base-url http://localhost:11434/v1 --model qwen2.5:7b" in err
    assert "vLLM / LM Studio / OpenRouter" in err
    assert f"saved in {tmp_path}/.config/heybro/config.json" in err
    assert "HEYBRO_LLM_BASE_URL" in err and not list(tmp_path.rglob("heybro-run-*"))


def test_settings_handed_over_are_checked_without_echoing_the_key() -> None:
    good = config.from_dict({"base_url": "http://127.0.0.1:1/v1", "model": "m",
                             "api_key": "sk-secret-1", "limits": {"max_steps": 5}})
    assert good.configured and good.limits.max_steps == 5
    with pytest.raises(config.ConfigError) as info:
        config.from_dict({"api_key": "sk-secret-1", "tool_mode": "bogus", "model": "m"})
    assert "tool_mode: Input should be 'auto', 'native' or 'json'" in str(info.value)
    assert "sk-secret-1" not in str(info.value)


def test_a_lock_naming_a_gone_or_reused_pid_is_stale_and_cleared(tmp_path: Path) -> None:
    """A killed Chromium's lock names a pid that is gone, or that the system gave to another
    program since: the profile is free, and what the dead browser left is removed."""
    import socket

    from heybro.cli_run import claim_profile
    other = subprocess.Popen(["sleep", "30"])  # a live process that is no Chromium
    try:
        for pid in (other.pid, 2 ** 22 + 7):
            (tmp_path / "DevToolsActivePort").write_text("35797\n/devtools/browser/x\n")
            os.symlink(f"{socket.gethostname()}-{pid}", tmp_path / "SingletonLock")
            claim_profile(tmp_path)
            assert not (tmp_path / "DevToolsActivePort").exists()
            assert not (tmp_path / "SingletonLock").is_symlink()
    finally:
        other.kill()
        other.wait()
