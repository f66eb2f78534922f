"""Chrome native-messaging frames: a 4-byte native-endian length, then that many bytes of UTF-8 JSON."""

from __future__ import annotations

import asyncio
import json
import struct
from typing import Any

MAX_INCOMING = 64 * 1024 * 1024  # Chrome → host limit
MAX_OUTGOING = 1024 * 1024  # host → Chrome: Chrome drops the port on anything larger
_LEN = struct.Struct("=I")  # native byte order, as Chrome writes it


class FrameError(Exception):
    """A frame that could not be read. `fatal` means the stream itself is gone."""

    def __init__(self, code: str, message: str, *, fatal: bool = False, **detail: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fatal = fatal
        self.detail = detail


def encode(body: bytes) -> bytes:
    return _LEN.pack(len(body)) + body


def dumps(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def read_frame(reader: asyncio.StreamReader) -> bytes | None:
    """The next frame's body; None at a clean end of stream.

    A length above MAX_INCOMING is fatal, reported as soon as the header is read: Chrome never
    sends more than 64 MiB, so such a prefix is not a frame but a sign that the byte stream is out
    of step (or written by something other than Chrome). Where the next frame starts cannot be
    known — skipping the announced length would wait for up to 4 GiB that never come, and any
    guess would read message bytes as lengths — so the channel says so and ends; Chrome then sees
    the host exit and the extension starts a fresh one on a clean pipe.
    """
    try:
        header = await reader.readexactly(_LEN.size)
    except asyncio.IncompleteReadError as err:
        if not err.partial:
            return None
        raise FrameError("bad_frame", "The stream ended inside a frame's length prefix.",
                         fatal=True, got=len(err.partial)) from None
    (length,) = _LEN.unpack(header)
    if length > MAX_INCOMING:
        raise FrameError("frame_too_large",
                         f"A frame announced {length} bytes, over the {MAX_INCOMING}-byte limit: "
                         "the stream cannot be read any further, so the host is closing it (the "
                         "extension will start a new host).", fatal=True, length=length,
                         header=header.hex())
    try:
        return await reader.readexactly(length)
    except asyncio.IncompleteReadError as err:
        raise FrameError("bad_frame", f"The stream ended after {len(err.partial)} of {length} "
                         "bytes of a frame.", fatal=True, length=length,
                         got=len(err.partial)) from None


def decode(body: bytes) -> Any:
    """JSON value of a frame body, or FrameError with a precise code."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FrameError("invalid_utf8", f"The message is not valid UTF-8 (byte {err.start}).",
                         position=err.start) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise FrameError("invalid_json", f"The message is not valid JSON: {err.msg} at "
                         f"character {err.pos}.", position=err.pos) from None
    except RecursionError:
        raise FrameError("invalid_json", "The message is nested too deeply to read.") from None
