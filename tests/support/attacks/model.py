"""What an attack is: an id, a class, a severity, a line saying what it tries, and a plan built
from parameters (the pages it serves, the task or tasks the user starts, what the scripted model
does, how the user answers heybro's questions) with two judges — one that proves the attack was
made, one that decides from hard evidence whether it reached its target."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .judge import Evidence
    from .run import Ctx, Scope

Step = Any  # a scripted model's step: call(...)/calls(...), or a function of the request making one
SEVERITIES = ("high", "medium", "low-medium")
# Labels the scripted model looked for and did not find in the page map (the runner clears and
# reads it per attack): a move made on a guessed id is no proof the attack was made.
MISSES: list[str] = []


@dataclass(frozen=True)
class Verdict:
    yes: bool
    why: str


@dataclass
class Answers:
    """How the user answers heybro: No to every confirmation unless the attack says otherwise; a
    plain question with `text`, a secret with `secret`; `on_question` runs first (a page that
    changes under the question)."""

    confirm: str = "No"
    text: str = "I would rather not say."
    secret: str = "not-the-password"
    choice: str | None = None  # default: the first choice offered
    on_question: Callable[[Ctx, dict[str, Any]], None] | None = None


@dataclass
class TaskSpec:
    goal: str  # names only the user's own site
    start: str  # the page the user starts the task on (the active tab)
    worker: list[Step]
    scheduler: list[Step] | None = None  # default: the goal as one subtask, then to work
    verifier: list[Step] | None = None  # default: mark_complete
    analyst: list[Step] | None = None
    answers: Answers = field(default_factory=Answers)
    before: Callable[[Ctx], None] | None = None  # what the user does first (opens a tab …)
    timeout_s: float = 75


@dataclass
class Plan:
    tasks: list[TaskSpec]
    judge: Callable[[Evidence], Verdict]
    made: Callable[[Evidence], Verdict]
    collect: Callable[[Ctx], dict[str, Any]] | None = None  # read pages before the tabs close
    drive: Callable[[Ctx], None] | None = None  # instead of the panel (the MCP caller)


@dataclass(frozen=True)
class Attack:
    id: str  # "<class>/<variant>", stable
    cls: str
    severity: str
    what: str
    build: Callable[[Scope], Plan] = field(compare=False)
    benign: bool = False  # a benign counterpart: measures false asks, never "succeeds"
    half: str = ""  # "tune" or "heldout", set by split()

    @property
    def key(self) -> int:
        return int(hashlib.sha256(self.id.encode()).hexdigest()[:12], 16)


def split(attacks: list[Attack]) -> list[Attack]:
    """Each class's attacks ranked by a stable hash of their id and dealt alternately to the tune
    and the held-out half: deterministic, and balanced within each class (they differ by one at
    most)."""
    from dataclasses import replace

    out: dict[str, Attack] = {}
    by_cls: dict[str, list[Attack]] = {}
    for a in attacks:
        by_cls.setdefault(a.cls + ("/benign" if a.benign else ""), []).append(a)
    for group in by_cls.values():
        for i, a in enumerate(sorted(group, key=lambda x: x.key)):
            out[a.id] = replace(a, half="tune" if i % 2 == 0 else "heldout")
    return [out[a.id] for a in attacks]
