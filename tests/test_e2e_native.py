"""The foundation end to end: side panel → coordinator → native host → back, in real Chromium."""

from __future__ import annotations

import os
import re
import signal

import pytest
from playwright.sync_api import expect

from support.browser import ExtBrowser, host_pids, launch

pytestmark = pytest.mark.browser


def test_ping_round_trip_from_side_panel(ext: ExtBrowser) -> None:
    panel = ext.open_panel()
    expect(panel.locator("#host-pill")).to_have_text("Host connected")
    panel.click("#ping")
    result = panel.locator("#ping-result")
    expect(result).to_have_text(re.compile(r"Round trip [\d.]+ ms \(host pid \d+\)"))
    pid = int(re.search(r"pid (\d+)", result.inner_text()).group(1))  # type: ignore[union-attr]
    # The pid the panel shows is a live host process started by this browser for this profile.
    assert pid in host_pids(ext.home)
    log = (ext.home / "logs" / "host.log").read_text()
    assert '"event": "hello"' in log


def test_host_killed_comes_back(ext: ExtBrowser) -> None:
    panel = ext.open_panel()
    expect(panel.locator("#host-pill")).to_have_text("Host connected")
    panel.click("#ping")
    expect(panel.locator("#ping-result")).to_contain_text("Round trip")
    [old_pid] = host_pids(ext.home)
    os.kill(old_pid, signal.SIGKILL)
    # The coordinator notices, says so, and starts a new host with backoff.
    expect(panel.locator("#host-pill")).to_have_text("Host connected", timeout=15_000)
    panel.click("#ping")
    expect(panel.locator("#ping-result")).to_contain_text("Round trip")
    new_pid = int(re.search(r"pid (\d+)", panel.locator("#ping-result").inner_text()).group(1))  # type: ignore[union-attr]
    assert new_pid != old_pid
    assert new_pid in host_pids(ext.home)
    history = ext.sw.evaluate("globalThis.heybro.statusLog.map(s => s.state)")
    assert "disconnected" in history


def test_host_not_installed_is_explained_then_fixed() -> None:
    with launch(install_host=False) as eb:
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host not installed")
        banner = panel.locator("#host-banner")
        expect(banner).to_be_visible()
        expect(banner.locator("[data-field=fix]")).to_have_text("heybro install")
        eb.install_host()  # what the banner told the user to do
        # The coordinator's own backoff retry may find the host first and hide the banner
        # mid-click, so press "Try again" the way a script would: it must be harmless either way.
        panel.evaluate("document.getElementById('reconnect').click()")
        expect(panel.locator("#host-pill")).to_have_text("Host connected")
        expect(banner).to_be_hidden()


def _register_fake_host(eb: ExtBrowser, script: str) -> None:
    """Points the profile's host manifest at a misbehaving stand-in host."""
    import json
    import sys
    from pathlib import Path

    launcher = eb.home / f"{script}.sh"
    launcher.parent.mkdir(parents=True, exist_ok=True)
    target = Path(__file__).parent / "support" / "fake_hosts" / f"{script}.py"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} {target}\n")
    launcher.chmod(0o755)
    hosts = eb.user_data_dir / "NativeMessagingHosts"
    hosts.mkdir(exist_ok=True)
    (hosts / "com.heybro.host.json").write_text(json.dumps({
        "name": "com.heybro.host", "description": "fake", "path": str(launcher), "type": "stdio",
        "allowed_origins": [f"chrome-extension://{eb.ext_id}/"]}))


def test_host_writing_garbage_is_reported_not_responding() -> None:
    with launch(install_host=False) as eb:
        _register_fake_host(eb, "garbage_host")
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host not responding")
        expect(panel.locator("#host-banner [data-field=message]")).to_contain_text(
            "not a native-messaging frame")
        expect(panel.locator("#host-banner [data-field=fix]")).to_have_text("heybro doctor")
        # The real host, once installed, replaces it and the panel recovers on its own retry.
        eb.install_host()
        expect(panel.locator("#host-pill")).to_have_text("Host connected", timeout=20_000)


def test_outdated_host_is_reported_with_the_update_command() -> None:
    with launch(install_host=False) as eb:
        _register_fake_host(eb, "old_host")
        panel = eb.open_panel()
        expect(panel.locator("#host-pill")).to_have_text("Host version mismatch")
        expect(panel.locator("#host-banner [data-field=fix]")).to_contain_text("pip install -U heybro")
        # No pointless retry loop: an outdated host cannot fix itself.
        panel.wait_for_timeout(1500)
        states = eb.sw.evaluate("globalThis.heybro.statusLog.map(s => s.state)")
        assert states.count("connecting") == 1
