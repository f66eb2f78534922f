"""The routine file: what a finished task did, step by step, in a form replay can follow.

One definition, read by saving (task → routine), replay, healing and export. A step keeps the
element's signature from the page it was recorded on, so replay re-finds it on the page it meets;
its intent (the worker's reason and the subtask) is what healing hands the model when re-finding
abstains or the step's expectation fails. Values the user gave are parameters: a step's argument
holds `{{param:NAME}}` where the recorded value stood, and the recorded value is the default.
"""

from __future__ import annotations

import re
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from shared_schema.dom_tools import Signature

from ..agent.models import ExpectedOutcome

FORMAT_VERSION: Literal[1] = 1
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
PARAM_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
# Where a parameter's value goes in a step's arguments (a secret keeps its own {{secret:NAME}}).
PLACEHOLDER = re.compile(r"\{\{param:([a-z][a-z0-9_]{0,39})\}\}")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Parameter(_Model):
    """A value the user gave the task (a name, an e-mail, search words, an amount)."""

    name: str = Field(description="Identifier used in `{{param:NAME}}` and on the command line.")
    default: str = Field(description="The value the recorded task used.")
    description: str = Field("", description="What it is, in words (shown by `routine show`).")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not PARAM_NAME.match(v):
            raise ValueError("a parameter name is lower-case letters, digits and _ (starting "
                             "with a letter), at most 40 characters")
        return v


class Step(_Model):
    """One browser action as it ran, and how to know it worked."""

    tool: str = Field(description="The browser tool: click, fill, type, select, check, press, "
                      "navigate, wait_for … (the worker's tool names).")
    args: dict[str, Any] = Field(
        default_factory=dict,
        description="The tool's arguments as the worker gave them, without element_id and expect; "
        "strings may hold {{param:NAME}}.")
    signature: Signature | None = Field(
        None, description="The acted-on element as observed when the task ran (re-finding).")
    expect: ExpectedOutcome | None = Field(None, description="What the action should change.")
    intent: str = Field("", description="Why the step is there, in the worker's words: what a "
                        "heal asks the model to do when the page no longer matches.")
    subtask: int = Field(0, ge=0, description="Index into `subtasks` of the subtask it served.")
    url: str | None = Field(None, description="The page the step acted on (for reading and "
                            "export; replay does not require it).")


class Outcome(_Model):
    """A subtask of the recorded run and its verified result."""

    text: str
    done_when: ExpectedOutcome | None = None
    verdict: str = Field("", description="The verified outcome (the verifier's or host's reason).")


class Routine(_Model):
    format: Literal[1] = FORMAT_VERSION
    name: str
    goal: str = Field(description="The recorded task's goal, parameters as {{param:NAME}}.")
    start_url: str | None = None
    parameters: list[Parameter] = Field(default_factory=list)
    subtasks: list[Outcome] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    source_task: str | None = Field(None, description="The task it was saved from.")
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)
    heals: int = Field(0, ge=0, description="Steps healed into it by verified runs since saving.")

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not NAME.match(v):
            raise ValueError("a routine name is letters, digits, '.', '_' and '-', at most 64 "
                             "characters, starting with a letter or digit")
        return v

    def values(self, given: dict[str, str] | None = None) -> dict[str, str]:
        """Each parameter's value for a run: the given one, else its default. An unknown name is
        an error (a typo must not replay with the recorded value)."""
        given = dict(given or {})
        known = {p.name for p in self.parameters}
        unknown = sorted(set(given) - known)
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; this routine takes: "
                             f"{', '.join(sorted(known)) or 'none'}")
        return {p.name: given.get(p.name, p.default) for p in self.parameters}


def fill(value: Any, values: dict[str, str]) -> Any:
    """`value` with every {{param:NAME}} replaced (strings, and strings inside lists and dicts)."""
    if isinstance(value, str):
        return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [fill(v, values) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, values) for k, v in value.items()}
    return value
