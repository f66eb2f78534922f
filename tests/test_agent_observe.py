"""The host observes the page once per worker step, and reads it again when it may have moved on."""

from __future__ import annotations

import asyncio
from typing import Any

from support.fake_browser import shop

from heybro.agent import page as page_mod
from heybro.agent.env import AgentEnv
from heybro.agent.models import Task
from heybro.agent.recorder import MemoryRecorder
from heybro.config import Settings


def test_snapshot_is_reused_within_a_step_and_read_again_after_actions_or_when_old() -> None:
    browser = shop()
    browser.url = "http://shop/"
    env = AgentEnv(task=Task(description="Buy the blue kettle", url=browser.url), llm=None,  # type: ignore[arg-type]
                   settings=Settings(), browser=browser, recorder=MemoryRecorder())

    def observes() -> int:
        return sum(1 for tool, _ in browser.calls if tool == "observe")

    async def main() -> list[Any]:
        first = await env.page.observe()
        again = await env.page.observe()  # the next prompt right after: no second round trip
        assert again is first and observes() == 1
        await env.calls.call("fill", {"element_id": "e1", "value": "kettle"})
        env.page.changed()  # the worker acted
        after = await env.page.observe()
        assert observes() == 2 and 'value="kettle"' in after.text
        env.state.snapshot_at -= page_mod.SNAPSHOT_MAX_AGE_S + 1  # a slow model: the page may have moved on
        await env.page.observe()
        return [observes()]

    assert asyncio.run(main()) == [3]
