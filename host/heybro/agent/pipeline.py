"""The act pipeline: one call, from a validated proposal to its recorded result, whoever proposed
it — the worker's model, a desk role, a routine's replay, an outside agent (through the worker).
Each call goes the same way:

  hold (a reply held through a pause is not carried out) → guard (the step budget; a call a fault
  cut off is not repeated by itself) → record → run (a local handler, a host tool, or the browser
  through the tool's wire — where sinks.py and the site rules ask the user, gate.py) → what came
  back (the page it left, the user's word) → its expectation checked on the settled page → whether
  it did anything at all → the recorded result → the guard on failures in a row.

What differs between runs is a parameter, not a copy: who runs it (`RunKind`: what a "no" means,
gate.after_no), how its element is aimed (an id of this page's map, or a routine's recorded
signature: `Aim`), how long its expectation may take to come."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from shared_schema.dom_tools import ObserveArgs

from ..tool_def import RoleTool
from .act import changed_page, guard, hold, no_effect
from .browser import Snapshot
from .errors import BrowserLost, GuardrailHit, HeldReplySetAside, ToolFailed
from .facts import of_wait
from .gate import RunKind, after_no
from .local_tools import TaskEnv
from .models import ExpectedOutcome, ProposedToolCall, RoleName, ToolCall
from .run_state import Aim, RunState, Services
from .settle import SETTLE_MS, Checking, checked
from .toolbox import WaitFor

if TYPE_CHECKING:
    from .calls import BrowserCalls
    from .host_calls import HostCalls
    from .lifecycle import Lifecycle

PAGE_RESULT_CHARS = 600  # what the record keeps of each part of a page action's result
LOCAL_RESULT_CHARS = 4000  # … of a reading or host tool's (recall_history, list_tabs, fetch)


@dataclass
class Acted:
    """A call carried out (or refused): its record, and what it left for the rest of the batch."""
    tc: ToolCall
    changed: bool  # it left the page it acted on (another address, a dialog)
    observation: dict[str, Any] | None  # the page as the action brought it back (not yet taken)
    read: Snapshot | None  # the page as read for its expectation (the latest, when not None)
    warning: str | None  # the loop detector's word for the model, if any


def new_call(snap: Snapshot | None, tool: RoleTool | None, call: ProposedToolCall,
             aim: Aim | None = None) -> ToolCall:
    """The record of a call as it starts: its target and signature as the page map `snap` named
    them (or as the routine recorded them)."""
    eid, to = call.parameters.get("element_id"), call.parameters.get("to_element_id")
    sig = snap.elements.get(eid) if snap is not None and isinstance(eid, str) else None
    to_sig = snap.elements.get(to) if snap is not None and isinstance(to, str) else None
    return ToolCall(tool=call.tool, parameters=call.parameters, reason=call.reason,
                    timestamp=time.time(), read_only=tool is not None and tool.effects.read_only,
                    transition=tool is not None and tool.kind == "transition",
                    target=aim.target if aim is not None else snap.describe(eid) if snap else None,
                    signature=aim.signature if aim is not None else sig if isinstance(sig, dict) else None,
                    to_signature=to_sig if isinstance(to_sig, dict) else None,
                    url=snap.url or None if snap is not None else None)


class Acting(TaskEnv, Checking, Protocol):
    """What a call's way through the pipeline uses of the run (env.AgentEnv provides it): what a
    local handler is handed (local_tools.TaskEnv: the task, services, state, the browser, the
    user), what a check reads (settle.Checking: the page), the run's safe points (`life`: hold)
    and the host tools (`host`)."""

    @property
    def services(self) -> Services: ...

    @property
    def state(self) -> RunState: ...

    @property
    def calls(self) -> BrowserCalls: ...

    @property
    def life(self) -> Lifecycle: ...

    @property
    def host(self) -> HostCalls: ...


class Caller(Protocol):
    """Who runs calls through the pipeline: the role whose name the record carries, with the
    run's parts it acts with; a local tool's handler is handed it (local_tools.LocalContext)."""

    @property
    def name(self) -> RoleName: ...

    @property
    def env(self) -> Acting: ...


class Pipeline:
    """Runs calls for one caller (`ctx`: the role whose name the record carries and whose
    handlers get it), with its tools, for a kind of run."""

    def __init__(self, ctx: Caller, tools: Mapping[str, RoleTool], run: RunKind) -> None:
        self.ctx = ctx
        self.env: Acting = ctx.env
        self.tools = tools
        self.run = run

    async def act(self, call: ProposedToolCall, a: BaseModel, *, left: Sequence[Any] = (),
                  want_page: bool = False, aim: Aim | None = None,
                  expect: ExpectedOutcome | None = None, settle_ms: int = SETTLE_MS) -> Acted:
        """Carries out `call` (its arguments `a`, validated); `left`: it and the calls after it
        (set aside together when a pause overtakes them); `want_page`: the page comes back with
        the action (the batch's last, or one that may change it); `expect`: what it must show,
        when not among its arguments (a routine's recorded outcome of the step)."""
        env, tool = self.env, self.tools[call.tool]
        try:
            await hold(env.life, left or [call])
        except HeldReplySetAside:
            if self.run != "replay":
                raise  # (a replay holds no reply: its step is aimed at the page as it is now)
        on_page = tool.acts_on_page
        snap = env.state.snapshot
        state = snap.fingerprint if snap else ""
        target = aim.target if aim is not None else (
            snap.describe(call.parameters.get("element_id")) if snap and on_page else None)
        guard(env.task, tool, call.parameters, target)
        tc = new_call(env.state.snapshot, tool, call, aim)
        await env.services.recorder.tool_call(env.task, self.ctx.name, tc)
        expect = expect or getattr(a, "expect", None)
        want_page = tool.kind == "browser" and (want_page or tool.effects.may_navigate
                                                or (expect is not None and expect.needs_page()))
        observation: dict[str, Any] | None = None
        started = time.perf_counter()
        try:
            result, changed = await self._run(tool, call, a, want_page, aim)
            if isinstance(result, dict) and isinstance(result.get("observation"), dict):
                observation = result.pop("observation")
            if isinstance(result, dict) and isinstance(result.get("decided"), str):
                tc.decided = result.pop("decided")  # the user's word (gate.py)
            tc.success, tc.page_changed = True, changed
            tc.result = compact(env.state.secrets.scrub(result), PAGE_RESULT_CHARS if on_page else LOCAL_RESULT_CHARS)
            if on_page or tool.kind == "host":
                env.state.consecutive_failures = 0
        except BrowserLost as err:
            err.what = f"{tc.tool} on {tc.target}" if tc.target else tc.tool
            if not err.sent:  # never left: recorded as not done, not as cut off
                tc.success, tc.error, tc.error_code = False, str(err), "host_unavailable"
                await self._recorded(tc, time.perf_counter() - started)
            raise
        except ToolFailed as err:
            changed = False
            tc.success, tc.error, tc.error_code = False, env.state.secrets.scrub(err.message), err.code
            if isinstance(err.detail.get("decided"), str):  # the user said no (gate.py)
                tc.decided = err.detail["decided"]
            if err.detail.get("candidates"):
                tc.result = {"candidates": err.detail["candidates"]}
            env.state.consecutive_failures += 1
        took = time.perf_counter() - started
        read = await self._check(tc, a, expect, observation, started, snap, settle_ms)
        if read is not None:  # the page now: the action's own reading of it superseded
            observation = None
        if tc.success:
            tc.no_effect = no_effect(tool, tc.result, snap, call.parameters.get("element_id"),
                                     read or (Snapshot.model_validate(env.state.secrets.scrub(observation))
                                              if observation is not None else None))
        await self._recorded(tc, took)
        after_no(self.run, tc.error_code, f"{tc.tool} on {tc.target}" if tc.target else tc.tool)
        if tc.success is False and env.state.consecutive_failures >= env.services.settings.limits.max_failures:
            raise GuardrailHit("consecutive_failures", f"{env.state.consecutive_failures} actions "
                               f"failed in a row; last: {call.tool}: {tc.error}")
        warning = env.state.loops.observe_action(call.tool, call.parameters, state, changed) \
            if on_page else None
        return Acted(tc, changed, observation, read, warning)

    async def _run(self, tool: RoleTool, call: ProposedToolCall, a: BaseModel, want_page: bool,
                   aim: Aim | None) -> tuple[Any, bool]:
        """Runs one call as its definition says: a host tool, a local handler, or the browser
        through the tool's wire. Returns its result and whether the page changed."""
        env = self.env
        if tool.kind == "host":  # calculate, fetch, the user's MCP tools …: output, or ToolFailed
            return {"output": await env.host.call(call.tool, call.parameters)}, False
        before = env.state.snapshot.url if env.state.snapshot else ""
        env.state.aim = aim  # (a wire call of this call's aims by the recorded signature)
        try:
            if (run := tool.local_run) is not None:
                return await run(a, self.ctx), False
            assert tool.wire is not None, f"{tool.name} has neither a handler nor a wire"
            after = (ObserveArgs.model_validate(env.page.observe_args())
                     if want_page and "observe_after" in tool.wire.model.model_fields else None)
            result = await env.calls.call_wire(tool.wire, a, observe_after=after)
        finally:
            env.state.aim = None
        if tool.kind != "browser":  # tab tools: where the task now is
            if isinstance(result.get("tab_id"), int):
                env.state.tab_id = result["tab_id"]
            return result, tool.effects.ends_batch
        return result, changed_page(result, before)

    async def _check(self, tc: ToolCall, a: BaseModel, expect: Any,
                     observation: dict[str, Any] | None, started: float,
                     proposed_on: Snapshot | None, settle_ms: int) -> Snapshot | None:
        """The call's expectation, checked now against the page it left once settled (a later
        action of the batch must not hide what this one did or did not change); a wait's finding
        is a fact of its own. Returns the page read for it, if any."""
        env = self.env
        if expect is not None and tc.success:
            tc.expectation, read = await checked(
                env, tc.tool, expect, tc.parameters, tc.result, observation,
                about=f"{tc.tool} {tc.target}" if tc.target else tc.tool, since=started,
                before=proposed_on, settle_ms=settle_ms)
            return read
        if isinstance(a, WaitFor) and (fact := of_wait(a, tc.target, tc.result, tc.error)):
            env.state.facts.append(fact)  # what the wait found supersedes an earlier check
        return None

    async def _recorded(self, tc: ToolCall, took_s: float) -> None:
        tc.duration_ms = took_s * 1000
        await self.env.services.recorder.tool_result(self.env.task, self.ctx.name, tc)


def compact(result: Any, limit: int) -> Any:
    """A result as the record keeps it: each part within `limit` characters (a list: as many whole
    items as fit), the page's own bulk (images, text, elements) left out."""
    if not isinstance(result, dict):
        return result
    out = {}
    for k, v in result.items():
        if k in ("data_url", "data_base64", "text", "elements"):
            continue
        s = repr(v)
        if len(s) <= limit:
            out[k] = v
        elif isinstance(v, list):  # as many whole items as fit (e.g. list_tabs' tabs)
            kept, size = [], 0
            for item in v:
                size += len(repr(item))
                if size > limit:
                    break
                kept.append(item)
            out[k], out[f"{k}_omitted"] = kept, len(v) - len(kept)
        else:
            out[k] = s[:limit] + "…"
    return out
