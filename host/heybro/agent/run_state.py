"""What one task's run holds: the services it works with and does not own (`Services`), what it
learns as it goes and loses with it (`RunState`), and the task's ledger of values and sites kept
current with its memory (`task_ledger`). Plain data: the run's parts (lifecycle.py, user.py,
calls.py, page.py, host_calls.py) share these three references, and env.py puts them together."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..config import Settings
from ..flow.ledger import Ledger, sites_in
from .browser import Browser, Snapshot
from .control import RunControl
from .experience import Experiences
from .guardrails import LoopDetector
from .held_secrets import HeldSecrets
from .models import ExpectationCheck, Task
from .recorder import Recorder

if TYPE_CHECKING:
    from ..llm.client import LLMClient
    from ..tools import HostTools, ToolContext


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
    overhead_ms: list[float] = field(default_factory=list)  # the host's time between a reply and the next call
    # The user's secret answers (one-time codes, passwords): only in memory (held_secrets.py).
    secrets: HeldSecrets = field(default_factory=HeldSecrets)
    approved_effects: set[str] = field(default_factory=set)  # presses the user said yes to (digests)
    sites_approved: set[str] = field(default_factory=set)  # ask-first sites the user said yes to
    sites_told: set[str] = field(default_factory=set)  # never-sites the user was told of
    # Where the task's values came from and what went where (heybro/flow): made from the task
    # when first needed, then kept current with what the user says and the task keeps.
    ledger: Ledger | None = None
    absorbed: set[int] = field(default_factory=set)  # memory items the ledger has taken in


def task_ledger(task: Task, state: RunState) -> Ledger:
    """The task's ledger of values and sites (heybro/flow), current with its memory: the user's
    messages, the tabs they handed over and what the task kept."""
    if state.ledger is None:
        state.ledger = Ledger()
        state.ledger.chosen(task.url)
        state.ledger.chosen(task.start_page)
        state.ledger.said(task.description)
    for m in task.memory:
        if id(m) in state.absorbed:
            continue
        state.absorbed.add(id(m))
        if m.name.startswith("handed_tab_"):
            for site in sites_in(m.value):
                state.ledger.chosen("http://" + site)
        elif m.note and m.name != "agent_message":  # (another agent's words are not the user's)
            state.ledger.said(m.value)
        elif not m.note:
            state.ledger.kept(m.value, m.source_url)
    return state.ledger


class RunParts(Protocol):
    """The three references every part of a run shares (env.AgentEnv and each of its parts):
    what a phase takes when it reads the task, its services and its state and nothing more."""

    @property
    def task(self) -> Task: ...

    @property
    def services(self) -> Services: ...

    @property
    def state(self) -> RunState: ...


class StoppableLLM:
    """The task's LLM client, with every call cancelled when the task is stopped meanwhile."""

    def __init__(self, llm: Any, control: RunControl) -> None:
        self.inner = llm
        self.control = control

    async def complete(self, *args: Any, **kwargs: Any) -> Any:
        return await self.control.interruptible(self.inner.complete(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
