"""A completed task → a routine: what it did on the page, step by step, and how it knew it worked.

Two records of the run are read together. The action ledger is the complete list of what was
carried out on the page, in order (a worker cut short by a pause leaves its actions there, not in
the executor's history); the task's checkpoint (its execution history) says for each action why it
was taken, which subtask it served, the page it acted on and whether its expectation held, and
for each subtask its verified outcome. Actions that failed, were declined or were cut off are not
steps; neither are the ones that only read (observe, extract …): replay does not need them.

Values the user gave — in the goal, a follow-up message or an answer — become parameters when an
action typed, filled or selected them: the step holds `{{param:NAME}}` (as do the goal, the
subtasks, the intents and the expectations, so a run with another value expects that value), and
the recorded value is the default. Text typed into a field is the user's when they said it; an
option chosen from those a control offered is only when they gave it as a value — quoted, or as
a whole answer or message — never because the goal shares a word with it ("approve the comment"
and a bulk-action menu's "Approve"). A secret stays `{{secret:NAME}}` and never gets a default.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ValidationError
from shared_schema.status import Decision, TaskStatus

from ..agent.models import ExpectedOutcome, Task, ToolCall
from ..agent.signature import attrs_of
from ..agent.toolbox import ASK_USER, WORKER_TOOLS
from ..store.routines import StoreRoutines
from ..store.task_store import ActionRow, TaskStore
from .model import Outcome, Parameter, Routine, Step

# Page actions (the worker's tools that act in the browser or move between tabs): derived from
# the toolbox, so a new browser tool is a step without a change here.
PAGE_TOOLS = {t.name: t for t in WORKER_TOOLS if t.acts_on_page}
# A value set off in quotes: "…", '…' (not an apostrophe inside a word), “…”, ‘…’, «…», `…`.
QUOTED = re.compile(r'"([^"\n]+)"|(?<!\w)\'([^\'\n]+)\'(?!\w)|“([^”\n]+)”|‘([^’\n]+)’|«([^»\n]+)»|`([^`\n]+)`')
SECRET = re.compile(r"\{\{secret:[^}]+\}\}")


class SaveRefused(ValueError):
    """The task cannot be saved as a routine; the message says why, in words. `code` is the
    wire's error code for it."""

    def __init__(self, message: str, code: str = "invalid_state") -> None:
        super().__init__(message)
        self.code = code


def save_task(store: TaskStore, task_id: str, name: str, *, replace: bool = False) -> Routine:
    """Builds the routine from the task and stores it (refused when the name is taken, unless
    `replace`)."""
    routines = StoreRoutines(store)
    if not replace and routines.get(name) is not None:
        raise SaveRefused(f"a routine named {name!r} exists already (choose another name, or "
                          "replace it)")
    routine = routine_from_task(store, task_id, name)
    try:
        return routines.save(routine, replace=replace)
    except ValueError as err:
        raise SaveRefused(str(err)) from err


def routine_from_task(store: TaskStore, task_id: str, name: str) -> Routine:
    row = store.get_task(task_id)
    state = store.load_checkpoint(task_id) if row is not None else None
    if row is None or state is None:
        raise SaveRefused(f"no task {task_id!r} (`heybro tasks` lists them)", "task_not_found")
    if row.status != TaskStatus.completed:
        raise SaveRefused(f"task {task_id} is {row.status}: only a completed task can be saved "
                          "as a routine")
    task = Task.model_validate(state)
    recorded = _steps(task, store.actions(task_id, "done"))
    steps = [s for s, _ in recorded]
    if not steps:
        raise SaveRefused(f"task {task_id} did nothing in the browser: there is nothing to replay")
    outcomes = _outcomes(task)
    said = _user_texts(task, store, task_id)
    parameters, values = _parameters(steps, said)
    try:
        return Routine(
            name=name, goal=_placed(task.description, values), parameters=parameters,
            start_url=task.url or steps[0].url, source_task=task_id,
            subtasks=[o.model_copy(update={"text": _placed(o.text, values),
                                           "done_when": _placed_expect(o.done_when, values)})
                      for o in outcomes],
            steps=[_with_params(s, doing, values) for s, doing in recorded])
    except ValidationError as err:
        problems = "; ".join(str(e["msg"]) for e in err.errors())
        raise SaveRefused(f"cannot save it as {name!r}: {problems}") from err


# --- steps -----------------------------------------------------------------------------------

def _calls(task: Task) -> Iterator[tuple[int, str, ToolCall]]:
    """The workers' calls in the history, in order: (subtask, the worker's reasoning, call)."""
    for cycle in task.execution_history:
        for it in cycle.worker.iterations if cycle.worker else []:
            for call in it.tool_calls:
                yield cycle.subtask_index or 0, it.reasoning, call


def _same(entry: ActionRow, call: ToolCall) -> bool:
    params = {k: v for k, v in entry.params.items() if k not in ("target", "signature")}
    return entry.tool == call.tool and params == call.parameters


def _steps(task: Task, done: list[ActionRow]) -> list[tuple[Step, str]]:
    """One step per action carried out on the page (the ledger), told about by the history; with
    what it did in words (`click button "Place order"`), the start of its intent."""
    known = [c for c in _calls(task) if c[2].tool in PAGE_TOOLS and c[2].success]
    steps: list[tuple[Step, str]] = []
    at = 0
    for entry in done:
        if entry.tool not in PAGE_TOOLS:
            continue
        match = next((i for i in range(at, len(known)) if _same(entry, known[i][2])), None)
        if match is not None:
            at = match + 1
            subtask, reasoning, call = known[match]
            steps.append(_step(entry, subtask, call.reason or reasoning, call))
        else:  # done by a worker cut short: not in the history, still on the page
            steps.append(_step(entry, steps[-1][0].subtask if steps else 0, "", None))
    return steps


def _step(entry: ActionRow, subtask: int, reason: str,
          call: ToolCall | None) -> tuple[Step, str]:
    """The step (its intent, for now, the reason alone) and what it did in words."""
    tool = PAGE_TOOLS[entry.tool]
    params = {k: v for k, v in entry.params.items() if k not in ("target", "signature")}
    args: dict[str, Any]
    expect: ExpectedOutcome | None
    try:
        parsed: BaseModel = tool.args.model_validate(params)
        args = parsed.model_dump(exclude={"expect", "element_id"}, exclude_none=True)
        expect = getattr(parsed, "expect", None)
    except ValidationError:
        args, expect = {k: v for k, v in params.items() if k not in ("expect", "element_id")}, None
    if call is not None and call.expectation is not None and not call.expectation.met:
        expect = None  # it did not hold when recorded: replay must not stop on it
    target = entry.params.get("target")
    doing = f"{entry.tool} {target}" if target else entry.tool
    signature = entry.params.get("signature") or (call.signature if call else None)
    if params.get("element_id") and not isinstance(signature, dict):
        # Recorded before heybro kept signatures: nothing to find the element by on replay.
        raise SaveRefused(f"the task's step {entry.tool} {target or params['element_id']} has "
                          "no record of its element (the task ran on an older heybro): run the "
                          "task again, then save that run")
    return Step(tool=entry.tool, args=args, expect=expect, subtask=subtask,
                signature=signature if isinstance(signature, dict) else None,
                intent=" ".join(reason.split()), url=call.url if call is not None else None), doing


def _outcomes(task: Task) -> list[Outcome]:
    verdicts: dict[int, str] = {}
    for cycle in task.execution_history:
        v = cycle.verdict
        if v is not None and v.decision == Decision.mark_complete and v.accepted:
            verdicts[cycle.subtask_index or 0] = v.reason
    return [Outcome(text=s.text, done_when=s.done_when, verdict=verdicts.get(i, ""))
            for i, s in enumerate(task.subtasks)]


# --- parameters ------------------------------------------------------------------------------

class Said:
    """What the user said to the task (its goal, follow-up messages and answers), and the values
    they gave as such: the quoted ones, and each message or answer whole."""

    def __init__(self, goal: str, messages: list[str], answers: list[str]) -> None:
        self.texts = [goal, *messages, *answers]
        quoted = [next(g for g in m.groups() if g) for t in [goal, *messages]
                  for m in QUOTED.finditer(t)]
        self.values = {" ".join(v.split()).lower() for v in [*quoted, *messages, *answers]}

    def mentions(self, value: str) -> bool:
        return any(_occurs(value).search(t) for t in self.texts)

    def gave(self, value: str) -> bool:
        return " ".join(value.split()).lower() in self.values


def _user_texts(task: Task, store: TaskStore, task_id: str) -> Said:
    messages = [m.value for m in task.memory if m.name == "user_message"]
    messages += [str(e.data["text"]) for e in store.events(task_id, kinds=["message"])
                 if e.data.get("who") == "user" and isinstance(e.data.get("text"), str)
                 and not e.data.get("answers")]
    answers = [str(e.data["text"]) for e in store.events(task_id, kinds=["message"])
               if e.data.get("who") == "user" and e.data.get("answers")
               and isinstance(e.data.get("text"), str)]
    for _, _, call in _calls(task):
        if call.tool == ASK_USER.name and isinstance(call.result, dict) and call.result.get("answer"):
            answers.append(str(call.result["answer"]))
    return Said(task.description, list(dict.fromkeys(messages)), list(dict.fromkeys(answers)))


def _occurs(value: str) -> re.Pattern[str]:
    """`value` as the user may have written it: any case, not inside a longer word or number."""
    return re.compile(rf"(?<![\w]){re.escape(value)}(?![\w])", re.IGNORECASE)


def _parameters(steps: list[Step], said: Said) -> tuple[list[Parameter], dict[str, str]]:
    """The values the steps typed that the user gave, as parameters; and value → name."""
    names: dict[str, str] = {}
    params: list[Parameter] = []
    for step in steps:
        tool = PAGE_TOOLS.get(step.tool)
        key = tool.value_arg if tool else None  # the argument carrying a value the user may give
        value = step.args.get(key) if key else None
        if not isinstance(value, str) or not value.strip() or SECRET.search(value):
            continue
        value = value.strip()
        if value.lower() in (v.lower() for v in names):
            continue
        # A choice among the page's own options is the user's only when they gave it.
        if not (said.gave(value) if tool and tool.effects.chooses else said.mentions(value)):
            continue
        name = _unique(_name_for(step.signature), set(names.values()))
        names[value] = name
        label = _label(step.signature)
        params.append(Parameter(name=name, default=value,
                                description=f"typed into {label}" if label else ""))
    return params, names


def _label(sig: dict[str, Any] | None) -> str:
    """What a person reads as the field's name (its label, aria-label, placeholder, accessible
    name), else what the form calls it."""
    if not sig:
        return ""
    attrs = attrs_of(sig)
    for text in (sig.get("label"), attrs.get("aria-label"), attrs.get("placeholder"),
                 sig.get("name"), attrs.get("name"), attrs.get("id")):
        if isinstance(text, str) and text.strip():
            return " ".join(text.split())
    return ""


def _name_for(sig: dict[str, Any] | None) -> str:
    if sig and (sig.get("role") == "searchbox" or attrs_of(sig).get("type") == "search"):
        return "search"  # whatever its label says ("Search products", "Find…"): search words
    words = re.findall(r"[a-z0-9]+", _label(sig).lower())[:3]
    name = "_".join(words)[:32].strip("_")
    if not name:
        return "value"
    return name if name[0].isalpha() else f"field_{name}"[:32]


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name}_{n}" in taken:
        n += 1
    return f"{name}_{n}"


def _placed(text: str, values: dict[str, str]) -> str:
    """`text` with each recorded value the user gave replaced by its placeholder (longest first,
    so a value inside another one does not split it)."""
    for value in sorted(values, key=len, reverse=True):
        text = _occurs(value).sub(f"{{{{param:{values[value]}}}}}", text)  # names hold no "\\"
    return text


def _placed_expect(expect: ExpectedOutcome | None,
                   values: dict[str, str]) -> ExpectedOutcome | None:
    if expect is None:
        return None
    return expect.mapped(lambda s: _placed(s, values))


def _with_params(step: Step, doing: str, values: dict[str, str]) -> Step:
    """The step with the user's values as placeholders (not in the element's name: that is the
    page's text) and its whole intent."""
    args = {k: _placed(v, values) if isinstance(v, str) else v for k, v in step.args.items()}
    reason = _placed(step.intent, values)
    return step.model_copy(update={"args": args, "expect": _placed_expect(step.expect, values),
                                   "intent": f"{doing}: {reason}" if reason else doing})
