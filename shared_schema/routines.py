"""Routine messages: save a finished task as a routine, list, delete and run routines (the panel's
routine list and the `heybro routine` commands). The routine file itself is host-side
(heybro.routines.model); only what the two sides exchange is defined here."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .payload import Payload

ROUTINE_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"


class RoutineSummary(Payload):
    """One routine as listed: what it does and how its last run went."""

    name: str
    goal: str
    steps: int = Field(ge=0)
    parameters: dict[str, str] = Field(default_factory=dict,
                                       description="Parameter name → default value.")
    heals: int = Field(0, ge=0, description="Steps healed into it since it was saved.")
    created_at: float
    updated_at: float
    runs: int = Field(0, ge=0)
    last_task: str | None = Field(None, description="The last run's task id (in the history).")
    last_status: str | None = Field(None, description="The last run's task status.")
    last_run_at: float | None = None
    last_seconds: float | None = Field(None, description="The last run's wall time.")
    last_heals: int | None = Field(None, description="Steps the last run healed.")
    last_model_calls: int | None = Field(None, description="Model calls the last run made.")


class RoutineSave(Payload):
    task_id: str = Field(description="A completed task.")
    name: str = Field(pattern=ROUTINE_NAME)
    replace: bool = Field(False, description="Overwrite a routine of that name.")


class RoutineSaved(Payload):
    routine: RoutineSummary


class RoutineList(Payload):
    pass


class RoutineListResult(Payload):
    routines: list[RoutineSummary]


class RoutineRef(Payload):
    name: str = Field(pattern=ROUTINE_NAME)


class RoutineRun(Payload):
    name: str = Field(pattern=ROUTINE_NAME)
    params: dict[str, str] = Field(default_factory=dict,
                                   description="Parameter values; the rest keep their defaults.")
    url: str | None = Field(None, description="Start here instead of the recorded start page.")
    tab_id: int | None = Field(None, description="The tab the user started from.")
    on_heal_failure: Literal["continue", "stop"] = Field(
        "continue", description="When a step cannot be healed: go on as a normal task (the model "
        "takes over from there) or stop.")
