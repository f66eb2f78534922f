"""The browser as the agent sees it: `observe` snapshots and tool calls through the extension."""

from __future__ import annotations

import hashlib
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field


class ToolFailed(Exception):
    """A browser tool answered with a typed error (not_found, ambiguous, timeout, ...)."""

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail or {}


class BrowserLost(Exception):
    """The browser side went away (the native channel closed, or it stopped answering) while a
    call was in flight or about to go out. What that call did is unknown — a click may have placed
    an order — so it is never retried: the run ends and the task pauses with the call named, and
    on resume the worker is told and looks at the page first."""

    def __init__(self, tool: str, why: str, *, sent: bool = True) -> None:
        super().__init__(why)
        self.tool = tool
        self.why = why
        self.sent = sent  # False: it never left, so it surely did not happen
        self.what = tool  # the worker names the action by its element when it knows it

    def __str__(self) -> str:
        if not self.sent:
            return f"{self.why} before {self.what} was sent (it was not done)"
        return f"{self.why} while {self.what} was in flight"


class Browser(Protocol):
    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000) -> dict[str, Any]: ...


class Snapshot(BaseModel):
    """The DOM agent's `observe` result (extra fields kept)."""

    model_config = ConfigDict(extra="allow")
    url: str = ""
    title: str = ""
    text: str = ""
    elements: dict[str, Any] = Field(default_factory=dict)
    screenshot: str | None = None

    def describe(self, element_id: Any) -> str | None:
        """A short human name for an element of this snapshot: its role and accessible name."""
        sig = self.elements.get(element_id) if isinstance(element_id, str) else None
        if not isinstance(sig, dict):
            return None
        kind = sig.get("role") or sig.get("tag") or "element"
        name = " ".join(str(sig.get("name") or "").split())
        return f'{kind} "{name[:60]}{"…" if len(name) > 60 else ""}"' if name else str(kind)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha1(f"{self.url}\n{self.text}".encode()).hexdigest()[:16]

