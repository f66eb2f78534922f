"""The task's data model (seed 000): Task, ExecutionCycle, Iteration, ToolCall, ProposedToolCall."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from shared_schema.events import UsageData
from shared_schema.status import Decision, TaskStatus

RoleName = Literal["scheduler", "worker", "verifier", "analyst", "technician"]
# Who does a subtask (seed 004: roles by capability): the worker works the page, the analyst
# answers and computes from what was gathered without the page, the technician does system-side
# work with host tools only. Each is a role of RoleName, by the same name.
WorkKind = Literal["worker", "analyst", "technician"]
# A role's name before it had one name: read in records, routines and settings written then.
RENAMED_ROLES = {"operator": "worker"}


def role_named(value: Any) -> Any:
    return RENAMED_ROLES.get(value, value) if isinstance(value, str) else value


# A subtask's role as given (by the model, or a record written before the rename).
WorkKindGiven = Annotated[WorkKind, BeforeValidator(role_named)]


def now() -> float:
    return time.time()


class ProposedToolCall(BaseModel):
    """What the model proposes (also the JSON-mode reply schema's item)."""

    model_config = ConfigDict(extra="forbid")
    tool: str = Field(min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""


class ProposedReply(BaseModel):
    """The whole JSON-mode reply: reasoning plus one or more proposed tool calls."""

    model_config = ConfigDict(extra="forbid")
    reasoning: str = ""
    tool_calls: list[ProposedToolCall] = Field(min_length=1)


ClauseKind = Literal["url", "text", "no text", "element", "no element", "value"]
# The fields an expectation was once written in (older records, routines, the object form).
LEGACY_FIELDS: dict[str, ClauseKind] = {
    "url_contains": "url", "text_appears": "text", "text_disappears": "no text",
    "element_appears": "element", "element_disappears": "no element", "value": "value"}
# Clauses whose answer is read on the page after the action (URL and value come with its result).
PAGE_KINDS = frozenset({"text", "no text", "element", "no element"})


class Clause(BaseModel):
    """One check of an expectation, as the models write it: `text:Order confirmed`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: ClauseKind
    what: str = Field(min_length=1)

    def __str__(self) -> str:
        return f"{self.kind}:{self.what}"


class ExpectedOutcome(BaseModel):
    """What an action should change (or what shows a subtask done): any number of clauses of any
    kind, each checked on the page right after that action, and reported on its own."""

    model_config = ConfigDict(extra="forbid")
    clauses: list[Clause] = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _fields(cls, value: Any) -> Any:
        """The older form, one field per kind (`{"url_contains": "/checkout"}`), a field holding
        one clause or several."""
        if not isinstance(value, dict) or "clauses" in value:
            return value
        clauses, rest = [], {}
        for key, v in value.items():
            kind = LEGACY_FIELDS.get(key)
            if kind is None:
                rest[key] = v
            elif v is not None:
                clauses += [{"kind": kind, "what": x} for x in (v if isinstance(v, list) else [v])]
        return {"clauses": clauses, **rest}

    def of(self, kind: ClauseKind) -> list[str]:
        """The words of every clause of one kind, in order."""
        return [c.what for c in self.clauses if c.kind == kind]

    def needs_page(self) -> bool:
        """Whether checking it takes the page after the action (URL and value come with it)."""
        return any(c.kind in PAGE_KINDS for c in self.clauses)

    def mapped(self, change: Callable[[str], str]) -> ExpectedOutcome:
        """The same checks with each clause's words changed (a routine's parameters filled in)."""
        return ExpectedOutcome(clauses=[Clause(kind=c.kind, what=change(c.what)) for c in self.clauses])


class Subtask(BaseModel):
    """One step of the plan, and what the page shows once it is done. `done_when` is declared by
    the scheduler before any work and checked by the host: when it holds on the page the worker
    leaves, the subtask is proven without asking the verifier (except for the task's last one)."""

    text: str
    role: WorkKindGiven = "worker"
    done_when: ExpectedOutcome | None = None

    @model_validator(mode="before")
    @classmethod
    def _plain(cls, value: Any) -> Any:
        return {"text": value} if isinstance(value, str) else value  # older records; simple plans

    def __str__(self) -> str:
        return self.text


class Question(BaseModel):
    """What heybro asks the user while the task waits: free text, a choice, a secret (a one-time
    code, a password: never recorded nor shown to the model) or a confirmation of a risky act."""

    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:8])
    text: str
    kind: Literal["text", "choice", "secret", "confirm"] = "text"
    choices: list[str] = Field(default_factory=list)
    asked_at: float = Field(default_factory=now)
    page: str | None = Field(None, description="The site the task was reading when the model asked "
                             "(a page may have shaped the question): shown with it.")


class ClauseCheck(BaseModel):
    """One clause of an expectation as the models write it (`no element:button "Save"`), checked."""

    clause: str
    met: bool
    detail: str
    # It held on the page the action was proposed on too: true, and no sign of what the action did.
    before: bool = False


class ExpectationCheck(BaseModel):
    """A fact the host checked on the page: an action's expectation, a subtask's done_when, or
    what a wait found. A later check of the same clause supersedes this one (agent/facts.py)."""

    tool: str
    expect: ExpectedOutcome
    met: bool
    detail: str
    about: str = ""  # what was checked, in words: the action and its target (click button "Save")
    read_ms: int | None = None  # when the page was read, after the action
    parts: list[ClauseCheck] = Field(default_factory=list)


class ToolCall(BaseModel):
    """A tool call with its execution record."""

    tool: str
    parameters: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""
    success: bool | None = None
    result: Any = None
    error: str | None = None
    error_code: str | None = None
    timestamp: float | None = None
    duration_ms: float | None = None
    page_changed: bool = False
    expectation: ExpectationCheck | None = None
    # What `element_id` named on the page the model saw (e.g. 'link "Blue Kettle"'), for people
    # watching and for the record: ids mean nothing once the page is gone.
    target: str | None = None
    # The tool only looks (its Effects): no ledger entry, since repeating it is harmless. Set from
    # the tool's definition as the call is recorded; kept out of the record itself.
    read_only: bool = Field(False, exclude=True)
    # The role's own leaving move (mark_done, mark_complete …: a transition): its summary is shown
    # apart from the actions. Set from the definition as the call is recorded.
    transition: bool = False
    # The acted-on element's signature and the page's URL when the action was proposed: what a
    # routine saved from this task re-finds the element by, and where it acted.
    signature: dict[str, Any] | None = None
    # Where an action ended (a drag's drop: `to_element_id`), its element's signature likewise.
    to_signature: dict[str, Any] | None = None
    url: str | None = None
    # What the user decided about it: heybro asked first ("About to click …") and the answer.
    decided: str | None = None
    # It ran and the page showed no change after it: no other address, content, state or dialog
    # (whatever its expectation says: what held then held before it too).
    no_effect: bool = False


class Usage(UsageData):
    """One model call's use: the `usage` event's data, for a role of this agent."""

    role: RoleName


class Iteration(BaseModel):
    """One LLM call and the tools it led to, within a role's run()."""

    role: RoleName
    reasoning: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    timestamp: float = Field(default_factory=now)
    usage: Usage | None = None
    repairs: int = 0
    warnings: list[str] = Field(default_factory=list)
    overhead_ms: float | None = Field(None, description="Previous reply received → this prompt "
                                      "ready (actions, observe, prompt building).")


class Verdict(BaseModel):
    """A judgement of the subtask, in two numbers each shown as what it is: the model's confidence
    (`llm_confidence`, also `confidence`, the number held against the threshold) and the page's
    (`dom_confidence`: the share of the host's checks whose latest reading holds, of `checks`)."""

    decision: Decision
    reason: str
    # "host": the subtask's declared outcome was proven by the host's own check of the page, so
    # no model was asked (llm_confidence is then None).
    by: Literal["verifier", "host"] = "verifier"
    llm_confidence: float | None
    dom_confidence: float
    confidence: float
    threshold: float
    accepted: bool
    facts: list[ExpectationCheck] = Field(default_factory=list)
    checks: int = 0  # the clauses the page's confidence is the share of (0: none was checked)
    # What held a "done" back: each check whose latest reading does not hold, a failed last action.
    held_back: list[str] = Field(default_factory=list)
    overruled: str | None = None  # the verifier's word on why the goal is met all the same


class RoleResult(BaseModel):
    """What a role's run() returns: its iterations and the transition tool it left by."""

    role: RoleName
    iterations: list[Iteration] = Field(default_factory=list)
    transition: ToolCall | None = None

    @property
    def transition_tool(self) -> str | None:
        return self.transition.tool if self.transition else None


class ExecutionCycle(BaseModel):
    """One scheduler → worker → verifier pass over an assignment."""

    index: int
    assignment: str = ""
    subtask_index: int | None = None
    scheduler: RoleResult | None = None
    worker: RoleResult | None = None
    verifier: RoleResult | None = None
    worker_summary: str | None = None
    verdict: Verdict | None = None
    started_at: float = Field(default_factory=now)


class MemoryItem(BaseModel):
    name: str
    value: str
    source_url: str | None = None
    at: float = Field(default_factory=now)
    # heybro's own note (the user's message, a handed-over tab, a routine run's settings): kept
    # with the task, not listed to the user as something the task found out.
    note: bool = False


class ResumeNote(BaseModel):
    """Why a task restored from the store goes on, handed to its run (the executor words it for
    the role that picks the task up): what the user said meanwhile sends it to the planner first;
    otherwise the worker goes on with the same subtask, told why."""

    why: str | None = Field(None, description="For the model: what happened (cut off by a fault, "
                            "the record unwritable for a while, the user let a held action go).")
    user_said: list[str] = Field(default_factory=list, description="The user's messages since "
                                 "the planner last ran.")

    @property
    def replan(self) -> bool:
        return bool(self.user_said)

    def text(self) -> str:
        """The note as the model reads it."""
        if not self.user_said:
            return self.why or ""
        said = "The user added: " + " / ".join(self.user_said)
        return said + (f"\n({self.why})" if self.why else "")


class Task(BaseModel):
    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    description: str
    url: str | None = None
    tab_id: int | None = None
    tabs: list[int] = Field(default_factory=list, description="The task's tabs: the one it was "
                            "handed, those it opened and those its pages opened (agent/reach.py).")
    last_url: str | None = Field(None, description="Where the page was at the last step (resume).")
    start_page: str | None = Field(None, description="The page the task started on (its `url`, or "
                                   "the tab it was handed): the user chose that site.")
    resources: dict[str, str] = Field(default_factory=dict)
    subtasks: list[Subtask] = Field(default_factory=list)
    current_subtask_index: int = 0
    execution_history: list[ExecutionCycle] = Field(default_factory=list)
    memory: list[MemoryItem] = Field(default_factory=list)
    status: TaskStatus = TaskStatus.planning
    result: str | None = None
    answer: str | None = Field(None, description="The answer to the user's question, when the "
                               "goal asks one (shown first when the task ends).")
    question: Question | None = Field(None, description="Asked and not answered yet.")
    steps: int = 0
    max_steps: int = 40
    cut_off: list[str] = Field(default_factory=list, description="Actions a fault cut off (their "
                               "outcome unknown): held for the user's word if proposed again.")
    held_repeat: str | None = Field(None, description="The cut-off action the task paused to "
                                    "ask about; the user's Resume lets it go ahead.")
    outside: str | None = Field(None, description="The outside agent (an MCP client, through "
                                "`heybro mcp`) whose page calls this task runs; None for heybro's "
                                "own tasks.")
    created_at: float = Field(default_factory=now)
    usage: list[Usage] = Field(default_factory=list)
    # Passwords the user wrote in the goal or a message (agent/said_secrets.py), by name: (value,
    # the field it goes into). Handed to the run, which keeps them as it keeps an asked secret;
    # never in the record (excluded from every dump).
    said_secrets: dict[str, tuple[str, str]] = Field(default_factory=dict, exclude=True)

    def new_cycle(self, assignment: str) -> ExecutionCycle:
        """A new cycle of work on the current subtask, added to the task's history."""
        cycle = ExecutionCycle(index=len(self.execution_history) + 1, assignment=assignment,
                               subtask_index=self.current_subtask_index)
        self.execution_history.append(cycle)
        return cycle

    @property
    def current_step(self) -> Subtask | None:
        if 0 <= self.current_subtask_index < len(self.subtasks):
            return self.subtasks[self.current_subtask_index]
        return None

    @property
    def current_subtask(self) -> str | None:
        step = self.current_step
        return step.text if step is not None else None

    @property
    def plan_texts(self) -> list[str]:
        """The plan as people and the wire see it."""
        return [s.text for s in self.subtasks]

    @property
    def on_last_subtask(self) -> bool:
        return self.current_subtask_index == len(self.subtasks) - 1
