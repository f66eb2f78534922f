"""The one error a tool answers with: a typed code and a message in words (a browser tool's
not_found or ambiguous, a local tool's refusal, a host tool's timeout or invalid arguments). The
role that called reads it and works around it."""

from __future__ import annotations

from typing import Any


class ToolFailed(Exception):
    """A tool answered with a typed error (not_found, ambiguous, timeout, invalid_arguments …)."""

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail or {}
