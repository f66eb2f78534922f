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
from bench_common import ROOT, chromium, load_modules, machine, percentile, serve, write_large_pages  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    a = ap.parse_args()
    out = {}
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
                    for (const e of r.shown) __hb.captureSignature(e.el, e);
                    const d = performance.now() - s;
                    if (i >= 3) t.push(d);
                    window.__count = [scan.entries.length, r.counts.shown];
                }
                return t;
            }""", a.runs)
            count = page.evaluate("window.__count")
            out[name] = {"interactive": count[0], "shown_at_4000_tokens": count[1],
                         "p50_ms": round(percentile(times, 0.5), 1), "p95_ms": round(percentile(times, 0.95), 1)}
    print(json.dumps({"machine": machine(), "runs": a.runs, "results": out}, indent=2))


if __name__ == "__main__":
    main()
