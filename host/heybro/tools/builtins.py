"""heybro's own host tools, each declared once: its name, arguments, words for the model, effects
and the roles it is given unless the user's settings say otherwise (`RoleTool.roles`) — the
settings' names and defaults are read from here (settings.py), the registry offers them
(registry.py). A handler lives in its own module (calculate.py, fetch.py, …) and is loaded on the
first call (an HTTP client takes time to import, and the settings read this module on every
command).

A new host tool: its declaration here, its handler module, its test.
"""

from __future__ import annotations

import importlib
from typing import Any, Literal

from pydantic import Field

from ..tool_def import Args, Asks, Effects, HostRun, RoleTool

# The roles that may be given host tools: the technician does system-side work; the analyst
# computes and reads; the worker works the page and may compute on the way.
EVERY_ROLE = ("worker", "analyst", "technician")
AT_THE_DESK = ("analyst", "technician")


def handler(module: str, name: str) -> HostRun:
    """The handler `name` of heybro.tools.<module>, imported on its first call."""
    async def run(args: Any, ctx: Any) -> Any:  # (ctx: the task's ToolContext, tool.py)
        return await getattr(importlib.import_module(f"{__package__}.{module}"), name)(args, ctx)
    run.__qualname__ = f"{module}.{name}"
    return run


def asker(module: str, name: str) -> Asks:
    """The function `name` of heybro.tools.<module> that says when a call needs the user's yes,
    imported on its first use."""
    def asks(params: dict[str, Any], ctx: Any) -> str | None:
        said: str | None = getattr(importlib.import_module(f"{__package__}.{module}"), name)(params, ctx)
        return said
    asks.__qualname__ = f"{module}.{name}"
    return asks


CALCULATE_MAX_CHARS = 500
CALCULATE_ALLOWED = "numbers, + - * / // % **, parentheses and round, min, max, abs, sqrt"


class Calculate(Args):
    expression: str = Field(min_length=1, max_length=CALCULATE_MAX_CHARS,
                            description="e.g. round(19.99 * 3 / 2, 2)")


class Now(Args):
    timezone: str | None = Field(None, description="IANA name, e.g. Asia/Tokyo (default: the user's).")


class ReadFile(Args):
    path: str = Field(min_length=1, description="Relative to the task's workspace; a folder "
                      "lists its files.")


class WriteFile(Args):
    path: str = Field(min_length=1, description="Relative to the task's workspace.")
    content: str
    mode: Literal["overwrite", "append"] = "overwrite"


class Fetch(Args):
    url: str = Field(min_length=1, description="http(s) URL")


class Shell(Args):
    command: str = Field(min_length=1, description="One command with its arguments (no pipes or "
                         "redirections); runs in the task's workspace folder.")


CALCULATE = RoleTool("calculate", Calculate, "Exact decimal math: + - * / // % **, round, min, "
                     "max, abs, sqrt.", "host", Effects(read_only=True), run=handler("calculate", "run"),
                     roles=EVERY_ROLE)
NOW = RoleTool("now", Now, "The current date and time.", "host", Effects(read_only=True), run=handler("clock", "now"),
               roles=EVERY_ROLE)
READ_FILE = RoleTool("read_file", ReadFile, "Read a text file (or list a folder) in the task's "
                     "workspace folder, or one of its resources by name.", "host",
                     Effects(read_only=True), run=handler("workspace", "read_file"),
                     roles=AT_THE_DESK)
WRITE_FILE = RoleTool("write_file", WriteFile, "Write or append a text file in the task's "
                      "workspace folder.", "host", Effects(read_only=False),
                      run=handler("workspace", "write_file"), roles=("technician",))
FETCH = RoleTool("fetch", Fetch, "Read a web page or text file at a URL (HTTP GET; its readable "
                 "text).", "host", Effects(read_only=True, sends="url"),
                 run=handler("fetch", "fetch"), roles=AT_THE_DESK)
# Offered only when the user turned it on (settings `tools.shell.enabled`); its time limit is the
# user's (registry.builtin_tools); a command off the user's allow-list needs their yes (shell.asks).
SHELL = RoleTool("shell", Shell, "Run a command in the task's workspace folder.", "host",
                 Effects(read_only=False, sends="shell"), run=handler("shell", "run"),
                 asks=asker("shell", "asks"), roles=("technician",))

BUILTIN_TOOLS: tuple[RoleTool, ...] = (CALCULATE, NOW, READ_FILE, WRITE_FILE, FETCH, SHELL)
