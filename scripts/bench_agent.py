#!/usr/bin/env python3
"""Agent harness benchmark on the demo shop with the scripted LLM (no model latency in the figures).

    .venv/bin/python scripts/bench_agent.py [--runs 5] [--write]

Each run is a real `heybro run` (Chromium + extension + native host + DOM agent) on the demo shop.
Reports per worker step (previous LLM reply received → actions done → next prompt ready), p50/p95:
the harness overhead and its split (page actions / observe + prompt), with the page's own load time
after a navigating action measured and reported separately; prompt tokens per role call (scripted server's estimate: ~4 chars/token
over messages, tools rendered as signatures); LLM calls per completed action. --write updates
BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support import demo_script  # noqa: E402
from support.browser import test_env  # noqa: E402
from support.scripted_llm import ScriptedLLM, slow  # noqa: E402

from heybro.demo import DemoSite  # noqa: E402
from bench_common import machine, write_section  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def one_run(model_ms: int = 0) -> list[dict]:
    script = demo_script.happy()
    if model_ms:  # the model "thinks" this long before each reply, as a real one does
        script = {role: [slow(model_ms / 1000, step) for step in steps] for role, steps in script.items()}
    with tempfile.TemporaryDirectory() as tmp, DemoSite() as site, \
            ScriptedLLM(script) as llm:
        env = test_env(Path(tmp)) | llm.env()
        r = subprocess.run([sys.executable, "-m", "heybro.cli", "run", demo_script.PLAN[-1],
                            "--url", site.url, "--new-browser", "--headless", "--json"],
                           env=env, capture_output=True, text=True, timeout=300)
        events = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
        assert r.returncode == 0 and len(site.orders) == 1, (r.stderr, site.orders)
        return events


def load_avg() -> str:
    try:
        return " / ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--model-ms", type=int, default=0,
                    help="the scripted model answers after this long (default: at once)")
    args = ap.parse_args()
    overhead: list[float] = []   # previous reply → next prompt ready, as the iteration events report it
    page: list[float] = []       # … of which the browser loading a new document (page_ms of the actions)
    render: list[float] = []     # … and its first rendering after the load (render_ms of the actions)
    actions: list[float] = []    # … of which the page actions (DOM agent + native messaging), page time excluded
    rest: list[float] = []       # … of which recording the step and building the prompt
    tokens: dict[str, list[int]] = {"scheduler": [], "worker": [], "verifier": []}
    calls = done = 0
    started, load_before = time.time(), load_avg()
    for _ in range(args.runs):
        events = one_run(args.model_ms)
        acted = loaded = rendered = 0.0
        pending: tuple[float, float, float] | None = None
        for e in events:
            d = e["data"]
            if e["kind"] == "tool_result" and d["role"] == "worker":
                acted += d.get("duration_ms") or 0.0
                loaded += d.get("page_ms") or 0.0
                rendered += d.get("render_ms") or 0.0
            if e["kind"] == "iteration" and d["role"] == "worker":
                # An iteration event follows its own tool results; its overhead_ms is the time from
                # the previous reply (whose tools came before the previous iteration event).
                if d.get("overhead_ms") and pending is not None:
                    o, (a, p, r) = d["overhead_ms"], pending
                    overhead.append(o)
                    page.append(p)
                    render.append(r)
                    actions.append(a - p)
                    rest.append(o - a)
                pending, acted, loaded, rendered = (acted, loaded, rendered), 0.0, 0.0, 0.0
            elif e["kind"] == "usage":
                tokens[d["role"]].append(d["prompt_tokens"])
                calls += 1
            elif (e["kind"] == "tool_result" and d["role"] == "worker" and d["success"]
                  and d["tool"] != "mark_done"):
                done += 1
    harness = [o - p for o, p in zip(overhead, page, strict=True)]
    harness_painted = [h - r for h, r in zip(harness, render, strict=True)]
    navigating = sum(1 for p in page if p > 0)

    def row(label: str, xs: list[float], target: str = "") -> str:
        return f"| {label} | {statistics.median(xs):.0f} / {pct(xs, 95):.0f} ms | {target} |"

    rows = [row("**harness overhead per worker step** (reply → next prompt, less the new page's load)",
                harness, "≤ 50 ms p50"),
            row("… in the page actions (DOM agent, settling, native messaging both ways, the new "
                "page's agent answering, the observe that comes back with the last action)", actions),
            row("… recording the step (store, events) and building + validating the next prompt", rest),
            row("the new page's load: navigation start → load event end (0 for steps without "
                f"navigation; {navigating} of {len(page)} steps navigate)", page),
            row("the new page's first rendering: load event end → heybro's first task in the page "
                "runs (inside the overhead above)", render),
            row("harness overhead less that first rendering too", harness_painted),
            row("reply received → next prompt ready, as measured", overhead)]
    for role, xs in tokens.items():
        rows.append(f"| prompt tokens per {role} call, median (max) | {statistics.median(xs):.0f} "
                    f"({max(xs)}) | {'≤ 1,500' if role == 'worker' else ''} |")
    rows.append(f"| LLM calls per completed action | {calls / done:.2f} ({calls} calls, "
                f"{done} actions) | |")
    table = "| measure (per worker step: p50 / p95) | value | target |\n|---|---|---|\n" + "\n".join(rows)
    p50 = statistics.median(harness)
    worker_max = max(tokens.get("worker", [0]))
    reading = (f"Reading: harness overhead {p50:.0f} ms p50 — ≤ 50 ms "
               f"{'met' if p50 <= 50 else '**not met**'}; worker prompt at most {worker_max} tokens "
               f"— ≤ 1,500 {'met' if worker_max <= 1500 else '**not met**'}. The machine is shared "
               "(2 cores): figures move by ±30 % with its load, given above. Earlier rounds "
               "(Intel Xeon machine): 532 ms p50 with fixed waits after every action, 121 ms with "
               "settling on DOM quiet but the DOM agent imported as 11 ES modules into each new "
               "page; then the agent became one classic content script injected at document start, "
               "and an action brings back the page it leads to (`observe_after`).")
    model = (f"the scripted model answers {args.model_ms} ms after each request (a fast hosted or "
             "local model takes 0.3–5 s), so the browser's own work on a page that outlasts the "
             "step — its first rendering after an answer sent from inside its load — happens "
             "during the model's time, as it does in real use"
             if args.model_ms else "the scripted model answers at once")
    title = (f"## Agent harness, {args.model_ms} ms model (scripted LLM, demo shop)" if args.model_ms
             else "## Agent harness (scripted LLM, demo shop)")
    flag = f" --model-ms {args.model_ms}" if args.model_ms else ""
    report = (f"{title}\n\n    .venv/bin/python "
              f"scripts/bench_agent.py --runs {args.runs}{flag} --write\n\nMachine: {machine()}; load "
              f"average (1 / 5 / 15 min) {load_before} at the start, {load_avg()} at the end.  \n"
              f"Date: {time.strftime('%Y-%m-%d')}; {args.runs} runs of the 3-subtask demo order, "
              f"n = {len(overhead)} worker steps, {time.time() - started:.0f} s in all.\n\n{table}\n\n"
              f"{reading}\n\n"
              "A step = previous LLM reply received → its actions done in the page (DOM agent through "
              "native messaging, each action waiting for the page to settle) → the page observed → "
              "next prompt built; the scripted model answers instantly, so no model time is included. "
              "When an action navigates (every demo click does: plain links and form posts), the "
              "browser loading the new document (`page_ms` in the action's result: navigation start → "
              "load event end, from the new document's own Navigation Timing, redirects included) "
              "is the demo page's time, not heybro's: it is reported on its own row and taken out "
              "of the harness overhead. The browser's first rendering of the new page after its "
              "load (`render_ms`: until heybro's first task in the page runs — no script runs in "
              "the page meanwhile) stays inside the overhead; the row after it shows the overhead "
              "without it. Tokens are the scripted server's estimate (≈4 characters per token; tool "
              "schemas counted as signatures).\n")
    print(report)
    if args.write:
        write_section(f"bench_agent_model{args.model_ms}" if args.model_ms else "bench_agent", report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
