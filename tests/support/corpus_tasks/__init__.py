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
