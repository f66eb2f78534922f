"""`heybro routine run NAME [--param k=v …] [--url URL] [--on-heal-failure continue|stop]`: replay a
saved routine as a task, with the same live progress as `heybro run` (in the browser running
heybro, or a Chromium launched for it)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from . import cli_routines, command_line, config, logs
from .cli_interrupts import Interrupts
from .cli_run import _run, add_watch_args
from .endpoint.client import EndpointUnavailable, request

PROG = "heybro routine run"


def _params(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"--param {item!r}: write it as NAME=VALUE")
        out[name.strip()] = value
    return out


def cmd_routine_run(args: argparse.Namespace) -> int:
    logs.setup("cli.log")
    try:
        params = _params(args.param or [])
        settings = config.load()
    except (ValueError, config.ConfigError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    payload: dict[str, Any] = {"name": args.name, "params": params,
                               "on_heal_failure": args.on_heal_failure}
    if args.url:
        payload["url"] = args.url

    async def begin(ws: Any) -> tuple[dict[str, Any], str]:
        reply = await request(ws, "routine.run", payload)
        if reply["type"] != "error":  # follow the run's events from its first one
            await request(ws, "task.watch", {"task_id": reply["payload"]["task_id"],
                                             "after_seq": -1})
        return reply, f"routine {args.name}"

    interrupts = Interrupts()
    try:
        return asyncio.run(_run(args, settings, interrupts, begin, PROG))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print(f"{PROG}: interrupted.", file=sys.stderr)
        return interrupts.exit_code(130)
    except (RuntimeError, EndpointUnavailable) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 1


def _actions(sub: Any) -> dict[str, command_line.Command]:
    """`heybro routine run`, added to the routine command's actions (cli_routines.py)."""
    p = sub.add_parser("run", help="replay a routine as a task and watch its progress")
    p.add_argument("name", help="the routine's name")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="a parameter's value for this run (repeatable; others keep their default)")
    p.add_argument("--url", help="start on this page instead of the recorded one")
    p.add_argument("--on-heal-failure", choices=("continue", "stop"), default="continue",
                   help="when a changed step cannot be healed: the model finishes the task "
                   "(continue, default) or the run stops")
    add_watch_args(p)
    return {"run": cmd_routine_run}


actions = _actions  # `heybro routine run` (heybro.app adds it to `heybro routine`)

