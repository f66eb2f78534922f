"""`now`: the date and time in the user's time zone (settings), or in a zone the model names."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field

from ..tool_def import Args, Effects, RoleTool
from ..tool_def.errors import ToolFailed
from .tool import ToolContext


class Now(Args):
    timezone: str | None = Field(None, description="IANA name, e.g. Asia/Tokyo (default: the "
                                 "user's).")


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ToolFailed("tool_error", f"unknown time zone {name!r}; use an IANA name such as "
                          "Europe/Paris or America/New_York") from None


async def _now(args: Now, ctx: ToolContext) -> str:
    name = args.timezone or ctx.settings.timezone
    moment = datetime.now(_zone(name)) if name else datetime.now().astimezone()
    zone = name or moment.tzname() or "local time"
    return f"{moment:%A %d %B %Y, %H:%M:%S} ({zone}, UTC{moment:%z}); ISO {moment.isoformat()}"


TOOL = RoleTool("now", Now, "The current date and time (the user's time zone unless one is "
                "given).", "host", Effects(read_only=True), run=_now)
