"""Whether refind.js answers as an earlier build of it did, trial by trial, and how much faster it is.

    .venv/bin/python scripts/check_refind_same.py [--old REV] [--large-targets 20] [--tasks 0]
        [--per-page 12] [--seeds 42,7] [--wide-seeds 1,101] [--wide-per-page 16] [--large NAMES] [--decisions]

Loads extension/content/refind.js (with the modules it imports) as it is in the working tree and as it was at REV (default: HEAD)
into the same page, runs the trials of scripts/bench_refind.py (MiniWoB++ pages and the large
pages) and of scripts/bench_refind_wide.py, and answers each with both on the same signature.
Two answers are the same when the status, the element, the confidence and every reported
candidate (element and score) are; the signature the new build takes must be the old one's too.
With --decisions only the status and the element are compared (a change that reports other
candidates, or other scores, but decides the same). Made for changes that make re-finding faster
and must not change what it decides. Prints a
summary (and each difference) as JSON; exits 1 when any answer differs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, baseline_tree, chromium, percentile, serve, start_miniwob, write_large_pages  # noqa: E402
from bench_refind import targets_js  # noqa: E402

LOAD = """async ([base, old]) => {
    window.__same = await import(base + '/scripts/bench/refind_same.js');
    window.__old = await import(old + '/extension/content/refind.js');
    window.__new = await import(base + '/extension/content/refind.js');
}"""


def main() -> None:
    import miniwob
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", default="HEAD", help="the git revision whose refind.js is the reference")
    ap.add_argument("--large-targets", type=int, default=20)
    ap.add_argument("--large", default="large_1000.html,large_5000.html", help="large pages to include ('' = none)")
    ap.add_argument("--tasks", type=int, default=0, help="MiniWoB tasks (0 = all)")
    ap.add_argument("--per-page", type=int, default=12)
    ap.add_argument("--seeds", default="42,7", help="MiniWoB episode seeds ('' = no MiniWoB pages)")
    ap.add_argument("--wide-seeds", default="1,101", help="wide-suite seeds ('' = none)")
    ap.add_argument("--wide-per-page", type=int, default=16)
    ap.add_argument("--combos", type=int, default=3)
    ap.add_argument("--decisions", action="store_true",
                    help="compare the decision alone (status and element), not the confidence and reported candidates")
    a = ap.parse_args()
    html = Path(miniwob.__file__).parent / "html"
    tasks = sorted(p.stem for p in (html / "miniwob").glob("*.html"))
    if a.tasks:
        tasks = tasks[: a.tasks]
    rows: list[dict] = []
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as old_dir:
        baseline_tree(a.old, Path(old_dir))  # (refind.js with the modules it imports, as they were)
        with serve(ROOT) as base, serve(Path(old_dir)) as old, serve(html) as mw, serve(Path(tmp)) as big, chromium() as page:
            def suite(name: str, limit: int) -> None:
                page.evaluate(LOAD, [base, old])
                page.evaluate("(on) => __same.setDecisionsOnly(on)", a.decisions)
                targets = page.evaluate(targets_js(limit), base)
                got = page.evaluate("(t) => __same.compareSuite(__old, __new, t)", targets)
                rows.extend({**r, "page": name} for r in got)
                print(f"{name}: {len(got)} trials, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)

            for name in write_large_pages(Path(tmp)):
                if name not in a.large.split(","):
                    continue
                page.goto(f"{big}/{name}")
                suite(name, a.large_targets)
            for seed in [int(x) for x in a.seeds.split(",") if x]:
                for t in tasks:
                    try:
                        start_miniwob(page, mw, t, seed)
                    except Exception:  # a page that does not start is skipped (bench_refind.py reports it)
                        continue
                    suite(f"{t} (seed {seed})", a.per_page)
            page.goto(f"{base}/tests/fixtures/dom/refind.html")
            page.evaluate(LOAD, [base, old])
            page.evaluate("(on) => __same.setDecisionsOnly(on)", a.decisions)
            kinds = page.evaluate("async (base) => { window.__wide = await import(base + '/scripts/bench/refind_wide.js');"
                                  " return (await import(base + '/scripts/bench/refind_pages.js')).KINDS; }", base)
            for seed in [int(x) for x in a.wide_seeds.split(",") if x]:
                for kind in kinds:
                    targets = page.evaluate("([k, s, n]) => __wide.targetsOf(k, s, n)", [kind, seed, a.wide_per_page])
                    got = page.evaluate("([k, s, t, c]) => __same.compareWide(__old, __new, k, s, t, c)", [kind, seed, targets, a.combos])
                    rows.extend({**r, "page": f"wide {kind} (seed {seed})"} for r in got)
                    print(f"wide {kind} (seed {seed}): {len(got)} trials, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    differ = [r for r in rows if not r["same"]]
    timing = {}
    for name in ("large_1000.html", "large_5000.html"):
        sel = [r for r in rows if r["page"] == name]
        if sel:
            timing[name] = {"trials": len(sel), "old_p50_ms": percentile([r["msOld"] for r in sel], 0.5),
                            "new_p50_ms": percentile([r["msNew"] for r in sel], 0.5),
                            "old_p95_ms": percentile([r["msOld"] for r in sel], 0.95),
                            "new_p95_ms": percentile([r["msNew"] for r in sel], 0.95)}
    print(json.dumps({"old": a.old, "trials": len(rows), "pages": len({r["page"] for r in rows}), "same": len(rows) - len(differ),
                      "differ": len(differ), "why": dict(Counter(r["why"] for r in differ)), "timing": timing,
                      "seconds": round(time.time() - t0), "differences": differ[:40]}, indent=1))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
