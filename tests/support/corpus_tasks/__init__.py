"""Tasks on the corpus's applications (see support/corpus_task.py), one module per application;
this list is the one place they are named."""

from __future__ import annotations

from ..corpus_task import CorpusTask
from . import (
    adminer,
    roundcube,
    roundup,
    spirit,
    sqlite_web,
    notebook,
    jupyterlab,
    trac,
    wagtail,
    syncthing,
    nodered,
    mlflow,
)

ALL_TASKS: list[CorpusTask] = [t for m in (
    adminer,
    roundcube,
    roundup,
    spirit,
    sqlite_web,
    notebook,
    jupyterlab,
    trac,
    wagtail,
    syncthing,
    nodered,
    mlflow,
) for t in m.TASKS]


def tasks_by_app(apps: list[str] | None = None, only: str | None = None) -> dict[str, list[CorpusTask]]:
    """The tasks of these applications (all when none are named) whose name holds `only`, by
    application, in the list's order (what the corpus benchmarks run)."""
    out: dict[str, list[CorpusTask]] = {}
    for t in ALL_TASKS:
        if (not apps or t.app in apps) and (not only or only in t.name):
            out.setdefault(t.app, []).append(t)
    return out
