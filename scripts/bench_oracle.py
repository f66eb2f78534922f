"""The page map against the browser's own view, on the corpus of real applications.

    .venv/bin/python scripts/bench_oracle.py [--apps A B …] [--half tune|heldout] [--write] [--out FILE]

Each application of the corpus (tests/support/corpus/, `scripts/corpus.py install` installs them) is
started with its seeded content; Chromium with the extension loaded logs in as its user and opens
every page of its list (doing the page's `open` step: a dialog, a menu); on each, the oracle
(tests/support/page_oracle.py) holds heybro's map — the real `observe` through the coordinator, no
token budget — against Chrome's accessibility tree and hit testing. No list written by hand says
what a page holds.

Reported per application and per half (tune, held-out), the held-out half always on its own:
pages whose map was produced (a page lost is one whose observe failed), recall of visible operable
controls, false operable (listed, yet no pointer reaches it), name agreement where the browser has
a name, wrong covers, tables whose headers are lost; then the worst lines. --out writes every
page's verdict as JSON (for looking at the tune half's failures).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, machine, over_corpus, write_section  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from corpus import logged_in, open_page  # noqa: E402
from support.corpus import APPS  # noqa: E402
from support.page_oracle import Verdict, judge  # noqa: E402

TARGETS = {"recall": 0.98, "false_operable": 0.01, "names": 0.95}


def run_app(name: str, extension: Path) -> list[dict]:
    rows = []
    with logged_in(name, extension, "oracle") as (a, running, eb, page):
        for spec in running.pages():
            t = time.monotonic()
            try:
                open_page(page, running, spec, a.network_idle)
            except Exception as e:  # the harness could not reach the page: said, and not judged
                rows.append({"app": name, "half": a.half, "page": spec.name, "kind": spec.kind, "skipped": str(e).splitlines()[0][:160]})
                continue
            v: Verdict = judge(eb, page)
            rows.append({"app": name, "half": a.half, "page": spec.name, "kind": spec.kind, "seconds": round(time.monotonic() - t, 1), **v.as_dict()})
            print(f"  {name}/{spec.name}: {'map' if v.map_ok else 'LOST'} {v.found}/{v.controls} found, "
                  f"{len(v.false_operable)}/{v.listed} false, {v.agree}/{v.named} names, {len(v.wrong_covers)} wrong covers, "
                  f"{len(v.tables_lost)}/{v.tables} tables lost{' ' + v.error if v.error else ''}", file=sys.stderr, flush=True)
    return rows


def totals(rows: list[dict]) -> dict:
    judged = [r for r in rows if "skipped" not in r]
    t = {"pages": len(judged), "maps": sum(1 for r in judged if r["map_ok"]),
         "controls": sum(r["controls"] for r in judged), "found": sum(r["found"] for r in judged),
         "listed": sum(r["listed"] for r in judged), "false": sum(len(r["false_operable"]) for r in judged),
         "named": sum(r["named"] for r in judged), "agree": sum(r["agree"] for r in judged),
         "covered": sum(r["covered"] for r in judged), "wrong_covers": sum(len(r["wrong_covers"]) for r in judged),
         "tables": sum(r["tables"] for r in judged), "tables_lost": sum(len(r["tables_lost"]) for r in judged),
         "tokens": sum(r["tokens"] for r in judged), "skipped": len(rows) - len(judged),
         "replaced": sum(r.get("replaced", 0) for r in judged),
         "oracle_errors": sum(1 for r in judged if r.get("error", "").startswith("oracle"))}
    return t


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "–"


def row_md(label: str, t: dict) -> str:
    redrawn = f"; {t['replaced']} redrawn or hidden" if t["replaced"] else ""
    return (f"| {label} | {t['maps']}/{t['pages']} | {pct(t['found'], t['controls'])} ({t['found']}/{t['controls']}) | "
            f"{pct(t['false'], t['listed'])} ({t['false']}/{t['listed']}{redrawn}) | {pct(t['agree'], t['named'])} ({t['agree']}/{t['named']}) | "
            f"{t['wrong_covers']}/{t['covered']} | {t['tables_lost']}/{t['tables']} | {t['tokens'] // max(1, t['maps']):,} |")


def verdicts(t: dict) -> list[str]:
    out = []
    out.append(f"pages lost {t['pages'] - t['maps']} (target 0) — {'met' if t['maps'] == t['pages'] else 'not met'}")
    r = t["found"] / t["controls"] if t["controls"] else 1
    out.append(f"recall {pct(t['found'], t['controls'])} (target ≥ 98%) — {'met' if r >= TARGETS['recall'] else 'not met'}")
    f = t["false"] / t["listed"] if t["listed"] else 0
    out.append(f"false operable {pct(t['false'], t['listed'])} (target ≤ 1%) — {'met' if f <= TARGETS['false_operable'] else 'not met'}")
    n = t["agree"] / t["named"] if t["named"] else 1
    out.append(f"name agreement {pct(t['agree'], t['named'])} (target ≥ 95%) — {'met' if n >= TARGETS['names'] else 'not met'}")
    out.append(f"tables without headers {t['tables_lost']} (target 0) — {'met' if t['tables_lost'] == 0 else 'not met'}")
    out.append(f"wrong covers {t['wrong_covers']} (target 0) — {'met' if t['wrong_covers'] == 0 else 'not met'}")
    return out


def worst(rows: list[dict], key: str, n: int = 12) -> list[str]:
    out = []
    for r in sorted(rows, key=lambda r: -len(r.get(key) or [])):
        for x in (r.get(key) or [])[:3]:
            out.append(f"{r['app']}/{r['page']}: {x}")
    return out[:n]


def markdown(rows: list[dict], cmd: str) -> str:
    by_app: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_app[r["app"]].append(r)
    head = ("| application | maps produced | recall | false operable | name agreement | wrong covers | tables without headers | tokens per page |\n"
            "|---|---|---|---|---|---|---|---|")
    lines = ["## Page map against the browser: real applications (`scripts/bench_oracle.py`)", "", f"    {cmd}", "",
             f"Machine: {machine()}.", "",
             "The oracle (tests/support/page_oracle.py) needs no hand labels: heybro's map (the real `observe`, no "
             "token budget) against Chrome's accessibility tree and hit testing at each control's visible points, "
             "scrolled into view. Recall: visible, reachable controls of the tree that the map lists; false operable: "
             "listed elements no pointer reaches (disabled ones, which the map marks, excepted; a "
             "listed element the page drew anew or hid while it was judged (scrolled into view, a chart redraws; a notice "
             "fades: it had a box when first judged and has none) is not judged and is counted apart, `redrawn or hidden`); name agreement: the "
             "map's name is Chrome's computed name where there is one; wrong covers: controls left out as covered that "
             "a pointer reaches; tables without headers: a visible table with column headers whose rows the map shows "
             "without them (`header value`). Counts in brackets.", ""]
    for half, title in (("heldout", "Held-out half (never tuned on)"), ("tune", "Tune half")):
        apps = [a for a in sorted(by_app) if APPS[a].half == half]
        if not apps:
            continue
        lines += [f"### {title}", "", head]
        for a in apps:
            lines.append(row_md(f"{a} ({APPS[a].kind}; {APPS[a].built_from})", totals(by_app[a])))
        t = totals([r for a in apps for r in by_app[a]])
        lines.append(row_md(f"**{'held-out' if half == 'heldout' else 'tune'} total, {len(apps)} apps**", t))
        lines += ["", "Against the targets: " + "; ".join(verdicts(t)) + ".", ""]
        half_rows = [r for a in apps for r in by_app[a] if "skipped" not in r]
        lost = [f"{r['app']}/{r['page']}: {r['error']}" for r in half_rows if not r["map_ok"]]
        for label, items in (("Pages lost", lost), ("Missed controls", worst(half_rows, "missed")),
                             ("False operable", worst(half_rows, "false_operable")), ("Names that disagree", worst(half_rows, "disagree")),
                             ("Wrong covers", worst(half_rows, "wrong_covers")), ("Tables without headers", worst(half_rows, "tables_lost"))):
            if items:
                lines.append(f"{label} (worst first):")
                lines += [f"- `{x}`" for x in items]
                lines.append("")
        skipped = [f"{r['app']}/{r['page']}: {r['skipped']}" for a in apps for r in by_app[a] if "skipped" in r]
        if skipped:
            lines += ["Pages the harness could not open (not judged):", *[f"- {x}" for x in skipped], ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--apps", nargs="*", help="only these applications (default: every installed one)")
    ap.add_argument("--half", choices=["tune", "heldout"])
    ap.add_argument("--write", action="store_true", help="write the section of BENCHMARKS.md")
    ap.add_argument("--out", help="write every page's verdict as JSON here")
    ns = ap.parse_args()
    names = ns.apps or [n for n, a in APPS.items() if not ns.half or a.half == ns.half]
    rows: list[dict] = over_corpus(names, run_app)
    if ns.out:
        Path(ns.out).write_text(json.dumps(rows, indent=1))
    for half in ("heldout", "tune"):
        part = [r for r in rows if r["half"] == half]
        if part:
            t = totals(part)
            print(f"{half}: {t['pages']} pages; " + "; ".join(verdicts(t)))
    if ns.write:
        cmd = ".venv/bin/python scripts/bench_oracle.py --write" + (f" --apps {' '.join(ns.apps)}" if ns.apps else "")
        write_section("bench_oracle", markdown(rows, cmd))
    with contextlib.suppress(Exception):
        sys.stdout.flush()


if __name__ == "__main__":
    main()
