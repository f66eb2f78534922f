"""The browser heybro starts for itself shows pages at a desktop's size (1280×800 unless the
`window_size` setting says otherwise), with a window or without: at a phone's width applications
fold their menus and lay their navigation over the content."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from support.browser import test_env as base_env

from heybro import config
from heybro.cli_run import PANEL_URL, LaunchedChromium, desktop_size


def test_the_default_is_a_desktop_and_a_setting_changes_it(tmp_path: Path) -> None:
    empty = tmp_path / "none.json"
    assert desktop_size() == (1280, 800) or os.environ.get("HEYBRO_WINDOW_SIZE")
    assert config.load(env={}, file=empty).window_size == "1280x800"
    assert config.load(env={"HEYBRO_WINDOW_SIZE": "1440x900"}, file=empty).window_size == "1440x900"
    with pytest.raises(config.ConfigError):
        config.load(env={"HEYBRO_WINDOW_SIZE": "wide"}, file=empty)


async def _viewport(profile: Path) -> tuple[int, int]:
    from websockets.asyncio.client import connect

    port, path = (profile / "DevToolsActivePort").read_text().split()[:2]
    async with connect(f"ws://127.0.0.1:{port}{path}", max_size=None) as cdp:
        await cdp.send(json.dumps({"id": 1, "method": "Target.getTargets"}))
        targets = json.loads(await cdp.recv())["result"]["targetInfos"]
        panel = next(t["targetId"] for t in targets if t["url"].startswith(PANEL_URL))
        await cdp.send(json.dumps({"id": 2, "method": "Target.attachToTarget",
                                   "params": {"targetId": panel, "flatten": True}}))
        while (reply := json.loads(await cdp.recv())).get("id") != 2:
            pass
        await cdp.send(json.dumps({"id": 3, "method": "Runtime.evaluate", "sessionId":
                                   reply["result"]["sessionId"], "params": {
                                       "expression": "[innerWidth, innerHeight]",
                                       "returnByValue": True}}))
        while (reply := json.loads(await cdp.recv())).get("id") != 3:
            pass
        width, height = reply["result"]["result"]["value"]
        return width, height


@pytest.mark.browser
@pytest.mark.parametrize("headless", [True, False])
def test_pages_are_laid_out_at_a_desktop_size_headless_or_not(
        headless: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    xvfb = None
    if not headless and not os.environ.get("DISPLAY"):
        if not shutil.which("Xvfb"):
            pytest.skip("no display and no Xvfb")
        xvfb = subprocess.Popen(["Xvfb", ":97", "-screen", "0", "1920x1200x24"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        monkeypatch.setenv("DISPLAY", ":97")
    for k, v in base_env(tmp_path / "home").items():
        monkeypatch.setenv(k, v)
    chromium = LaunchedChromium(tmp_path / "profile", headless=headless)
    try:
        asyncio.run(chromium.endpoint())
        assert asyncio.run(_viewport(chromium.profile)) == (1280, 800)
    finally:
        chromium.close()
        if xvfb:
            xvfb.terminate()
            xvfb.wait(5)
