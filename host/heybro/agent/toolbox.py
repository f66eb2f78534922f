"""Every tool a role may call, each defined once: its argument model, description, kind, effects
and how it runs (tool_def.RoleTool); the roles' tool lists are made of these definitions. A tool
whose handler or conversion is written elsewhere has its arguments there, beside it (the local
tools' in local_tools.py, the hand-converted ones' in wire.py), so neither imports this back.

Names and parameters follow seed 000's tables (`click(element_id)`, `fill(element_id, value)`,
`mark_done(summary)`, `set_subtasks(subtasks)`, `continue_work(instructions)`, ...). Browser actions
accept an optional `expect` (the outcome the host checks after acting).

A new browser tool: its argument model and RoleTool here (with a `wire` to its shared_schema
arguments), its action module in extension/actions/, and the schema regenerated;
tests/test_tool_definitions.py fails until every piece is there.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema, model_validator
from pydantic.json_schema import SkipJsonSchema

from shared_schema.dom_tools import (CheckArgs, ClickArgs, FillArgs, FocusArgs, HoverArgs,
                                     PressArgs, ScrollArgs, SelectArgs, TypeArgs, UploadArgs,
                                     WaitForArgs)
from shared_schema.page_text import neutral
from shared_schema.status import Decision
from shared_schema.tab_tools import NavigateArgs, NewTabArgs, SwitchTabArgs, TabArgs

from . import local_tools as local
from .local_tools import Answer, AskUser, Extract, RecallHistory, Wait
from .history import fence
from ..tool_def import playwright_forms as pw
from .expect import parse_expect
from .models import ExpectedOutcome, RoleName, Subtask, ToolCall, WorkKindGiven
from ..tool_def import LOOKS, Args, Effects, NoArgs, RoleTool, Wire
from .wire import Upload, WaitFor, copied, upload_args, wait_for_args, wait_for_timeout


def _expect(value: Any) -> Any:
    return parse_expect(value) if isinstance(value, str) else value


# Offered as a string (`url:/checkout; text:Order confirmed`, explained once in each prompt that
# uses it); the object form ExpectedOutcome is accepted too.
Expect = Annotated[ExpectedOutcome | None, BeforeValidator(_expect), WithJsonSchema({"type": "string"})]


# --- scheduler ----------------------------------------------------------------------------------
class PlanItem(Args):
    subtask: str = Field(min_length=1)
    role: WorkKindGiven = "worker"  # explained once, in the scheduler's prompt
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


class FailTask(Args):
    reason: str = Field(min_length=1, description="Why the goal cannot be met, in words the user "
                        "reads.")


# --- worker -------------------------------------------------------------------------------------


class Act(Args):
    expect: Expect = None


class Navigate(Act):
    url: str = Field(min_length=1)


class ElementAct(Act):
    element_id: str = Field(min_length=1)


class AnswersDialogs(Args):
    """An action that may open a browser confirm() or prompt(): how heybro answers it."""
    dialog: str | None = Field(None, min_length=1, max_length=1000, description=(
        'How to answer a confirm() or prompt() it opens: "accept", "dismiss" (the default), or '
        "the words to type into a prompt() (then OK)."))
    dialog_text: SkipJsonSchema[str | None] = None  # (the words, once read out of `dialog`)

    @model_validator(mode="after")
    def _words(self) -> AnswersDialogs:
        if self.dialog is not None and self.dialog not in ("accept", "dismiss"):
            self.dialog_text, self.dialog = self.dialog, "accept"
        return self


class Click(ElementAct, AnswersDialogs):
    pass


class Fill(ElementAct):
    value: str


class TypeText(ElementAct):
    text: str


class Select(ElementAct):
    value: str


class Press(Act, AnswersDialogs):
    keys: str = Field(min_length=1, description="e.g. Enter, Tab, Control+A")
    element_id: str | None = None


class Scroll(Args):
    direction: Literal["up", "down", "left", "right", "top", "bottom"] | None = None
    element_id: str | None = None  # (the tool's description says how both are used)
    amount: float | None = Field(None, gt=0, le=20, description="Screens to move (default 0.8).")

    @model_validator(mode="after")
    def _what(self) -> Scroll:
        if self.direction is None and self.element_id is None:
            raise ValueError("give a direction (the page), or an element_id (to scroll to it)")
        return self


class NewTab(Args):
    url: str = Field(min_length=1)


class SwitchTab(Args):
    tab_id: int


LEARNED = ("One short fact about this site that would save steps next time (where a control "
           "is, what a step needs).")


class MarkDone(Args):
    summary: str = Field(min_length=1)
    learned: str | None = Field(None, max_length=240, description=LEARNED)


# --- verifier -----------------------------------------------------------------------------------
class Confidence(Args):
    # Required: a verdict without it would pass any threshold.
    confidence: float = Field(ge=0, le=1, description="How sure you are, 0-1.")
    learned: str | None = Field(None, max_length=240, description=LEARNED)


class MarkComplete(Confidence):
    reason: str = Field(min_length=1)
    overrule: str | None = Field(None, max_length=800, description="Only when a FACT says NOT "
                                 "MET and the assignment is achieved all the same: each such check "
                                 "by its words, and what on the page shows it done.")


class ContinueWork(Confidence):
    instructions: str = Field(min_length=1)


class RequestReschedule(Confidence):
    reason: str = Field(min_length=1)


class GoalUnmet(Confidence):
    reason: str = Field(min_length=1, description="Why the goal cannot be met, in words the user "
                        "reads.")


# --- the definitions ----------------------------------------------------------------------------
def _plan(name: str, args: type[Args], doc: str) -> RoleTool:
    return RoleTool(name, args, doc, "plan", LOOKS)


def _transition(name: str, args: type[Args], doc: str) -> RoleTool:
    return RoleTool(name, args, doc, "transition", LOOKS)


# Acts that may leave the page (a link, a submit, a toggle): the page comes back with them.
ACTS = Effects(may_navigate=True)
# Acts whose outcome the page shows (a field's value, a scroll position).
TOUCHES = Effects()
# Moves to another page: the batch stops after them; a request may be sent, so never repeated
# by itself when cut off.
MOVES = Effects(ends_batch=True, held_on_repeat=True)
# Click and press may spend, send or delete: what a press sets off is judged by the page's agent
# right before it (content/act_gate.js), and the user asked first when it is risky (sinks.py).
RISKY = Effects(may_navigate=True, held_on_repeat=True)

NAVIGATE = RoleTool("navigate", Navigate, "Open a URL in the task's tab.", "tab", MOVES,
                    wire=copied("navigate", Navigate, NavigateArgs, timeout_ms=30_000),
                    result_text=local.tab_moved_text, playwright=pw.goto)
CLICK = RoleTool("click", Click, "Click an element.", "browser", RISKY,
                 wire=copied("click", Click, ClickArgs), said=local.dialog_said,
                 playwright=pw.method("click"))
FILL = RoleTool("fill", Fill, "Set a field's value.", "browser", TOUCHES,
                wire=copied("fill", Fill, FillArgs), value_arg="value",
                playwright=pw.method("fill", "value"))
TYPE = RoleTool("type", TypeText, "Type text key by key.", "browser", TOUCHES,
                wire=copied("type", TypeText, TypeArgs), value_arg="text",
                playwright=pw.method("press_sequentially", "text"))
SELECT = RoleTool("select", Select, "Choose an option of a select.", "browser",
                  dataclasses.replace(ACTS, chooses=True),
                  wire=copied("select", Select, SelectArgs), value_arg="value", said=local.chosen_words,
                  playwright=pw.method("select_option", "value"))
CHECK = RoleTool("check", ElementAct, "Tick a checkbox, radio or switch.", "browser", ACTS,
                 wire=copied("check", ElementAct, CheckArgs), playwright=pw.method("check"))
UNCHECK = RoleTool("uncheck", ElementAct, "Untick a checkbox or switch.", "browser", ACTS,
                   wire=copied("uncheck", ElementAct, CheckArgs), playwright=pw.method("uncheck"))
PRESS = RoleTool("press", Press, "Press keys.", "browser", RISKY,
                 wire=copied("press", Press, PressArgs), said=local.dialog_said,
                 playwright=pw.press)
HOVER = RoleTool("hover", ElementAct, "Pointer over an element (opens its menu or tooltip).",
                 "browser", TOUCHES,
                 wire=copied("hover", ElementAct, HoverArgs), playwright=pw.method("hover"))
FOCUS = RoleTool("focus", ElementAct, "Focus an element.", "browser", TOUCHES,
                 wire=copied("focus", ElementAct, FocusArgs), playwright=pw.method("focus"))
SCROLL = RoleTool("scroll", Scroll, "Scroll the page or inside an element by direction, or bring "
                  "an element into view (element_id, no direction).", "browser", TOUCHES,
                  wire=copied("scroll", Scroll, ScrollArgs), playwright=pw.scroll)
UPLOAD = RoleTool("upload", Upload, "Attach a resource file to a file input.", "browser", TOUCHES,
                  wire=Wire("upload", UploadArgs, upload_args),
                  playwright=pw.method("set_input_files", "resource_name",
                                       "  # the file the task attached"))
WAIT_FOR = RoleTool("wait_for", WaitFor, "Wait until text or an element appears (or is gone), or "
                    "the URL contains something.", "browser",
                    Effects(read_only=True, interruptible=True),
                    wire=Wire("wait_for", WaitForArgs, wait_for_args, wait_for_timeout),
                    result_text=local.waited_text, playwright=pw.wait_for)
BACK = RoleTool("back", NoArgs, "Go back in history.", "tab", MOVES,
                wire=copied("back", NoArgs, TabArgs), result_text=local.tab_moved_text,
                playwright=pw.go_back)
NEW_TAB = RoleTool("new_tab", NewTab, "Open a URL in a new tab.", "tab",
                   dataclasses.replace(MOVES, changes_tab=True),
                   wire=copied("new_tab", NewTab, NewTabArgs, timeout_ms=30_000),
                   result_text=local.tab_moved_text, playwright=pw.new_tab)
SWITCH_TAB = RoleTool("switch_tab", SwitchTab, "Work in another tab.", "tab",
                      Effects(ends_batch=True, changes_tab=True),
                      wire=copied("switch_tab", SwitchTab, SwitchTabArgs),
                      result_text=local.tab_moved_text, playwright=pw.newest_tab)
LIST_TABS = RoleTool("list_tabs", NoArgs, "List the task's tabs (tab_id, title, URL); the user's "
                     "other tabs are only counted.", "local", LOOKS,
                     wire=copied("list_tabs", NoArgs, TabArgs), result_text=local.tabs_text)
WAIT = RoleTool("wait", Wait, "Wait some seconds.", "local",
                Effects(read_only=True, interruptible=True), run=local.wait)
EXTRACT = RoleTool("extract", Extract, "Save named data to memory.", "local", LOOKS,
                   wire=local.ELEMENT_TEXT, run=local.extract, result_text=local.saved_text,
                   said=local.kept_words)
RECALL_HISTORY = RoleTool("recall_history", RecallHistory, "Read earlier cycles and memory.",
                          "local", LOOKS, run=local.recall_history, result_text=local.recall_text)
ASK_USER = RoleTool("ask_user", AskUser, "Ask the user and wait: a login, a one-time code, a "
                    "CAPTCHA, a choice only they can make. Never guess those.", "local", LOOKS,
                    run=local.ask_user, result_text=local.asked_text)
ANSWER = RoleTool("answer", Answer, "Give the answer to the user's question (when the goal asks "
                  "one), from what the page shows.", "local",
                  Effects(read_only=True, reports="text"), run=local.answer)
MARK_DONE = RoleTool("mark_done", MarkDone, "Assignment finished (or impossible): report.",
                     "transition", Effects(read_only=True, reports="summary"))

SCHEDULER_TOOLS = [
    _plan("set_subtasks", SetSubtasks, "Replace the whole subtask list."),
    _plan("add_subtask", AddSubtask, "Append a subtask."),
    _plan("insert_subtask", InsertSubtask, "Insert a subtask at index."),
    _plan("delete_subtask", DeleteSubtask, "Remove the subtask at index."),
    _plan("update_subtask", UpdateSubtask, "Rewrite the subtask at index."),
    START_WORK := _transition("start_work", NoArgs, "Hand the next pending subtask to the worker."),
    FAIL_TASK := _transition("fail_task", FailTask, "The goal cannot be met (the site cannot do it, "
                             "what it needs is missing, every way was tried): end the task as "
                             "failed, with the reason."),
]

WORKER_TOOLS = [NAVIGATE, CLICK, FILL, TYPE, SELECT, CHECK, UNCHECK, PRESS, HOVER, FOCUS, SCROLL,
                UPLOAD, WAIT_FOR, BACK, NEW_TAB, SWITCH_TAB, LIST_TABS, WAIT, EXTRACT,
                RECALL_HISTORY, ASK_USER, ANSWER, MARK_DONE]

# The roles that work without the page; the host tools they are given are added per task.
ANALYST_TOOLS = [
    dataclasses.replace(ASK_USER, doc="Ask the user and wait (a choice only they can make)."),
    dataclasses.replace(EXTRACT, doc="Save a computed or derived fact to memory.", wire=None,
                        run=local.note),
    dataclasses.replace(ANSWER, doc="Give your answer (or result) and finish.",
                        kind="transition", run=None),
]

TECHNICIAN_TOOLS = [
    dataclasses.replace(ASK_USER, doc="Ask the user and wait (a value only they know)."),
    MARK_DONE,
]

# The verifier's moves are its decisions (shared_schema.status.Decision): the verdict's word.
VERIFIER_TOOLS = [
    MARK_COMPLETE := _transition(Decision.mark_complete.value, MarkComplete, "The current subtask is "
                                 "achieved (the task, if it was the last)."),
    _transition(Decision.continue_work.value, ContinueWork, "Send the worker back with corrections."),
    _transition(Decision.request_reschedule.value, RequestReschedule, "The plan must change: back to "
                "the scheduler."),
    _transition(Decision.fail_task.value, GoalUnmet, "The goal cannot be met: the task ends as "
                "failed, with the reason."),
]

ROLE_TOOLS: dict[RoleName, list[RoleTool]] = {
    "scheduler": SCHEDULER_TOOLS, "worker": WORKER_TOOLS, "verifier": VERIFIER_TOOLS,
    "analyst": ANALYST_TOOLS, "technician": TECHNICIAN_TOOLS}


def result_text(c: ToolCall, limit: int) -> str | None:
    """What a tool that reads (recall_history, list_tabs) or moves between tabs brought back, for
    the worker's next prompt, in at most `limit` characters (its definition's `result_text`, or a
    host tool's output); None for tools whose effect the page itself shows."""
    r = c.result
    if not c.success or not isinstance(r, dict):
        return None
    tool = definition(c.tool)
    text = tool.result_text(r) if tool is not None and tool.result_text is not None else None
    outside = text is None and isinstance(r.get("output"), str)  # a host tool's: a site's, a file's
    if outside:
        text = r["output"]
    if text is None:
        return None
    text = neutral(text, one_line=False)  # what a reading tool brings back is the page's words, or a site's
    text = text if len(text) <= limit else text[:limit] + f"… ({len(text) - limit} more characters)"
    return "\n".join(fence(text, "its output (untrusted)")) if outside else text


def any_result_text(c: ToolCall, limit: int) -> str | None:
    """What a tool brought back for a role without the page: the reading tools' own wording, else
    the result itself (a host tool's answer), bounded."""
    text = result_text(c, limit)
    if text is not None or not c.success or c.result is None:
        return text
    text = c.result if isinstance(c.result, str) else json.dumps(c.result, ensure_ascii=False,
                                                                 default=str)
    return text if len(text) <= limit else text[:limit] + "…"


def reports(name: str) -> bool:
    """Whether the tool called `name` says what was done or found rather than acting."""
    return (d := _BY_NAME.get(name)) is not None and d.effects.reports is not None


def definition(name: str) -> RoleTool | None:
    """A tool of the roles by its name (the worker's, where roles give one name other words)."""
    return _BY_NAME.get(name)


_BY_NAME: dict[str, RoleTool] = {}
for _tools in reversed(list(ROLE_TOOLS.values())):
    _BY_NAME.update((t.name, t) for t in _tools)
