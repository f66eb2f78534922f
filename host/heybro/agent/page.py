"""The page as the run reads it: a fresh snapshot (and a screenshot when the model takes images),
reused within a step, read again once the run acted or it grew old; an observation an action
brought back taken as the fresh one."""

from __future__ import annotations

import time
from typing import Any

from shared_schema.sites import site_of

from .browser import Snapshot
from .browser_tools import OBSERVE, SCREENSHOT
from .calls import BrowserCalls
from .errors import ToolFailed
from .models import Task
from .run_state import RunState, Services, task_ledger

SNAPSHOT_MAX_AGE_S = 2.0


class Page:
    """What every role and check reads of the page the task is on."""

    __slots__ = ("task", "services", "state", "calls")

    def __init__(self, task: Task, services: Services, state: RunState, calls: BrowserCalls) -> None:
        self.task, self.services, self.state, self.calls = task, services, state, calls

    async def observe(self) -> Snapshot:
        """A fresh page snapshot (and a screenshot when the model takes images).

        The snapshot taken right after the last actions (once the page settled) is reused for the
        next prompt, so a step observes once; it is read again when the agent acted since, or when
        it is older than SNAPSHOT_MAX_AGE_S (a slow model: the page may have moved on meanwhile).
        """
        st = self.state
        if (st.snapshot is not None and st.snapshot_fresh
                and time.monotonic() - st.snapshot_at < SNAPSHOT_MAX_AGE_S):
            return st.snapshot
        try:
            raw = await self.calls.call(OBSERVE, self.observe_args())
        except ToolFailed as err:
            raw = {"url": "", "title": "", "text": f"(the page could not be read: {err.code}: "
                   f"{err.message})", "elements": {}}
        return await self.adopt(raw)

    def observe_args(self) -> dict[str, Any]:
        """What an action's `observe_after` asks for: the observe this run would make itself.
        With vision, the page's elements get their numbered boxes (the ids of the page map) for
        the screenshot that follows; the screenshot removes them once taken."""
        settings = self.services.settings
        args: dict[str, Any] = {"max_tokens": settings.observe_tokens}
        if settings.vision:
            args["highlight"] = True
        return args

    async def adopt(self, raw: dict[str, Any]) -> Snapshot:
        """Takes `raw` (an observe result, e.g. one an action brought back) as the fresh snapshot."""
        st, task = self.state, self.task
        snap = st.snapshot = Snapshot.model_validate(st.secrets.scrub(raw))
        if snap.url:  # where to reopen the task if its tab is lost
            task.last_url = snap.url
            ledger = task_ledger(task, st)
            if task.start_page is None:  # the page the user started the task on
                task.start_page = task.url or snap.url
                ledger.chosen(task.start_page)
                st.secrets.sited(site_of(task.start_page))  # (said with no site)
            ledger.showed(snap.url, snap.text, snap.links())
        st.snapshot_fresh = True
        st.snapshot_at = time.monotonic()
        st.screenshot = None
        st.screenshot_missing = None
        if self.services.settings.vision:
            try:
                shot = await self.calls.call(SCREENSHOT, {"clear_boxes": True})
                st.screenshot = shot.get("data_url")
            except ToolFailed as err:
                st.screenshot_missing = err.message
        return snap

    def changed(self) -> None:
        """The run acted (or the user may have): the next read goes to the page."""
        self.state.snapshot_fresh = False
