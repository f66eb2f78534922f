"""Analyst: answers and computes from what was gathered, without the page, until answer(text)."""

from __future__ import annotations

from .analyst_prompt import SYSTEM
from .desk import DeskRole


class Analyst(DeskRole):
    name = "analyst"
    work_kind = "analyst"
    system = SYSTEM
