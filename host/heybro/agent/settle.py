"""An action's expectation checked on the page once it has settled: read at once, and where a
clause does not hold yet and the page may still come to show it (a dialog closing, a transition,
an update the action started), waited for within a short bound and read again — so a check
never cries wolf over a page still on its way. The answer says when it was read."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from .browser import Snapshot
from .browser_tools import OBSERVE
from .errors import ToolFailed
from .expect import check, wait_args
from .models import ExpectationCheck, ExpectedOutcome
from .toolbox import WAIT_FOR, definition

if TYPE_CHECKING:
    from .env import AgentEnv

SETTLE_MS = 2_000  # how long a clause that did not hold yet may take to come
WHOLE_PAGE_TOKENS = 200_000  # a check reads the whole page, not the part a prompt has room for


def left_out(snap: Snapshot) -> bool:
    """Whether the page map left elements or text out for length (a prompt's budget)."""
    counts = getattr(snap, "counts", None)
    return isinstance(counts, dict) and bool(counts.get("omitted") or counts.get("text_blocks_omitted"))


async def on_page(env: AgentEnv, tool: str, expect: ExpectedOutcome, params: dict[str, Any],
                  result: Any, snap: Snapshot) -> ExpectationCheck:
    """`expect` checked on `snap`, and on the whole page where the map left something out and
    that could change the answer: a clause not found, or one found gone (it may only be out of
    the prompt's room)."""
    chooses = (d := definition(tool)) is not None and d.effects.chooses
    fact = check(tool, expect, params, result, snap, chooses=chooses)
    maybe_wrong = any(not p.met or p.clause.startswith("no ") for p in fact.parts)
    if maybe_wrong and expect.needs_page() and left_out(snap):
        fact = check(tool, expect, params, result, await whole(env, snap), chooses=chooses)
    return fact


async def whole(env: AgentEnv, snap: Snapshot) -> Snapshot:
    """The page to check text and elements against: `snap` when it holds all of it, else the
    whole page read once more for the check alone (the prompt keeps its budgeted map) — what a
    prompt had no room for is still on the page."""
    if not left_out(snap):
        return snap
    try:
        raw = await env.call(OBSERVE, {"max_tokens": WHOLE_PAGE_TOKENS})
    except ToolFailed:
        return snap
    return Snapshot.model_validate(env.scrub(raw))


async def checked(env: AgentEnv, tool: str, expect: ExpectedOutcome, params: dict[str, Any],
                  result: Any, observation: dict[str, Any] | None, *, about: str,
                  since: float, settle_ms: int = SETTLE_MS) -> tuple[ExpectationCheck, Snapshot | None]:
    """`expect` of the action `about`, sent at `since` (perf_counter), checked on the page it
    left (`observation`, when the action brought it back), settled; the fact is kept among the
    cycle's facts. Returns it, and the page it read (None: it needed none)."""
    after, read = env.state.snapshot, None
    if expect.needs_page():
        env.page_changed()
        after = read = await (env.adopt_observation(observation) if observation is not None
                          else env.observe())
    fact = await on_page(env, tool, expect, params, result, after or Snapshot())
    if not fact.met and (wait := wait_args(expect, fact, settle_ms)) is not None:
        try:
            await env.call(WAIT_FOR.name, wait, timeout_ms=settle_ms + 5_000)
        except ToolFailed:
            pass  # still not so: read again all the same (another clause may have come meanwhile)
        env.page_changed()
        # The action's own report is the page as it left it: its address is not read again.
        later = {k: v for k, v in result.items() if k != "url"} if isinstance(result, dict) else result
        read = await env.observe()
        fact = await on_page(env, tool, expect, params, later, read)
    fact.about = about
    fact.read_ms = round((time.perf_counter() - since) * 1000)
    env.state.facts.append(fact)
    return fact, read
