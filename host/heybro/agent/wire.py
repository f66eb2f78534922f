"""Typed conversions from a tool's model-facing arguments to the browser's wire arguments
(shared_schema.tools): the wire carries the model's words, with what the host adds (an element's
signature; upload's `resource_name` read into its `file`), never by dropping fields.

`copied` is the plain case, checked when the tool is defined: every argument the model gives must
be a wire field of the same name (or one the host keeps, `expect`), else the import fails; a
conversion that reads the task's files is written here (`upload_args`).
"""

from __future__ import annotations

import base64
import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from shared_schema.dom_tools import Upload, UploadArgs

from .errors import ToolFailed
from ..tool_def import Wire, WireContext

A = TypeVar("A", bound=BaseModel)
W = TypeVar("W", bound=BaseModel)

# Arguments the host keeps: checked by the host once the action is done, never sent.
HOST_ONLY = frozenset({"expect"})
DEFAULT_TIMEOUT_MS = 15_000


def copied(tool: str, args: type[A], model: type[W],
           timeout_ms: int | Callable[[W], int] = DEFAULT_TIMEOUT_MS) -> Wire[A, W]:
    """A wire whose arguments are the model's own (the element's signature added for re-finding;
    a secret it names is filled in by the browser sink once it judged where it goes: sinks.py)."""
    missing = set(args.model_fields) - HOST_ONLY - set(model.model_fields)
    if missing:
        raise TypeError(f"{args.__name__} → {tool}: {sorted(missing)} have no wire field of that "
                        "name; give the tool its own conversion")

    def convert(a: A, ctx: WireContext) -> W:
        data = a.model_dump(exclude=set(HOST_ONLY), exclude_none=True)
        return model.model_validate(for_page(data, model, ctx))

    return Wire(tool, model, convert, timeout_ms)


def for_page(data: dict[str, Any], model: type[BaseModel], ctx: WireContext) -> dict[str, Any]:
    """Each element the arguments name (`element_id`, `to_element_id`, …) with its signature from
    the last observe (`signature`, `to_signature`), where the wire takes one."""
    for key in [k for k in data if k.endswith("element_id")]:
        sig_key = key.removesuffix("element_id") + "signature"
        if sig_key in model.model_fields and (signature := ctx.signature(data.get(key))) is not None:
            data[sig_key] = signature
    return data


def upload_args(a: Upload, ctx: WireContext) -> BaseModel:
    """upload: the task's resource named `resource_name`, read here and sent as the wire's `file`."""
    path = Path(ctx.resource_path(a.resource_name))
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ToolFailed("not_found", f"resource {a.resource_name!r} cannot be read "
                         f"({err.strerror})") from err
    file = {"name": path.name,
            "mime": mimetypes.guess_type(path.name)[0] or "application/octet-stream",
            "data_base64": base64.b64encode(data).decode("ascii")}
    return UploadArgs.model_validate(for_page(
        {"element_id": a.element_id, "resource_name": a.resource_name, "file": file}, UploadArgs, ctx))


def wire_json(args: BaseModel) -> dict[str, Any]:
    """The wire arguments as sent: only what was given (the extension applies its defaults)."""
    data: dict[str, Any] = args.model_dump(mode="json", exclude_unset=True, exclude_none=True)
    return data
