"""`heybro experiences [SITE] [--delete ID]`: what heybro learned about sites, which it hands to
the planner and the worker on their next tasks there — listed, and deleted when wrong or stale."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from . import cli
from .agent.experience import keys_of


def cmd_experiences(args: argparse.Namespace) -> int:
    from .store import TaskStore, default_path
    from .store.experiences import StoreExperiences

    path = default_path()
    if not path.exists():
        print("heybro has not learned anything yet (no task has run).")
        return 0
    book = StoreExperiences(TaskStore(path))
    if args.delete is not None:
        if not book.delete(args.delete):
            print(f"No learning #{args.delete}; `heybro experiences` lists them.", file=sys.stderr)
            return 1
        print(f"Deleted learning #{args.delete}: heybro will not use it again.")
        return 0
    items = [e for e in book.all() if _about(e.site, args.site)] if args.site else book.all()
    if args.json:
        print(json.dumps([e.model_dump() for e in items]))
        return 0
    if not items:
        print("Nothing learned" + (f" about {args.site}." if args.site else " yet."))
        return 0
    site = None
    for e in items:
        if e.site != site:
            site = e.site
            print(site)
        when = time.strftime("%Y-%m-%d", time.localtime(e.created_at))
        print(f"  #{e.id}  {e.text}  ({when})")
    print("Delete one with: heybro experiences --delete ID")
    return 0


def _about(kept: str, asked: str) -> bool:
    """Whether learnings kept under `kept` (an origin, or a host name kept before origins) are
    about `asked`: an address, an origin, host:port or a host name."""
    asked = asked.strip().lower().rstrip("/")
    where = kept.split("://", 1)[-1]  # host[:port]
    return asked in (kept, where, where.split(":", 1)[0]) or (
        "://" in asked and kept in keys_of(asked))


def extend(sub: Any, commands: dict[str, cli.Command]) -> None:
    p = sub.add_parser("experiences", help="what heybro learned about sites (list, delete)")
    p.add_argument("site", nargs="?", help="only this site (an address, host name or host:port, "
                   "e.g. shop.example or 127.0.0.1:8080)")
    p.add_argument("--delete", type=int, metavar="ID", help="forget this learning")
    p.add_argument("--json", action="store_true", help="machine-readable")
    commands["experiences"] = cmd_experiences


