"""`heybro routine save | list | show | delete | export`: routines from a terminal.

They read and write the task store directly (as `heybro experiences` does): saving a finished
task, listing or exporting needs no browser and no host, and SQLite's WAL lets a running host go
on meanwhile. Other modules add actions (`run`) through `ACTIONS`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import command_line, paths

if TYPE_CHECKING:
    from .routines.model import Routine
    from .store import TaskStore


class Refused(Exception):
    """Said as `heybro routine <action>: <message>`; exit status 1."""


def _store() -> TaskStore:
    from .store import TaskStore, default_path

    path = default_path()
    if not path.exists():
        raise Refused("no task has run yet, so there is nothing to save or list")
    return TaskStore(path)


def _routine(store: TaskStore, name: str) -> Routine:
    from .store.routines import StoreRoutines

    found = StoreRoutines(store).get(name)
    if found is None:
        raise Refused(f"no routine named {name!r} (`heybro routine list` lists them)")
    return found


def _when(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else "never"


def cmd_save(args: argparse.Namespace) -> int:
    from .routines.save import SaveRefused, save_task

    try:
        r = save_task(_store(), args.task_id, args.name, replace=args.replace)
    except SaveRefused as err:
        raise Refused(str(err)) from err
    params = ", ".join(f"{p.name}={p.default!r}" for p in r.parameters) or "none"
    print(f"Saved routine {r.name}: {len(r.steps)} steps from task {args.task_id}.\n"
          f"  parameters: {params}\n"
          f"Run it with `heybro routine run {r.name}`; export it with "
          f"`heybro routine export {r.name}`.")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from .store import default_path
    from .store.routines import StoreRoutines

    rows = StoreRoutines(_store()).listing() if default_path().exists() else []
    if args.json:
        print(json.dumps([r.model_dump() for r in rows]))
        return 0
    if not rows:
        print("No routines yet: save a completed task with `heybro routine save TASK_ID NAME`.")
        return 0
    table = [("NAME", "STEPS", "PARAMETERS", "LAST RUN", "RESULT", "HEALS", "TIME")]
    for r in rows:
        table.append((r.name, str(r.steps), ", ".join(r.parameters) or "-", _when(r.last_run_at),
                      r.last_status or "-", str(r.heals),
                      f"{r.last_seconds:.1f}s" if r.last_seconds is not None else "-"))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    r = _routine(_store(), args.name)
    if args.json:
        print(r.model_dump_json(indent=2))
        return 0
    print(f"Routine {r.name}: {r.goal}\n  start: {r.start_url or '(the current page)'}\n"
          f"  saved from task {r.source_task or '?'} on {_when(r.created_at)}; heals: {r.heals}")
    if r.parameters:
        print("Parameters:")
        for p in r.parameters:
            about = f"  ({p.description})" if p.description else ""
            print(f"  {p.name} = {p.default!r}{about}")
    print("Steps:")
    for i, s in enumerate(r.steps, 1):
        args_text = ", ".join(f"{k}={v!r}" for k, v in s.args.items())
        print(f"  {i}. {s.intent or s.tool}" + (f"  [{args_text}]" if args_text else ""))
        if s.expect is not None:  # (as the models write it: `text:Order confirmed`)
            from .agent.expect import expect_text
            print(f"       expect {expect_text(s.expect)}")
    if r.subtasks:
        print("Outcomes:")
        for o in r.subtasks:
            print(f"  ✓ {o.text}" + (f" — {o.verdict}" if o.verdict else ""))
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    from .store.routines import StoreRoutines

    if not StoreRoutines(_store()).delete(args.name):
        raise Refused(f"no routine named {args.name!r} (`heybro routine list` lists them)")
    print(f"Deleted routine {args.name} (its runs stay in the task history).")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .routines.export import script

    text = script(_routine(_store(), args.name))
    if not args.output:
        sys.stdout.write(text)
        return 0
    out = Path(args.output).expanduser()
    try:
        paths.write_private(out, text)  # (a routine's script holds the pages' words and the values typed)
    except OSError as err:
        raise Refused(f"cannot write {out}: {err.strerror or err}") from err
    print(f"Wrote {out}: run it with `pytest {out}` (pytest-playwright).")
    return 0


Run = Callable[[argparse.Namespace], int]


def _guarded(action: str, fn: Run) -> Run:
    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except Refused as err:
            print(f"heybro routine {action}: {err}", file=sys.stderr)
            return 1
    return run


def _actions(sub: Any) -> dict[str, command_line.Command]:
    out: dict[str, command_line.Command] = {}
    p = sub.add_parser("save", help="save a completed task as a routine")
    p.add_argument("task_id", metavar="TASK_ID", help="a completed task (`heybro tasks`)")
    p.add_argument("name", metavar="NAME", help="letters, digits, '.', '_' and '-'")
    p.add_argument("--replace", action="store_true", help="overwrite a routine of that name")
    out["save"] = cmd_save
    p = sub.add_parser("list", help="the routines, with their last run")
    p.add_argument("--json", action="store_true", help="machine-readable")
    out["list"] = cmd_list
    p = sub.add_parser("show", help="a routine's parameters, steps and outcomes")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--json", action="store_true", help="the routine file")
    out["show"] = cmd_show
    p = sub.add_parser("delete", help="delete a routine (its runs stay in the history)")
    p.add_argument("name", metavar="NAME")
    out["delete"] = cmd_delete
    p = sub.add_parser("export", help="write it as a Playwright for Python test")
    p.add_argument("name", metavar="NAME")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")
    out["export"] = cmd_export
    return out


# A set of `heybro routine` actions: adds its parsers, returns action → command.
Actions = Callable[[Any], dict[str, command_line.Command]]


def actions(sub: Any) -> dict[str, command_line.Command]:
    return _actions(sub)


def extend(sub: Any, commands: dict[str, command_line.Command], more: Sequence[Actions] = ()) -> None:
    """`heybro routine` with its own actions and `more` (`run`, heybro.app adds it)."""
    p = sub.add_parser("routine", help="routines: save a finished task, list, show, export, delete")
    actions_sub = p.add_subparsers(dest="routine_action", metavar="ACTION", required=True)
    table: dict[str, command_line.Command] = {}
    for add in (_actions, *more):
        table.update(add(actions_sub))

    def run(args: argparse.Namespace) -> int:
        action = args.routine_action
        return _guarded(action, table[action])(args)
    commands["routine"] = run


