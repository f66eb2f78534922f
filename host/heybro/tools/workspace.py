"""`read_file` / `write_file`: confined to the task's workspace folder under heybro's data dir.

A path is relative to the workspace; an absolute path, a `..` part, or a symlink whose target lies
outside the workspace is refused before anything is opened. Sizes are bounded by the settings.
`read_file` also reads a resource of the task by its name (a file the user handed it). A file
written is a resource of the task from then on (its result's `file`): the page tools can upload it.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path, PurePosixPath, PureWindowsPath


from ..tool_def.errors import ToolFailed
from .builtins import ReadFile, WriteFile
from .outcome import ToolOk
from .tool import ToolContext


def confine(workspace: Path, path: str) -> Path:
    """The absolute path `path` names inside the workspace, or ToolFailed("refused")."""
    parts = PurePosixPath(path.replace("\\", "/")).parts
    if (PurePosixPath(path).is_absolute() or PureWindowsPath(path).is_absolute()
            or PureWindowsPath(path).drive or path.startswith(("/", "\\", "~"))):
        raise ToolFailed("refused", f"{path!r} is an absolute path; give a path relative to the "
                          "task's workspace folder")
    if ".." in parts:
        raise ToolFailed("refused", f"{path!r} leaves the task's workspace folder ('..' is not "
                          "allowed)")
    root = workspace.resolve()
    target = root.joinpath(*parts).resolve()  # follows symlinks: an escaping link shows here
    if target != root and root not in target.parents:
        raise ToolFailed("refused", f"{path!r} leads outside the task's workspace folder "
                          "(through a symbolic link)")
    return target


def _read(target: Path, shown: str, limit: int) -> str:
    if target.is_dir():
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in target.iterdir())
        return "\n".join(names) if names else f"{shown} is an empty folder"
    if not target.exists():
        raise ToolFailed("not_found", f"no file {shown!r} in the task's workspace")
    if not target.is_file():
        raise ToolFailed("refused", f"{shown!r} is not a regular file")
    size = target.stat().st_size
    if size > limit:
        raise ToolFailed("refused", f"{shown!r} is {size} bytes; the limit is {limit}")
    try:
        return target.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        what = mimetypes.guess_type(shown, strict=False)[0] or "a binary file"
        raise ToolFailed("tool_error", f"{shown!r} is not UTF-8 text ({what}): read_file reads "
                         "text, CSV and JSON files (heybro has no PDF or image reader)") from None


async def read_file(args: ReadFile, ctx: ToolContext) -> str:
    ctx.workspace.mkdir(parents=True, exist_ok=True)
    if args.path in ctx.resources:  # a file the user handed the task (or it made), by its name
        return _read(Path(ctx.resources[args.path]), args.path, ctx.settings.file_max_bytes)
    return _read(confine(ctx.workspace, args.path), args.path, ctx.settings.file_max_bytes)


async def write_file(args: WriteFile, ctx: ToolContext) -> ToolOk:
    ctx.workspace.mkdir(parents=True, exist_ok=True)
    target = confine(ctx.workspace, args.path)
    if target.is_dir() or target == ctx.workspace.resolve():
        raise ToolFailed("refused", f"{args.path!r} is a folder")
    data = args.content.encode("utf-8")
    before = target.stat().st_size if args.mode == "append" and target.exists() else 0
    limit = ctx.settings.file_max_bytes
    if before + len(data) > limit:
        raise ToolFailed("refused", f"{args.path!r} would be {before + len(data)} bytes; the "
                          f"limit is {limit}")
    target.parent.mkdir(parents=True, exist_ok=True)
    if args.mode == "append":
        with target.open("ab") as f:
            f.write(data)
    else:  # whole or not at all: a crash mid-write leaves the old file
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    return ToolOk(text=f"wrote {len(data)} bytes to {args.path} ({args.mode}); "
                  f"it is the task's resource {args.path!r} (upload it by that name)",
                  data={"file": str(target), "name": args.path})

