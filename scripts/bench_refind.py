"""Re-finding by signature on a mutation suite over the MiniWoB++ pages and the large pages.

    .venv/bin/python scripts/bench_refind.py [--tasks N] [--per-page 12] [--large-targets 40] [--write]
    .venv/bin/python scripts/bench_refind.py --timing-only [--large-targets 20] [--write]

For many target elements per page (the interactive elements the scanner reports), capture the
signature with `captureSignature`, apply one mutation to a fresh copy of the page (id renamed,
classes hashed, wrapper added/removed, siblings reordered, text tweaked, tag swapped, element moved,
look-alike decoy added beside it or a copy put in another part of the page, attribute dropped, id
removed, target deleted), call `refind` and score the answer:
correct (the target), wrong (another element), abstained (ambiguous / not_found). For "deleted"
the right answer is to abstain, so it is reported on its own line.

The pages are split in two by a hash of their name: "tune" (what refind.js's weights and
thresholds were adjusted on) and "held-out" (never looked at while tuning); both are reported.
--timing-only runs the large pages alone and rewrites only their re-find time lines (saying the
command that measured them): the way to re-measure speed after a change that keeps every answer
(scripts/check_refind_same.py shows that it does).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, chromium, machine, percentile, serve, start_miniwob, write_large_pages, write_section  # noqa: E402

MUTATIONS = ["id_renamed", "id_removed", "classes_hashed", "wrapper_added", "wrapper_removed", "siblings_reordered",
             "text_tweaked", "tag_swapped", "element_moved", "decoy_added", "decoy_elsewhere", "attribute_dropped", "deleted"]


def split_of(page: str, seed: int | None, tune_seed: int) -> str:
    """tune: the MiniWoB pages drawn with the tuning seed and large_1000 (their failures were looked
    at while refind.js was adjusted); held-out: the same tasks drawn with other seeds (other random
    content) and large_5000, whose failures were not looked at."""
    if page.startswith("large_"):
        return "tune" if page == "large_1000.html" else "held-out"
    return "tune" if seed == tune_seed else "held-out"


def targets_js(limit: int) -> str:
    # Interactive elements as the scanner reports them, spread evenly over the page, as indices
    # among the body's elements (which survive cloning the body).
    return f"""async (base) => {{
        const scan = await import(base + '/extension/content/dom_scan.js');
        window.__suite = await import(base + '/scripts/bench/refind_suite.js');
        const all = Array.from(document.body.querySelectorAll('*'));
        const idx = new Map(all.map((e, i) => [e, i]));
        const els = scan.scanPage(new scan.Registry('')).entries.map((e) => idx.get(e.el)).filter((i) => i !== undefined);
        const n = Math.min({limit}, els.length), step = els.length / Math.max(n, 1);
        return Array.from({{length: n}}, (_, k) => els[Math.floor(k * step)]);
    }}"""


FEATURES = False  # --dump-features: every trial's top candidates with their scores (for calibration)


def run_page(page, base: str, limit: int) -> list[dict]:
    targets = page.evaluate(targets_js(limit), base)
    return page.evaluate("([t, f]) => __suite.runSuite(t, {explain: true, features: f})", [targets, FEATURES])


def table(rows: list[dict]) -> tuple[str, dict]:
    """Per-mutation counts. Correct / wrong / abstained are shares of the trials that can be told
    apart; "twin" trials (another element of the mutated page carries exactly the captured
    signature, so no signature-based matcher can tell which is meant) are counted on their own."""
    by = defaultdict(Counter)
    for r in rows:
        o = r["outcome"]
        by[r["mutation"]]["twin" if o.startswith("indistinguishable") else o] += 1
    lines = ["| mutation | trials | correct | wrong | abstained | twin (either answer) |", "|---|---|---|---|---|---|"]
    tot = Counter()
    for m in MUTATIONS:
        c = by[m]
        n = sum(c.values()) - c["twin"]
        if not n:
            continue
        if m != "deleted":
            tot.update(c)
        pct = lambda k: f"{c[k]} ({100 * c[k] / n:.1f}%)"  # noqa: E731
        lines.append(f"| {m.replace('_', ' ')} | {n} | {pct('correct')} | {pct('wrong')} | {pct('abstained')} | {c['twin']} |")
    n = sum(tot.values()) - tot["twin"]
    summary = {"trials": n, "correct": tot["correct"] / n if n else 0, "wrong": tot["wrong"] / n if n else 0,
               "abstained": tot["abstained"] / n if n else 0, "twin": tot["twin"],
               "deleted_trials": sum(by["deleted"].values()),
               "deleted_abstained": by["deleted"]["abstained"] / max(1, sum(by["deleted"].values()))}
    lines.append(f"| **all but deleted** | {n} | {tot['correct']} ({100 * summary['correct']:.1f}%) | "
                 f"{tot['wrong']} ({100 * summary['wrong']:.2f}%) | {tot['abstained']} ({100 * summary['abstained']:.1f}%) | {tot['twin']} |")
    return "\n".join(lines), summary


def main() -> None:
    import miniwob
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=0, help="limit the number of MiniWoB tasks (0 = all)")
    ap.add_argument("--skip", type=int, default=0, help="start at this MiniWoB task (alphabetical)")
    ap.add_argument("--only", default="", help="only these MiniWoB tasks (comma-separated names)")
    ap.add_argument("--large", default="large_1000.html,large_5000.html", help="large pages to include ('' = none)")
    ap.add_argument("--per-page", type=int, default=12)
    ap.add_argument("--large-targets", type=int, default=40)
    ap.add_argument("--seeds", default="42,7", help="MiniWoB episode seeds; the first is the tuning draw, the others held out")
    ap.add_argument("--write", action="store_true", help="write the section of BENCHMARKS.md")
    ap.add_argument("--dump", help="write every trial as JSON here")
    ap.add_argument("--dump-features", action="store_true", help="with --dump: each trial's top candidates and scores")
    ap.add_argument("--timing-only", action="store_true", help="only the large pages; --write rewrites only their time lines")
    a = ap.parse_args()
    global FEATURES
    FEATURES = a.dump_features
    seeds = [int(x) for x in a.seeds.split(",") if x]
    html = Path(miniwob.__file__).parent / "html"
    tasks = sorted(p.stem for p in (html / "miniwob").glob("*.html"))[a.skip:]
    if a.tasks:
        tasks = tasks[: a.tasks]
    if a.only:
        tasks = [t for t in tasks if t in a.only.split(",")]
    rows: list[dict] = []
    errors: list[str] = []
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp, serve(ROOT) as base, serve(html) as mw, serve(Path(tmp)) as big, chromium() as page:
        for seed in seeds if not a.timing_only else []:
            for t in tasks:
                try:
                    start_miniwob(page, mw, t, seed)
                    got = run_page(page, base, a.per_page)
                except Exception as e:  # a page that does not start is reported, not hidden
                    errors.append(f"{t} (seed {seed}): {str(e)[:80]}")
                    continue
                rows += [{**r, "page": t, "seed": seed, "split": split_of(t, seed, seeds[0])} for r in got]
                print(f"{t} (seed {seed}): {len(got)} trials, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
        for name in write_large_pages(Path(tmp)):
            if name not in a.large.split(","):
                continue
            page.goto(f"{big}/{name}")
            got = run_page(page, base, a.large_targets)
            rows += [{**r, "page": name, "seed": None, "split": split_of(name, None, seeds[0])} for r in got]
            print(f"{name}: {len(got)} trials, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    if a.dump:
        Path(a.dump).write_text(json.dumps(rows))
    out = {}
    for split in ("tune", "held-out", "all"):
        sel = [r for r in rows if split == "all" or r["split"] == split]
        out[split] = table(sel)
    pages = {(r["page"], r["seed"]) for r in rows}
    print(json.dumps({"machine": machine(), "pages": len(pages), "errors": errors, "seconds": round(time.time() - t0),
                      "summary": {k: v[1] for k, v in out.items()}}, indent=1))
    print(out["all"][0])
    print("\n".join(timing_lines(rows)))
    if a.write and a.timing_only:
        write_timing(a, rows)
    elif a.write:
        write(a, seeds, rows, out, errors, pages)


def timing_lines(rows: list[dict], note: str = "") -> list[str]:
    """The re-find time lines of the large pages."""
    out = []
    for name in ("large_1000.html", "large_5000.html"):
        ms = [r["ms"] for r in rows if r["page"] == name]
        if ms:
            out.append(f"Re-find time on {name} ({len(ms)} trials{note}): p50 {percentile(ms, 0.5):.1f} ms, "
                       f"p95 {percentile(ms, 0.95):.1f} ms (target: p50 ≤ 10 ms).")
    return out


def write_timing(a: argparse.Namespace, rows: list[dict]) -> None:
    """Replaces the large pages' time lines of the bench_refind section, and nothing else."""
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text()
    start, end = "<!-- bench:bench_refind -->", "<!-- /bench:bench_refind -->"
    head, rest = text.split(start, 1)
    body, tail = rest.split(end, 1)
    note = (f"; `scripts/bench_refind.py --timing-only --large-targets {a.large_targets} --write`, "
            f"{time.strftime('%Y-%m-%d', time.gmtime())}, {machine().split(',')[0]}")
    kept = [ln for ln in body.split("\n") if not ln.startswith("Re-find time on large_")]
    # Each line stands alone, followed by a blank line, before the MiniWoB++ pages' line.
    while any(kept[k] == "" and kept[k + 1] == "" for k in range(len(kept) - 1)):
        k = next(k for k in range(len(kept) - 1) if kept[k] == "" and kept[k + 1] == "")
        del kept[k]
    i = next(k for k, ln in enumerate(kept) if ln.startswith("Re-find time on the MiniWoB"))
    body = "\n".join(kept[:i] + [x for ln in timing_lines(rows, note) for x in (ln, "")] + kept[i:])
    path.write_text(head + start + body + end + tail)


def write(a: argparse.Namespace, seeds: list[int], rows: list[dict], out: dict, errors: list[str], pages: set) -> None:
    s = {k: v[1] for k, v in out.items()}
    n_tune = sum(1 for p in pages if split_of(p[0], p[1], seeds[0]) == "tune")
    mw_pages = len({p for p in pages if not p[0].startswith("large_")})
    met = lambda ok: "met" if ok else "**not met**"  # noqa: E731
    pct = lambda k, f: f"{100 * s[k][f]:.2f}%"  # noqa: E731
    md = [
        "## Re-finding on a mutation suite", "",
        f"    .venv/bin/python scripts/bench_refind.py --per-page {a.per_page} --large-targets {a.large_targets} --seeds {a.seeds} --write", "",
        f"Machine: {machine()}. {len(pages)} pages: the MiniWoB++ tasks that have at least one interactive element once "
        f"started, each drawn with the episode seeds {', '.join(map(str, seeds))} ({mw_pages} pages), and the two large pages; up to "
        f"{a.per_page} targets per MiniWoB page and {a.large_targets} per large page (the interactive elements the scanner "
        "reports, spread over the page). Each trial: `captureSignature(target)`, one mutation on a fresh copy of the page, "
        "`refind(signature)`. A mutation that does not apply to a target is not counted (no id to rename, no parent to "
        "unwrap, no word, name or placeholder that would make a look-alike decoy differ from an exact copy). Correct = the "
        "target itself (or, for a swapped tag, its replacement); wrong = any other element; abstained = \"ambiguous\" or "
        "\"not_found\". **Twin** = after the mutation another element of the page carries exactly the captured signature "
        "(same tag, words, attributes, place, neighbours, path, and rank among its look-alikes): a grid of bare "
        "checkboxes whose row was reversed. No signature can tell those two apart, so they are counted on their own "
        "(whatever refind answered) and left out of the percentages.", "",
        f"Pages are split in two: **tune** ({n_tune} pages: the MiniWoB pages drawn with seed {seeds[0]} and large_1000; "
        "refind.js was adjusted looking at their failures) and **held-out** "
        f"({len(pages) - n_tune} pages: the same tasks drawn with seed{'s' if len(seeds) > 2 else ''} "
        f"{', '.join(map(str, seeds[1:]))} — other random words, numbers and orders on the same kinds of page — and "
        "large_5000, none of whose failures were looked at).", "",
        "| split | trials (all but deleted, twins aside) | correct | wrong | abstained | twins | deleted → abstained |",
        "|---|---|---|---|---|---|---|",
    ]
    for k in ("tune", "held-out", "all"):
        v = s[k]
        md.append(f"| {k} | {v['trials']} | {100 * v['correct']:.1f}% | {100 * v['wrong']:.2f}% | "
                  f"{100 * v['abstained']:.1f}% | {v['twin']} | {100 * v['deleted_abstained']:.1f}% of {v['deleted_trials']} |")
    md += ["", "Targets: ≥ 97% correct, ≤ 0.5% wrong, 100% abstained when the target was deleted.", "",
           "Per mutation, held-out pages:", "", out["held-out"][0], "", "Per mutation, all pages:", "", out["all"][0]]
    if errors:
        md += ["", f"Pages that did not start: {', '.join(errors)}"]
    for line in timing_lines(rows):
        md += ["", line]
    ms = [r["ms"] for r in rows if not r["page"].startswith("large_")]
    if ms:
        md += ["", f"Re-find time on the MiniWoB++ pages: p50 {percentile(ms, 0.5):.2f} ms, p95 {percentile(ms, 0.95):.2f} ms."]
    md += ["", "Reading: "
           f"≥ 97% correct — {met(s['tune']['correct'] >= 0.97)} on the tune half ({pct('tune', 'correct')}), "
           f"{met(s['held-out']['correct'] >= 0.97)} on the held-out half ({pct('held-out', 'correct')}), "
           f"{met(s['all']['correct'] >= 0.97)} overall ({pct('all', 'correct')}); "
           f"≤ 0.5% wrong — {met(max(s[k]['wrong'] for k in s) <= 0.005)} (worst half {100 * max(s[k]['wrong'] for k in s):.2f}%); "
           f"100% abstained on deleted targets — {met(min(s[k]['deleted_abstained'] for k in s) == 1.0)}."]
    md += ["", HOW]
    write_section("bench_refind", "\n".join(md))


HOW = (
    "How refind decides (extension/content/refind.js). First, what says a candidate is another element sets it aside: "
    "it stands in another part of the page than the element was captured in (outside a zone it was in — a landmark, "
    "section, form or group, by name — unless only that zone's own element went away; inside a landmark or form it was "
    "not in; in a row, card or list item whose title says something else — a run of containers of one kind, a "
    "feed's posts written as plain divs, is such an item, named by its own words), its name says something else (a replaced "
    "word, other numbers), its link leads to another path or numbered place, its form name differs, it has words where "
    "the element had none (or none where it had some), it sits in other components, or, nameless, it shows another "
    "icon; an element that had look-alikes is not one found outside the group or section that told it from them "
    "while that part still stands. What is left is scored among itself (how rare a value is, and so what singles a "
    "candidate out, is judged in the element's part of the page), and what a candidate no longer has — a dropped "
    "attribute, rehashed classes, a label a renamed id cut off, the name that came from them — is gone, not "
    "different. Then, in order, anything else abstaining: (0) the element to the letter in its place (nothing changed); "
    "(1) the whole signature — a best score that something singles out and that leads the runner-up, not a look-alike "
    "whose look-alikes became fewer (a neighbour slid into a deleted one's place); (2) an anchor — the only element "
    "carrying the captured id or test id, or a numbered data key or link target; an id that now extends the captured "
    "one when nothing else changed; (3) one thing changed — the tolerant score (the field that lost most left out) "
    "is high and far ahead, and what changed is not its place nor an identity with another value, and changed words "
    "look like a tweak; (4) its place among look-alikes — k-th of the same n in its document or shadow root, its "
    "shadow hosts at the same places, the count unchanged, nothing contradicting it, the words around it agreeing "
    "(inside a component's shadow root, which look-alike stands nearer the old spot says nothing, nor do words "
    "around it that are only its look-alikes' own); or the k-th of the same n standing in its own spot with its words "
    "reworded while its look-alikes keep theirs; (5) its place among the elements with its tag when the one thing "
    "that changed is gone; (6) the one left in its part of the page that the form knows by the captured name (and "
    "value), or whose own features (all but its place, attributes that are gone left out) match and lead; (7) the one "
    "that still says every word of it, beside copies that differ from it by words alone — (6) and (7) only for a "
    "candidate with something of its own beyond its tag (not a nameless icon whose classes are gone). A candidate whose name or "
    "words were tweaked is not taken while another one (its own look-alikes aside) still carries the exact ones; "
    "the rules after it may still name another."
)


if __name__ == "__main__":
    main()
