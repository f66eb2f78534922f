#!/usr/bin/env python3
"""How tasks that cannot be done end: tasks made impossible on purpose on the demo shop, each a
real `heybro run` (Chromium + extension + native host) with the scripted model.

    .venv/bin/python scripts/bench_endings.py [--baseline COMMIT] [--write]

The scripted model plays what a capable model did on such tasks: it tries (the page shows the
thing is not there), reports why it cannot be done, and takes the way out heybro offers it — the
verifier's and the planner's `fail_task` where heybro has one; where it has none (--baseline
before it), the way out a model found: the verifier asks for a new plan, and the planner gives the
rest to the analyst to tell the user the task cannot be done, which the verifier then accepts.

Per task: the status it ended with and the reason the user reads; a *false completed* is a task
ended `completed` while its goal was not met — target 0. Also the model calls spent, and that the
shop recorded no order. --write updates BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support import demo_script  # noqa: E402
from support.browser import test_env  # noqa: E402
from support.scripted_llm import ScriptedLLM, call, calls, find_id, role_of, user_text  # noqa: E402

from heybro.demo import DemoSite  # noqa: E402
from bench_common import machine, write_section  # noqa: E402

Body = dict[str, Any]


def offered(b: Body, tool: str) -> bool:
    return tool in {t["function"]["name"] for t in b.get("tools") or []}


def try_green_kettle(b: Body) -> Any:
    return calls(("fill", {"element_id": find_id(b, '"Search products"'), "value": "green kettle"}),
                 ("click", {"element_id": find_id(b, 'button "Search"'), "expect": "text:Green Kettle"}))


def try_express(steps: list[Callable[[Body], Any]]) -> Callable[[Body], Any]:
    """Through the shop to its checkout, one step per reply (the form has no delivery choice)."""
    def step(b: Body) -> Any:
        return steps.pop(0)(b) if steps else None
    return step


def try_orders(site: str) -> Callable[[Body], Any]:
    def step(b: Body) -> Any:
        return call("navigate", url=site + "orders", expect="text:KC1000")
    return step


# Goal, the plan's one subtask, the tries (one reply each), what the worker finds.
TASKS: list[tuple[str, str, Callable[[str], list[Callable[[Body], Any]]], str]] = [
    ("Buy one Green Kettle for Ann Lee, ann@example.com", "Find a green kettle and order it",
     lambda site: [try_green_kettle], "The shop has no green kettle: a search for one finds no products."),
    ("Order one Blue Kettle with express delivery for Ann Lee, ann@example.com",
     "Order a Blue Kettle with express delivery",
     lambda site: [demo_script.search, demo_script.open_product, demo_script.buy_now],
     "The checkout form has no delivery options: express delivery cannot be chosen."),
    ("Cancel my order KC1000 at the shop", "Open the order KC1000 and cancel it",
     lambda site: [try_orders(site)], "The shop has no page for orders: an order cannot be cancelled here."),
]


def model(subtask: str, tries: list[Callable[[Body], Any]], found: str) -> dict[str, Any]:
    """The scripted model of the module's doc, deciding each reply from the request."""
    left = list(tries)

    def scheduler(b: Body) -> Any:
        if "WHY YOU ARE CALLED" not in user_text(b):
            return calls(("set_subtasks", {"subtasks": [subtask]}), ("start_work", {}))
        if offered(b, "fail_task"):
            return call("fail_task", reason=found)
        return calls(("set_subtasks", {"subtasks": [
            {"subtask": "Tell the user why the task cannot be done", "role": "analyst"}]}),
            ("start_work", {}))

    def worker(b: Body) -> Any:
        return left.pop(0)(b) if left else call("mark_done", summary=found)

    def verifier(b: Body) -> Any:
        if "WORK DONE WITHOUT THE PAGE by the analyst" in user_text(b):
            return call("mark_complete", reason="The user was told why it cannot be done", confidence=0.9)
        if offered(b, "fail_task"):
            return call("fail_task", reason=found, confidence=0.9)
        return call("request_reschedule", reason=found, confidence=0.9)

    def analyst(b: Body) -> Any:
        return call("answer", text=f"It cannot be done: {found}")

    return {"scheduler": scheduler, "worker": worker, "verifier": verifier, "analyst": analyst}


def one_run(goal: str, subtask: str, tries: Callable[[str], list[Callable[[Body], Any]]], found: str,
            code: Path | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, DemoSite() as site:
        with ScriptedLLM({}, default=model(subtask, tries(site.url), found)) as llm:
            env = test_env(Path(tmp)) | llm.env()
            if code is not None:
                env["PYTHONPATH"] = f"{code / 'host'}:{code}"
            r = subprocess.run([sys.executable, "-m", "heybro.cli", "run", goal, "--url", site.url,
                                "--new-browser", "--headless", "--json"],
                               env=env, capture_output=True, text=True, timeout=400)
            roles = [role_of(b) for b in llm.requests]
        events = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
        final = next((e["data"] for e in reversed(events) if e["kind"] == "status"
                      and e["data"]["status"] in ("completed", "failed", "stopped")), {})
        return {"status": final.get("status", "?"), "reason": final.get("reason") or "",
                "exit": r.returncode, "calls": len(roles), "orders": len(site.orders)}


@contextlib.contextmanager
def checkout(commit: str) -> Iterator[Path]:
    """heybro at `commit`, in a temporary worktree."""
    with tempfile.TemporaryDirectory(prefix="heybro-endings-") as tmp:
        where = Path(tmp) / "code"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where), commit],
                       check=True)
        try:
            yield where
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)],
                           check=False)


def cell(got: dict[str, Any]) -> str:
    reason = got["reason"].replace("|", "/")
    reason = reason if len(reason) <= 140 else reason[:139] + "…"
    return f"{got['status']} (exit {got['exit']}, {got['calls']} calls): {reason}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--baseline", metavar="COMMIT", help="also run each task on heybro at COMMIT")
    args = ap.parse_args()
    rows, false_done, old_false = [], 0, 0
    with contextlib.ExitStack() as stack:
        base = stack.enter_context(checkout(args.baseline)) if args.baseline else None
        for goal, subtask, tries, found in TASKS:
            got = one_run(goal, subtask, tries, found)
            false_done += got["status"] == "completed"
            assert got["orders"] == 0, got
            row = f"| {goal} | {cell(got)} |"
            if base is not None:
                old = one_run(goal, subtask, tries, found, base)
                old_false += old["status"] == "completed"
                row += f" {cell(old)} |"
            rows.append(row)
            print(row, flush=True)
    then = f" | at `{args.baseline}`" if args.baseline else ""
    report = ("## Endings: tasks that cannot be done (demo shop, scripted model)\n\n"
              "    .venv/bin/python scripts/bench_endings.py --write"
              + (f" --baseline {args.baseline}" if args.baseline else "") + "\n\n"
              f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. One real `heybro run` per task "
              "and column; the tasks are impossible on purpose (no such product, no such option, no such "
              "page). The scripted model tries, finds why, and takes the way out heybro offers: `fail_task` "
              "(the verifier's, or the planner's) — or, where heybro has none, the one a model found: a new "
              "plan whose analyst tells the user it cannot be done, accepted by the verifier. The shop "
              "recorded no order in any run.\n\n"
              f"| task | ended (exit status, model calls): reason{then} |\n|---|---|"
              + ("---|" if args.baseline else "") + "\n" + "\n".join(rows) + "\n\n"
              f"False completed: **{false_done}** of {len(TASKS)} (target 0)"
              + (f"; at `{args.baseline}`: {old_false} of {len(TASKS)}" if args.baseline else "") + ".\n")
    print(report)
    if args.write:
        write_section("bench_endings", report)
    return 0 if false_done == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
