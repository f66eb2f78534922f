#!/usr/bin/env python3
"""Agent harness benchmark on the demo shop with the scripted LLM (no model latency in the figures).

    .venv/bin/python scripts/bench_agent.py [--runs 5] [--write]

Each run is a real `heybro run` (Chromium + extension + native host + DOM agent) on the demo shop.
Reports per worker step, p50/p95: the literal "LLM reply received → action done → next prompt
ready", and the same less the new page's own load (the harness overhead), with its split (page
actions / recording + prompt); prompt tokens per role call counted with OpenAI's o200k_base
tokenizer (bpe-openai, offline; tests/support/prompt_tokens.py, which the prompt-budget test counts
with too), also for the worker in JSON mode (one more
run with HEYBRO_TOOL_MODE=json); LLM calls per completed action. --write updates BENCHMARKS.md.
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
from support.prompt_tokens import exact, prompt_tokens  # noqa: E402
from support.scripted_llm import ScriptedLLM, role_of, slow  # noqa: E402

from heybro.demo import DemoSite  # noqa: E402
from bench_common import machine, write_section  # noqa: E402


HISTORY = ("Earlier rounds: 532 ms p50 overhead with fixed waits after every action, 121 ms with "
           "settling on DOM quiet but the DOM agent imported as 11 ES modules into each new page; "
           "then the agent became one classic content script injected at document start, and an "
           "action brings back the page it leads to (`observe_after`). The previous round (AMD "
           "EPYC, load ≈ 1) read 100 ms p50 literal, 41 ms less the page load; worker prompts "
           "were then counted at ≈4 characters a token.")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def one_run(model_ms: int = 0, tool_mode: str = "auto") -> tuple[list[dict], list[dict]]:
    """One demo order through `heybro run`: (its events, the requests the model was sent)."""
    script = demo_script.happy()
    if model_ms:  # the model "thinks" this long before each reply, as a real one does
        script = {role: [slow(model_ms / 1000, step) for step in steps] for role, steps in script.items()}
    with tempfile.TemporaryDirectory() as tmp, DemoSite() as site, \
            ScriptedLLM(script) as llm:
        env = test_env(Path(tmp)) | llm.env(HEYBRO_TOOL_MODE=tool_mode)
        r = subprocess.run([sys.executable, "-m", "heybro.cli", "run", demo_script.PLAN[-1],
                            "--url", site.url, "--new-browser", "--headless", "--json"],
                           env=env, capture_output=True, text=True, timeout=300)
        events = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
        assert r.returncode == 0 and len(site.orders) == 1, (r.stderr, site.orders)
        return events, list(llm.requests)


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
    if not exact():
        sys.exit("scripts/bench_agent.py counts prompt tokens with OpenAI's tokenizer (bpe-openai), "
                 "which is not installed: install the bench extra, `.venv/bin/pip install -e "
                 "'.[test,bench]'` (scripts/setup does).")
    overhead: list[float] = []   # previous reply → next prompt ready, as the iteration events report it
    page: list[float] = []       # … of which the browser loading a new document (page_ms of the actions)
    render: list[float] = []     # … and its first rendering after the load (render_ms of the actions)
    actions: list[float] = []    # … of which the page actions (DOM agent + native messaging), page time excluded
    rest: list[float] = []       # … of which recording the step and building the prompt
    tokens: dict[str, list[int]] = {"scheduler": [], "worker": [], "verifier": []}
    described: list[int] = []  # the worker's, its tools' argument descriptions counted too
    calls = done = 0
    started, load_before = time.time(), load_avg()
    for _ in range(args.runs):
        events, requests = one_run(args.model_ms)
        for body in requests:
            tokens[role_of(body)].append(prompt_tokens(body))
            if role_of(body) == "worker":
                described.append(prompt_tokens(body, described=True))
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
                calls += 1
            elif (e["kind"] == "tool_result" and d["role"] == "worker" and d["success"]
                  and d["tool"] != "mark_done"):
                done += 1
    json_events, json_requests = one_run(args.model_ms, tool_mode="json")
    json_worker = [prompt_tokens(b) for b in json_requests if role_of(b) == "worker"]
    assert all("tools" not in b for b in json_requests)  # it did run in JSON mode
    harness = [o - p for o, p in zip(overhead, page, strict=True)]
    harness_painted = [h - r for h, r in zip(harness, render, strict=True)]
    navigating = sum(1 for p in page if p > 0)

    def row(label: str, xs: list[float], target: str = "") -> str:
        return f"| {label} | {statistics.median(xs):.0f} / {pct(xs, 95):.0f} ms | {target} |"

    rows = [row("**LLM reply received → action done → next prompt ready** (everything, as "
                "measured)", overhead, "≤ 50 ms p50"),
            row("**the same, less the new page's own load** (the harness overhead)", harness,
                "≤ 50 ms p50"),
            row("… in the page actions (DOM agent, settling, native messaging both ways, the new "
                "page's agent answering, the observe that comes back with the last action)", actions),
            row("… recording the step (store, events) and building + validating the next prompt", rest),
            row("the new page's load: navigation start → load event end (0 for steps without "
                f"navigation; {navigating} of {len(page)} steps navigate)", page),
            row("the new page's first rendering: load event end → heybro's first task in the page "
                "runs (inside the overhead above)", render),
            row("harness overhead less that first rendering too", harness_painted)]
    for role, xs in tokens.items():
        rows.append(f"| prompt tokens per {role} call, median (max) | {statistics.median(xs):.0f} "
                    f"({max(xs)}) | {'≤ 1,500' if role == 'worker' else ''} |")
    rows.append(f"| prompt tokens per worker call counting the tools' argument descriptions and "
                f"defaults too (OpenAI shows them to the model; not in the budget's count), median (max) | {statistics.median(described):.0f} "
                f"({max(described)}) | |")
    rows.append(f"| prompt tokens per worker call in JSON mode (tools listed in the system "
                f"prompt), median (max) | {statistics.median(json_worker):.0f} ({max(json_worker)}) "
                "| ≤ 1,500 |")
    rows.append(f"| LLM calls per completed action | {calls / done:.2f} ({calls} calls, "
                f"{done} actions) | |")
    table = "| measure (per worker step: p50 / p95) | value | target |\n|---|---|---|\n" + "\n".join(rows)
    literal, p50 = statistics.median(overhead), statistics.median(harness)
    worker_max = max(tokens.get("worker", [0]))

    def verdict(ms: float) -> str:
        return "meets it" if ms <= 50 else "**does not meet it**"

    reading = (f"Reading, against the ≤ 50 ms p50 target: the literal measure — reply received → "
               f"action done → next prompt ready — is {literal:.0f} ms p50 and {verdict(literal)}; "
               f"less the time the demo page itself takes to load after a navigating click (the "
               f"browser's work for the site, not heybro's) it is {p50:.0f} ms p50 and "
               f"{verdict(p50)}. Worker prompts: at most {worker_max} tokens with native tool "
               f"calling, {max(json_worker)} in JSON mode — ≤ 1,500 "
               f"{'met' if max(worker_max, max(json_worker)) <= 1500 else '**not met**'}. The "
               "machine is shared (2 cores): figures move by ±30 % with its load, given above. "
               + HISTORY)
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
              "without it. Tokens: OpenAI's o200k_base tokenizer (offline, `bpe-openai`) over every "
              "message the model is sent, plus the offered tools rendered as OpenAI describes "
              "functions to a model, plus its per-message framing (tests/support/prompt_tokens.py); the "
              "JSON-mode row is one more run with `HEYBRO_TOOL_MODE=json`.\n")
    print(report)
    if args.write:
        write_section(f"bench_agent_model{args.model_ms}" if args.model_ms else "bench_agent", report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
