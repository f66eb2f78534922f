"""Healing one step of a replay: the worker, given the step's intent, does that step only on the
page as it is now; what it did becomes the step's new form (signature, arguments) — kept by the
replay and written into the routine only once the whole run has verified.

The step's new form is what the worker did, as it recorded it: the model's own arguments (a secret
still its {{secret:NAME}}: its value reaches the page and nothing else) and the signature of the
element it chose, as the page map it acted on gave it — what the routine re-finds it by next time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..agent.env import AgentEnv
from ..agent.errors import GuardrailHit, ToolFailed
from ..agent.models import ExpectedOutcome
from ..agent.settle import on_page
from ..agent.toolbox import definition
from ..agent.worker import Worker
from ..llm import LLMError
from .model import PLACEHOLDER, Step

# Arguments that belong to one page's snapshot or one call, never to a stored step.
PER_CALL = frozenset({"element_id", "signature", "observe_after", "expect"})


@dataclass
class Healed:
    ok: bool
    why: str
    steps: list[Step] = field(default_factory=list)  # what replaces the step (ok only)
    model_calls: int = 0


def proves(expect: ExpectedOutcome) -> bool:
    """Whether the page meeting `expect` shows that the step happened: something it brings (an
    address, words, an element, a value). That something is gone proves nothing — a renamed
    button is gone too."""
    return any(c.kind in ("url", "text", "element", "value") for c in expect.clauses)


def templated(value: Any, values: dict[str, str]) -> Any:
    """`value` with each of `values` (the parameters the recorded step used) put back as its
    {{param:NAME}}, so the routine stays reusable with other values. Longer values first, so one
    inside another is not split."""
    if isinstance(value, str):
        for name, v in sorted(values.items(), key=lambda kv: -len(kv[1])):
            if v:
                value = value.replace(v, "{{param:" + name + "}}")
        return value
    if isinstance(value, dict):
        return {k: templated(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [templated(v, values) for v in value]
    return value


def assignment(routine: str, n: int, step: Step, target: str | None, args: dict[str, Any],
               why: str) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in args.items() if k not in PER_CALL)
    what = f"{step.tool}{' on ' + target if target else ''}{f' ({shown})' if shown else ''}"
    return (f"Do ONE step of the saved routine {routine!r} (step {n}) on the page as it is now: "
            f"{step.intent or what}. When it was recorded, the step was: {what}. Replaying it "
            f"failed: {why}. The steps before it are done and the next ones follow by themselves: "
            "do only this step (with the same values), then mark_done. If the page cannot do it, "
            "mark_done saying why.")


async def heal(env: AgentEnv, routine: str, n: int, step: Step, target: str | None,
               args: dict[str, Any], values: dict[str, str], why: str) -> Healed:
    """Runs the worker for step `n` only; the result says whether the page now shows what the
    step was for (its expectation, checked by the host), and the step's new form."""
    before = len(env.task.usage)
    worker = Worker(env, assignment(routine, n, step, target, args, why))
    try:  # a pause or the user's new words (Interrupted) go up to the replay
        await worker.run()
    except (GuardrailHit, LLMError, ToolFailed) as err:
        return Healed(False, f"the model could not do it: {err}",
                      model_calls=len(env.task.usage) - before)
    calls = len(env.task.usage) - before
    acted = [(tc.tool, tc.parameters, tc.signature) for tc in worker.done
             if tc.success and _in_place(tc.tool)]
    if step.expect is not None:
        env.page.changed()
        fact = await on_page(env, step.tool, step.expect, {}, None, await env.page.observe())
        if not fact.met:
            return Healed(False, f"after the model's turn the page does not show the step's "
                          f"outcome: {fact.detail}", model_calls=calls)
        if not acted and proves(step.expect):  # it had happened already (before a restart)
            return Healed(True, f"{fact.detail}", model_calls=calls)
    if not acted:
        return Healed(False, f"the model did nothing on the page ({worker.summary or 'no report'})",
                      model_calls=calls)
    named = set(PLACEHOLDER.findall(step.model_dump_json(include={"args"})))
    used = {k: v for k, v in values.items() if k in named}
    steps = []
    for i, (tool, given, signature) in enumerate(acted):
        kept = {k: v for k, v in given.items() if k not in PER_CALL}
        steps.append(Step(tool=tool, args=templated(kept, used), signature=signature,
                          expect=step.expect if i == len(acted) - 1 else None,
                          intent=step.intent, subtask=step.subtask,
                          url=step.url))
    return Healed(True, worker.summary or "healed", steps, calls)


def _in_place(name: str) -> bool:
    """Whether a worker's action can stand in for the step: one that acts on the page, in the
    step's own tab (what only reads, and moves to other tabs, are left out)."""
    tool = definition(name)
    return tool is not None and tool.acts_on_page and not tool.effects.changes_tab
