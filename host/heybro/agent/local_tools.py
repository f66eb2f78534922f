"""The tools the host runs for a role itself (waiting, memory, the user, the record): their
arguments as the model gives them, their handlers (typed against what a role hands them:
`LocalContext`, of which env.AgentEnv provides the env), and the text their results leave in the role's
next prompt. toolbox.py defines the tools from these."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import Field, model_validator

from shared_schema.dom_tools import ExtractArgs

from . import history
from .errors import ToolFailed
from ..tool_def import Args, Wire, WireContext
from .wire import for_page

if TYPE_CHECKING:
    from .browser import Snapshot
    from .control import RunControl
    from .models import MemoryItem, RoleName, Task


class _Services(Protocol):
    @property
    def control(self) -> RunControl: ...


class _State(Protocol):
    @property
    def snapshot(self) -> Snapshot | None: ...


class _Calls(Protocol):
    async def call_wire(self, wire: Wire[Any, Any], a: Any) -> dict[str, Any]: ...


class _User(Protocol):
    async def remember(self, name: str, value: str, source_url: str | None = None) -> MemoryItem: ...

    async def give_answer(self, role: RoleName, text: str) -> None: ...

    async def ask(self, args: Any) -> dict[str, Any]: ...


class TaskEnv(Protocol):
    """What these handlers use of the run (env.AgentEnv provides it): the task, its control, the
    page it is on, the page's tools by their wire (`calls`), the user (the task's memory, its
    answer, a question)."""

    @property
    def task(self) -> Task: ...

    @property
    def services(self) -> _Services: ...

    @property
    def state(self) -> _State: ...

    @property
    def calls(self) -> _Calls: ...

    @property
    def user(self) -> _User: ...


class LocalContext(Protocol):
    """What a local tool's handler works with: the role calling it (its name, the task's env)."""

    @property
    def name(self) -> RoleName: ...

    @property
    def env(self) -> TaskEnv: ...

# --- their arguments, as the model gives them -----------------------------------------------------
class Wait(Args):
    seconds: float = Field(gt=0, le=30)


class Extract(Args):
    name: str = Field(min_length=1)
    value: str | None = Field(None, description="What to remember (or give element_id).")
    element_id: str | None = None


class RecallHistory(Args):
    query: str | None = None


class AskUser(Args):
    question: str = Field(min_length=1)
    kind: Literal["text", "choice", "secret"] = Field(
        "text", description="secret: a code or password you never see; type it as "
        "{{secret:<name>}}.")
    choices: list[str] | None = None
    name: str = Field("secret", pattern=r"^[A-Za-z][\w-]{0,30}$")

    @model_validator(mode="after")
    def _choices(self) -> AskUser:
        if self.kind == "choice" and len(self.choices or []) < 2:
            raise ValueError("a choice needs at least two choices")
        return self


class Answer(Args):
    text: str = Field(min_length=1, description="The answer, in words the user reads first.")


def element_text_args(a: Extract, ctx: WireContext) -> ExtractArgs:
    """extract (to memory) of an element: the browser reads the element; `name` and `value` stay
    with the host, which keeps what was read under `name`."""
    return ExtractArgs.model_validate(for_page({"element_id": a.element_id}, ExtractArgs, ctx))


# extract(element_id=…): the browser reads the element, the host keeps it in memory.
ELEMENT_TEXT: Wire[Extract, ExtractArgs] = Wire("extract", ExtractArgs, element_text_args)


async def wait(a: Wait, role: LocalContext) -> dict[str, Any]:
    await role.env.services.control.interruptible(asyncio.sleep(min(a.seconds, 30)))  # a stop ends the wait
    return {"waited": a.seconds}


async def answer(a: Answer, role: LocalContext) -> dict[str, Any]:
    await role.env.user.give_answer(role.name, a.text)
    return {"answered": True}


async def ask_user(a: AskUser, role: LocalContext) -> dict[str, Any]:
    return await role.env.user.ask(a)


async def recall_history(a: RecallHistory, role: LocalContext) -> dict[str, Any]:
    task = role.env.task
    return {"history": history.cycles(task, detail=True), "memory": history.memory(task)}


async def extract(a: Extract, role: LocalContext) -> dict[str, Any]:
    """Keeps `value`, or the text of `element_id` on the page, in memory under `name`."""
    env = role.env
    where = env.state.snapshot.url if env.state.snapshot else ""
    value = a.value
    if value is None and a.element_id:
        got = await env.calls.call_wire(ELEMENT_TEXT, a)
        value = element_text(got)
    if value is None:
        raise ToolFailed("unsupported", "extract needs a value or an element_id")
    await env.user.remember(a.name, value, where or None)
    return {"saved": a.name, **({"value": value[:200]} if a.value is None else {})}


def element_text(got: dict[str, Any]) -> str:
    """The words an element's extract brought back: its text (a field's: what it holds), or its table
    as lines of cells — never the raw result."""
    table = got.get("table")
    if isinstance(table, dict):
        lines = [" | ".join(map(str, table.get("headers") or []))] if table.get("headers") else []
        lines += [" | ".join(map(str, row)) for row in table.get("rows") or []]
        return "\n".join(lines)
    return str(got.get("text") or "")


async def note(a: Extract, role: LocalContext) -> dict[str, Any]:
    """extract for a role without the page: the value is the role's own."""
    if a.value is None:
        raise ToolFailed("bad_args", "give the value to remember")
    await role.env.user.remember(a.name, a.value)
    return {"saved": a.name}


# --- what a result says in the next prompt ------------------------------------------------------
def recall_text(r: dict[str, Any]) -> str:
    return f"{r.get('history') or '(no earlier cycles)'}\nmemory:\n{r.get('memory') or '(empty)'}"


def tabs_text(r: dict[str, Any]) -> str:
    text = "\n".join(history.tab_line(t) for t in r.get("tabs") or []) or "(no tabs)"
    if r.get("other_tabs"):
        text += f"\n(and {r['other_tabs']} of the user's own tabs, not shown)"
    return text


def tab_moved_text(r: dict[str, Any]) -> str | None:
    return f"now in {history.tab_line(r)}" if "tab_id" in r else None


def asked_text(r: dict[str, Any]) -> str:
    return (f"the user answered: {r['answer']}" if "answer" in r else
            f"the user gave it; type it as {r.get('use_as')} (its value is never shown)")


def saved_text(r: dict[str, Any]) -> str | None:
    """What was read from an element and kept; nothing when the model gave the value itself (its
    call line and MEMORY already say it)."""
    if "saved" not in r or not r.get("value"):
        return None
    return f"saved {r['saved']!r} = {r['value']!r}"


def _quoted(text: str, limit: int) -> str:
    return f'"{text if len(text) <= limit else text[:limit - 1] + "…"}"'


def kept_words(r: dict[str, Any]) -> str | None:
    """What a person reads of an extract: the name it was kept as, or what was read."""
    if r.get("saved"):
        return f"kept as {r['saved']}"
    return f"read {_quoted(r['text'], 80)}" if isinstance(r.get("text"), str) else None


def chosen_words(r: dict[str, Any]) -> str | None:
    """What a person reads of a choice: the option the page now shows."""
    return f"chose {_quoted(r['selected'], 60)}" if isinstance(r.get("selected"), str) else None


def waited_text(r: dict[str, Any]) -> str | None:
    if not r.get("matched"):
        return None
    what = {"quiet": "page quiet", "url": "URL reached"}.get(r["matched"]) or \
        f"{r['matched']} {'gone' if r.get('gone') else 'found'}"
    return f"{what} after {r.get('waited_ms', 0)} ms"


def dialog_said(result: dict[str, Any]) -> str | None:
    """A press's browser dialog and heybro's answer to it, in words (the record, the panel)."""
    return history.dialog_words(result) or None
