"""An action's expectation checked on the page once it has settled: read at once; where a clause
holds that did not before the action (a text come, a row gone), read again once the page has
settled (its DOM still, its requests answered: a list that is only reloading has not lost its row);
and where a clause does not hold yet and the page may still come to show it (a dialog closing, a
transition, an update the action started), waited for within a short bound and read again — so a
check neither cries wolf over a page still on its way nor calls a page half-drawn done. The answer
says when it was read."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from .browser import Snapshot
from .browser_tools import OBSERVE
from .errors import ToolFailed
from .expect import check, wait_args
from .models import PAGE_KINDS, ExpectationCheck, ExpectedOutcome
from .toolbox import WAIT_FOR

if TYPE_CHECKING:
    from .calls import BrowserCalls
    from .page import Page
    from .run_state import RunState

SETTLE_MS = 2_000  # how long a clause that did not hold yet may take to come
QUIET_MS = 250  # how long the page stays still (and its requests answered) to count as settled
QUIET_MAX_MS = 1_500  # … waited for at most
WHOLE_PAGE_TOKENS = 200_000  # a check reads the whole page, not the part a prompt has room for


class Checking(Protocol):
    """What a check reads the page with: the page as the run reads it, the browser (for the whole
    page and a wait), the state the fact is kept in."""

    @property
    def state(self) -> RunState: ...

    @property
    def page(self) -> Page: ...

    @property
    def calls(self) -> BrowserCalls: ...


def left_out(snap: Snapshot) -> bool:
    """Whether the page map left elements or text out for length (a prompt's budget)."""
    counts = getattr(snap, "counts", None)
    return isinstance(counts, dict) and bool(counts.get("omitted") or counts.get("text_blocks_omitted"))


async def on_page(env: Checking, tool: str, expect: ExpectedOutcome, params: dict[str, Any],
                  result: Any, snap: Snapshot, before: Snapshot | None = None) -> ExpectationCheck:
    """`expect` checked on `snap`, and on the whole page where the map left something out and
    that could change the answer: a clause not found, or one found gone (it may only be out of
    the prompt's room). `before`: the page the action was proposed on (expect.check)."""
    fact = check(tool, expect, params, result, snap, before=before)
    maybe_wrong = any(not p.met or p.clause.startswith("no ") for p in fact.parts)
    if maybe_wrong and expect.needs_page() and left_out(snap):
        fact = check(tool, expect, params, result, await whole(env, snap), before=before)
    return fact


def came_true(fact: ExpectationCheck) -> bool:
    """Whether a clause read on the page holds that did not before the action: what only a settled
    page may confirm."""
    return any(p.met and not p.before and p.clause.split(":", 1)[0] in PAGE_KINDS for p in fact.parts)


async def whole(env: Checking, snap: Snapshot) -> Snapshot:
    """The page to check text and elements against: `snap` when it holds all of it, else the
    whole page read once more for the check alone (the prompt keeps its budgeted map) — what a
    prompt had no room for is still on the page."""
    if not left_out(snap):
        return snap
    try:
        raw = await env.calls.call(OBSERVE, {"max_tokens": WHOLE_PAGE_TOKENS})
    except ToolFailed:
        return snap
    return Snapshot.model_validate(env.state.secrets.scrub(raw))


async def checked(env: Checking, tool: str, expect: ExpectedOutcome, params: dict[str, Any],
                  result: Any, observation: dict[str, Any] | None, *, about: str,
                  since: float, settle_ms: int = SETTLE_MS,
                  before: Snapshot | None = None) -> tuple[ExpectationCheck, Snapshot | None]:
    """`expect` of the action `about`, sent at `since` (perf_counter), checked on the page it
    left (`observation`, when the action brought it back), settled; the fact is kept among the
    cycle's facts. `before`: the page the action was proposed on. Returns the fact, and the page
    it read (None: it needed none)."""
    after, read = env.state.snapshot, None
    if expect.needs_page():
        env.page.changed()
        after = read = await (env.page.adopt(observation) if observation is not None
                          else env.page.observe())
    fact = await on_page(env, tool, expect, params, result, after or Snapshot(), before)
    if expect.needs_page() and came_true(fact):
        try:  # (a page that never goes still is read as it is at the bound)
            await env.calls.call(WAIT_FOR.name, {"quiet_ms": QUIET_MS, "seconds": QUIET_MAX_MS / 1000},
                                 timeout_ms=QUIET_MAX_MS + 5_000)
        except ToolFailed:
            pass
        env.page.changed()
        read = await env.page.observe()
        fact = await on_page(env, tool, expect, params, _later(result), read, before)
    if not fact.met and (wait := wait_args(expect, fact, settle_ms / 1000)) is not None:
        try:
            await env.calls.call(WAIT_FOR.name, wait, timeout_ms=settle_ms + 5_000)
        except ToolFailed:
            pass  # still not so: read again all the same (another clause may have come meanwhile)
        env.page.changed()
        read = await env.page.observe()
        fact = await on_page(env, tool, expect, params, _later(result), read, before)
    fact.about = about
    fact.read_ms = round((time.perf_counter() - since) * 1000)
    env.state.facts.append(fact)
    return fact, read


def _later(result: Any) -> Any:
    """The action's report for a later reading: the page as it left it, its address read again
    from the page (an address the page moved on to counts)."""
    return {k: v for k, v in result.items() if k != "url"} if isinstance(result, dict) else result
