"""Tasks done end to end on the corpus's applications, each checked in the application's own state.

    .venv/bin/python scripts/bench_app_tasks.py [--apps A B …] [--only WORDS] [--explain] [--write]

Every task of tests/support/corpus_tasks/ runs as a user runs one from a terminal: Chromium with the
extension, logged in to the application; `heybro run GOAL --url …` through the real host; the
scripted model (tests/support/scripted_llm.py) acting only through what the page map in its prompt
shows (it finds "the Edit link in the row of Blue Kettle" by reading the map text, never with a
selector, so a control the map hides or misnames fails the task); the outcome read from the
application's database, API or files. Reported per task: finished and checked, model calls,
actions, seconds; a failure with the first line that says why.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, machine, write_section  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from support.corpus import APPS, NotInstalled  # noqa: E402
from support.corpus_task import logged_in, run_corpus_task, started  # noqa: E402
from support.corpus_tasks import tasks_by_app  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--apps", nargs="*")
    ap.add_argument("--only", help="only tasks whose name holds these words")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--explain", action="store_true", help="print a failed task's whole run (its events, the model's calls)")
    ns = ap.parse_args()
    rows = []
    by_app = tasks_by_app(ns.apps, ns.only)
    for name, tasks in by_app.items():
        try:
            with tempfile.TemporaryDirectory(prefix=f"heybro-tasks-{name}-") as d, started(name, Path(d)) as running:
                for task in tasks:
                    t0 = time.monotonic()
                    try:
                        with logged_in(running) as eb:
                            run = run_corpus_task(task, running, eb)
                        calls = sum(1 for e in run.events if e["kind"] == "usage")
                        actions = sum(1 for e in run.events if e["kind"] == "tool_result" and e["data"].get("tool") not in
                                      ("mark_done", "answer", "wait", "extract", "recall_history"))
                        # Actions the page ignored when synthetic, redone with the browser's own input.
                        trusted = sum(1 for e in run.events if e["kind"] == "tool_result"
                                      and '"input": "trusted"' in json.dumps(e["data"].get("result") or {}))
                        rows.append({"app": name, "task": task.name, "kind": task.kind, "ok": True, "calls": calls,
                                     "actions": actions, "trusted": trusted, "seconds": round(time.monotonic() - t0)})
                    except Exception as e:  # a task that fails is reported with why, and the others go on
                        why = str(e).strip().splitlines()[0][:200] if str(e).strip() else traceback.format_exc(limit=1)
                        rows.append({"app": name, "task": task.name, "kind": task.kind, "ok": False, "why": why,
                                     "seconds": round(time.monotonic() - t0)})
                        if ns.explain:
                            print(str(e), file=sys.stderr)
                    r = rows[-1]
                    print(f"{name}: {task.name}: {'ok' if r['ok'] else 'FAILED ' + r['why']} ({r['seconds']} s"
                          + (f", {r['calls']} calls, {r['actions']} actions)" if r["ok"] else ")"), file=sys.stderr, flush=True)
        except NotInstalled as e:
            print(f"{name}: skipped: {e}", file=sys.stderr)
    done = sum(1 for r in rows if r["ok"])
    print(f"{done}/{len(rows)} tasks finished and checked in the applications' state")
    if ns.write:
        lines = ["## Tasks on real applications (`scripts/bench_app_tasks.py`)", "",
                 "    .venv/bin/python scripts/bench_app_tasks.py --write", "", f"Machine: {machine()}.", "",
                 "Each task runs through `heybro run` in Chromium with the extension and the real host; the scripted "
                 "model acts only through what the page map shows (it reads element ids, rows and values off the map "
                 "text the real model would get); the outcome is checked in the application's own state. \"By trusted input\": "
                 "actions the page ignored as synthetic events, redone through the browser's own input (the "
                 "fallback when a click changes nothing).", "",
                 "| half | application | task | kind | result | model calls | actions | of them by trusted input | seconds |",
                 "|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            res = "finished, checked" if r["ok"] else f"failed: {r['why']}"
            lines.append(f"| {APPS[r['app']].half} | {r['app']} | {r['task']} | {r['kind']} | {res} | {r.get('calls', '–')} | "
                         f"{r.get('actions', '–')} | {r.get('trusted', '–')} | {r['seconds']} |")
        for half in ("heldout", "tune"):
            part = [r for r in rows if APPS[r["app"]].half == half]
            if part:
                lines.append(f"\n{'Held-out' if half == 'heldout' else 'Tune'} half: {sum(1 for r in part if r['ok'])} of {len(part)} "
                             f"tasks finished and checked, on {len({r['app'] for r in part})} applications.")
        write_section("bench_app_tasks", "\n".join(lines))


if __name__ == "__main__":
    main()
