"""`heybro experiences [SITE] [--delete ID]`: what heybro learned about sites, which it hands to
the planner and the worker on their next tasks there — listed with the page each was learned on,
and deleted when wrong or stale (as the side panel's "Learned" list does)."""

from __future__ import annotations

import argparse
import json
import sys
import time
import unicodedata
from typing import Any

from . import command_line


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
    items = book.about(args.site) if args.site else book.all()
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
            print(_shown(site))
        when = time.strftime("%Y-%m-%d", time.localtime(e.created_at))
        where = f", on {_shown(e.page)}" if e.page else ""
        print(f"  #{e.id}  {_shown(e.text)}  ({when}{where})")
    print("Delete one with: heybro experiences --delete ID")
    return 0


def _shown(text: str) -> str:
    """Page-derived words as a terminal shows them: no control character (an escape sequence
    could move the cursor or recolour what follows)."""
    return "".join("\N{REPLACEMENT CHARACTER}" if unicodedata.category(ch) == "Cc" else ch
                   for ch in text)


def extend(sub: Any, commands: dict[str, command_line.Command]) -> None:
    p = sub.add_parser("experiences", help="what heybro learned about sites (list, delete)")
    p.add_argument("site", nargs="?", help="only this site (an address, host name or host:port, "
                   "e.g. shop.example or 127.0.0.1:8080)")
    p.add_argument("--delete", type=int, metavar="ID", help="forget this learning")
    p.add_argument("--json", action="store_true", help="machine-readable")
    commands["experiences"] = cmd_experiences


