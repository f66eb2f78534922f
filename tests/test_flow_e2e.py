"""Information-flow control in the real extension, host and Chromium: the goal's data typed into
the site the user started on goes without a question; the same data typed into another site's
frame inside that page is asked about (the page agent judges the frame by its own origin), and a
no leaves the frame's field empty — the frame's own page says so."""

from __future__ import annotations

import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from support.browser import launch
from support.scripted_llm import ScriptedLLM, call, find_id
from support.static_server import serve

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "flow"
ORDER = "48213-X"


def test_the_goals_data_goes_to_the_site_started_on_but_not_unasked_into_another_sites_frame() -> None:
    script: dict[str, list[Any]] = {
        "scheduler": [call("set_subtasks", subtasks=["Track the order"]), call("start_work")],
        "worker": [lambda b: call("fill", element_id=find_id(b, 'textbox "Order number"'), value=ORDER),
                   lambda b: call("fill", element_id=find_id(b, 'textbox "Reference"'), value=f"order {ORDER}"),
                   call("mark_done", summary="Typed")],
        "verifier": [call("mark_complete", reason="done", confidence=0.9)],
    }
    with ExitStack() as stack:
        shop = stack.enter_context(serve(FIXTURES))
        partner = stack.enter_context(serve(FIXTURES))
        llm = stack.enter_context(ScriptedLLM(script, default={"worker": call("mark_done", summary="x")}))
        eb = stack.enter_context(launch(env_extra=llm.env()))
        page = eb.ctx.new_page()
        page.goto(f"{shop}/shop.html?partner={partner}")
        frame = page.frame_locator("#partner")
        expect(frame.locator("#ref")).to_be_visible()
        panel = eb.open_panel()
        page.bring_to_front()
        panel.fill("#goal", f"Track my order {ORDER}")
        panel.click("#send")
        question = panel.locator("#question")
        expect(question).to_contain_text(f'Send the number "{ORDER}" from your request to '
                                          f'{partner.split("://")[1]}?', timeout=60_000)
        assert page.input_value("#order") == ORDER  # the shop got it, unasked
        question.get_by_role("button", name="No").click()
        expect(panel.locator("#task-status")).to_have_text(re.compile("Completed|Failed|Stopped"), timeout=60_000)
        assert page.frame_locator("#partner").locator("#ref").input_value() == ""
        assert len(panel.locator("#question").all()) <= 1
