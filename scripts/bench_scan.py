"""Scan + render time of the DOM agent on pages with 1,000 and 5,000 interactive elements.

    .venv/bin/python scripts/bench_scan.py [--runs 30]

Runs the extension's own modules (extension/lib/dom_scan.js + dom_render.js, the code the content
script runs) in headless Chromium; times scanPage + renderScan (default 4,000-token budget, and the
signatures of the shown elements, as `observe` does) with performance.now(), after 3 warm-up runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, chromium, load_modules, machine, percentile, serve, write_large_pages, write_section  # noqa: E402

TARGETS = {"large_1000.html": 20, "large_5000.html": 100}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--write", action="store_true", help="write the section of BENCHMARKS.md")
    a = ap.parse_args()
    out = {}
    load0 = Path("/proc/loadavg").read_text().split()[:3]
    with tempfile.TemporaryDirectory() as tmp, serve(ROOT) as base, serve(Path(tmp)) as pages, chromium() as page:
        names = write_large_pages(Path(tmp))
        for name in names:
            page.goto(f"{pages}/{name}")
            load_modules(page, base)
            times = page.evaluate("""(runs) => {
                const reg = new __hb.Registry("");
                const t = [];
                for (let i = 0; i < runs + 3; i++) {
                    const s = performance.now();
                    const scan = __hb.scanPage(reg);
                    const r = __hb.renderScan(scan, { maxTokens: 4000 });
                    const pass = new Map();
                    for (const e of r.shown) __hb.captureSignature(e.el, e, pass);
                    const d = performance.now() - s;
                    if (i >= 3) t.push(d);
                    window.__count = [scan.entries.length, r.counts.shown];
                }
                return t;
            }""", a.runs)
            count = page.evaluate("window.__count")
            out[name] = {"interactive": count[0], "shown_at_4000_tokens": count[1],
                         "p50_ms": round(percentile(times, 0.5), 1), "p95_ms": round(percentile(times, 0.95), 1)}
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(json.dumps({"machine": machine(), "runs": a.runs, "load_start": load0, "load": load, "results": out}, indent=2))
    if a.write:
        rows = [f"| {k} | {v['interactive']:,} | {v['shown_at_4000_tokens']} | {a.runs} | {v['p50_ms']} ms | {v['p95_ms']} ms | "
                f"≤ {TARGETS[k]} ms — {'met' if v['p50_ms'] <= TARGETS[k] else '**not met**'} |" for k, v in out.items()]
        write_section("bench_scan", "\n".join([
            "## Scan + render time", "",
            f"    .venv/bin/python scripts/bench_scan.py --runs {a.runs} --write", "",
            f"Machine: {machine()}; load average (1 / 5 / 15 min) at the start of the run {' / '.join(load0)}, at the end {' / '.join(load)} (2 cores shared with other "
            "engineers' test runs: figures move with their load).", "",
            "Times `scanPage` + `renderScan` (4,000-token budget) + the signatures of the shown elements — what one "
            "`observe` does in the content script — on generated pages (cards, forms, tables), after 3 warm-up runs, "
            "with `performance.now()` in the page.", "",
            "| page | interactive elements | shown at 4,000 tokens | n | p50 | p95 | target p50 |",
            "|---|---|---|---|---|---|---|", *rows, "",
            "Earlier rounds (an Intel Xeon machine): 50.2 / 203.3 ms p50, then 23.9 / 90.6, then 25.0 / 66.2. This round "
            "(the AMD EPYC machine above): visibility is worked out from the style sheets as the pointer cursor already was "
            "— an interactive element with a box is asked `checkVisibility` only when some rule, inline style, animation or "
            "the user-agent sheet could hide it or an ancestor (opacity, visibility, content-visibility; a sheet that cannot "
            "be read means asking every element, as before); the scroll offsets are read once per observe instead of once "
            "per signature (each read is a layout check: a fifth of a signature's time); a table row is joined into a line "
            "only when the rendering keeps it. Interleaved A/B on this machine (the previous commit's modules vs these, "
            "40 runs each, three pairs, load ≈ 1.5–2): 1,000 elements 27.0 / 27.0 / 27.7 → 21.0 / 22.5 / 19.1 ms p50, "
            "5,000 elements 107.2 / 107.5 / 108.8 → 78.1 / 78.3 / 74.3 ms.", "",
            "Reading: the figures above are from one run at the load shown; on this shared 2-core machine the same code "
            "moves by ±15 % between runs, so ≤ 20 ms at 1,000 elements is met in some runs and missed by a few ms in "
            "others. Where the time goes at 1,000 elements (CPU profile): the walk over ~4,000 nodes ≈ 8 ms, of which "
            "`getBoundingClientRect` for the 1,000 interactive elements ≈ 4.5 ms (the browser's own work, one box per "
            "element, which the ranking and the signatures need); rendering ≈ 4 ms (≈ 1 ms of it `checkVisibility` on the "
            "text blocks it keeps); the 259 shown elements' signatures ≈ 4.3 ms.",
        ]))


if __name__ == "__main__":
    main()
