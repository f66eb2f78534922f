"""`shell`: a command run in the task's workspace — only when the user turned it on.

Commands run without a shell (argv from shlex): no pipes, redirections or `;` chains, so what the
allow-list matches is exactly what runs. A command off the allow-list is not run: it needs the
user's confirmation (the tool is marked so; the ask-the-user flow decides). Output is bounded, the
process group is killed at the timeout, and the host's secrets are not in the command's environment.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import os
import shlex
import signal

from typing import Any

from ..tool_def.errors import ToolFailed
from .builtins import Shell
from .outcome import ToolOk
from .tool import ToolContext

_SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL")


def allowed(argv: list[str], allow: list[str]) -> bool:
    """True when an allow-list entry's words start the command (each word may be a glob)."""
    for entry in allow:
        words = shlex.split(entry)
        if words and len(argv) >= len(words) and all(
                fnmatch.fnmatchcase(a, w) for a, w in zip(argv, words, strict=False)):
            return True
    return False


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if not k.startswith("HEYBRO_") and not any(w in k.upper() for w in _SECRET_WORDS)}


async def _bounded(stream: asyncio.StreamReader, limit: int) -> tuple[str, bool]:
    kept = bytearray()
    cut = False
    while chunk := await stream.read(65536):
        room = limit - len(kept)
        kept += chunk[:max(room, 0)]
        cut = cut or len(chunk) > room  # keep draining: a full pipe would stall the command
    return kept.decode("utf-8", errors="replace"), cut


def _kill(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if hasattr(os, "killpg"):
                os.killpg(process.pid, signal.SIGKILL)  # the command's children too
            else:
                process.kill()


async def run(args: Shell, ctx: ToolContext) -> ToolOk:
    s = ctx.settings.shell
    try:
        argv = shlex.split(args.command)
    except ValueError as err:
        raise ToolFailed("invalid_arguments", f"cannot split the command into words: {err}") from None
    if not argv:
        raise ToolFailed("invalid_arguments", "the command is empty")
    if not allowed(argv, s.allow) and not ctx.confirmed:  # (a caller that did not ask)
        raise ToolFailed("needs_confirmation", f"`{args.command}` is {OFF_LIST}")
    ctx.workspace.mkdir(parents=True, exist_ok=True)
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, cwd=ctx.workspace, env=_environment(), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True)
    except FileNotFoundError:
        raise ToolFailed("not_found", f"no program named {argv[0]!r}") from None
    except PermissionError:
        raise ToolFailed("refused", f"{argv[0]!r} is not executable") from None
    try:
        assert process.stdout is not None
        async with asyncio.timeout(s.timeout_s):
            output, cut = await _bounded(process.stdout, s.max_output)
            code = await process.wait()
    except TimeoutError:
        raise ToolFailed("timeout", f"`{args.command}` ran longer than {s.timeout_s:g} s and "
                          "was stopped") from None
    finally:
        if process.returncode is None:  # a timeout or a cancelled task: nothing outlives the call
            _kill(process)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), 5)
    text = output + ("\n[… output cut at the limit]" if cut else "")
    if code != 0:
        raise ToolFailed("tool_error", f"`{args.command}` exited with status {code}:\n{text}")
    return ToolOk(text=text or "(no output)", data={"exit_code": code})


OFF_LIST = "not on your allow-list of shell commands: it needs your confirmation before it runs"


def asks(params: dict[str, Any], ctx: ToolContext) -> str | None:
    """A command off the user's allow-list needs their yes (one that cannot be split is refused
    when it runs)."""
    try:
        argv = shlex.split(str(params.get("command") or ""))
    except ValueError:
        return None
    return f"`{params.get('command')}` is {OFF_LIST}" if argv and not allowed(argv, ctx.settings.shell.allow) else None

