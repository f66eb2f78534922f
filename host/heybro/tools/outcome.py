"""What a host tool call gives back: a result, or a typed error in words — never an exception (a
handler raises heybro.tool_def.errors.ToolFailed with one of these codes; the registry turns it
into a ToolError).

Error codes (one family, drawn once):
  unknown_tool        no tool of that name is offered
  invalid_arguments   the arguments do not fit the tool's parameters
  refused             the call would leave its confinement (a path outside the workspace, a
                      private address, a file too large…) and is not run
  needs_confirmation  the call needs the user's yes first (a shell command off the allow-list)
  not_found           the file or page asked for does not exist
  timeout             the tool ran past its time limit and was stopped
  unavailable         the tool's server would not start, or crashed
  tool_error          the tool ran and reported a failure (an MCP server's isError, a bad expression,
                      an HTTP error status, a command's non-zero exit)
  failed              anything else that went wrong inside the tool
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel

ErrorCode = Literal["unknown_tool", "invalid_arguments", "refused", "needs_confirmation",
                    "not_found", "timeout", "unavailable", "tool_error", "failed"]


class ToolOk(BaseModel):
    ok: Literal[True] = True
    tool: str = ""  # the tool's name: set by the registry (a handler need not say its own name)
    text: str
    data: dict[str, Any] | None = None

    def for_model(self) -> str:
        return self.text


class ToolError(BaseModel):
    ok: Literal[False] = False
    tool: str
    code: ErrorCode
    message: str

    def for_model(self) -> str:
        return f"{self.tool} failed ({self.code}): {self.message}"


ToolOutcome = ToolOk | ToolError


def error_code(code: str) -> ErrorCode:
    """A failure's code as one of the family (a code from elsewhere reads as `failed`)."""
    return code if code in get_args(ErrorCode) else "failed"  # type: ignore[return-value]
