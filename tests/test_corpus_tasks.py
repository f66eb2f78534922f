"""Tasks a user gives heybro on real applications it was never written for — insert, change and
delete a record found by its name in a data grid, answer a question read off a table — done end to
end (real Chromium, extension, host, `heybro run`; the scripted model reads every id, row and value
off the page map) and checked in each application's own state. The whole set is
scripts/bench_app_tasks.py; these are the applications scripts/setup installs for the tests."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from support.corpus import NotInstalled, app
from support.corpus_task import CorpusTask, logged_in, run_corpus_task, started
from support.corpus_tasks import ALL_TASKS

pytestmark = pytest.mark.browser

# Installed by scripts/setup (light to install and quick to start); the rest run in the benchmark.
IN_TESTS = ("sqlite_web",)
TASKS = [t for t in ALL_TASKS if t.app in IN_TESTS]


@pytest.fixture(scope="module")
def apps() -> Iterator[dict[str, Any]]:
    """Each application started once for the module (its tasks see each other's changes)."""
    running: dict[str, Any] = {}
    with ExitStack() as stack:
        def get(name: str) -> Any:
            if name not in running:
                try:
                    app(name).missing() and pytest.skip(f"{name} is not installed (scripts/setup installs it)")
                except NotInstalled as e:
                    pytest.skip(str(e))
                folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"heybro-{name}-")))
                running[name] = stack.enter_context(started(name, folder))
            return running[name]
        yield {"get": get}


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_a_task_on_a_real_application_is_done_and_checked_in_its_state(task: CorpusTask, apps: dict[str, Any]) -> None:
    running = apps["get"](task.app)
    with logged_in(running) as eb:
        run_corpus_task(task, running, eb)
