"""`heybro mcp`: heybro as an MCP server on stdio, for Claude Desktop, Cursor, VS Code or any MCP
client. It reaches the running browser's heybro, or launches Chromium with heybro (as `heybro run`
does) on the first call that needs a browser. Logs go to mcp.log: stdout is the MCP channel."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from . import command_line, config, logs


async def serve(args: argparse.Namespace) -> None:
    from mcp.server.stdio import stdio_server

    from .mcp_server.link import HostLink
    from .mcp_server.server import HeybroMcp, build_server

    try:
        settings: config.Settings | None = config.load()
    except config.ConfigError:
        settings = None  # the host's own settings are used
    link = HostLink(Path(args.profile) if args.profile else None,
                    headless=args.headless or not os.environ.get("DISPLAY"))
    app = HeybroMcp(link, settings)
    server = build_server(app)
    try:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        await app.close()
        await link.close()


def cmd_mcp(args: argparse.Namespace) -> int:
    logs.setup("mcp.log")
    try:
        asyncio.run(serve(args))
    except KeyboardInterrupt:
        pass
    except Exception as err:  # noqa: BLE001 - said on stderr (the client's log), never stdout
        print(f"heybro mcp: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    return 0


def extend(sub: Any, commands: dict[str, command_line.Command]) -> None:
    p = sub.add_parser("mcp", help="serve heybro to other agents over MCP (stdio)")
    p.add_argument("--profile", metavar="DIR", help="launch Chromium with this profile when no "
                   "browser is running heybro (default: a throwaway one)")
    p.add_argument("--headless", action="store_true", help="a launched Chromium has no window")
    commands["mcp"] = cmd_mcp


