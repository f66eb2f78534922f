"""The corpus of real web applications heybro's page map and tasks are measured on (see base.py).

    from support.corpus import APPS, app
    with app("trac").start(folder) as running: …

Each application is a module of this package; this list is the one place they are named.
"""

from __future__ import annotations

from . import (
    mediawiki,
    wordpress,
    adminer,
    roundcube,
    sqlite_web,
    syncthing,
    wagtail,
    trac,
    roundup,
    spirit,
    nodered,
    notebook,
    jupyterlab,
    mlflow,
    verdaccio,
    prometheus,
    datasette,
    django_admin,
    gradio_app,
    pgadmin,
)
from .base import App, NotInstalled, Page, Running, need

APPS: dict[str, App] = {m.APP.name: m.APP for m in (
    mediawiki,
    wordpress,
    adminer,
    roundcube,
    sqlite_web,
    syncthing,
    wagtail,
    trac,
    roundup,
    spirit,
    nodered,
    notebook,
    jupyterlab,
    mlflow,
    verdaccio,
    prometheus,
    datasette,
    django_admin,
    gradio_app,
    pgadmin,
)}


def app(name: str) -> App:
    try:
        return APPS[name]
    except KeyError:
        raise KeyError(f"no corpus application named {name!r} (known: {', '.join(sorted(APPS))})") from None


__all__ = ["APPS", "App", "NotInstalled", "Page", "Running", "app", "need"]
