"""A browser call of the run, whatever runs it: what it may reach (reach.py, the user's per-site
permissions) and what it may give whom (sinks.py) decided before it leaves and again when the
page's agent stops it at its last look; then sent (browser_tools.send), what it opened and
downloaded taken in. `call_wire` is a tool's call through its typed wire (wire.py), the model's
arguments converted, aimed by a recorded signature where a routine's step says so."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from shared_schema.sites import SiteGate, Verdict, refusal, site_of

from . import gate, reach, sinks, task_files
from .browser_tools import send
from .errors import ToolFailed
from .models import Task
from .run_state import RunState, Services
from .user import User
from .wire import wire_json

if TYPE_CHECKING:
    from ..tool_def import Wire


class BrowserCalls:
    """The run's one way to the browser (it is also the WireContext a conversion reads)."""

    __slots__ = ("task", "services", "state", "user")

    def __init__(self, task: Task, services: Services, state: RunState, user: User) -> None:
        self.task, self.services, self.state, self.user = task, services, state, user

    async def call(self, tool: str, args: dict[str, Any], timeout_ms: int = 15_000) -> dict[str, Any]:
        """A browser tool in the task's tab, its arguments in wire form. A tool that only waits
        (Effects.interruptible) ends at a stop; an act runs to its end, so the record says whether
        it happened."""
        reach.check(self.task, tool, args)
        for v in reach.opened_sites(tool, args, self.site_gate):
            await self.site_permission(v)
        admitted = await sinks.admit(self, tool, args)
        wire = admitted.args
        svc = self.services
        for _ in range(4):  # (a yes to one site or press, and the page then asks for another)
            try:
                result = await send(svc.browser, tool, wire, tab_id=self.state.tab_id,
                                    control=svc.control, timeout_ms=timeout_ms, sites=self.site_gate)
                break
            except ToolFailed as err:
                if (refused := reach.refused_site(err)) is not None:
                    await self.site_permission(refused, said=err.message)
                    continue
                if err.code == "needs_approval":
                    wire = await sinks.resolve(self, err, wire, admitted.decided)
                    continue
                raise
        else:
            raise ToolFailed("not_allowed", "The page kept changing what heybro was about to do, "
                             "or kept moving to sites that need the user's permission; stopped "
                             "asking.")
        sinks.sent(self, admitted)
        reach.learn(self.task, result)
        if result.get("downloads"):
            result = {**result, "downloads": await self.keep_downloads(result["downloads"])}
        if admitted.decided:
            result = {**result, "decided": "; ".join(admitted.decided)}
        return result

    async def call_wire(self, wire: Wire[Any, Any], a: Any,
                        observe_after: BaseModel | None = None) -> dict[str, Any]:
        """A tool's call through its wire: the model's arguments `a` converted (typed) into the
        browser's, with the page after it when `observe_after` asks."""
        w = wire.args(a, self)
        if (aim := self.state.aim) is not None and "element_id" in w.model_fields:
            # Aimed by the recorded signature alone: an id of this page's map could name
            # another element, so the page re-finds the element or says why it cannot.
            w = w.model_copy(update={"element_id": None, **({"signature": aim.signature}
                                                             if aim.signature is not None else {})})
        if observe_after is not None:
            w = w.model_copy(update={"observe_after": observe_after})
        return await self.call(wire.tool, wire_json(w), timeout_ms=wire.timeout(w))

    async def keep_downloads(self, downloads: list[Any]) -> list[dict[str, Any]]:
        """What the page downloaded: each file copied into the task's workspace (task_files.py,
        never opened) and a resource of the task by its kept name; as the record lists them."""
        from ..tools.tool import workspaces_dir  # (the host tools' package, loaded when needed)
        kept: list[dict[str, Any]] = []
        for f in downloads:
            if not (isinstance(f, dict) and isinstance(f.get("name"), str) and isinstance(f.get("path"), str)):
                continue
            try:
                path = await asyncio.to_thread(task_files.keep_download, workspaces_dir() / self.task.id,
                                               f["name"], Path(f["path"]), self.task.resources)
            except OSError as e:
                await self.services.recorder.message(self.task, f"heybro could not keep the file "
                                                     f"{f['name']!r} the page downloaded: {e}", "warning")
                continue
            await self.user.add_resource(path.name, str(path), f"downloaded from {site_of(str(f.get('url') or '')) or 'the page'}")
            kept.append({**f, "name": path.name, "path": str(path)})
        return kept

    @property
    def site_gate(self) -> SiteGate:
        """The user's per-site permissions with the ask-first sites they said yes to in this task."""
        return SiteGate(**self.services.settings.sites.model_dump(),
                        approved=sorted(self.state.sites_approved))

    async def site_permission(self, v: Verdict, said: str | None = None) -> None:
        """A never-site: the user is told (once per site) and the call refused (with what the
        browser `said` of it, when it refused: a frame of the page, say). An ask-first site: the
        user is asked; a yes holds for the rest of the task, a no refuses the call."""
        if v.rule == "never":
            if v.site not in self.state.sites_told:
                self.state.sites_told.add(v.site)
                await self.services.recorder.message(
                    self.task, f"heybro kept off {v.site}: {v.why}. To let it work there, allow "
                    "the site in heybro's settings (Sites).", "warning")
            raise ToolFailed("not_allowed", said or refusal(v), v.model_dump())
        await gate.ask(self.user, gate.Approval(
            "site", f"The task wants to work on {v.site} ({v.why}). Let heybro work there for "
            "this task?", f"working on {v.site}", f"heybro asked to work on {v.site}"))
        self.state.sites_approved.add(v.site)

    # --- WireContext: what a conversion to wire arguments reads ----------------------------------
    def signature(self, element_id: str | None) -> dict[str, Any] | None:
        """The element's signature on the current page (the browser re-finds it by it)."""
        snap = self.state.snapshot
        if not element_id or snap is None:
            return None
        sig = snap.elements.get(element_id)
        return sig if isinstance(sig, dict) else None

    def resource_path(self, name: str) -> str:
        return self.task.resources[name]
