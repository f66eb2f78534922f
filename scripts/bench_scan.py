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
            "Earlier rounds (same machine): 50.2 ms / 203.3 ms p50, then 23.9 / 90.6 ms (load 2.1). This round: text "
            "blocks keep their raw text and normalise it only when the rendering reads it (a getter on a small class; most "
            "blocks of a big page are left out by the budget), and the rendering builds a text block's line only when it "
            "takes it; the rendering sorts on precomputed keys; a named link with a relative target is not parsed as a URL "
            "(it stays on the site, so it shows no target); neighbour text normalises the 400 characters nearest the "
            "element instead of a whole sibling's text; ancestor-path steps are cached per element (checked against its id "
            "and class, so a changed element is worked out again). An interleaved A/B in one page (previous modules vs these, "
            "60 runs each, same load) gave 31.3 → 27.5 ms p50 at 1,000 elements and 108.2 → 98.9 ms at 5,000 under a load "
            "average of ≈ 3: about −10 %, most of it in rendering (6.0 → 4.1 ms) and signatures (6.6 → 5.7 ms).", "",
            f"Reading: the figures above are from one run at the load shown; on this shared 2-core machine the same code "
            "moves by ±30 % with the other engineers' test runs. What is left at 1,000 elements is mostly the browser's own "
            "work: `getBoundingClientRect` and `checkVisibility` for each of the 1,000 interactive elements (≈ 4–5 ms "
            "quiet) and the walk over ~4,000 nodes.",
        ]))


if __name__ == "__main__":
    main()
