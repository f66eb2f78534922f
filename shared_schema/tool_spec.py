"""What one browser tool takes and returns."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ToolArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolSpec(BaseModel):
    args: type[BaseModel]
    result: type[BaseModel]
    doc: str
