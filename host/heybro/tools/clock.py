"""`now`: the date and time in the user's time zone (settings), or in a zone the model names."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..tool_def.errors import ToolFailed
from .builtins import Now
from .tool import ToolContext


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ToolFailed("tool_error", f"unknown time zone {name!r}; use an IANA name such as "
                          "Europe/Paris or America/New_York") from None


async def now(args: Now, ctx: ToolContext) -> str:
    name = args.timezone or ctx.settings.timezone
    moment = datetime.now(_zone(name)) if name else datetime.now().astimezone()
    zone = name or moment.tzname() or "local time"
    return f"{moment:%A %d %B %Y, %H:%M:%S} ({zone}, UTC{moment:%z}); ISO {moment.isoformat()}"

