"""What every role of one task shares: the task, the LLM, the browser, the recorder, the limits."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from shared_schema.page_text import neutral
from shared_schema.sites import SiteGate, Verdict, refusal, site_of
from shared_schema.status import Pause

from ..config import Limits, Settings
from ..flow.ledger import Ledger, sites_in
from .browser import Browser, Snapshot
from . import gate, reach, sinks
from .browser_tools import OBSERVE, SCREENSHOT, send
from .control import RunControl
from .errors import GuardrailHit, HeldReplySetAside, NewInformation, ToolFailed
from .guardrails import LoopDetector
from .held_secrets import HeldSecrets, asks_for_secret, secret_kind, secret_name, secret_ref
from .experience import Experiences, MemoryExperiences
from .models import ExpectationCheck, MemoryItem, Question, RoleName, Task, TaskStatus
from .recorder import Recorder
from .wire import wire_json

if TYPE_CHECKING:
    from ..llm.client import LLMClient
    from ..tools import HostTools, ToolContext
    from ..tool_def import RoleTool, Wire


SNAPSHOT_MAX_AGE_S = 2.0


@dataclass
class Services:
    """What a run works with and does not own the state of: the model, the browser, the record,
    the user's settings and controls, what was learned on sites, the host tools."""
    llm: LLMClient
    settings: Settings
    browser: Browser
    recorder: Recorder
    control: RunControl
    experiences: Experiences
    host_tools: HostTools | None = None  # made when a role first asks for its tools
    tool_ctx: ToolContext | None = None


@dataclass(frozen=True)
class Aim:
    """A call aimed by an element's recorded signature (a routine's step) instead of an id of the
    current page map; `target`: the element in words, for the record."""
    signature: dict[str, Any] | None
    target: str | None


@dataclass
class RunState:
    """What this run learns as it goes and loses with it: the tab and page it is on, its counters,
    the host's facts of the cycle, the user's secrets and yeses."""
    loops: LoopDetector
    tab_id: int | None = None
    snapshot: Snapshot | None = None
    snapshot_fresh: bool = False
    snapshot_at: float = 0.0
    screenshot: str | None = None
    screenshot_missing: str | None = None  # why there is no screenshot this step (vision on)
    consecutive_failures: int = 0
    aim: Aim | None = None  # the call in progress is aimed by a recorded signature (replay)
    facts: list[ExpectationCheck] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    overhead_ms: list[float] = field(default_factory=list)
    # The user's secret answers (one-time codes, passwords): only in memory (held_secrets.py).
    secrets: HeldSecrets = field(default_factory=HeldSecrets)
    approved_effects: set[str] = field(default_factory=set)  # presses the user said yes to (digests)
    sites_approved: set[str] = field(default_factory=set)  # ask-first sites the user said yes to
    sites_told: set[str] = field(default_factory=set)  # never-sites the user was told of
    # Where the task's values came from and what went where (heybro/flow): made from the task
    # when first needed, then kept current with what the user says and the task keeps.
    ledger: Ledger | None = None
    absorbed: set[int] = field(default_factory=set)  # memory items the ledger has taken in


class AgentEnv:
    """What every role of one task shares: the task, its services and its run state, and what the
    roles do with them (observe, call the browser, ask the user, remember, learn)."""

    __slots__ = ("task", "services", "state")  # a service or a state set on the env by mistake fails

    def __init__(self, task: Task, llm: LLMClient, settings: Settings, browser: Browser,
                 recorder: Recorder, control: RunControl | None = None,
                 experiences: Experiences | None = None) -> None:
        control = control or RunControl()
        self.task = task
        self.services = Services(
            llm=llm if isinstance(llm, StoppableLLM) else StoppableLLM(llm, control),  # type: ignore[arg-type]
            settings=settings, browser=browser, recorder=recorder, control=control,
            experiences=experiences or MemoryExperiences())
        self.state = RunState(loops=LoopDetector(settings.limits), tab_id=task.tab_id)
        self.state.secrets.take_said(self.task)

    # --- the services, by name ------------------------------------------------------------------
    @property
    def llm(self) -> LLMClient:
        return self.services.llm

    @property
    def settings(self) -> Settings:
        return self.services.settings

    @property
    def browser(self) -> Browser:
        return self.services.browser

    @property
    def recorder(self) -> Recorder:
        return self.services.recorder

    @property
    def control(self) -> RunControl:
        return self.services.control

    @property
    def limits(self) -> Limits:
        return self.settings.limits

    @property
    def overhead_ms(self) -> list[float]:
        """The host's own time between a model reply and the next call (for the task's log)."""
        return self.state.overhead_ms

    @property
    def confirm_off(self) -> set[str]:
        """Sites where the user turned the ask-first for risky actions off."""
        return {s.strip().lower() for s in self.settings.confirm_off_sites}

    @property
    def running_s(self) -> float:
        """How long the task has run, pauses not counted (the wall-clock limit's measure)."""
        return time.monotonic() - self.state.started - self.control.paused_s

    async def set_status(self, status: TaskStatus, reason: str | None = None,
                         pause: Pause | None = None) -> None:
        """The task's status, recorded (the same status again says nothing without a reason);
        a pause says why (`pause`)."""
        if self.task.status == status and reason is None:
            return
        self.task.status = status
        await self.recorder.status_changed(self.task, status, reason, pause)

    async def checkpoint(self, *, holding: bool = False, interrupt: bool = True) -> None:
        """A safe point. Waits while paused; raises TaskStopped when stopped. With `interrupt`,
        raises NewInformation while a follow-up from the user waits for the scheduler; with
        `holding` (the worker about to carry out a model reply), raises HeldReplySetAside when it
        had to wait at a pause: a reply that arrived after the pause is never acted on."""
        waited = await self.control.checkpoint()
        self.state.secrets.take_said(self.task)
        if interrupt and self.control.has_messages:
            raise NewInformation("the user added information")
        if holding and waited:
            raise HeldReplySetAside("the task was paused while holding a model reply")
        if self.running_s > self.limits.task_timeout_s:
            raise GuardrailHit("task_timeout", f"The task ran longer than its limit of "
                               f"{self.limits.task_timeout_s:.0f} s.")

    async def call(self, tool: str, args: dict[str, Any], timeout_ms: int = 15_000) -> dict[str, Any]:
        """A browser tool in the task's tab, its arguments in wire form. What it may reach
        (reach.py, the site permissions) and what it may give whom (sinks.py) are decided here,
        before it leaves, and again when the page's agent stops it at its last look. A tool that
        only waits (Effects.interruptible) ends at a stop; an act runs to its end, so the record
        says whether it happened."""
        reach.check(self.task, tool, args)
        for v in reach.opened_sites(tool, args, self.site_gate):
            await self.site_permission(v)
        admitted = await sinks.admit(self, tool, args)
        wire = admitted.args
        for _ in range(4):  # (a yes to one site or press, and the page then asks for another)
            try:
                result = await send(self.browser, tool, wire, tab_id=self.state.tab_id,
                                    control=self.control, timeout_ms=timeout_ms, sites=self.site_gate)
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
        for f in result.get("downloads") or []:  # what the page downloaded: the task's files now
            if isinstance(f, dict) and isinstance(f.get("name"), str) and isinstance(f.get("path"), str):
                await self.add_resource(f["name"], f["path"], f"downloaded from {site_of(str(f.get('url') or '')) or 'the page'}")
        if admitted.decided:
            result = {**result, "decided": "; ".join(admitted.decided)}
        return result

    @property
    def ledger(self) -> Ledger:
        """The task's ledger of values and sites (heybro/flow), current with its memory: the user's
        messages, the tabs they handed over and what the task kept."""
        st = self.state
        if st.ledger is None:
            st.ledger = Ledger()
            st.ledger.chosen(self.task.url)
            st.ledger.chosen(self.task.start_page)
            st.ledger.said(self.task.description)
        for m in self.task.memory:
            if id(m) in st.absorbed:
                continue
            st.absorbed.add(id(m))
            if m.name.startswith("handed_tab_"):
                for site in sites_in(m.value):
                    st.ledger.chosen("http://" + site)
            elif m.note and m.name != "agent_message":  # (another agent's words are not the user's)
                st.ledger.said(m.value)
            elif not m.note:
                st.ledger.kept(m.value, m.source_url)
        return st.ledger

    @property
    def site_gate(self) -> SiteGate:
        """The user's per-site permissions with the ask-first sites they said yes to in this task."""
        return SiteGate(**self.settings.sites.model_dump(), approved=sorted(self.state.sites_approved))

    async def site_permission(self, v: Verdict, said: str | None = None) -> None:
        """A never-site: the user is told (once per site) and the call refused (with what the
        browser `said` of it, when it refused: a frame of the page, say). An ask-first site: the
        user is asked; a yes holds for the rest of the task, a no refuses the call."""
        if v.rule == "never":
            if v.site not in self.state.sites_told:
                self.state.sites_told.add(v.site)
                await self.recorder.message(self.task, f"heybro kept off {v.site}: {v.why}. To "
                                            "let it work there, allow the site in heybro's "
                                            "settings (Sites).", "warning")
            raise ToolFailed("not_allowed", said or refusal(v), v.model_dump())
        await gate.ask(self, gate.Approval(
            "site", f"The task wants to work on {v.site} ({v.why}). Let heybro work there for "
            "this task?", f"working on {v.site}", f"heybro asked to work on {v.site}"))
        self.state.sites_approved.add(v.site)

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

    async def observe(self) -> Snapshot:
        """A fresh page snapshot (and a screenshot when the model takes images).

        The snapshot taken right after the last actions (once the page settled) is reused for the
        next prompt, so a step observes once; it is read again when the agent acted since, or when
        it is older than SNAPSHOT_MAX_AGE_S (a slow model: the page may have moved on meanwhile).
        """
        if (self.state.snapshot is not None and self.state.snapshot_fresh
                and time.monotonic() - self.state.snapshot_at < SNAPSHOT_MAX_AGE_S):
            return self.state.snapshot
        try:
            raw = await self.call(OBSERVE, self.observe_args())
        except ToolFailed as err:
            raw = {"url": "", "title": "", "text": f"(the page could not be read: {err.code}: "
                   f"{err.message})", "elements": {}}
        return await self.adopt_observation(raw)

    def observe_args(self) -> dict[str, Any]:
        """What an action's `observe_after` asks for: the observe this env would make itself.
        With vision, the page's elements get their numbered boxes (the ids of the page map) for
        the screenshot that follows; the screenshot removes them once taken."""
        args: dict[str, Any] = {"max_tokens": self.settings.observe_tokens}
        if self.settings.vision:
            args["highlight"] = True
        return args

    async def adopt_observation(self, raw: dict[str, Any]) -> Snapshot:
        """Takes `raw` (an observe result, e.g. one an action brought back) as the fresh snapshot."""
        snap = self.state.snapshot = Snapshot.model_validate(self.state.secrets.scrub(raw))
        if snap.url:  # where to reopen the task if its tab is lost
            self.task.last_url = snap.url
            if self.task.start_page is None:  # the page the user started the task on
                self.task.start_page = self.task.url or snap.url
                self.ledger.chosen(self.task.start_page)
                self.state.secrets.sited(site_of(self.task.start_page))  # (said with no site)
            self.ledger.showed(snap.url, snap.text, snap.links())
        self.state.snapshot_fresh = True
        self.state.snapshot_at = time.monotonic()
        self.state.screenshot = None
        self.state.screenshot_missing = None
        if self.settings.vision:
            try:
                shot = await self.call(SCREENSHOT, {"clear_boxes": True})
                self.state.screenshot = shot.get("data_url")
            except ToolFailed as err:
                self.state.screenshot_missing = err.message
        return self.state.snapshot

    def page_changed(self) -> None:
        self.state.snapshot_fresh = False

    async def remember(self, name: str, value: str, source_url: str | None = None) -> MemoryItem:
        """Keeps a fact in the task's memory (a newer value replaces one of the same name)."""
        item = MemoryItem(name=name, value=value, source_url=source_url)
        self.task.memory = [m for m in self.task.memory if m.name != name] + [item]
        await self.recorder.memory(self.task, item)
        return item

    async def ask_user(self, question: Question) -> str:
        """Asks the user and waits (status `waiting`, the clock stopped) for the answer."""
        task, before = self.task, self.task.status
        task.question = question
        await self.recorder.question(task, question)
        await self.set_status(TaskStatus.waiting, f"{TaskStatus.waiting.meaning.label}: {question.text}")
        try:
            answer = await self.control.ask()
        finally:
            task.question = None
        self.page_changed()  # the user may have used the page meanwhile (a login, a CAPTCHA)
        await self.set_status(before, "answered")
        return answer

    async def ask(self, args: Any) -> dict[str, Any]:
        """The ask_user tool: the user's answer as the model sees it (a secret only by its name).
        A question that asks for a password, a code or a PIN is a secret question whatever kind
        the model gave it (its answer never reaches the model or the record); one asked after
        reading a page is shown with that page, and a secret is bound to its site."""
        kind = "secret" if args.kind == "secret" or asks_for_secret(str(args.question)) else args.kind
        page = self.state.snapshot.url if self.state.snapshot is not None else ""
        site = site_of(page or self.task.url or "")
        question = Question(text=args.question, kind=kind, choices=args.choices or [],
                            page=site or None)
        answer = await self.ask_user(question)
        # (the question is the model's words, which a page may have shaped: shown as data, short)
        asked = neutral(str(args.question))[:200]
        if kind == "secret":
            name = args.name if args.kind == "secret" else secret_name(str(args.question))
            self.state.secrets.keep(name, answer, site=site or None,
                                    kind=secret_kind(f"{name} {args.question}"))
            return {"answered": True, "use_as": secret_ref(name),
                    "decided": f'asked "{asked}"; the user gave it (never recorded)'
                               + (f"; heybro types it only on {site}" if site else "")}
        self.ledger.said(answer)
        return {"answer": answer, "decided": f'asked "{asked}"; the user answered "{answer}"'}

    def _host_tools(self) -> tuple[HostTools, ToolContext]:
        svc = self.services
        if svc.host_tools is None or svc.tool_ctx is None:
            from ..tools import HostTools, ToolContext  # loaded once a role needs them
            svc.host_tools = HostTools(self.settings.tools)
            svc.tool_ctx = ToolContext.for_task(self.task.id, self.settings.tools, self.task.resources)
        return svc.host_tools, svc.tool_ctx

    @property
    def workspace(self) -> Path | None:
        """The task's workspace folder, once a role has had host tools (None before)."""
        ctx = self.services.tool_ctx
        return ctx.workspace if ctx is not None else None

    async def host_tools_for(self, kind: str) -> list[RoleTool]:
        """The host tools the settings give a kind of worker (built-ins, the user's MCP tools)."""
        tools, ctx = self._host_tools()
        known = len(tools.problems)
        offered = await tools.for_role(kind, ctx)
        for problem in tools.problems[known:]:  # a server of the user's would not start
            await self.recorder.message(self.task, problem.for_model(), "warning")
        return offered

    async def call_host_tool(self, name: str, params: dict[str, Any]) -> str:
        """A host tool's output for the model; raises ToolFailed with its typed error. What its
        arguments carry out of this machine is weighed first (sinks.py)."""
        tools, ctx = self._host_tools()
        tool = tools.definition(name)
        await sinks.host_tool_may_send(self, name, tool.effects.sends if tool else None, params)
        # The tool's declaration says when a call needs the user's yes (a shell command off the
        # allow-list): asked before it runs, the yes given to that very call.
        if tool is not None and tool.asks is not None and (why := tool.asks(params, ctx)):
            shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
            await gate.ask(self, gate.Approval(
                "host_tool", f"May heybro run {name}({shown})? {why}.", f"{name}({shown})",
                f"heybro asked before running {name}"))
            ctx = dataclasses.replace(ctx, confirmed=True)
        outcome = await tools.call(name, params, ctx)
        if not outcome.ok:
            raise ToolFailed(outcome.code, self.state.secrets.scrub(outcome.message))
        data = outcome.data or {}
        if isinstance(data.get("file"), str) and isinstance(data.get("name"), str):  # a file it made
            await self.add_resource(data["name"], data["file"], f"written by {outcome.tool}")
        return str(self.state.secrets.scrub(outcome.for_model()))

    async def add_resource(self, name: str, path: str, how: str) -> None:
        """A file the task made (or the page gave it) becomes one of its resources, by `name`: the
        roles are given it (upload, read_file) and the user is told."""
        known = self.task.resources.get(name) == path
        self.task.resources[name] = path
        if not known:
            await self.recorder.message(self.task, f"The file {name!r} is now a resource of the "
                                        f"task ({how}): the page tools can upload it by that name.")

    async def close_tools(self) -> None:
        if self.services.host_tools is not None:
            await self.services.host_tools.aclose()

    async def give_answer(self, role: RoleName, text: str) -> None:
        """The answer to the user's question: kept with the task, shown first when it ends."""
        self.task.answer = text
        await self.recorder.answer(self.task, role, text)



class StoppableLLM:
    """The task's LLM client, with every call cancelled when the task is stopped meanwhile."""

    def __init__(self, llm: Any, control: RunControl) -> None:
        self.inner = llm
        self.control = control

    async def complete(self, *args: Any, **kwargs: Any) -> Any:
        return await self.control.interruptible(self.inner.complete(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
