"""Fidelity of the page map: does the model read every control a person can operate, once, under the
name a person would give it, and the page's key sentences whole?

    .venv/bin/python scripts/bench_observe.py [--write] [--baseline REF] [--tokens-all]

Each page is a JSON file in scripts/bench/observe_pages/ with a hand-checked list of what a person
sees: {"source": "miniwob:<task>" | "url:<path-or-url>", "seed": N, "controls": [{"role", "name"}],
"sentences": ["…"]}. A source this script cannot open (no such MiniWoB task, a URL that does not
answer) is skipped with a note. A path in a url: source is served from the repository root.

Per page: recall (expected controls found with the same role and name; a guessed `~"name"` counts,
and counts when it starts with the expected words: `~"more pill"` for "more"; a name that carries the
control's value after a colon counts for the name before it: "Change URL: 127.0.0.1:8080/?p=5" for
"Change URL"; a control listed as disabled is not counted, the lists hold what a person can operate),
merged (a listed control whose name holds two expected controls' names and is not itself one), unnamed (listed controls
with no name, not even a guessed one), duplicates (more listed controls with a role and name than
the page has), sentences intact (each expected sentence appears in the rendering, read with its
inline controls as their words), and tokens (o200k_base, `bpe-openai`) against the rendering at
--baseline (default: where this branch left main), on these pages and, with --tokens-all, on every
MiniWoB task and the large generated pages.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, baseline_tree, chromium, machine, serve, start_miniwob, write_large_pages, write_section  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from support.apps import AppsMissing, running_apps  # noqa: E402

PAGES = ROOT / "scripts" / "bench" / "observe_pages"
STATE = r"(?: (?:checked|selected|expanded|collapsed|disabled|focused|required|invalid))*"
# An inline control read as its words: `[e12 link 5th]` → "5th", `[e3 clickable ~"trash"]` → "trash".
# A link's target shown after its words (` →host/path`) is not part of the sentence.
INLINE = re.compile(r'\[\*?e\d+ [a-z]+(?: (?:password|email|tel|url|date|time|datetime-local|month|week|color))? ~?"?([^\]"]*?)"?(?: →[^\]\s]*)?' + STATE + r"\]")

READ = """(mods) => {
    const [scan, render] = mods;
    const s = scan.scanPage(new scan.Registry(""));
    const r = render.renderScan(s, { maxTokens: 10_000_000 });
    const controls = render.nameOf ? r.shown.map((e) => {
        const n = render.nameOf(e, render.roleLabel(e.el), false);
        const disabled = e.el.matches(":disabled") || !!e.el.closest("[aria-disabled=true]");
        return { role: render.roleLabel(e.el), name: n.name, guessed: n.guessed, disabled };
    }) : [];
    return { text: r.text, controls, count: r.shown.length };
}"""


def load(page, base: str, key: str) -> None:
    page.evaluate("""async ([base, key]) => {
        window[key] = await Promise.all([import(base + '/extension/content/dom_scan.js'), import(base + '/extension/content/dom_render.js')]);
    }""", [base, key])


def read(page, key: str) -> dict:
    return page.evaluate(f"() => ({READ})(window['{key}'])")


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def score(spec: dict, got: dict) -> dict:
    """What the rendering gets right about one page, against its hand-checked list."""
    controls = got["controls"]
    want = Counter((c["role"], norm(c["name"]).lower()) for c in spec["controls"])

    def key(c: dict) -> tuple[str, str]:
        # A guessed name is a few words from the markup: it counts when it starts with the expected words.
        n = norm(c["name"]).lower()
        # A name that carries the control's value after a colon ("Change URL: 127.0.0.1:8080/?p=5") names it.
        if (c["role"], n) not in want:
            n = next((w for (r, w) in want if r == c["role"] and w and n.startswith(w + ": ")), n)
        # … and so does one that adds its state in brackets ("Post (selected)": the Post tab, chosen).
        if (c["role"], n) not in want:
            n = next((w for (r, w) in want if r == c["role"] and w
                      and re.fullmatch(re.escape(w) + r" \((?:selected|current|active|checked|expanded|collapsed|pressed|open)\)", n)), n)
        if c["guessed"] and (c["role"], n) not in want:
            n = next((w for (r, w) in want if r == c["role"] and w and (n + " ").startswith(w + " ")), n)
        return c["role"], n

    # A control shown as disabled cannot be operated: the hand lists leave it out, so it neither finds nor repeats one.
    have = Counter(key(c) for c in controls if not c.get("disabled"))
    found = sum(min(n, have[k]) for k, n in want.items())
    missing = [f"{r} {n}" for (r, n), k in want.items() for _ in range(k - min(k, have[(r, n)]))]
    duplicates = sum(max(0, have[k] - n) for k, n in want.items())
    names = {n for (_, n) in want if n}
    merged = [c["name"] for c in controls
              if norm(c["name"]).lower() not in names
              and sum(1 for n in names if n != norm(c["name"]).lower() and re.search(rf"(^|\W){re.escape(n)}(\W|$)", norm(c["name"]).lower())) >= 2]
    unnamed = sum(1 for c in controls if not norm(c["name"]))
    read_as = norm(INLINE.sub(r"\1", got["text"]))
    broken = [s for s in spec.get("sentences", []) if norm(s) not in read_as]
    return {"expected": sum(want.values()), "found": found, "missing": missing, "listed": len(controls),
            "guessed": sum(1 for c in controls if c["guessed"]), "unnamed": unnamed, "duplicates": duplicates,
            "merged": merged, "sentences": len(spec.get("sentences", [])), "sentences_broken": broken}


APP = re.compile(r"^url:(wordpress|mediawiki):")


def open_source(page, spec: dict, mw: str, base: str, apps=None) -> str | None:
    """Opens the page a spec names; a note saying why when it cannot."""
    kind, _, where = spec["source"].partition(":")
    try:
        if kind == "miniwob":
            start_miniwob(page, mw, where, spec.get("seed", 42))
        elif APP.match(spec["source"]):  # a real application's page, as its logged-in admin sees it
            if apps is None:
                return "the real applications are not installed (scripts/setup installs them)"
            page.goto(apps.url(spec["source"]), timeout=30_000)
            page.wait_for_load_state("load")
            # An application builds much of its page after load from its own requests (the block
            # editor's side panels): read it once they are answered, as a person would.
            with contextlib.suppress(Exception):
                page.wait_for_load_state("networkidle", timeout=15_000)
        elif kind == "url":
            page.goto(where if re.match(r"^https?://", where) else f"{base}/{where.lstrip('/')}", timeout=10_000)
            page.wait_for_load_state("load")
        else:
            return f"unknown source kind {kind!r}"
    except Exception as e:  # a page that does not open is reported, not hidden
        return f"could not open: {str(e).splitlines()[0][:120]}"
    return None


def main() -> None:
    import bpe_openai
    import miniwob
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help="write the section of BENCHMARKS.md")
    ap.add_argument("--baseline", default="", help="git ref whose rendering the tokens are compared with (default: merge-base with main)")
    ap.add_argument("--tokens-all", action="store_true", help="also compare tokens on every MiniWoB task and the large pages")
    a = ap.parse_args()
    enc = bpe_openai.get_encoding("o200k_base")
    ref = a.baseline or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT, capture_output=True, text=True).stdout.strip() or "HEAD"
    html = Path(miniwob.__file__).parent / "html"
    specs = sorted(PAGES.glob("*.json"))
    rows, skipped, tokens = [], [], []
    with tempfile.TemporaryDirectory() as tmp, serve(ROOT) as base, serve(html) as mw, chromium() as page, \
            contextlib.ExitStack() as stack:
        apps = None
        if any(APP.match(json.loads(p.read_text())["source"]) for p in specs):
            try:
                apps = stack.enter_context(running_apps())
                apps.login(page)
            except AppsMissing:
                apps = None
        old = Path(tmp) / "old"
        ref_name = baseline_tree(ref, old)
        big = Path(tmp) / "big"
        big.mkdir()
        with serve(old) as old_base, serve(big) as big_base:
            def both() -> tuple[dict, dict]:
                load(page, base, "__new")
                load(page, old_base, "__old")
                return read(page, "__new"), read(page, "__old")

            for path in specs:
                spec = json.loads(path.read_text())
                note = open_source(page, spec, mw, base, apps)
                if note:
                    skipped.append(f"{path.stem}: {note}")
                    continue
                new, prev = both()
                rows.append({"page": path.stem, **score(spec, new), "tokens": len(enc.encode(new["text"])), "tokens_before": len(enc.encode(prev["text"])),
                             "listed_before": prev["count"]})
            if a.tokens_all:
                for t in sorted(p.stem for p in (html / "miniwob").glob("*.html")):
                    try:
                        start_miniwob(page, mw, t)
                    except Exception:
                        continue
                    new, prev = both()
                    tokens.append({"page": t, "tokens": len(enc.encode(new["text"])), "tokens_before": len(enc.encode(prev["text"])),
                                   "same_controls": new["count"] == prev["count"]})
                for name in write_large_pages(big):
                    page.goto(f"{big_base}/{name}")
                    new, prev = both()
                    tokens.append({"page": name, "tokens": len(enc.encode(new["text"])), "tokens_before": len(enc.encode(prev["text"])),
                                   "same_controls": new["count"] == prev["count"]})
    print(json.dumps({"machine": machine(), "baseline": ref_name, "rows": rows, "skipped": skipped, "tokens": tokens}, indent=1))
    if a.write:
        write_section("bench_observe", report(rows, skipped, tokens, ref_name))


def report(rows: list[dict], skipped: list[str], tokens: list[dict], ref: str) -> str:
    exp = sum(r["expected"] for r in rows)
    found = sum(r["found"] for r in rows)
    listed = sum(r["listed"] for r in rows)
    unnamed = sum(r["unnamed"] for r in rows)
    sent = sum(r["sentences"] for r in rows)
    broken = sum(len(r["sentences_broken"]) for r in rows)
    lines = ["## Page-map fidelity (controls a person can operate, key sentences)", "",
             f"    .venv/bin/python scripts/bench_observe.py --baseline {ref}{' --tokens-all' if tokens else ''} --write", "",
             "Hand-checked lists in `scripts/bench/observe_pages/*.json` (what a person sees on each page: every control "
             "they can operate, with its role and the name they would give it, and the sentences that carry the task). "
             "Recall: expected controls listed with that role and name (a guessed `~\"name\"` counts when it starts with the expected words, a name "
             "with the control's value after a colon counts for the words before it, a control shown disabled is not counted); merged: a listed "
             "control whose name holds two expected names and is not one; unnamed: listed with no name at all; duplicates: more listed "
             "controls with a role and name than the page has; sentences: found whole in the rendering, inline controls "
             f"read as their words. Tokens: o200k_base, this rendering vs the one at `{ref}`.", "",
             "| page | recall | merged | unnamed | guessed | duplicates | sentences intact | tokens (before) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['page']} | {r['found']}/{r['expected']} | {len(r['merged'])} | {r['unnamed']}/{r['listed']} | {r['guessed']} | "
                     f"{r['duplicates']} | {r['sentences'] - len(r['sentences_broken'])}/{r['sentences']} | {r['tokens']} ({r['tokens_before']}) |")
    t_new, t_old = sum(r["tokens"] for r in rows), sum(r["tokens_before"] for r in rows)
    lines.append(f"| **total** | **{found}/{exp} ({100 * found / max(exp, 1):.0f}%)** | **{sum(len(r['merged']) for r in rows)}** | "
                 f"**{unnamed}/{listed} ({100 * unnamed / max(listed, 1):.1f}%)** | {sum(r['guessed'] for r in rows)} | "
                 f"**{sum(r['duplicates'] for r in rows)}** | **{sent - broken}/{sent}** | {t_new} ({t_old}, {100 * (t_new - t_old) / max(t_old, 1):+.1f}%) |")
    grew = [f"{r['page']} {r['listed_before']} → {r['listed']}" for r in rows if r["listed"] != r["listed_before"]]
    if grew:
        lines += ["", "Controls listed before → now, where they differ (the tokens follow): " + ", ".join(grew) + "."]
    misses = [f"{r['page']}: missing {', '.join(r['missing'])}" for r in rows if r["missing"]]
    misses += [f"{r['page']}: broken sentence {s!r}" for r in rows for s in r["sentences_broken"]]
    misses += [f"{r['page']}: merged {m!r}" for r in rows for m in r["merged"]]
    if misses or skipped:
        lines += ["", "Not met / not run:", *[f"- {m}" for m in misses], *[f"- skipped {s}" for s in skipped]]
    if tokens:
        mw = [t for t in tokens if not t["page"].startswith("large_")]
        n, o = sum(t["tokens"] for t in mw), sum(t["tokens_before"] for t in mw)
        same = [t for t in mw if t["same_controls"]]
        sn, so = sum(t["tokens"] for t in same), sum(t["tokens_before"] for t in same)
        lines += ["", f"Token cost of the rendering against `{ref}` (same pages, no budget limit): all {len(mw)} MiniWoB++ tasks "
                  f"(seed 42) {n:,} vs {o:,} tokens ({100 * (n - o) / max(o, 1):+.1f}%, which includes the controls listed now "
                  f"and not before); on the {len(same)} tasks that list as many controls as before (the cost of the notation: "
                  f"sentences whole, controls in them, names) {sn:,} vs {so:,} ({100 * (sn - so) / max(so, 1):+.1f}%)"
                  + "".join(f"; {t['page']} {t['tokens']:,} vs {t['tokens_before']:,} ({100 * (t['tokens'] - t['tokens_before']) / max(t['tokens_before'], 1):+.1f}%)"
                            for t in tokens if t["page"].startswith("large_")) + "."]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
