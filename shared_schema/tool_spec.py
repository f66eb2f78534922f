"""A tool the browser runs, declared once (`PageTool`): its name, the words the model reads, the
one class of arguments the model sends (and the wire carries, with what the host adds to find an
element again), what it returns, its kind, its effects, what the page's gate judges of it, what it
reports and how a routine's export writes it. Everything else is derived from the declaration:
the wire spec (`ToolSpec`, the generated JSON Schema), the host's role tool (heybro.agent.toolbox),
the extension's list of action modules (generated) and the README's list of tools.

    DOUBLE_CLICK = PageTool("double_click", ElementTarget, "Double-click an element.",
                            result=ActionResult, effects=RISKY, risk="press", playwright="dblclick")

The extension keeps only the tool's action module (extension/actions/<name>.js), checked against
the declaration by tests/test_tool_definitions.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, cast

from pydantic import BaseModel, ConfigDict, create_model
from pydantic.fields import FieldInfo
from pydantic.json_schema import SkipJsonSchema


class ToolArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # What the wire adds to these arguments (dom_tools.ElementRef for a tool on an element: the
    # element's signature, how to answer a dialog, the page to observe after, the gate): a
    # declaration's wire arguments are this class with the arguments' own fields.
    wire_base: ClassVar[type[ToolArgs] | None] = None


class ToolOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolSpec(BaseModel):
    """What one browser tool takes and returns on the wire (shared_schema.tools.TOOLS)."""
    args: type[BaseModel]
    result: type[BaseModel]
    doc: str


@dataclass(frozen=True)
class Effects:
    """What a tool does beyond returning its result (read by the worker, the env and the ledger)."""
    read_only: bool = False  # only looks: repeating it after a crash is harmless (no ledger entry)
    ends_batch: bool = False  # leaves the worker on another page: the batch stops after it
    may_navigate: bool = False  # may change the page (a link, a submit): the page comes back with it
    interruptible: bool = False  # changes nothing while it runs: a stop need not wait for its end
    held_on_repeat: bool = False  # may set off something beyond the page: never repeated when cut off
    changes_tab: bool = False  # the task works in another tab after it
    chooses: bool = False  # picks one of the page's own options: its value is compared as words or value
    # Says what was done or found (not an action: not counted, shown apart): the argument that
    # carries its words.
    reports: str | None = None
    # Where a host tool's arguments go when they leave this machine (agent/sinks.py weighs what
    # they carry): "url" — to the address in its argument of that name (fetch); a place's name —
    # all its arguments go there ("mcp:<server>", "shell"). None: nothing leaves.
    sends: str | None = None


LOOKS = Effects(read_only=True)
# Acts that may leave the page (a link, a submit, a toggle): the page comes back with them.
ACTS = Effects(may_navigate=True)
# Acts whose outcome the page shows (a field's value, a scroll position).
TOUCHES = Effects()
# Moves to another page: the batch stops after them; a request may be sent, so never repeated
# by itself when cut off.
MOVES = Effects(ends_batch=True, held_on_repeat=True)
# Click and press may spend, send or delete: what a press sets off is judged by the page's agent
# right before it (content/act_gate.js, the declaration's `risk`), and the user asked first when it
# is risky (host: agent/sinks.py).
RISKY = Effects(may_navigate=True, held_on_repeat=True)

# How the host words a result (host: heybro.agent.local_tools): "tab" — the tab it left the task
# in; "tabs" — the task's tabs; "waited" — what the wait saw; "dialog" — a browser dialog it
# answered; "chosen" — the option chosen.
Reports = Literal["tab", "tabs", "waited", "dialog", "chosen"]


@dataclass(frozen=True)
class PageTool:
    """One tool the browser runs, declared once (see the module's docstring)."""
    name: str
    args: type[ToolArgs]  # what the model sends (the host adds `expect` when `expect` is set)
    doc: str  # what the model reads
    result: type[ToolOutput]
    # Where the extension runs it: "page" — the DOM agent in the page's frame (extension/actions/
    # page.js); "tab" — the coordinator, on the tab (tab.js).
    runs: Literal["page", "tab"] = "page"
    # The role tool's kind: "browser" acts on a page, "tab" moves between pages or tabs, "local"
    # only reads; None — not offered to a role (the host calls it itself: observe, screenshot).
    kind: Literal["browser", "tab", "local"] | None = "browser"
    effects: Effects = Effects()
    wire_doc: str | None = None  # the wire spec's words (what an outside caller reads); default doc
    # How long the call may take: a number, or one read from its wire arguments (wait_for's
    # `seconds`, and time to answer).
    timeout_ms: int | Callable[[Any], int] = field(default=15_000, compare=False)
    # What the page's gate (content/act_gate.js) judges right before it runs: a "press" (the
    # element's effect) or "keys" (Enter in a field submits its form).
    risk: Literal["press", "keys"] | None = None
    # How long the DOM agent lets the page settle after it (content/dom_changes.js SETTLE_*):
    # "async" — a request it may start is waited for; "hover" — a menu's delay; "none" — it
    # changes nothing. Both reach the action module through the generated list (page_actions.js).
    settle: Literal["default", "async", "hover", "none"] = "default"
    expect: bool = False  # takes an `expect` (the outcome the host checks on the page after it)
    value_arg: str | None = None  # the argument carrying a value the user may have given
    reports: Reports | None = None  # how its result is put in words (the next prompt, the panel)
    # How a routine's export writes it in Playwright: a form of host/heybro/tool_def/
    # playwright_forms.py by its name, else the element's Locator method of that name (with
    # `value_arg`); None — written by hand.
    playwright: str | None = None

    @property
    def wire_args(self) -> type[ToolArgs]:
        return _wire_of(self.name, self.args)

    @property
    def spec(self) -> ToolSpec:
        return ToolSpec(args=self.wire_args, result=self.result, doc=self.wire_doc or self.doc)

    def wire_timeout(self, wire_args: Any) -> int:
        return self.timeout_ms if isinstance(self.timeout_ms, int) else self.timeout_ms(wire_args)


_WIRES: dict[tuple[str, type[ToolArgs]], type[ToolArgs]] = {}


def _wire_of(name: str, args: type[ToolArgs]) -> type[ToolArgs]:
    """The wire's arguments of a tool declared with one class: `args.wire_base` (what the host
    adds) with the arguments' own fields — those the model is not shown (`SkipJsonSchema`: what
    the host fills in, what another caller may add) shown on the wire; `args` itself when nothing
    is added."""
    base = args.wire_base
    if base is None or issubclass(args, base):
        return args
    key = (name, args)
    if key not in _WIRES:
        own: dict[str, Any] = {k: (f.annotation, _shown(f)) for k, f in args.model_fields.items()
                               if k not in base.model_fields}
        title = "".join(w.capitalize() for w in name.split("_")) + "Args"
        _WIRES[key] = create_model(title, __base__=base, __module__=args.__module__, **own)
    return _WIRES[key]


def _shown(f: FieldInfo) -> FieldInfo:
    """A field as the wire's schema shows it (a field kept from the model's view is not kept from
    the wire's)."""
    if not any(isinstance(m, _SKIPPED) for m in f.metadata):
        return f
    shown = FieldInfo.merge_field_infos(f)
    shown.metadata = [m for m in f.metadata if not isinstance(m, _SKIPPED)]
    return shown


_SKIPPED = cast("type[Any]", SkipJsonSchema)  # (its instances mark a field the model is not shown)
