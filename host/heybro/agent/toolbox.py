"""Every tool a role may call, each defined once: its argument model, description, kind, effects
and how it runs (tool_def.RoleTool); the roles' tool lists are made of these definitions. A tool
whose handler is written elsewhere has its arguments there, beside it (the local tools' in
local_tools.py, the browser's in their declarations in shared_schema), so neither imports this back.

Names and parameters follow seed 000's tables (`click(element_id)`, `fill(element_id, value)`,
`mark_done(summary)`, `set_subtasks(subtasks)`, `continue_work(instructions)`, ...). Browser actions
accept an optional `expect` (the outcome the host checks after acting).

The browser's tools are not written here: each is declared once in shared_schema (dom_tools.py,
tab_tools.py: a `PageTool`), and its role tool is derived from the declaration (`declared`); the
worker is offered every declared tool a role may call. A new browser tool is its declaration, its
action module in extension/actions/ and its test (then `python -m shared_schema.generate` and
`python3 scripts/gen_content_script.py`); tests/test_tool_definitions.py fails until every piece
is there.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Annotated, Any, cast

from pydantic import BeforeValidator, Field, WithJsonSchema, create_model, model_validator

from shared_schema import dom_tools as dom, tab_tools as tabs
from shared_schema.dom_tools import UploadArgs, WaitFor
from shared_schema.page_text import neutral
from shared_schema.status import Decision
from shared_schema.tool_spec import PageTool, Reports
from shared_schema.tools import DECLARED

from . import local_tools as local
from .history import fence
from .local_tools import Answer, AskUser, Extract, RecallHistory, Wait
from ..tool_def import playwright_forms as pw
from .expect import parse_expect
from .models import ExpectedOutcome, RoleName, Subtask, ToolCall, WorkKindGiven
from ..tool_def import LOOKS, Args, Effects, NoArgs, ResultText, RoleTool, Wire
from .wire import copied, upload_args


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


LEARNED = "One fact about this site that saves steps next time (where a control is, what a step needs)."


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


# How the host words a declared tool's result (PageTool.reports): the text it leaves in the next
# prompt, and what a person reads of it.
WORDS: dict[Reports, tuple[ResultText | None, ResultText | None]] = {
    "tab": (local.tab_moved_text, None), "tabs": (local.tabs_text, None),
    "waited": (local.waited_text, None), "dialog": (None, local.dialog_said),
    "chosen": (None, local.chosen_words)}


@functools.cache
def with_expect(args: type[Args]) -> type[Args]:
    """A declared tool's arguments as the model sends them: an `expect` beside its own."""
    made = create_model(args.__name__, __base__=(args, Act), __module__=__name__)
    return cast("type[Args]", made)


def declared(t: PageTool, wire: Wire[Any, Any] | None = None) -> RoleTool:
    """A browser tool's role tool, derived from its declaration (shared_schema.tool_spec); `wire`:
    a conversion of the host's own (one that reads the task's files)."""
    assert t.kind is not None, f"{t.name} is called by the host only"
    args = with_expect(t.args) if t.expect else t.args
    if wire is None:
        wire = copied(t.name, args, t.wire_args, t.timeout_ms)
    result_text, said = WORDS[t.reports] if t.reports is not None else (None, None)
    return RoleTool(t.name, args, t.doc, t.kind, t.effects, wire=wire, result_text=result_text,
                    said=said, value_arg=t.value_arg,
                    playwright=pw.form_of(t.playwright, t.value_arg) if t.playwright else None)


# Conversions the host does itself: upload reads the task's resource file and sends it.
OWN_WIRES: dict[str, Wire[Any, Any]] = {dom.UPLOAD.name: Wire(dom.UPLOAD.name, UploadArgs,
                                                               upload_args)}
# Every declared tool a role may call, in its declaration's order.
PAGE_TOOLS: dict[str, RoleTool] = {name: declared(t, OWN_WIRES.get(name))
                                   for name, t in DECLARED.items() if t.kind is not None}
UPLOAD = PAGE_TOOLS[dom.UPLOAD.name] = dataclasses.replace(
    PAGE_TOOLS[dom.UPLOAD.name],
    playwright=pw.method("set_input_files", "resource_name", "  # the file the task attached"))
# The definitions the host names itself.
CLICK, FILL, WAIT_FOR = (PAGE_TOOLS[t.name] for t in (dom.CLICK, dom.FILL, dom.WAIT_FOR))
NAVIGATE, SWITCH_TAB, LIST_TABS = (PAGE_TOOLS[t.name] for t in (tabs.NAVIGATE, tabs.SWITCH_TAB,
                                                                tabs.LIST_TABS))
WAIT = RoleTool("wait", Wait, "Wait some seconds.", "local",
                Effects(read_only=True, interruptible=True), run=local.wait)
EXTRACT = RoleTool("extract", Extract, "Save a fact the user asked for to memory.", "local", LOOKS,
                   wire=local.ELEMENT_TEXT, run=local.extract, result_text=local.saved_text,
                   said=local.kept_words)
RECALL_HISTORY = RoleTool("recall_history", RecallHistory, "Read earlier cycles and memory.",
                          "local", LOOKS, run=local.recall_history, result_text=local.recall_text)
ASK_USER = RoleTool("ask_user", AskUser, "Ask the user and wait: a login, a code, a CAPTCHA, "
                    "their choice. Never guess those.", "local", LOOKS,
                    run=local.ask_user, result_text=local.asked_text)
ANSWER = RoleTool("answer", Answer, "Answer the goal's question from the page (ends your turn).", "local",
                  Effects(read_only=True, reports="text"), run=local.answer)
MARK_DONE = RoleTool("mark_done", MarkDone, "Assignment done (or impossible): what you did, what "
                     "the page shows.",
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

WORKER_TOOLS = [*PAGE_TOOLS.values(), WAIT, EXTRACT, RECALL_HISTORY, ASK_USER, ANSWER, MARK_DONE]

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
    dataclasses.replace(MARK_DONE, doc="Assignment finished (or impossible): report."),
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
