"""The keyboard shortcut, pressed for real on a virtual display, opens the side panel."""

from __future__ import annotations

import pytest

from support.browser import launch
from support.display import press_keys, virtual_display

pytestmark = pytest.mark.browser


def side_panel_targets(eb, page) -> list[str]:  # type: ignore[no-untyped-def]
    session = eb.ctx.new_cdp_session(page)
    targets = session.send("Target.getTargets")["targetInfos"]
    session.detach()
    return [t["url"] for t in targets if t["url"].endswith("/extension/panel/panel.html")]


def test_ctrl_shift_y_opens_the_side_panel() -> None:
    with virtual_display() as display, launch(headless=False, env_extra={"DISPLAY": display}) as eb:
        page = eb.ctx.pages[0] if eb.ctx.pages else eb.ctx.new_page()
        page.goto("about:blank")
        page.bring_to_front()
        assert side_panel_targets(eb, page) == []
        press_keys(display, "ctrl+shift+y")
        for _ in range(50):
            if side_panel_targets(eb, page):
                break
            page.wait_for_timeout(100)
        assert side_panel_targets(eb, page), "the side panel did not open"
