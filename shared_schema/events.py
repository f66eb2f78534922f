"""What an `event` says: one model per kind, the `data` of an event (and of a history entry).

The host's recorder and session build these; the panel's state and history view, the popup and the
`heybro` CLI read the same shapes (the JSON Schema carries them to the extension). An event's
`kind` picks its model: `Event` and `HistoryEntry` in messages.py validate `data` against
`EVENTS[kind]`, and their generated schema is a `oneOf` discriminated on `kind`.

A new kind: a model here (with its `KIND`), an entry in `EVENTS`, a golden example in
`examples/events/`, the schema regenerated, and a case in each reader (state.js, history_view.js,
cli_run.py's Progress).

Stored history is append-only and outlives versions: `from_stored` reads a row written by any
earlier version (its dict shape of then) into today's model, and says None for a kind it does not
know (a newer version's), which the reader then leaves out.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar, Literal, get_args

from pydantic import Field, ValidationError

from .payload import Payload
from .status import Decision, Pause, TaskStatus, ToolKind


class EventKind(str, Enum):
    status = "status"
    plan = "plan"
    iteration = "iteration"
    tool_call = "tool_call"
    tool_result = "tool_result"
    verdict = "verdict"
    answer = "answer"
    question = "question"
    experience = "experience"
    message = "message"
    control = "control"
    usage = "usage"
    error = "error"


class EventData(Payload):
    """The base of every event's data; `KIND` names the event kind it is the data of."""

    KIND: ClassVar[EventKind]


class StatusData(EventData):
    """The task's status changed (or it was created: then `goal` and `url`)."""

    KIND = EventKind.status
    status: TaskStatus
    reason: str | None = None
    pause: Pause | None = Field(None, description="Paused: why, and so whether it waits for the "
                                "person (status.py's PAUSE_MEANING).")
    goal: str | None = Field(None, description="Only when the task is created.")
    url: str | None = None
    result: str | None = Field(None, description="Final statuses: what came of it.")
    answer: str | None = Field(None, description="Final statuses: the answer to the goal's "
                               "question.")
    steps: int | None = Field(None, description="Final statuses: actions taken.")
    memory: dict[str, str] | None = Field(None, description="Final statuses: what it remembered.")


class PlanData(EventData):
    """The plan: its subtasks and which one is being worked on."""

    KIND = EventKind.plan
    subtasks: list[str] = Field(default_factory=list)
    current: int = Field(0, ge=0, description="Index of the subtask being worked on.")


class IterationData(EventData):
    """One model call of a role and the tools it chose."""

    KIND = EventKind.iteration
    role: str
    reasoning: str = ""
    tools: list[str] = Field(default_factory=list)
    repairs: int = 0
    warnings: list[str] = Field(default_factory=list)
    overhead_ms: float | None = None
    prompt_tokens: int = 0
    tokens: int = 0


class ToolCallData(EventData):
    """A role calls a tool (before it acts)."""

    KIND = EventKind.tool_call
    role: str
    tool: str
    parameters: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""
    target: str | None = Field(None, description="What the element id named on the page.")
    kind: ToolKind | None = Field(None, description="What the tool is (its definition's kind); "
                                  "absent in records older than the field.")
    report: str | None = Field(None, description="A role leaving with a report (mark_done): what "
                               "it says was done or found.")


class ClauseData(Payload):
    """One clause of an expectation (`no element:button "Save"`), checked."""

    clause: str
    met: bool
    detail: str = ""
    before: bool = Field(False, description="It held on the page before the action too: it "
                         "proves nothing about what the action did.")


class ExpectationData(Payload):
    """A tool's declared outcome checked on the page (or a subtask's done_when, or what a wait
    found); a later check of the same clause supersedes it."""

    tool: str
    expect: dict[str, Any] = Field(default_factory=dict)
    met: bool
    detail: str = ""
    about: str = Field("", description="What was checked: the action and its target.")
    read_ms: int | None = Field(None, description="When the page was read, in ms after the action.")
    parts: list[ClauseData] = Field(default_factory=list)


class ToolResultData(EventData):
    """What came of a tool call."""

    KIND = EventKind.tool_result
    role: str
    tool: str
    success: bool | None = None
    error: str | None = None
    error_code: str | None = None
    result: Any = Field(None, description="Bounded for the history: long values are cut short.")
    target: str | None = None
    duration_ms: float | None = None
    page_changed: bool = False
    page_ms: float | None = None
    render_ms: float | None = None
    expectation: ExpectationData | None = None
    decided: str | None = Field(None, description="What the user decided about it: heybro asked "
                                "first and the answer, or a question and its answer.")
    said: str | None = Field(None, description="The result in a person's words, from the tool's "
                             "definition (what was kept, chosen, read).")
    no_effect: bool = Field(False, description="It ran and the page showed no change after it "
                            "(no other address, content, state or dialog).")


class VerdictData(EventData):
    """Whether the subtask is done: the verifier's judgement, or heybro's own check."""

    KIND = EventKind.verdict
    decision: Decision
    reason: str
    by: Literal["verifier", "host"] = "verifier"
    llm_confidence: float | None = None
    dom_confidence: float = 0.0
    confidence: float
    threshold: float
    accepted: bool
    facts: list[ExpectationData] = Field(default_factory=list)
    checks: int = Field(0, description="How many of the host's checks the page's confidence "
                        "(dom_confidence) is the share of; 0: nothing was checked.")
    held_back: list[str] = Field(default_factory=list, description="What held a 'done' back: "
                                 "each check that does not hold, a failed last action.")
    overruled: str | None = Field(None, description="The verifier's word on why the goal is met "
                                  "though a check did not hold.")


class AnswerData(EventData):
    """A role answers the goal's question."""

    KIND = EventKind.answer
    role: str
    text: str


class QuestionData(EventData):
    """heybro asks the person; the task waits for the answer (the task's next message)."""

    KIND = EventKind.question
    id: str
    text: str
    kind: Literal["text", "choice", "secret", "confirm"] = Field(
        "text", description="text, choice, secret (never recorded) or confirm.")
    choices: list[str] = Field(default_factory=list)
    asked_at: float | None = None
    page: str | None = Field(None, description="The site the task was reading when it asked (a "
                             "page may have shaped the question): shown with it.")


class ExperienceData(EventData):
    """Something learned about a site, kept for later tasks."""

    KIND = EventKind.experience
    id: int = 0
    site: str
    text: str


class MemoryData(Payload):
    """A value heybro remembered during the task."""

    name: str
    value: str
    source_url: str | None = None
    at: float | None = None


class MessageData(EventData):
    """Words for the person: heybro's, or the person's own (`who`)."""

    KIND = EventKind.message
    text: str
    level: Literal["info", "warning", "error"] = "info"
    who: Literal["user"] | None = Field(None, description="The person said it.")
    answers: str | None = Field(None, description="The id of the question it answers.")
    memory: MemoryData | None = Field(None, description="What heybro remembered, when it says so.")


class ControlData(EventData):
    """A pause, resume or stop the person asked for, taken in (the task does it at its next safe
    point; its status event says when)."""

    KIND = EventKind.control
    what: Literal["pausing", "resume", "stopping"]
    text: str


class UsageData(EventData):
    """One model call's tokens, time and cost."""

    KIND = EventKind.usage
    role: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    latency_ms: float = 0.0
    cost_usd: float = 0.0
    attempts: int = 1
    mode: Literal["native", "json"] = "native"


class ErrorData(EventData):
    """Something went wrong; said to the person."""

    KIND = EventKind.error
    text: str
    level: Literal["error"] = "error"


AnyEventData = (StatusData | PlanData | IterationData | ToolCallData | ToolResultData | VerdictData
                | AnswerData | QuestionData | ExperienceData | MessageData | ControlData
                | UsageData | ErrorData)

# In the union's order: the generated schema pairs each kind with its model by position.
EVENTS: dict[EventKind, type[EventData]] = {m.KIND: m for m in get_args(AnyEventData)}


def data_for(kind: EventKind | str, data: EventData | dict[str, Any]) -> EventData:
    """`data` as the model of `kind` (ValueError when it is another kind's model)."""
    model = EVENTS[EventKind(kind)]
    if isinstance(data, EventData):
        if not isinstance(data, model):
            raise ValueError(f"a {data.KIND.value} event's data cannot be a {kind} event's")
        return data
    return model.model_validate(data)


def dump(data: EventData) -> dict[str, Any]:
    """The data as stored: the fields its writer set (a status change without a result keeps
    no `result: null`)."""
    return data.model_dump(mode="json", exclude_unset=True)


def _upgrade(kind: str, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """An earlier version's row as today's kind and shape."""
    if kind == "message" and data.get("control") in ("pausing", "resume", "stopping"):
        # Before `control` was a kind, a chat message carried the signal.
        return "control", {"what": data["control"], "text": data.get("text") or ""}
    return kind, data


def from_stored(kind: str, data: dict[str, Any]) -> tuple[EventKind, EventData] | None:
    """A stored history row as today's event: fields a model no longer has are dropped, a
    kind this version does not know gives None (the row stays in the store, unread)."""
    kind, data = _upgrade(kind, data)
    try:
        known = EventKind(kind)
    except ValueError:
        return None
    model = EVENTS[known]
    names = model.model_fields.keys()
    try:
        return known, model.model_validate({k: v for k, v in data.items() if k in names})
    except ValidationError:
        return None
