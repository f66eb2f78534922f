"""An outside agent acting through heybro (`heybro mcp`): its page-level calls run as one heybro
task — shown in the side panel, paused or stopped there by the user — through the same tool
definitions, re-finding, expectation checks, trusted input and risk confirmation as heybro's own
worker. Only the MCP server (heybro's own process, on the local endpoint) sends these."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .payload import Payload


class OutsideOpen(Payload):
    """Opens the task an outside agent's page calls run in (answered with task.accepted)."""

    client: str = Field("an outside agent", min_length=1, max_length=120, description=(
        "Who acts, as the MCP client named itself (shown to the user, as data)."))
    url: str | None = Field(None, description="Open this page first, in a new tab of the task.")


class OutsideAct(Payload):
    """One page-level call: a tool of heybro's worker by name with the arguments its definition
    takes, or `observe` (the page map)."""

    task_id: str
    tool: str = Field(min_length=1, max_length=64)
    parameters: dict[str, Any] = Field(default_factory=dict)


class OutsideActed(Payload):
    """What the call did, as heybro's worker would have heard it."""

    success: bool
    status: str = Field(description="The task's status after the call (paused, stopped, …).")
    target: str | None = Field(None, description="The element acted on, as the page map names it.")
    result: dict[str, Any] | None = None
    error: str | None = None
    error_code: str | None = Field(None, description="not_found, ambiguous, not_allowed, declined "
                                   "(the user said no), paused, …")
    checked: str | None = Field(None, description="The expectation heybro checked on the page "
                                "after the call: met or NOT met, with what it read.")
    decided: str | None = Field(None, description="What the user was asked and said (a risky "
                                "action's confirmation).")
    page: str | None = Field(None, description="heybro's page map (observe), as its worker reads it.")
    url: str | None = None
    page_changed: bool = Field(False, description="The call left the page (observe again for its "
                               "map).")
    notes: list[str] = Field(default_factory=list, description="heybro's warnings (the page came "
                             "back to the same state again, …).")
