"""Technician: system-side work with host tools only, until mark_done(summary)."""

from __future__ import annotations

from .desk import DeskRole
from .technician_prompt import SYSTEM


class Technician(DeskRole):
    name = "technician"
    work_kind = "technician"
    system = SYSTEM
