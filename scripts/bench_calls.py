#!/usr/bin/env python3
"""Model calls per browser action on the demo order, through a real `heybro run` (Chromium +
extension + native host) with the scripted model.

    .venv/bin/python scripts/bench_calls.py [--write]

The scripted model plays the same moves twice: as models use heybro without its checks (every
report alone in its own reply, every subtask judged by the verifier), and with them (subtasks that
declare what the page shows once done, checked by the host; a report that closes a batch whose
last action carries an expectation). The verifier still judges the task's last subtask.
--write updates BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections.abc import Iterator
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support import demo_script  # noqa: E402
from support.browser import test_env  # noqa: E402
from support.scripted_llm import ScriptedLLM, role_of  # noqa: E402

from heybro.demo import DemoSite  # noqa: E402
from bench_common import machine, write_section  # noqa: E402

SCRIPTS = {"every report alone, every subtask verified": demo_script.happy,
           "subtasks declare done_when; reports close checked batches": demo_script.lean,
           "subtasks declare done_when; no report unless asked on a page that shows it done":
               demo_script.unreported}


def one_run(script: dict[str, list[Any]], code: Path | None = None) -> dict[str, Any]:
    """One `heybro run` of the demo order; `code`: a checkout whose heybro (host, extension,
    schema) runs it instead of this one's (the scripted model is this one's)."""
    with tempfile.TemporaryDirectory() as tmp, DemoSite() as site, ScriptedLLM(script) as llm:
        env = test_env(Path(tmp)) | llm.env()
        if code is not None:
            env["PYTHONPATH"] = f"{code / 'host'}:{code}"
        r = subprocess.run([sys.executable, "-m", "heybro.cli", "run", demo_script.PLAN[-1],
                            "--url", site.url, "--new-browser", "--headless", "--json"],
                           env=env, capture_output=True, text=True, timeout=300)
        events = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
        assert r.returncode == 0 and len(site.orders) == 1, (r.stderr[-2000:], site.orders)
        roles = [role_of(b) for b in llm.requests]
    actions = sum(1 for e in events if e["kind"] == "tool_result" and e["data"]["role"] == "worker"
                  and e["data"]["success"] and e["data"]["tool"] != "mark_done")
    by_host = sum(1 for e in events if e["kind"] == "verdict" and e["data"].get("by") == "host")
    return {"calls": len(roles), "actions": actions, "host": by_host,
            **{r: roles.count(r) for r in ("scheduler", "worker", "verifier")}}


@contextlib.contextmanager
def checkout(commit: str) -> Iterator[Path]:
    """heybro at `commit`, in a temporary worktree."""
    with tempfile.TemporaryDirectory(prefix="heybro-calls-") as tmp:
        where = Path(tmp) / "code"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(where), commit],
                       check=True)
        try:
            yield where
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)],
                           check=False)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--baseline", metavar="COMMIT", help="also run each row on heybro at COMMIT")
    args = ap.parse_args()
    rows = []
    with contextlib.ExitStack() as stack:
        base = stack.enter_context(checkout(args.baseline)) if args.baseline else None
        for label, make in SCRIPTS.items():
            got = one_run(make())
            before = ""
            if base is not None:
                old = one_run(make(), base)
                before = f" | {old['calls'] / old['actions']:.2f}"
            rows.append(f"| {label} | {got['scheduler']} / {got['worker']} / {got['verifier']} | "
                        f"{got['host']} | {got['actions']} | **{got['calls'] / got['actions']:.2f}**{before} |")
    then = f" | calls per action at `{args.baseline}`" if args.baseline else ""
    report = ("## Model calls per action (demo order, scripted model)\n\n"
              "    .venv/bin/python scripts/bench_calls.py --write"
              + (f" --baseline {args.baseline}" if args.baseline else "") + "\n\n"
              f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. One real `heybro run` "
              "of the 3-subtask demo order per row (search → product → checkout, one order placed); "
              "the scripted model makes the same moves in every row (the last row's model"
              " reports a subtask only when asked again on a page that shows it done: heybro's done_when "
              "check after each batch of actions saves that call). Where the last subtask declares what "
              "the page shows once it is done (rows 2 and 3), the worker's turn ends as soon as the page "
              "shows it and the verifier judges the goal: the model's extra move of saving the order "
              "number is not asked for (one action and one call fewer than at the baseline, where the "
              "worker was asked again).\n\n"
              "| how the model reports | calls: scheduler / worker / verifier | subtasks proven "
              f"by the host | actions | calls per action{then} |\n|---|---|---|---|---|"
              + ("---|" if args.baseline else "") + "\n"
              + "\n".join(rows) + "\n\nTarget: ≤ 1.3 calls per action. The verifier is asked "
              "for the last subtask whatever the checks say (it judges the whole goal), and for "
              "any subtask whose declared outcome the page does not show.\n")
    print(report)
    if args.write:
        write_section("bench_calls", report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
