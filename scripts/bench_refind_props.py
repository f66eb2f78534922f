"""Re-finding on generated pages, checked against its invariants (the property suite, run in bulk).

    .venv/bin/python scripts/bench_refind_props.py [--tune-seeds 1-40] [--held-seeds 1001-1040]
        [--trials 50] [--most 3] [--write] [--dump FILE] [--explain]

Each seed draws pages and change sequences with tests/support/refind_gen.py (the generator the
property tests in tests/test_refind_properties.py shrink with Hypothesis) and runs them in a
headless Chromium with tests/support/refind_gen.js: build the page, capture the signature of one
of its controls, apply the changes, `refind`, and check the answer — correct (the element),
wrong (another element), abstained; for a deleted element, refused or wrong; and every invariant
it breaks. A "twin" (another element carries the captured signature to the letter, its place
included) is counted apart. The tune seeds are the pages refind.js may be adjusted on; the
held-out seeds are only counted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, chromium, machine, percentile, serve, write_section  # noqa: E402
from support.refind_gen import Seeded, trial  # noqa: E402

BATCH = 25


def seeds(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


#: What each kind of change is called in the tables.
KINDS = {"copy": "near copy put beside", "drop": "attribute dropped", "rename": "attribute given another value",
         "hash": "classes hashed", "wrap": "wrapper added", "unwrap": "wrapper taken away", "move": "moved",
         "reorder": "reordered", "reword": "words reworded", "insert": "a record added", "delete": "another element deleted"}


def kind_of(row: dict[str, Any]) -> str:
    """The row a trial counts in: a deleted element, several changes, or the one change's kind."""
    if row["gone"]:
        return "deleted"
    a = row["applied"]
    if len(a) != 1:
        return f"{len(a)} changes at once" if a else "nothing changed"
    return KINDS[a[0].split(":")[0]]


def run(seed_list: list[int], n: int, most: int, explain: bool, page: Any, split: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    t0 = time.time()
    for seed in seed_list:
        ch = Seeded(seed)
        trials = [trial(ch, most) for _ in range(n)]
        for i in range(0, n, BATCH):
            got = page.evaluate("([t, o]) => refindGen.runTrials(t, o)", [trials[i:i + BATCH], {"explain": explain}])
            for j, g in enumerate(got):
                if "skipped" in g:
                    continue
                g["gone"] = g["deleted"]
                rows.append({**g, "seed": seed, "trial": i + j, "split": split})
        print(f"seed {seed} ({split}): {len(rows)} trials, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    return rows


def table(rows: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    by: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        k = kind_of(r)
        by[k]["twin" if r["twin"] and r["outcome"] != "correct" else r["outcome"]] += 1
        by[k]["broken"] += 1 if r["broken"] and not (r["twin"] and r["broken"] == ["another element"]) else 0
    order = sorted(by, key=lambda k: (k == "deleted", k.endswith("at once"), k != "nothing changed", k))
    lines = ["| change | trials | correct | wrong | abstained | twins | invariant broken |", "|---|---|---|---|---|---|---|"]
    tot: Counter = Counter()
    for k in order:
        c = by[k]
        if k == "deleted":
            n = c["refused"] + c["wrong"]
            lines.append(f"| **deleted** | {n} | — | {c['wrong']} ({100 * c['wrong'] / max(1, n):.1f}%) | refused {c['refused']} "
                         f"({100 * c['refused'] / max(1, n):.1f}%) | {c['twin']} | {c['broken']} |")
            continue
        tot.update(c)
        n = c["correct"] + c["wrong"] + c["abstained"]
        pct = lambda x: f"{c[x]} ({100 * c[x] / max(1, n):.1f}%)"  # noqa: E731
        lines.append(f"| {k} | {n} | {pct('correct')} | {pct('wrong')} | {pct('abstained')} | {c['twin']} | {c['broken']} |")
    n = tot["correct"] + tot["wrong"] + tot["abstained"]
    d = by["deleted"]
    summary = {"trials": n, "correct": tot["correct"] / max(1, n), "wrong": tot["wrong"] / max(1, n), "abstained": tot["abstained"] / max(1, n),
               "twins": tot["twin"], "deleted": d["refused"] + d["wrong"], "refused": d["refused"] / max(1, d["refused"] + d["wrong"]),
               "broken": sum(c["broken"] for c in by.values()),
               "worst_wrong": max((by[k]["wrong"] / max(1, by[k]["correct"] + by[k]["wrong"] + by[k]["abstained"]) for k in by if k != "deleted"), default=0)}
    lines.insert(2, f"| **all but deleted** | {n} | {tot['correct']} ({100 * summary['correct']:.1f}%) | {tot['wrong']} ({100 * summary['wrong']:.2f}%) | "
                    f"{tot['abstained']} ({100 * summary['abstained']:.1f}%) | {tot['twin']} | {summary['broken']} |")
    return "\n".join(lines), summary


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tune-seeds", default="1-40")
    ap.add_argument("--held-seeds", default="1001-1040")
    ap.add_argument("--split", choices=["both", "tune", "held-out"], default="both")
    ap.add_argument("--trials", type=int, default=50, help="trials per seed")
    ap.add_argument("--most", type=int, default=3, help="changes per trial, at most")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--dump", help="write every trial as JSON here")
    ap.add_argument("--explain", action="store_true", help="with --dump: signatures and candidates of each failure")
    a = ap.parse_args()
    rows: list[dict[str, Any]] = []
    t0 = time.time()
    with serve(ROOT) as base, chromium() as page:
        page.goto(f"{base}/tests/fixtures/dom/refind_gen.html")
        page.wait_for_selector("body[data-ready='1']", state="attached")
        if a.split != "held-out":
            rows += run(seeds(a.tune_seeds), a.trials, a.most, a.explain, page, "tune")
        if a.split != "tune":
            rows += run(seeds(a.held_seeds), a.trials, a.most, a.explain, page, "held-out")
    if a.dump:
        Path(a.dump).write_text(json.dumps(rows, indent=0))
    out = {s: table([r for r in rows if r["split"] == s]) for s in ("tune", "held-out") if any(r["split"] == s for r in rows)}
    broken = Counter(b for r in rows for b in r["broken"] if not (r["twin"] and b == "another element"))
    ms = [r["ms"] for r in rows]
    print(json.dumps({"machine": machine(), "seconds": round(time.time() - t0), "p50_ms": percentile(ms, 0.5) if ms else None,
                      "broken": dict(broken), "summary": {k: v[1] for k, v in out.items()}}, indent=1))
    for k, v in out.items():
        print(f"\n{k}\n{v[0]}")
    if a.write:
        write(a, rows, out)


def write(a: argparse.Namespace, rows: list[dict[str, Any]], out: dict[str, tuple[str, dict[str, Any]]]) -> None:
    ms = [r["ms"] for r in rows]
    md = ["## Re-finding on generated pages, checked against its invariants", "",
          f"    .venv/bin/python scripts/bench_refind_props.py --tune-seeds {a.tune_seeds} --held-seeds {a.held_seeds} "
          f"--trials {a.trials} --most {a.most} --write", "",
          f"Machine: {machine()}. Pages and changes drawn by tests/support/refind_gen.py ({a.trials} trials a seed, 1 to {a.most} "
          "changes each), run by tests/support/refind_gen.js: the property suite of tests/test_refind_properties.py in bulk. "
          "A row names the one change a trial made (its kind and what it acted on: the element itself, a look-alike, a "
          "neighbour, a container around it, anything), or how many it made; a deleted element has its own row. "
          "\"invariant broken\" counts trials whose answer breaks one of re-finding's invariants (refind.js). Twins "
          "(another element carries the captured signature to the letter, its place included) are counted apart.", ""]
    for k, (t, s) in out.items():
        md += [f"**{k}** (seeds {a.tune_seeds if k == 'tune' else a.held_seeds}): {s['trials']} re-finds of elements still there — "
               f"correct {100 * s['correct']:.1f}%, wrong {100 * s['wrong']:.2f}%, abstained {100 * s['abstained']:.1f}%; "
               f"deleted refused {100 * s['refused']:.1f}% of {s['deleted']}; worst kind {100 * s['worst_wrong']:.2f}% wrong; "
               f"invariants broken {s['broken']}.", "", t, ""]
    md.append(f"Re-find time: p50 {percentile(ms, 0.5):.2f} ms, p95 {percentile(ms, 0.95):.2f} ms.")
    write_section("bench_refind_props", "\n".join(md))


if __name__ == "__main__":
    main()
