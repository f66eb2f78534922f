"""Payload models of every message type, and the registry that maps a `type` to its payload.

These pydantic models are the single source of the protocol. `python -m shared_schema.generate`
writes them as JSON Schema into this folder, where the extension's validator reads them.

Direction: "to_host" = extension → host, "to_extension" = host → extension, "both".
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .events import EVENTS, AnyEventData, EventKind, data_for

from .payload import Payload
from .status import Pause, TaskStatus
from .experiences import (ExperienceForget, ExperienceForgotten, ExperienceList,
                          ExperienceListResult)
from .outside import OutsideAct, OutsideActed, OutsideOpen
from .routines import (RoutineList, RoutineListResult, RoutineRef, RoutineRun, RoutineSave,
                       RoutineSaved)
from .settings import SettingsGet, SettingsSet, SettingsTest, SettingsTestResult, SettingsView
from .sites import SiteGate

Direction = Literal["to_host", "to_extension", "both"]


# --- errors -------------------------------------------------------------------------------------


class ErrorCode(str, Enum):
    # transport / protocol
    bad_frame = "bad_frame"
    frame_too_large = "frame_too_large"
    invalid_utf8 = "invalid_utf8"
    invalid_json = "invalid_json"
    unknown_type = "unknown_type"
    schema_violation = "schema_violation"
    version_mismatch = "version_mismatch"
    reply_too_large = "reply_too_large"
    internal = "internal"
    # task control
    busy = "busy"
    task_not_found = "task_not_found"
    invalid_state = "invalid_state"
    no_llm = "no_llm"
    llm_error = "llm_error"
    guardrail = "guardrail"
    store_unwritable = "store_unwritable"  # heybro cannot write its task record (detail: path, why)
    # settings
    invalid_settings = "invalid_settings"  # a value out of range (detail.fields: field → problem)
    # acting on pages
    not_found = "not_found"
    ambiguous = "ambiguous"
    not_interactable = "not_interactable"
    not_accepted = "not_accepted"  # the field did not take the value (detail.value: what it holds)
    covered = "covered"
    detached = "detached"
    timeout = "timeout"
    navigation = "navigation"
    no_tab = "no_tab"
    cut_off = "cut_off"  # the action went out and its page or tab went away: it may have happened
    unsupported = "unsupported"
    # out of the task's reach: another tab of the user's, an address that is no web page
    not_allowed = "not_allowed"
    # the page agent's last look (shared_schema/effects.py): a press whose effect needs a yes
    # (detail: effect, digest, reasons), a page no longer of the origin judged (detail: origin)
    needs_approval = "needs_approval"
    origin_changed = "origin_changed"
    # trusted input (chrome.debugger) could not attach: DevTools or another debugger holds the tab
    debugger_busy = "debugger_busy"
    # the browser's own input went (or would have gone) to another element than the one chosen: the
    # page slid another control under the pointer or moved the focus to another field (detail:
    # element, instead, event); nothing was pressed or typed there, and nothing is retried
    swapped = "swapped"
    host_unavailable = "host_unavailable"


class ErrorInfo(Payload):
    code: ErrorCode
    message: str = Field(description="Plain words a person can act on.")
    detail: dict[str, Any] | None = None


class Error(ErrorInfo):
    """A typed error; `re` names the message that caused it when that message had a readable id."""


# --- handshake and liveness ---------------------------------------------------------------------


class Hello(Payload):
    protocol: int = Field(ge=1)
    extension_version: str


class HelloOk(Payload):
    protocol: int = Field(ge=1)
    host_version: str
    pid: int
    log_file: str
    max_message_bytes: int = Field(description="Largest frame the host sends before chunking.")


class Ping(Payload):
    nonce: str | None = None
    data: str = Field("", description="Echoed back in the pong (used to measure large round trips).")


class Pong(Payload):
    nonce: str | None = None
    data: str = ""
    host_pid: int


class Chunk(Payload):
    """One piece of a host → extension message larger than Chrome's 1 MiB limit.

    The sender serialises the whole envelope to UTF-8, cuts it into pieces and base64-encodes each;
    the extension joins the pieces of one `message_id` in `index` order and parses the result.
    """

    message_id: str
    index: int = Field(ge=0)
    count: int = Field(ge=1)
    data: str


# --- task control (extension → host) ------------------------------------------------------------


class TaskStart(Payload):
    goal: str = Field(min_length=1, max_length=20_000)
    url: str | None = Field(None, description="Open this page first.")
    tab_id: int | None = Field(None, description="The tab the user started from.")
    resources: dict[str, str] = Field(
        default_factory=dict, description="Files the user attached: name → absolute path."
    )
    llm: dict[str, Any] | None = Field(
        None, description="`heybro run` only: the LLM settings its terminal resolved (environment "
        "over config file), used for this task instead of the host's own — a host started by "
        "Chrome has Chrome's environment, not the terminal's. Checked by the host's Settings "
        "model; never logged or stored.")


class TaskRef(Payload):
    task_id: str


class TaskMessage(Payload):
    task_id: str
    text: str = Field(min_length=1, max_length=20_000)
    agent: str | None = Field(None, max_length=120, description=(
        "Sent for an outside agent (`heybro mcp`), named so: it may answer heybro's plain "
        "questions and add information, never confirm a risky action or give a secret (those "
        "are the user's, in the panel)."))


class TaskHandTab(Payload):
    """The user handed one of their tabs to the task (the panel's "Hand over this tab")."""

    task_id: str
    tab_id: int
    site: str = Field(max_length=300, description="The tab's site (its host), never its title: "
                      "the page chose that.")


class TaskAccepted(Payload):
    task_id: str
    status: TaskStatus


class Ack(Payload):
    """A request was carried out; nothing more to say."""


class TaskList(Payload):
    limit: int = Field(50, ge=1, le=500)


class TaskSummary(Payload):
    task_id: str
    goal: str
    status: TaskStatus
    reason: str | None = None
    pause: Pause | None = Field(None, description="Paused: why (status.py's Pause).")
    url: str | None = None
    created_at: float
    updated_at: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_calls: int = 0
    cost_usd: float = 0.0


class TaskListResult(Payload):
    tasks: list[TaskSummary]


class TaskGet(Payload):
    task_id: str
    after_seq: int = Field(-1, ge=-1, description="Only history entries newer than this.")


def _one_of_by_kind(schema: dict[str, Any]) -> None:
    """The generated schema says which data goes with which kind: a `oneOf` the extension's
    validator picks from by `kind` (its `discriminator`)."""
    refs = schema["properties"]["data"].pop("anyOf")  # in EVENTS' order (events.py)
    schema["properties"]["data"]["type"] = "object"
    schema["discriminator"] = {"propertyName": "kind"}
    schema["oneOf"] = [{"properties": {"kind": {"const": kind.value}, "data": ref}}
                       for kind, ref in zip(EVENTS, refs, strict=True)]


class KindAndData(Payload):
    """`kind` and its `data` (an events.py model): the part of an event a history entry keeps."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_one_of_by_kind)

    kind: EventKind
    at: float = Field(description="Unix time, seconds.")
    data: AnyEventData

    @model_validator(mode="before")
    @classmethod
    def _data_of_its_kind(cls, raw: Any) -> Any:
        if not isinstance(raw, dict) or raw.get("kind") not in EVENTS:
            return raw  # the `kind` field says what is wrong
        try:
            return {**raw, "data": data_for(raw["kind"], raw.get("data") or {})}
        except ValidationError as err:
            raise ValueError(f"the data of a {EventKind(raw['kind']).value} event: " + "; ".join(
                f"{'.'.join(map(str, e['loc'])) or '/'} {e['msg']}" for e in err.errors()[:5])
            ) from None


class HistoryEntry(KindAndData):
    seq: int = Field(ge=0)


class TaskDetail(Payload):
    """A task from the host's store with its history (the panel's "open a past task")."""

    task: TaskSummary
    subtasks: list[str] = Field(default_factory=list)
    current_subtask: int = 0
    history: list[HistoryEntry] = Field(default_factory=list)


# --- progress (host → extension) ----------------------------------------------------------------


class Event(KindAndData):
    task_id: str
    seq: int = Field(ge=0, description="Per-task sequence number; gaps mean lost events.")


# --- tools the host runs in the browser (host → extension → result) -----------------------------


class ToolCall(Payload):
    tool: str = Field(min_length=1, max_length=64)
    args: dict[str, Any] = Field(default_factory=dict)
    task_id: str | None = None
    tab_id: int | None = None
    timeout_ms: int = Field(15_000, ge=1, le=600_000)
    sites: SiteGate | None = Field(None, description="The user's per-site permissions the call's "
                                   "page is checked against (none: the default categories).")


class ToolResult(Payload):
    ok: bool
    result: dict[str, Any] | None = None
    error: ErrorInfo | None = None


class MessageSpec(BaseModel):
    payload: type[Payload]
    direction: Direction
    doc: str
    any_version: bool = Field(False, description=(
        "Accepted whatever the envelope's `v`: the handshake and its error keep their shape in "
        "every protocol version, so two sides of different versions can still tell each other so."))


MESSAGES: dict[str, MessageSpec] = {
    "hello": MessageSpec(payload=Hello, direction="to_host", doc="Version handshake, first message.",
                         any_version=True),
    "hello_ok": MessageSpec(payload=HelloOk, direction="to_extension", doc="Handshake accepted.",
                            any_version=True),
    "ping": MessageSpec(payload=Ping, direction="both", doc="Liveness probe."),
    "pong": MessageSpec(payload=Pong, direction="both", doc="Answer to ping."),
    "error": MessageSpec(payload=Error, direction="both", doc="Typed error with a human message.",
                         any_version=True),
    "ack": MessageSpec(payload=Ack, direction="both", doc="Request done."),
    "chunk": MessageSpec(payload=Chunk, direction="to_extension", doc="Piece of a large message."),
    "task.start": MessageSpec(payload=TaskStart, direction="to_host", doc="Start a task."),
    "task.accepted": MessageSpec(payload=TaskAccepted, direction="to_extension", doc="Task started."),
    "task.message": MessageSpec(payload=TaskMessage, direction="to_host", doc="Follow-up from user."),
    "task.hand_tab": MessageSpec(payload=TaskHandTab, direction="to_host",
                                 doc="The user handed a tab to the task: it may use it from now on."),
    "task.pause": MessageSpec(payload=TaskRef, direction="to_host", doc="Pause at next safe point."),
    "task.resume": MessageSpec(payload=TaskRef, direction="to_host", doc="Resume a paused task."),
    "task.stop": MessageSpec(payload=TaskRef, direction="to_host", doc="End the task."),
    "task.list": MessageSpec(payload=TaskList, direction="to_host", doc="Past and live tasks."),
    "task.list_result": MessageSpec(payload=TaskListResult, direction="to_extension",
                                    doc="Tasks, newest first."),
    "task.get": MessageSpec(payload=TaskGet, direction="to_host", doc="One task with history."),
    "task.watch": MessageSpec(payload=TaskGet, direction="to_host",
                              doc="Follow a task's events after after_seq (stored ones first), "
                              "through pauses, resumes and host restarts (the terminal)."),
    "task.detail": MessageSpec(payload=TaskDetail, direction="to_extension",
                               doc="A task and its history."),
    "event": MessageSpec(payload=Event, direction="to_extension", doc="Progress of a task."),
    "tool.call": MessageSpec(payload=ToolCall, direction="to_extension", doc="Act in the browser."),
    "tool.result": MessageSpec(payload=ToolResult, direction="to_host", doc="Outcome of tool.call."),
    "settings.get": MessageSpec(payload=SettingsGet, direction="to_host",
                                doc="The saved LLM and agent settings (the options page)."),
    "settings.set": MessageSpec(payload=SettingsSet, direction="to_host",
                                doc="Save settings into the host's 0600 config file."),
    "settings.current": MessageSpec(payload=SettingsView, direction="to_extension",
                                    doc="The saved settings, without the API key."),
    "settings.test": MessageSpec(payload=SettingsTest, direction="to_host",
                                 doc="Try the settings: list the models, a one-token answer."),
    "settings.test_result": MessageSpec(payload=SettingsTestResult, direction="to_extension",
                                        doc="What the connection test found, in words."),
    "routine.save": MessageSpec(payload=RoutineSave, direction="to_host",
                                doc="Save a completed task as a routine."),
    "routine.saved": MessageSpec(payload=RoutineSaved, direction="to_extension",
                                 doc="The routine just saved."),
    "routine.list": MessageSpec(payload=RoutineList, direction="to_host",
                                doc="The saved routines with their last runs."),
    "routine.list_result": MessageSpec(payload=RoutineListResult, direction="to_extension",
                                       doc="Routines by name."),
    "routine.delete": MessageSpec(payload=RoutineRef, direction="to_host",
                                  doc="Delete a routine (its runs stay in the history)."),
    "routine.run": MessageSpec(payload=RoutineRun, direction="to_host",
                               doc="Replay a routine as a new task (answered with task.accepted)."),
    "experience.list": MessageSpec(payload=ExperienceList, direction="to_host",
                                   doc="What heybro learned about sites (all, or one site's)."),
    "experience.list_result": MessageSpec(payload=ExperienceListResult, direction="to_extension",
                                          doc="Learnings by site, each with its page and task."),
    "experience.forget": MessageSpec(payload=ExperienceForget, direction="to_host",
                                     doc="Forget a learning, or all of a site's: no task is "
                                     "given them again."),
    "experience.forgotten": MessageSpec(payload=ExperienceForgotten, direction="to_extension",
                                        doc="The learnings just forgotten."),
    "outside.open": MessageSpec(payload=OutsideOpen, direction="to_host",
                                doc="Open the task an outside agent's page calls run in "
                                "(`heybro mcp`; answered with task.accepted)."),
    "outside.act": MessageSpec(payload=OutsideAct, direction="to_host",
                               doc="One page-level call of an outside agent, in its task."),
    "outside.acted": MessageSpec(payload=OutsideActed, direction="to_extension",
                                 doc="What an outside agent's call did."),
    "outside.close": MessageSpec(payload=TaskRef, direction="to_host",
                                 doc="The outside agent is done: its task ends (completed)."),
}
