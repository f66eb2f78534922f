"""A task on an application of the corpus, done end to end as a user does it from a terminal: real
Chromium with the extension, logged in to the application; the real host over native messaging;
`heybro run` with the goal; the scripted model (an OpenAI-compatible server, scripted_llm.py) acting
only through what the page map in its prompt shows — it finds "the Edit link in the row of Red
Mug" by reading the map text the real model would get (`find_id(body, 'link "Edit"', row="Red
Mug")`), never with a selector, so a control the map hides or misnames fails the task. The outcome
is read from the application's own state (its database, its API, its files).

    TASKS = [CorpusTask("trac", "creates a ticket", goal=…, path="/newticket", script=…, check=…)]

A question is answered by the worker's `answer` tool, with words it reads off the map
(`map_line(body, "Red Mug")`); `run.final["answer"]` is what the user got.

A task's `script(running)` returns the ScriptedLLM script — {"scheduler": [...], "worker": [...],
"verifier": [...]} — and optionally `default(running)` the steps for a role once its list is spent
(e.g. waiting until the page says the work is done). `check(running, run)` asserts on the
application's state (and on `run.final` for an answer).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .app_task import TaskRun, run_task
from .browser import ExtBrowser, launch
from .corpus import app, need
from .corpus.base import Running
from .scripted_llm import ScriptedLLM, call, calls, find_id, find_ids, stay, user_text

Script = dict[str, list[Any]]


@dataclass(frozen=True)
class CorpusTask:
    app: str
    name: str
    goal: str
    path: str
    script: Callable[[Any], Script]
    check: Callable[[Any, TaskRun], None]
    default: Callable[[Any], dict[str, Any]] | None = None
    kind: str = "edit"  # create | edit | delete | answer: what the user asks for
    # What the application holds before the task, for the check to compare with (`run.before`):
    # tasks on one running application see each other's changes.
    before: Callable[[Any], Any] | None = None

    @property
    def id(self) -> str:
        return f"{self.app}: {self.name}"


def one_subtask(goal: str) -> list[Any]:
    """The planner's reply: the whole goal as one subtask, then to work."""
    return [calls(("set_subtasks", {"subtasks": [goal]}), ("start_work", {}))]


def done(summary: str) -> dict[str, Any]:
    return call("mark_done", summary=summary)


def verified(reason: str) -> list[Any]:
    return [call("mark_complete", reason=reason, confidence=0.9)]


def id_before(body: dict[str, Any], label: str, before: str) -> str:
    """The id of the last element named `label` listed before the element named `before` (the
    checkbox on the line above a field, as a person sees it beside the field)."""
    target = find_id(body, before)
    ids = find_ids(body, label)
    order = [m.group(1) for m in re.finditer(r"\[\*?([A-Za-z]*\d+)[\] ]", page_of(body))]
    earlier = [i for i in ids if i in order and order.index(i) < order.index(target)]
    assert earlier, f"no {label!r} before {before!r}"
    return earlier[-1]


def map_line(body: dict[str, Any], *words: str) -> str:
    """The first line of the page map holding all these words (a table's row, a sentence): what a
    model reads to answer a question."""
    for line in page_of(body).splitlines():
        if all(w.lower() in line.lower() for w in words):
            return line
    raise AssertionError(f"no line with {words!r} in the page map:\n{page_of(body)[:3000]}")


def page_of(body: dict[str, Any]) -> str:
    """The page map part of a prompt."""
    return user_text(body).split("PAGE", 1)[-1]


def scrolled_to(words: str, then: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
    """A worker step that scrolls down while `words` are not in the page map of its prompt and the
    page goes on below (a person scrolls to the row they want), then does `then`."""
    def step(b: dict[str, Any]) -> Any:
        page = page_of(b)
        if words in page or "Scroll:" not in page or re.search(r"Scroll: \d+px above, 0px below", page):
            return then(b)
        return stay(call("scroll", direction="down", amount=1))
    return step


def when_page_says(words: str, then: dict[str, Any], wait_s: float = 1) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A worker step that waits until the page in its prompt shows `words`, then does `then`."""
    return lambda b: then if words in page_of(b) else call("wait", seconds=wait_s)


@contextmanager
def started(name: str, data: Path) -> Iterator[Running]:
    a = app(name)
    need(a)
    with a.start(data) as running:
        yield running


@contextmanager
def logged_in(running: Running, *, inject: str | None = None) -> Iterator[ExtBrowser]:
    """A fresh browser with the extension (host registered), logged in to the application; with
    `inject`, a script every page of it runs as it loads (a prompt injection on each page)."""
    with launch() as eb:
        page = eb.ctx.pages[0] if eb.ctx.pages else eb.ctx.new_page()
        page.set_viewport_size({"width": 1280, "height": 800})
        running.login(page)
        if inject:  # (after the login: the harness's own clicks are not the task's)
            eb.ctx.add_init_script(inject)
        yield eb


def run_corpus_task(task: CorpusTask, running: Running, eb: ExtBrowser, *, timeout_s: float = 300,
                    env: dict[str, str] | None = None,
                    answer: Callable[[dict[str, Any]], str] | None = None) -> TaskRun:
    """Runs the task with `heybro run` and checks the outcome in the application's state; the run
    (its events, for the report). `env`: settings for the run (HEYBRO_CONFIRM=1 asks first, as a
    user's heybro does); `answer`: the user's answer to each question heybro asks."""
    default = {"worker": task.default(running)} if task.default else {}
    before = task.before(running) if task.before else None
    with ScriptedLLM(task.script(running), default=default) as llm:
        run = run_task(eb, llm, task.goal, running.url + task.path, timeout_s=timeout_s, env=env,
                       answer=answer)
    run.before = before
    assert run.rc == 0, f"{task.id}: heybro run ended with {run.rc}\n{run.explain()}"
    try:
        task.check(running, run)
    except AssertionError as e:
        raise AssertionError(f"{task.id}: the application's state is not what the task asked for: {e}\n{run.explain()}") from e
    return run
