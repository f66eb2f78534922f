"""OutsideRun: an outside agent's page calls run as a heybro task, one at a time, through the
worker's own act path (Worker.execute): the step budget, the user's confirmation of a risky action,
the record, the call through its definition's wire (re-finding, trusted input, the site and tab
rules), the expectation checked on the page. No model is asked: the outside agent decides.

What a call may reach is heybro's to decide, never the caller's: the task starts with no tab (the
user's active tab is never taken for a first look); `navigate`/`new_tab` open the task's own tab,
or the user hands one over in the panel. A risky action is asked of the user in the panel; the
caller hears what they said. The user pauses or stops the task in the panel: a call that arrives
while it is paused is not run, and says so.
"""

from __future__ import annotations

from pydantic import ValidationError

from shared_schema.outside import OutsideActed
from shared_schema import dom_tools as dom
from shared_schema.page_text import neutral

from ..agent.env import AgentEnv
from ..agent.errors import BrowserLost, GuardrailHit, Interrupted, TaskStopped, ToolFailed
from ..agent.model_run import open_task_page
from ..agent.models import ExecutionCycle, Iteration, ProposedToolCall, ResumeNote, RoleResult, \
    TaskStatus, ToolCall
from ..tool_def import Args, RoleTool
from ..agent.steps import Done
from ..agent.toolbox import ROLE_TOOLS, SWITCH_TAB
from ..agent.validation import ReplyInvalid, pydantic_errors, validate_reply
from ..agent.worker import Worker
from .inbox import Call, Inbox

IDLE_S = 600.0  # an agent silent this long ends its task (one task runs at a time)
POLL_S = 0.25  # how often an idle task looks for the user's pause or stop
# Calls refused before they reached the page (recorded as a warning, not as an action).
NOT_RUN = {"no_tab", "unknown_tool", "invalid_arguments", "user_said", "paused", "not_run"}
NO_TAB = ("This task has no tab yet: navigate(url) opens one of its own, or the user hands one "
          "over in heybro's panel. heybro never takes the tab the user is looking at by itself.")


class Observe(Args):
    tab_id: int | None = None


# The page map, as heybro's worker reads it: the declared observe (its name, words and effects),
# with which of the task's tabs to read.
OBSERVE = RoleTool(dom.OBSERVE.name, Observe, dom.OBSERVE.doc, "local", dom.OBSERVE.effects)


def offered() -> dict[str, RoleTool]:
    """The worker's tools an outside agent may call: those that reach the browser through a wire
    (file upload excepted: an outside agent's task is given no files of the user's)."""
    return {t.name: t for t in ROLE_TOOLS["worker"]
            if t.wire is not None and "resource_name" not in t.args.model_fields}


class OutsideRun:
    """An outside agent's run (agent.executor.Run): its calls, one at a time, until it stops
    calling or the user ends the task."""

    def __init__(self, env: AgentEnv, inbox: Inbox | None = None,
                 idle_s: float | None = None) -> None:
        self.env = env
        self.task = env.task
        self.inbox = inbox or Inbox()
        self.idle_s = IDLE_S if idle_s is None else idle_s
        self.worker = Worker(env, env.task.description)
        self.worker.run_kind = "outside"  # (the caller hears a no as its call's answer)
        self.tools = offered()
        self.client = neutral(env.task.outside or "An outside agent")[:120]
        self.idle = False

    async def opening(self) -> None:
        await self.env.services.recorder.message(self.task, (
            f"{self.client} (an outside agent, through heybro mcp) is acting in your browser: "
            "each of its actions shows here, and heybro asks you before a risky one. Pause or "
            "Stop it here at any time."))
        await open_task_page(self.env)

    async def steps(self, resume: ResumeNote | None = None) -> Done:
        if resume is not None:  # the agent's connection went with the host that ran the task
            self.inbox.close()
            return Done("ended: the outside agent's connection ended with the heybro host that ran "
                        "it; its next call opens a new task")
        await self.env.life.set_status(TaskStatus.executing)
        cycle = self.task.new_cycle(self.task.description)
        cycle.worker = RoleResult(role="worker")
        try:
            while (call := await self._next()) is not None:
                try:
                    acted = await self._run(call, cycle)
                except BaseException as err:
                    call.answer(self._refused(*_why_ended(err)))
                    raise
                if acted.error_code in NOT_RUN:  # the record says so too (it never reached the page)
                    await self.env.services.recorder.message(self.task, f"{self.client}'s {call.tool} "
                                                             f"was not run: {acted.error}", "warning")
                call.answer(acted)
        finally:
            self.inbox.close()
            self.inbox.refuse_waiting(self._refused("ended", "The task ended before this call "
                                                    "ran."))
        if self.idle:
            return Done(f"{self.client} sent nothing for {self.idle_s / 60:.0f} min: its task ends "
                        "here (its next call opens a new one).")
        return Done(f"{self.client} finished acting.")

    async def _next(self) -> Call | None:
        """The agent's next call; waiting for it counts as neither running time nor idle failure
        (the clock stops), but a pause or stop from the panel takes effect meanwhile."""
        env, control, waited = self.env, self.env.services.control, 0.0
        while True:
            await env.life.checkpoint(interrupt=False)
            if control.on_hold:
                control.on_hold()
            try:
                return await self.inbox.next(POLL_S)
            except TimeoutError:
                waited += POLL_S
                control.paused_s += POLL_S  # not the task's running time (its wall-clock limit)
                if waited >= self.idle_s:
                    self.idle = True
                    return None
            finally:
                if control.on_release:
                    control.on_release()

    def _refused(self, code: str, text: str) -> OutsideActed:
        return OutsideActed(success=False, status=self.task.status.value, error=text,
                            error_code=code)

    async def _run(self, call: Call, cycle: ExecutionCycle) -> OutsideActed:
        env = self.env
        if (said := env.services.control.take_messages()):
            # The user's word comes first: the call is not run, the caller hears it (as data).
            return self._refused("user_said", "Not run: the user wrote in heybro's panel: "
                                 + " / ".join(f'"{neutral(s)[:500]}"' for s in said)
                                 + ". Take it into account, then call again.")
        if call.tool == OBSERVE.name:
            return await self._observe(call)
        tool = self.tools.get(call.tool)
        if tool is None:
            return self._refused("unknown_tool", f"heybro has no page tool {call.tool!r}; its "
                                 f"tools: {OBSERVE.name}, {', '.join(self.tools)}.")
        opens = tool.kind == "tab" and "url" in tool.args.model_fields  # the task's own new tab
        if not self._has_tab() and not opens:
            return self._refused("no_tab", NO_TAB)
        if tool.kind == "browser" and env.state.snapshot is None:
            await env.page.observe()  # element ids are the page map's: there must be one
        proposed = ProposedToolCall(tool=call.tool, parameters=call.parameters,
                                    reason=f"called by {self.client}")
        try:
            args = validate_reply([proposed], [tool], element_ids=self.worker.element_ids(),
                                  resources=(), max_batch=1, transition_last_ok=False)
        except ReplyInvalid as err:
            return self._refused("invalid_arguments", str(err).replace(
                "Your reply was not executed: ", "Not run: "))
        iteration = Iteration(role="worker", reasoning=f"{self.client} called {call.tool}")
        try:
            await self.worker.execute(iteration, [proposed], args)
        except Interrupted:
            return self._refused("paused", "Not run: the user paused this task in heybro's panel "
                                 "meanwhile. Look at the page again (observe) before going on.")
        finally:
            cycle.worker.iterations.append(iteration)  # type: ignore[union-attr]
            await env.services.recorder.iteration(self.task, iteration)
        if not iteration.tool_calls:
            return self._refused("not_run", "Not run.")
        return self._acted(iteration.tool_calls[-1])

    def _has_tab(self) -> bool:
        """Whether the task has a tab to act in (taking one the user handed over, if need be)."""
        env = self.env
        if env.state.tab_id is None and env.task.tabs:  # handed over by the user in the panel
            env.state.tab_id = env.task.tabs[-1]
        return env.state.tab_id is not None

    def _acted(self, tc: ToolCall) -> OutsideActed:
        e, snap = tc.expectation, self.env.state.snapshot
        notes, self.worker.warnings = list(self.worker.warnings), []
        return OutsideActed(
            success=bool(tc.success), status=self.task.status.value, target=tc.target,
            result=tc.result if isinstance(tc.result, dict) else None, error=tc.error,
            error_code=tc.error_code, decided=tc.decided, page_changed=tc.page_changed,
            checked=f"expected {'met' if e.met else 'NOT met'} ({e.detail})" if e else None,
            url=snap.url if snap is not None else None, notes=notes)

    async def _observe(self, call: Call) -> OutsideActed:
        env = self.env
        try:
            args = Observe.model_validate(call.parameters)
        except ValidationError as err:
            return self._refused("invalid_arguments", f"Not run: {pydantic_errors(err)}")
        if args.tab_id is not None and args.tab_id != env.state.tab_id:
            switched = await self._run(Call(SWITCH_TAB.name, {"tab_id": args.tab_id}),
                                       self.task.execution_history[-1])
            if not switched.success:
                return switched
        if not self._has_tab():
            return self._refused("no_tab", NO_TAB)
        tc = ToolCall(tool=OBSERVE.name, parameters=call.parameters, read_only=True,
                      reason=f"called by {self.client}")
        await env.services.recorder.tool_call(self.task, "worker", tc)
        try:
            env.page.changed()
            snap = await env.page.observe()
        except ToolFailed as err:
            tc.success, tc.error, tc.error_code = False, env.state.secrets.scrub(err.message), err.code
            await env.services.recorder.tool_result(self.task, "worker", tc)
            return self._refused(err.code, tc.error)
        tc.success, tc.url = True, snap.url or None
        await env.services.recorder.tool_result(self.task, "worker", tc)
        return OutsideActed(success=True, status=self.task.status.value, url=snap.url,
                            page=env.state.secrets.scrub(snap.page_section()))


def _why_ended(err: BaseException) -> tuple[str, str]:
    """The words a call that ended its task hears."""
    if isinstance(err, TaskStopped):
        return "stopped", f"Not done: the user stopped this task in heybro's panel ({err})."
    if isinstance(err, GuardrailHit):
        return "guardrail", f"The task ended at one of heybro's limits ({err.limit}): {err}"
    if isinstance(err, BrowserLost):
        return "host_unavailable", f"The browser side went away: {err}. The action may or may " \
            "not have happened; the task is paused."
    return "internal", f"The task ended: {type(err).__name__}: {err}"


__all__ = ["OBSERVE", "Observe", "OutsideRun", "offered"]
