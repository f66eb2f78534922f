"""Importing the modules that plug capabilities into the host and the CLI (each registers itself),
without failing when one is absent from a trimmed install."""

from __future__ import annotations

import importlib


def import_optional(*names: str) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:  # the module exists but something it needs does not: say so
                raise
