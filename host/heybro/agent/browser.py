"""The browser as the agent sees it: `observe` snapshots and tool calls through the extension."""

from __future__ import annotations

import hashlib
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field


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

