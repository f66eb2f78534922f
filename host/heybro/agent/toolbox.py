"""The tools each role may call: argument models, docs, and their OpenAI function schemas.

Names and parameters follow seed 000's tables (`click(element_id)`, `fill(element_id, value)`,
`mark_done(summary)`, `set_subtasks(subtasks)`, `continue_work(instructions)`, ...). Browser actions
accept an optional `expect` (the outcome the host checks after acting).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from .expect import parse_expect
from .models import ExpectedOutcome, RoleName, Subtask, WorkKind


class Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoArgs(Args):
    pass


def _expect(value: Any) -> Any:
    return parse_expect(value) if isinstance(value, str) else value


# Offered as a string (`url:/checkout; text:Order confirmed`, explained once in each prompt that
# uses it); the object form ExpectedOutcome is accepted too.
Expect = Annotated[ExpectedOutcome | None, BeforeValidator(_expect), WithJsonSchema({"type": "string"})]


# --- scheduler ----------------------------------------------------------------------------------
class PlanItem(Args):
    subtask: str = Field(min_length=1)
    role: WorkKind = "operator"  # explained once, in the scheduler's prompt
    done_when: Expect = None

    @model_validator(mode="before")
    @classmethod
    def _plain(cls, value: Any) -> Any:
        return {"subtask": value} if isinstance(value, str) else value  # a bare subtask is fine

    def step(self) -> Subtask:
        return Subtask(text=self.subtask, role=self.role, done_when=self.done_when)


class SetSubtasks(Args):
    subtasks: list[PlanItem] = Field(min_length=1, max_length=20)


class AddSubtask(PlanItem):
    pass


class InsertSubtask(PlanItem):
    index: int = Field(ge=0)


class DeleteSubtask(Args):
    index: int = Field(ge=0)


class UpdateSubtask(PlanItem):
    index: int = Field(ge=0)


# --- worker -------------------------------------------------------------------------------------


class Act(Args):
    expect: Expect = None


class Navigate(Act):
    url: str = Field(min_length=1)


class ElementAct(Act):
    element_id: str = Field(min_length=1)


class Click(ElementAct):
    dialog: Literal["accept", "dismiss"] | None = Field(
        None, description="Answer to a confirm() it opens (default dismiss).")


class Fill(ElementAct):
    value: str


class TypeText(ElementAct):
    text: str


class Select(ElementAct):
    value: str


class Press(Act):
    keys: str = Field(min_length=1, description="e.g. Enter, Tab, Control+A")
    element_id: str | None = None


class Scroll(Args):
    direction: Literal["up", "down", "left", "right", "top", "bottom"] | None = Field(
        None, description="Omit it, with element_id, to bring that element into view.")
    element_id: str | None = Field(None, description="Scroll inside this element (with "
                                   "direction), or to it (without).")
    amount: float | None = Field(None, gt=0, le=20, description="Screens to move (default 0.8).")

    @model_validator(mode="after")
    def _what(self) -> Scroll:
        if self.direction is None and self.element_id is None:
            raise ValueError("give a direction (the page), or an element_id (to scroll to it)")
        return self


class WaitFor(Args):
    text: str | None = Field(None, min_length=1, description="Text to wait for on the page.")
    element_id: str | None = None
    role: str | None = Field(None, min_length=1, description="An element not there yet: its role "
                             "(button, link, dialog…).")
    name: str | None = Field(None, min_length=1, description="…and/or words of its name.")
    url_contains: str | None = Field(None, min_length=1)
    gone: bool = Field(False, description="Wait for the text or element to disappear instead.")
    seconds: float = Field(5.0, gt=0, le=30, description="Longest wait.")

    @model_validator(mode="after")
    def _what(self) -> WaitFor:
        if (self.text is None and self.element_id is None and self.url_contains is None
                and self.role is None and self.name is None):
            raise ValueError("give text, element_id, role/name or url_contains to wait for")
        return self


class Upload(Args):
    element_id: str = Field(min_length=1)
    resource_name: str = Field(min_length=1)


class Wait(Args):
    seconds: float = Field(gt=0, le=30)


class NewTab(Args):
    url: str = Field(min_length=1)


class SwitchTab(Args):
    tab_id: int


class Extract(Args):
    name: str = Field(min_length=1, description="Memory key.")
    value: str | None = Field(None, description="What to remember (or give element_id).")
    element_id: str | None = None


class RecallHistory(Args):
    query: str | None = None


LEARNED = ("Optional: one short fact about this site that would save steps next time (where "
           "a control is, what a step needs).")


class MarkDone(Args):
    summary: str = Field(min_length=1)
    learned: str | None = Field(None, max_length=240, description=LEARNED)


class AskUser(Args):
    question: str = Field(min_length=1)
    kind: Literal["text", "choice", "secret"] = Field(
        "text", description="secret: a code or password, never shown to you; type it as "
        "{{secret:NAME}}.")
    choices: list[str] | None = None
    name: str = Field("secret", pattern=r"^[A-Za-z][\w-]{0,30}$",
                      description="The secret's NAME.")

    @model_validator(mode="after")
    def _choices(self) -> AskUser:
        if self.kind == "choice" and len(self.choices or []) < 2:
            raise ValueError("a choice needs at least two choices")
        return self


class Answer(Args):
    text: str = Field(min_length=1, description="The answer, in words the user reads first.")


# --- verifier -----------------------------------------------------------------------------------
class Confidence(Args):
    # Required: a verdict without it would pass any threshold.
    confidence: float = Field(ge=0, le=1, description="How sure you are, 0-1.")
    learned: str | None = Field(None, max_length=240, description=LEARNED)


class MarkComplete(Confidence):
    reason: str = Field(min_length=1)


class ContinueWork(Confidence):
    instructions: str = Field(min_length=1)


class RequestReschedule(Confidence):
    reason: str = Field(min_length=1)


# host: a tool run by the host itself (heybro.tools: calculate, fetch, files, MCP servers…).
Kind = Literal["plan", "transition", "browser", "tab", "local", "host"]


@dataclass(frozen=True)
class RoleTool:
    name: str
    args: type[Args]
    doc: str
    kind: Kind
    # A JSON Schema given as is (an MCP server's tool): offered instead of `args`' schema; `args`
    # then only passes the parameters through, and the tool's owner checks them.
    parameters: dict[str, Any] | None = field(default=None, compare=False, hash=False)

    def schema(self) -> dict[str, Any]:
        """The parameters' JSON Schema. Built once per tool (pydantic takes ~4 ms a tool, and every
        LLM call sends them all); callers must not modify it."""
        if self.parameters is not None:
            return _raw_schema(self.parameters)
        return _schema_of(self.args)

    def openai(self) -> dict[str, Any]:
        return {"type": "function",
                "function": {"name": self.name, "description": self.doc, "parameters": self.schema()}}

    def signature(self) -> str:
        """`name(param: type, optional?: type) — doc`: how JSON mode lists the tool in the system
        prompt (a third of the tokens of its JSON Schema, and what small models read best)."""
        if self.parameters is not None:
            return f"{self.name}({_params_text(self.schema())}) — {self.doc}"
        return _signature_of(self.name, self.args, self.doc)


def _type_text(s: dict[str, Any]) -> str:
    if "enum" in s:
        return "|".join(json.dumps(x) for x in s["enum"])
    if "anyOf" in s:
        return "|".join(_type_text(x) for x in s["anyOf"])
    kind = s.get("type")
    if kind == "array":
        return f"{_type_text(s.get('items') or {})}[]"
    if kind == "object" and "properties" in s:
        return "{" + _params_text(s) + "}"
    return str(kind or "any")


def _params_text(schema: dict[str, Any]) -> str:
    required = set(schema.get("required", []))
    out = []
    for name, s in (schema.get("properties") or {}).items():
        text = f"{name}{'' if name in required else '?'}: {_type_text(s)}"
        bounds = [f"≥{s['minimum']}" if "minimum" in s else "",
                  f">{s['exclusiveMinimum']}" if "exclusiveMinimum" in s else "",
                  f"≤{s['maximum']}" if "maximum" in s else ""]
        text += "".join(f" {b}" for b in bounds if b)
        if s.get("default") not in (None, False, "", [], {}) and "default" in s:
            text += f" = {json.dumps(s['default'])}"
        if s.get("description"):
            text += f" ({s['description']})"
        out.append(text)
    return ", ".join(out)


@functools.cache
def _signature_of(name: str, args: type[Args], doc: str) -> str:
    return f"{name}({_params_text(_schema_of(args))}) — {doc}"


@functools.cache
def _schema_of(args: type[Args]) -> dict[str, Any]:
    return compact_schema(args.model_json_schema())


def _raw_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    # A plain dict walk (no pydantic): cheap enough to redo per call; a copy, so callers may keep it.
    return compact_schema(json.loads(json.dumps(parameters)))


DROP = {"title", "additionalProperties", "minLength", "maxLength", "minItems", "maxItems"}


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop titles and inline $defs: fewer prompt tokens, and simpler for small local models."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(dict(defs[node["$ref"].split("/")[-1]]))
            out = {}
            for k, v in node.items():
                if k in DROP or (k == "description" and "properties" in node):
                    continue
                if k == "anyOf" and isinstance(v, list):
                    non_null = [x for x in v if x != {"type": "null"}]
                    if len(non_null) == 1:
                        out.update(walk(non_null[0]))
                        continue
                if k == "default" and v is None:
                    continue
                out[k] = walk(v)
            return out
        if isinstance(node, list):
            return [walk(x) for x in node]
        return node

    return walk(schema)


SCHEDULER_TOOLS = [
    RoleTool("set_subtasks", SetSubtasks, "Replace the whole subtask list.", "plan"),
    RoleTool("add_subtask", AddSubtask, "Append a subtask.", "plan"),
    RoleTool("insert_subtask", InsertSubtask, "Insert a subtask at index.", "plan"),
    RoleTool("delete_subtask", DeleteSubtask, "Remove the subtask at index.", "plan"),
    RoleTool("update_subtask", UpdateSubtask, "Rewrite the subtask at index.", "plan"),
    RoleTool("start_work", NoArgs, "Hand the next pending subtask to the worker.", "transition"),
]

WORKER_TOOLS = [
    RoleTool("navigate", Navigate, "Open a URL in the task's tab.", "tab"),
    RoleTool("click", Click, "Click an element.", "browser"),
    RoleTool("fill", Fill, "Set a field's value.", "browser"),
    RoleTool("type", TypeText, "Type text key by key.", "browser"),
    RoleTool("select", Select, "Choose an option of a select.", "browser"),
    RoleTool("check", ElementAct, "Tick a checkbox, radio or switch.", "browser"),
    RoleTool("uncheck", ElementAct, "Untick a checkbox or switch.", "browser"),
    RoleTool("press", Press, "Press keys.", "browser"),
    RoleTool("hover", ElementAct, "Pointer over an element: opens menus and tooltips run by "
             "script; cannot trigger CSS :hover.",
             "browser"),
    RoleTool("focus", ElementAct, "Focus an element.", "browser"),
    RoleTool("scroll", Scroll, "Scroll the page or inside an element by direction, or bring an "
             "element into view.", "browser"),
    RoleTool("upload", Upload, "Attach a resource file to a file input.", "browser"),
    RoleTool("wait_for", WaitFor, "Wait until text or an element appears (or is gone), or the "
             "URL contains something.", "browser"),
    RoleTool("back", NoArgs, "Go back in history.", "tab"),
    RoleTool("new_tab", NewTab, "Open a URL in a new tab.", "tab"),
    RoleTool("switch_tab", SwitchTab, "Work in another tab.", "tab"),
    RoleTool("list_tabs", NoArgs, "List the task's tabs (tab_id, title, URL); the user's other tabs are only counted.", "local"),
    RoleTool("wait", Wait, "Wait some seconds.", "local"),
    RoleTool("extract", Extract, "Save named data to memory.", "local"),
    RoleTool("recall_history", RecallHistory, "Read earlier cycles and memory.", "local"),
    RoleTool("ask_user", AskUser, "Ask the user and wait: a login, a one-time code, a CAPTCHA, "
             "a choice only they can make. Never guess those.", "local"),
    RoleTool("answer", Answer, "Give the answer to the user's question (when the goal asks "
             "one), from what the page shows.", "local"),
    RoleTool("mark_done", MarkDone, "Assignment finished (or impossible): report.", "transition"),
]

# The roles that work without the page; the host tools they are given are added per task.
ANALYST_TOOLS = [
    RoleTool("ask_user", AskUser, "Ask the user and wait (a choice only they can make).", "local"),
    RoleTool("extract", Extract, "Save a computed or derived fact to memory.", "local"),
    RoleTool("answer", Answer, "Give your answer (or result) and finish.", "transition"),
]

TECHNICIAN_TOOLS = [
    RoleTool("ask_user", AskUser, "Ask the user and wait (a value only they know).", "local"),
    RoleTool("mark_done", MarkDone, "Assignment finished (or impossible): report.", "transition"),
]

VERIFIER_TOOLS = [
    RoleTool("mark_complete", MarkComplete, "The current subtask is achieved (the task, if it "
             "was the last).", "transition"),
    RoleTool("continue_work", ContinueWork, "Send the worker back with corrections.", "transition"),
    RoleTool("request_reschedule", RequestReschedule, "The plan must change: back to the "
             "scheduler.", "transition"),
]

ROLE_TOOLS: dict[RoleName, list[RoleTool]] = {
    "scheduler": SCHEDULER_TOOLS, "worker": WORKER_TOOLS, "verifier": VERIFIER_TOOLS,
    "analyst": ANALYST_TOOLS, "technician": TECHNICIAN_TOOLS}
