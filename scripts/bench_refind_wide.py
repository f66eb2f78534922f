"""Re-finding on the wide suite: generated pages where a signature's twin lives in another part of
the page (login + sign-up, billing + shipping, header + footer navigation, tables with per-row
actions, web components with repeated controls in open — and nested — shadow roots, radio groups
and switches with shared labels, icon-only buttons, product grids, search results).

    .venv/bin/python scripts/bench_refind_wide.py [--tune-seeds 1,2,3,4] [--held-seeds 101,…] [--per-page 16] [--write]

Every trial rebuilds the page, captures the target's signature, applies a mutation — one of
scripts/bench/refind_wide.js's SINGLES ("none" included: nothing changed), or two or three at
once, or a deletion after another change — and scores `refind`'s answer. The tune seeds are the
pages refind.js was adjusted on; the held-out seeds draw other words, counts, orders and markup
habits and were not looked at while tuning (BENCHMARKS.md says how many of their failures were
read afterwards).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, chromium, machine, percentile, serve, write_section  # noqa: E402

ROWS = ["none", "id_renamed", "id_removed", "classes_hashed", "wrapper_added", "wrapper_removed", "siblings_reordered",
        "text_tweaked", "tag_swapped", "element_moved", "decoy_added", "decoy_elsewhere", "attribute_dropped",
        "combo_2", "combo_3", "deleted", "combo_deleted"]
GONE = {"deleted", "combo_deleted"}


def table(rows: list[dict]) -> tuple[str, dict]:
    """Per-mutation counts; twins (another element carries exactly the captured signature) apart."""
    by: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        o = r["outcome"]
        by[r["mutation"]]["twin" if o.startswith("indistinguishable") else o] += 1
    lines = ["| mutation | trials | correct | wrong | abstained | twin (either answer) |", "|---|---|---|---|---|---|"]
    tot: Counter = Counter()
    for m in ROWS:
        c = by[m]
        n = sum(c.values()) - c["twin"]
        if not n:
            continue
        if m not in GONE:
            tot.update(c)
        pct = lambda k: f"{c[k]} ({100 * c[k] / n:.1f}%)"  # noqa: E731
        lines.append(f"| {m.replace('_', ' ')} | {n} | {pct('correct')} | {pct('wrong')} | {pct('abstained')} | {c['twin']} |")
    n = sum(tot.values()) - tot["twin"]
    gone = sum(sum(by[m].values()) for m in GONE)
    none = by["none"]
    summary = {"trials": n, "correct": tot["correct"] / n if n else 0, "wrong": tot["wrong"] / n if n else 0,
               "abstained": tot["abstained"] / n if n else 0, "twin": tot["twin"], "deleted_trials": gone,
               "deleted_abstained": sum(by[m]["abstained"] for m in GONE) / max(1, gone),
               "unchanged_found": none["correct"] / max(1, sum(none.values()) - none["twin"])}
    lines.append(f"| **all but deleted** | {n} | {tot['correct']} ({100 * summary['correct']:.1f}%) | "
                 f"{tot['wrong']} ({100 * summary['wrong']:.2f}%) | {tot['abstained']} ({100 * summary['abstained']:.1f}%) | {tot['twin']} |")
    return "\n".join(lines), summary


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tune-seeds", default="1,2,3,4")
    ap.add_argument("--held-seeds", default="101,102,103,104")
    ap.add_argument("--kinds", default="", help="comma-separated page kinds (default: all)")
    ap.add_argument("--per-page", type=int, default=16)
    ap.add_argument("--combos", type=int, default=3, help="combinations of 2-3 mutations per target")
    ap.add_argument("--split", choices=["both", "tune", "held-out"], default="both")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--dump", help="write every trial as JSON here")
    ap.add_argument("--explain", action="store_true", help="with --dump: the signature and top candidates of each miss")
    a = ap.parse_args()
    tune = [int(x) for x in a.tune_seeds.split(",") if x]
    held = [int(x) for x in a.held_seeds.split(",") if x]
    seeds = [(s, "tune") for s in tune if a.split != "held-out"] + [(s, "held-out") for s in held if a.split != "tune"]
    rows: list[dict] = []
    t0 = time.time()
    with serve(ROOT) as base, chromium() as page:
        page.goto(f"{base}/tests/fixtures/dom/refind.html")
        kinds = page.evaluate("async (base) => { window.__wide = await import(base + '/scripts/bench/refind_wide.js');"
                              " return (await import(base + '/scripts/bench/refind_pages.js')).KINDS; }", base)
        if a.kinds:
            kinds = [k for k in kinds if k in a.kinds.split(",")]
        for seed, split in seeds:
            for kind in kinds:
                targets = page.evaluate("([k, s, n]) => __wide.targetsOf(k, s, n)", [kind, seed, a.per_page])
                got = page.evaluate("([k, s, t, o]) => __wide.runWide(k, s, t, o)",
                                    [kind, seed, targets, {"combos": a.combos, "explain": a.explain}])
                rows += [{**r, "page": kind, "seed": seed, "split": split} for r in got]
                print(f"{kind} (seed {seed}, {split}): {len(got)} trials, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    if a.dump:
        Path(a.dump).write_text(json.dumps(rows, indent=0))
    out = {split: table([r for r in rows if split == "all" or r["split"] == split]) for split in ("tune", "held-out", "all")}
    ms = [r["ms"] for r in rows]
    print(json.dumps({"machine": machine(), "seconds": round(time.time() - t0), "refind_ms_p50": percentile(ms, 0.5) if ms else None,
                      "summary": {k: v[1] for k, v in out.items()}}, indent=1))
    print(out["all"][0])
    if a.write:
        write(a, kinds, rows, out)


def write(a: argparse.Namespace, kinds: list[str], rows: list[dict], out: dict) -> None:
    s = {k: v[1] for k, v in out.items()}
    met = lambda ok: "met" if ok else "**not met**"  # noqa: E731
    pages = {(r["page"], r["seed"]) for r in rows}
    ms = [r["ms"] for r in rows]
    md = [
        "## Re-finding on the wide suite (twins in other parts of the page, shadow roots, combined mutations)", "",
        f"    .venv/bin/python scripts/bench_refind_wide.py --tune-seeds {a.tune_seeds} --held-seeds {a.held_seeds} "
        f"--per-page {a.per_page} --combos {a.combos} --write", "",
        f"Machine: {machine()}. {len(pages)} generated pages (scripts/bench/refind_pages.js), kinds: {', '.join(kinds)} — "
        "login beside sign-up, billing beside shipping, header and footer navigation with the same links, users tables "
        "with per-row Edit/Delete (text or icon-only), web components repeating star ratings, chips and cards in open "
        "shadow roots (a rating inside a card's shadow root), switches and radio groups with shared labels (\"Email\", "
        "\"On\"), icon-only buttons, product grids, search results. Each seed draws other words, counts, orders and "
        f"markup habits (ids or none, labels wrapping or `for`, icon names by aria-label, title, hidden text or none). Up "
        f"to {a.per_page} targets a page (the interactive elements the scanner reports, spread over the page); per target "
        f"every single mutation, {a.combos} combinations of two or three, and a deletion after another change. "
        "\"decoy elsewhere\" puts a copy of the control — same words, same label — into another form, group, row or "
        "section; \"none\" changes nothing. Twins (another element of the mutated page carries exactly the captured "
        "signature) are counted apart and left out of the percentages.", "",
        f"Split: **tune** = seeds {a.tune_seeds} (refind.js was adjusted looking at their failures); **held-out** = seeds "
        f"{a.held_seeds} (other pages of the same kinds, not looked at while tuning).", "",
        "| split | trials (all but deleted, twins aside) | correct | wrong | abstained | twins | nothing changed → found | deleted → refused |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for k in ("tune", "held-out", "all"):
        v = s[k]
        md.append(f"| {k} | {v['trials']} | {100 * v['correct']:.1f}% | {100 * v['wrong']:.2f}% | {100 * v['abstained']:.1f}% | "
                  f"{v['twin']} | {100 * v['unchanged_found']:.1f}% | {100 * v['deleted_abstained']:.1f}% of {v['deleted_trials']} |")
    h = s["held-out"]
    md += ["", "Per mutation, held-out pages:", "", out["held-out"][0], "", "Per mutation, tune pages:", "", out["tune"][0], "",
           f"Re-find time over all trials: p50 {percentile(ms, 0.5):.2f} ms, p95 {percentile(ms, 0.95):.2f} ms.", "",
           "Reading (held-out half): "
           f"≥ 97% correct — {met(h['correct'] >= 0.97)} ({100 * h['correct']:.2f}%); "
           f"≤ 0.3% wrong — {met(h['wrong'] <= 0.003)} ({100 * h['wrong']:.2f}%); "
           f"100% refused when deleted — {met(h['deleted_abstained'] == 1.0)}; "
           f"100% found when nothing changed — {met(h['unchanged_found'] == 1.0)}."]
    write_section("bench_refind_wide", "\n".join(md))


if __name__ == "__main__":
    main()
