"""A tool is one definition, of one type (`RoleTool`) whatever runs it: its name, argument model,
description, kind, effects and how it runs — a typed conversion to the browser's wire arguments,
a local handler the host runs with the role, or a host tool's handler (calculate, fetch, the
user's MCP tools: heybro.tools) run with the task's workspace. Every list of tool names elsewhere
— what stops a batch, what the ledger skips, what a stop may cut short, the dispatch of a call,
the text its result leaves in the next prompt, what the panel says of it — is read from these
fields. A tool answers a failure with one error, `ToolFailed` (errors.py).

A browser tool's RoleTool is derived from its one declaration (shared_schema.tool_spec.PageTool:
heybro.agent.toolbox.declared); a host tool is declared as a RoleTool of kind "host"
(heybro.tools.builtins), its handler loaded on its first call:

    CALCULATE = RoleTool("calculate", Calculate, "Exact arithmetic …", "host", LOOKS,
                         run=handler("calculate", "run"), roles=EVERY_ROLE)

This package imports nothing of the agent nor of the host tools: a handler is typed where it is
written, against what its runner hands it (agent/local_tools.py's `LocalContext`, heybro.tools'
`ToolContext`), and is held here as a callable of that shape.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, cast

from pydantic import BaseModel, ValidationError

from shared_schema.status import ToolKind
from shared_schema.tool_spec import LOOKS, Effects, ToolArgs

from .errors import ToolFailed
from .playwright_forms import Form

if TYPE_CHECKING:
    from ..agent.models import RoleName


# One base for every tool's arguments, the browser's and the host's (extra fields refused).
Args = ToolArgs


class NoArgs(Args):
    pass


# plan/transition: the roles' own moves; browser/tab: act on pages (steps, failures, loops);
# local: run by the host for the role (memory, the user, waiting); host: heybro.tools.
Kind = ToolKind
PAGE_KINDS: tuple[Kind, ...] = ("browser", "tab")


class WireContext(Protocol):
    """What a conversion to wire arguments may read from the task (AgentEnv provides it)."""

    def signature(self, element_id: str | None) -> dict[str, Any] | None: ...

    def resource_path(self, name: str) -> str: ...


A = TypeVar("A", bound=BaseModel)
W = TypeVar("W", bound=BaseModel)


@dataclass(frozen=True)
class Wire(Generic[A, W]):
    """How a tool reaches the browser: the extension's tool it calls (`tool`, whose arguments are
    `model`, shared_schema.tools), the typed conversion of the model's arguments into them, and
    how long the call may take."""
    tool: str
    model: type[W]
    convert: Callable[[A, WireContext], W]
    timeout_ms: int | Callable[[W], int] = 15_000  # of the call, from its wire arguments

    def args(self, a: A, ctx: WireContext) -> W:
        try:
            return self.convert(a, ctx)
        except ValidationError as err:  # bounds only the browser's side sets (a key's length)
            raise ToolFailed("schema_violation", f"{self.tool}: {err.errors()[0]['msg']} "
                             f"({'.'.join(map(str, err.errors()[0]['loc']))})") from None

    def timeout(self, w: W) -> int:
        return self.timeout_ms if isinstance(self.timeout_ms, int) else self.timeout_ms(w)


# A local tool's handler: its arguments and the role calling it (agent/local_tools.py's
# LocalContext: the role's name and the task's env); what it leaves in the record.
LocalRun = Callable[[Any, Any], Awaitable[dict[str, Any]]]
# A host tool's handler: with the task's workspace and the user's tool settings (heybro.tools'
# ToolContext); its output in words (or a ToolOk with data), a failure raised as ToolFailed.
HostRun = Callable[[Any, Any], Awaitable[Any]]
# The text a result leaves in the next prompt (for tools whose effect the page does not show), or
# the words a person reads about it (what was kept, chosen, read).
ResultText = Callable[[dict[str, Any]], str | None]
# When a host tool's call needs the user's yes before it runs: why, in words (None: it may run);
# with the call's arguments and heybro.tools' ToolContext.
Asks = Callable[[dict[str, Any], Any], str | None]


@dataclass(frozen=True)
class RoleTool:
    name: str
    args: type[Args]
    doc: str
    kind: Kind
    effects: Effects = Effects()
    wire: Wire[Any, Any] | None = field(default=None, compare=False)
    # How the host runs it: a local tool with the role (LocalRun), a host tool with the task's
    # workspace (HostRun); None for browser tools (their `wire`) and the roles' own moves.
    run: LocalRun | HostRun | None = field(default=None, compare=False)
    result_text: ResultText | None = field(default=None, compare=False)
    said: ResultText | None = field(default=None, compare=False)
    # The argument carrying a value the user may have given (a routine's parameter), if any.
    value_arg: str | None = None
    # How a routine's export writes it in Playwright (tool_def.playwright_forms); None: by hand.
    playwright: Form | None = field(default=None, compare=False)
    # A JSON Schema given as is (an MCP server's tool): offered instead of `args`' schema; `args`
    # then only passes the parameters through, and the tool's owner checks them.
    parameters: dict[str, Any] | None = field(default=None, compare=False, hash=False)
    # A host tool's time limit in seconds (None: the user's tool settings give it).
    timeout_s: float | None = None
    # The roles a host tool is given unless the user's tool settings say otherwise.
    roles: tuple[str, ...] = ()
    # When a call needs the user's yes first (agent/gate.py asks; the yes is for that very call).
    asks: Asks | None = field(default=None, compare=False)

    @property
    def acts_on_page(self) -> bool:
        return self.kind in PAGE_KINDS

    @property
    def local_run(self) -> LocalRun | None:
        """The handler the host runs with the role (a local tool's; not a host tool's)."""
        return cast("LocalRun", self.run) if self.kind != "host" else None

    @property
    def host_run(self) -> HostRun | None:
        """A host tool's handler, run with the task's workspace (heybro.tools.HostTools.call)."""
        return cast("HostRun", self.run) if self.kind == "host" else None

    def report(self, parameters: dict[str, Any]) -> str | None:
        """What a reporting tool says was done or found, from its call's arguments."""
        words = parameters.get(self.effects.reports) if self.effects.reports else None
        return words if isinstance(words, str) else None

    def said_of(self, result: Any) -> str | None:
        """Its result in a person's words, when the definition says how."""
        if self.said is None or not isinstance(result, dict):
            return None
        return self.said(result)

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


# Said once in JSON mode's instructions (llm/client.py) rather than at every tool: a parameter is a
# string unless a type follows it, and every page action takes an `expect`.
SAID_ONCE = frozenset({"expect"})


def _params_text(schema: dict[str, Any]) -> str:
    required = set(schema.get("required", []))
    out = []
    for name, s in (schema.get("properties") or {}).items():
        if name in SAID_ONCE:
            continue
        kind = _type_text(s)
        text = f"{name}{'' if name in required else '?'}" + ("" if kind == "string" else f": {kind}")
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
# What an argument carries to a page (shared_schema/reach.py), for the host's checks, not the model.
HOST_MARKS = {"reach"}


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop titles and inline $defs: fewer prompt tokens, and simpler for small local models."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(dict(defs[node["$ref"].split("/")[-1]]))
            out = {}
            for k, v in node.items():
                if (k in DROP or (k == "description" and "properties" in node)
                        or (k in HOST_MARKS and isinstance(v, str))):
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

    result: dict[str, Any] = walk(schema)
    return result
