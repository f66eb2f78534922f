"""A subtask proven by the host: the done_when the scheduler declared, checked on the page the
worker left — after each batch of its actions, so a subtask the page already shows done goes on
without another model call (to the next subtask; the task's last one to the verifier, which judges
the whole goal there), and again before the verifier would be asked. Never while a check of this
cycle does not hold or the user has said something new."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .facts import share_met
from .models import ExpectationCheck
from .settle import Checking, on_page

if TYPE_CHECKING:
    from .models import Task
    from .run_state import Services


class Proving(Checking, Protocol):
    """What proving reads: the task's current subtask, whether the user said something new, the
    cycle's facts, and the page (settle.Checking)."""

    @property
    def task(self) -> Task: ...

    @property
    def services(self) -> Services: ...


def others_hold(env: Checking) -> bool:
    """Whether every other check of this cycle holds at its latest reading (the done_when's own
    earlier readings do not count: the page may show it now)."""
    held = share_met(f for f in env.state.facts if f.tool != "done_when")
    return held is None or held >= 1.0


async def prove(env: Proving, *, last: bool = False, read_anyway: bool = False) -> ExpectationCheck | None:
    """The current subtask's done_when checked on the page (kept among the cycle's facts), or
    None where the host does not prove this subtask. `last`: the task's last subtask too (its
    worker's turn may end there; the verifier still judges it). `read_anyway`: read it even while
    another check does not hold (before a verdict: its latest reading is the page now)."""
    task = env.task
    step = task.current_step
    if (step is None or step.role != "worker" or step.done_when is None
            or (task.on_last_subtask and not last)
            or env.services.control.has_messages or not (read_anyway or others_hold(env))):
        return None
    fact = await on_page(env, "done_when", step.done_when, {}, None, await env.page.observe())
    fact.about = f"done_when of subtask {task.current_subtask_index + 1}"
    env.state.facts.append(fact)
    return fact
