#!/usr/bin/env python3
"""Routines: replay against the original agent run, and healing on changed copies of the pages,
through the real `heybro run` / `heybro routine run` (Chromium + extension + native host), the
scripted model standing in for the LLM.

    .venv/bin/python scripts/bench_routines.py [--runs 3] [--write]

Demo order: the agent run (the scripted model making the moves of demo_script.lean) against the
routine's replay on the unchanged shop — wall time from the task's first event to its last, and
model calls. Healing: the routine, recorded on the shop, replayed on copies of it changed by each
mutation of tests/support/mutated_pages.py and by their combinations; each step counts as
re-found (the element as recorded, or changed but re-found by its signature), healed by the model
(scripted: it finds the control on the page map by the recorded or the reworded name), or failed.
A replay that finishes has placed exactly the recorded order on the changed shop (its orders are
read back); any other order, or one with other values, is a wrong action.
--write updates BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

from support import demo_script  # noqa: E402
from support.routine_rig import Rig, order, rig  # noqa: E402
from support.scripted_llm import ScriptedLLM  # noqa: E402

from support.app_routines import WIKI_PAGE, WP_TAGLINE, AppTask  # noqa: E402
from support.app_task import host_ready  # noqa: E402
from support.apps import mediawiki, wordpress  # noqa: E402
from support.browser import ExtBrowser, launch  # noqa: E402
from support.heal_policy import HealPolicy  # noqa: E402
from support.mutated_pages import MutatingProxy  # noqa: E402

from heybro.store import TaskStore  # noqa: E402
from heybro.store.routines import StoreRoutines  # noqa: E402
from bench_common import machine, write_section  # noqa: E402

SCENARIOS: list[list[str]] = [
    [], ["ids renamed"], ["classes hashed"], ["wrappers added"], ["text tweaked"],
    ["button moved"], ["links as buttons"],
    ["classes hashed", "wrappers added", "text tweaked", "button moved"],
    ["classes hashed", "wrappers added", "text tweaked", "button moved", "links as buttons"],
]


def span_s(events: list[dict[str, Any]]) -> float:
    return events[-1]["at"] - events[0]["at"] if events else 0.0


def agent_run(r: Rig) -> tuple[float, int]:
    """The demo order as the agent does it (the original run a routine is saved from)."""
    with ScriptedLLM(demo_script.lean()) as llm:
        p = subprocess.run([sys.executable, "-m", "heybro.cli", "run", "Buy a blue kettle for "
                            "Ann Lee", "--url", r.site.url, "--json"], env=r.eb.env | llm.env(),
                           capture_output=True, text=True, timeout=240)
        events = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
        assert p.returncode == 0, p.stderr[-2000:]
        return span_s(events), len(llm.requests)


def classify(events: list[dict[str, Any]]) -> dict[str, int]:
    """Per step of the replay: re-found as recorded, re-found though changed, healed, failed."""
    out = {"same": 0, "refound": 0, "healed": 0, "failed": 0}
    for e in events:
        d = e["data"]
        if e["kind"] == "tool_result" and d.get("tool") != "mark_done" and _step(events, e):
            if d.get("success") and not (d.get("expectation") or {"met": True}).get("met", True):
                continue  # counted by its heal (or failure) below
            if d.get("success"):
                conf = (d.get("result") or {}).get("confidence", 1)
                out["same" if conf >= 0.999 else "refound"] += 1
        if e["kind"] == "message" and str(d.get("text", "")).startswith("Step ") and \
                " healed with " in str(d.get("text")):
            out["healed"] += 1
    return out


def _step(events: list[dict[str, Any]], result: dict[str, Any]) -> bool:
    """Whether a tool_result answers a replayed step (its call carried routine_step)."""
    i = events.index(result)
    for e in reversed(events[:i]):
        if e["kind"] == "tool_call":
            return "routine_step" in (e["data"].get("parameters") or {})
    return False


def replay(r: Rig, url: str) -> tuple[int, list[dict[str, Any]], float]:
    began = time.monotonic()
    rc, events, _ = r.replay("--url", url)
    return rc, events, time.monotonic() - began


def bench(runs: int) -> str:
    rows_demo: list[str] = []
    rows_heal: list[str] = []
    totals = {"replays": 0, "finished": 0, "wrong": 0}
    with tempfile.TemporaryDirectory() as tmp:
        # One browser for the demo order rows.
        with rig(Path(tmp) / "demo") as r:
            agent = [agent_run(r) for _ in range(runs)]
            replays = []
            for _ in range(runs):
                before = len(r.llm.requests)
                rc, events, _ = replay(r, r.site.url)
                assert rc == 0, [e["data"] for e in events][-3:]
                replays.append((span_s(events), len(r.llm.requests) - before))
            a_s = statistics.median(t for t, _ in agent)
            p_s = statistics.median(t for t, _ in replays)
            rows_demo.append(f"| agent run (scripted model, instant replies) | {a_s:.2f} s | "
                             f"{agent[0][1]} |")
            rows_demo.append(f"| routine replay, page unchanged | {p_s:.2f} s | "
                             f"{max(c for _, c in replays)} |")
            ratio = a_s / p_s if p_s else 0
            orders_ok = len(r.site.orders) == 2 * runs
        for i, mutations in enumerate(SCENARIOS):
            with rig(Path(tmp) / f"m{i}", mutations) as r:
                rc, events, _ = replay(r, r.changed.url)
                first_calls = len(r.llm.requests)
                steps = classify(events)
                steps["failed"] = len(r.routine.steps) - sum(steps.values()) if rc else 0
                finished = rc == 0
                wrong = len(r.site.orders) + len([o for o in r.changed.orders if o | {"id": "x"}
                                                  != order("Ann Lee", "ann@example.com")])
                if finished and len(r.changed.orders) != 1:
                    wrong += 1
                again = "—"
                if finished:
                    rc2, _, _ = replay(r, r.changed.url)
                    again = str(len(r.llm.requests) - first_calls) if rc2 == 0 else "failed"
                heals = StoreRoutines(r.store).listing()[0].heals
                totals["replays"] += 1
                totals["finished"] += int(finished)
                totals["wrong"] += wrong
                rows_heal.append(
                    f"| {' + '.join(mutations) or 'unchanged'} | {steps['same']} | "
                    f"{steps['refound']} | {steps['healed']} | {steps['failed']} | "
                    f"{first_calls} | {'yes' if finished else 'no'} | {wrong} | {heals} | {again} |")
    share = totals["finished"] / totals["replays"] * 100
    return "\n".join([
        "## Routines: replay and healing (demo order)", "",
        "    .venv/bin/python scripts/bench_routines.py --write", "",
        f"Machine: {machine()}. Date: {time.strftime('%Y-%m-%d')}. Real Chromium with the "
        "extension and the native host; the scripted model stands in for the LLM (it answers at "
        "once, so the agent's time below is the floor: a real model adds its latency to each of "
        "its calls). The routine is the demo order (7 steps, 3 subtasks) with signatures from a "
        "real observe of the shop.", "",
        f"Median of {runs} runs, wall time from the task's first event to its last:", "",
        "| run | wall time | model calls |", "|---|---|---|", *rows_demo, "",
        f"The replay takes {1 / ratio if ratio else 0:.2f}× the agent's time with zero model "
        f"calls; every run placed its order ({'yes' if orders_ok else 'NO'}).", "",
        "Healing, one replay per changed copy of the shop (then a second replay of the updated "
        "routine on the same copy): steps re-found as recorded / re-found though changed (by "
        "signature, no model) / healed by the model / failed; model calls of the first replay; "
        "whether it finished with the order placed; wrong actions (orders other than the "
        "recorded one, on either shop); heals written into the routine; model calls of the second "
        "replay.", "",
        "| change | as recorded | re-found | healed (model) | failed | model calls | finished | "
        "wrong actions | routine heals | 2nd replay calls |",
        "|---|---|---|---|---|---|---|---|---|---|", *rows_heal, "",
        f"Finished: {totals['finished']}/{totals['replays']} ({share:.0f}%, target ≥ 90%); "
        f"wrong actions: {totals['wrong']} (target 0).",
    ])


def cli(eb: ExtBrowser, env: dict[str, str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    p = subprocess.run([sys.executable, "-m", "heybro.cli", *args, "--json"], env=eb.env | env,
                       capture_output=True, text=True, timeout=300)
    if os.environ.get("BENCH_DUMP"):  # each run's events, to look into one that went wrong
        Path(os.environ["BENCH_DUMP"]).mkdir(parents=True, exist_ok=True)
        (Path(os.environ["BENCH_DUMP"]) / f"{time.time():.0f}-{args[0]}.jsonl").write_text(p.stdout)
    return p.returncode, [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]


def app_rows(task: AppTask, start: Any, runs: int, label: str) -> tuple[list[str], list[str],
                                                                         dict[str, int]]:
    """The agent run, the unchanged replay and the changed replays of one application task."""
    totals = {"replays": 0, "finished": 0, "wrong": 0}
    demo, heal_rows = [], []
    heal = HealPolicy({})
    with start() as app, ScriptedLLM({}, default=heal.defaults()) as llm, \
            launch(env_extra=llm.env()) as eb:
        page = eb.ctx.new_page()
        app.login(page)
        routine = task.record(eb, page, app)
        host_ready(eb)
        store = TaskStore(eb.home / "data" / "tasks.sqlite3")
        routines = StoreRoutines(store)
        routines.save(routine, replace=True)
        n = 0

        def values() -> dict[str, str]:
            nonlocal n
            n += 1
            v = {p.name: p.default for p in routine.parameters}
            return {k: (f"Bench_{label}_{n}" if k == "title" else f"{x} {n}") for k, x in v.items()}

        def params(v: dict[str, str]) -> list[str]:
            return [a for k, x in v.items() for a in ("--param", f"{k}={x}")]

        agent, replays, ok = [], [], True
        for _ in range(runs):
            v = values()
            with ScriptedLLM(task.agent(v)) as agent_llm:
                rc, events = cli(eb, agent_llm.env(), "run", fill_goal(task.goal, v), "--url",
                                 task.start(app.url, v))
                ok = ok and rc == 0 and settled(lambda: task.done(app, v))
                agent.append((span_s(events), len(agent_llm.requests)))
        for _ in range(runs):
            v = values()
            before = len(llm.requests)
            rc, events = cli(eb, {}, "routine", "run", routine.name, *params(v), "--url",
                             task.start(app.url, v))
            ok = ok and rc == 0 and settled(lambda: task.done(app, v))
            replays.append((span_s(events), len(llm.requests) - before))
        demo.append(f"| {task.name} | {statistics.median(t for t, _ in agent):.2f} s | "
                    f"{agent[0][1]} | {statistics.median(t for t, _ in replays):.2f} s | "
                    f"{max(c for _, c in replays)} | {'yes' if ok else 'NO'} |")
        for mutations in SCENARIOS[1:] if not os.environ.get("BENCH_UNCHANGED") else []:
            routines.save(routine, replace=True)  # each change meets the routine as recorded
            before_calls, before = len(llm.requests), task.snapshot(app)
            v = values()
            with MutatingProxy(app.url, mutations) as proxy:
                rc, events = cli(eb, {}, "routine", "run", routine.name, *params(v), "--url",
                                 task.start(proxy.url, v), "--on-heal-failure", "stop")
            steps = classify(events)
            finished = rc == 0 and settled(lambda: task.done(app, v))
            steps["failed"] = 0 if finished else max(1, len(routine.steps) - sum(steps.values()))
            wrong = int(task.snapshot(app) != before and task.name.startswith("WordPress")) + \
                int(rc == 0 and not task.done(app, v))
            if task.name.startswith("MediaWiki"):  # exactly one new revision, or none
                wrong += int(task.snapshot(app) - before > 1)
            totals["replays"] += 1
            totals["finished"] += int(finished)
            totals["wrong"] += wrong
            heal_rows.append(f"| {task.name} | {' + '.join(mutations)} | {steps['same']} | "
                             f"{steps['refound']} | {steps['healed']} | {steps['failed']} | "
                             f"{len(llm.requests) - before_calls} | "
                             f"{'yes' if finished else 'no'} | {wrong} |")
        store.close()
    return demo, heal_rows, totals


def settled(check: Any, timeout_s: float = 10) -> bool:
    """`check()` once the application has finished the request the run ended with."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.25)
    return True


def fill_goal(goal: str, v: dict[str, str]) -> str:
    from heybro.routines.model import fill
    return str(fill(goal, v))


def apps(runs: int) -> str:
    demo: list[str] = []
    heal: list[str] = []
    totals = {"replays": 0, "finished": 0, "wrong": 0}
    chosen = os.environ.get("BENCH_APPS", "wiki,wp").split(",")
    for task, start, label in ((WIKI_PAGE, mediawiki, "wiki"), (WP_TAGLINE, wordpress, "wp")):
        if label not in chosen:
            continue
        d, h, t = app_rows(task, start, runs, label)
        demo += d
        heal += h
        for k in totals:
            totals[k] += t[k]
    share = totals["finished"] / max(1, totals["replays"]) * 100
    return "\n".join([
        "### Real applications (WordPress and MediaWiki from Debian, on 127.0.0.1)", "",
        "Each task recorded as a routine on the application's real pages; the outcome of every run "
        "read from the application's database. Changed copies come through a local proxy that "
        "applies the same mutations to every HTML page (and keeps the visit on the proxy); a "
        "heal that fails stops the run (--on-heal-failure stop).", "",
        f"Median of {runs} runs each:", "",
        "| task | agent run | agent model calls | replay, unchanged | replay model calls | "
        "outcomes in the database |", "|---|---|---|---|---|---|", *demo, "",
        "| task | change | as recorded | re-found | healed (model) | failed | model calls | "
        "finished | wrong actions |", "|---|---|---|---|---|---|---|---|---|", *heal, "",
        f"Finished: {totals['finished']}/{totals['replays']} ({share:.0f}%, target ≥ 90%); "
        f"wrong actions: {totals['wrong']} (target 0).",
    ])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--only", choices=("demo", "apps"))
    args = ap.parse_args()
    parts = []
    if args.only != "apps":
        parts.append(bench(args.runs))
    if args.only != "demo":
        parts.append(apps(args.runs))
    text = "\n\n".join(parts)
    print(text)
    if args.write:
        write_section("bench_routines", text)


if __name__ == "__main__":
    main()
