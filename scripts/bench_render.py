"""Rendered size of the page for the LLM: heybro's rendering vs a browser-use-style rendering of the
same elements and text, on the MiniWoB++ pages and the large generated pages.

    .venv/bin/python scripts/bench_render.py [--tasks N]

Both renderings are made in headless Chromium from the same scan (same interactive elements, same
visible text). heybro's is rendered with an unlimited token budget, so nothing is left out. Tokens
are counted with the o200k_base BPE from `bpe-openai` (its vocabulary ships inside the package, so it
works offline; tiktoken downloads its vocabulary at first use and cannot here).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, chromium, load_modules, machine, serve, start_miniwob, write_large_pages, write_section  # noqa: E402


def tokenizer():
    import bpe_openai
    return bpe_openai.get_encoding("o200k_base")


def render_both(page) -> dict:
    return page.evaluate("""() => {
        const scan = __hb.scanPage(new __hb.Registry(""));
        const ours = __hb.renderScan(scan, { maxTokens: 10_000_000 }).text;
        const theirs = __hb.browserUseRender(new Set(scan.entries.map((e) => e.el)));
        return { ours, theirs, elements: scan.entries.length };
    }""")


def main() -> None:
    import miniwob
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=0, help="limit the number of MiniWoB tasks (0 = all)")
    ap.add_argument("--write", action="store_true", help="write the section of BENCHMARKS.md")
    a = ap.parse_args()
    enc = tokenizer()
    html = Path(miniwob.__file__).parent / "html"
    tasks = sorted(p.stem for p in (html / "miniwob").glob("*.html"))
    if a.tasks:
        tasks = tasks[: a.tasks]
    rows = []
    with tempfile.TemporaryDirectory() as tmp, serve(ROOT) as base, serve(html) as mw, serve(Path(tmp)) as big, chromium() as page:
        for t in tasks:
            try:
                start_miniwob(page, mw, t)
                load_modules(page, base)
                r = render_both(page)
            except Exception as e:  # a task page that does not start is reported, not hidden
                rows.append({"page": t, "error": str(e)[:100]})
                continue
            rows.append({"page": t, "elements": r["elements"], "ours_chars": len(r["ours"]), "bu_chars": len(r["theirs"]),
                         "ours_tokens": len(enc.encode(r["ours"])), "bu_tokens": len(enc.encode(r["theirs"]))})
        for name in write_large_pages(Path(tmp)):
            page.goto(f"{big}/{name}")
            load_modules(page, base)
            r = render_both(page)
            rows.append({"page": name, "elements": r["elements"], "ours_chars": len(r["ours"]), "bu_chars": len(r["theirs"]),
                         "ours_tokens": len(enc.encode(r["ours"])), "bu_tokens": len(enc.encode(r["theirs"]))})
    ok = [r for r in rows if "error" not in r and r["page"].startswith("large_") is False]
    summary = {
        "miniwob_pages": len(ok), "miniwob_errors": [r["page"] for r in rows if "error" in r],
        "miniwob_total_chars": {"heybro": sum(r["ours_chars"] for r in ok), "browser_use_style": sum(r["bu_chars"] for r in ok)},
        "miniwob_total_tokens": {"heybro": sum(r["ours_tokens"] for r in ok), "browser_use_style": sum(r["bu_tokens"] for r in ok)},
        "miniwob_pages_where_heybro_smaller_tokens": sum(1 for r in ok if r["ours_tokens"] < r["bu_tokens"]),
        "large": [r for r in rows if r["page"].startswith("large_")],
    }
    print(json.dumps({"machine": machine(), "summary": summary, "rows": rows}, indent=1))
    if a.write:
        write_section("bench_render", report(summary, ok, fence_tokens=sum(len(enc.encode(f)) for f in FENCE)))


# The fence heybro puts around every page (dom_render.js FENCE_OPEN / FENCE_CLOSE, with their line breaks),
# counted apart because the opening one merges with its line break.
FENCE = ('"""\n', '\n"""')


def report(s: dict, ok: list[dict], fence_tokens: int) -> str:
    t, c = s["miniwob_total_tokens"], s["miniwob_total_chars"]
    n = len(ok)
    no_fence = sum(r["ours_tokens"] - fence_tokens for r in ok)
    smaller_no_fence = sum(1 for r in ok if r["ours_tokens"] - fence_tokens < r["bu_tokens"])
    equal = sum(1 for r in ok if r["ours_tokens"] == r["bu_tokens"])
    fence_only = sum(1 for r in ok if 0 < r["ours_tokens"] - r["bu_tokens"] <= fence_tokens)
    from collections import Counter
    hist = Counter(r["ours_tokens"] - r["bu_tokens"] for r in ok)
    buckets = [("≤ −10", lambda d: d <= -10), ("−9…−1", lambda d: -9 <= d <= -1), ("0", lambda d: d == 0),
               ("+1…+3", lambda d: 1 <= d <= 3), ("+4…+9", lambda d: 4 <= d <= 9), ("≥ +10", lambda d: d >= 10)]
    spread = ", ".join(f"{name}: {sum(v for d, v in hist.items() if f(d))} pages" for name, f in buckets)
    rows = [f"| {n} MiniWoB++ tasks (seed 42), total | {c['heybro']:,} | {c['browser_use_style']:,} | {t['heybro']:,} | "
            f"{t['browser_use_style']:,} | {s['miniwob_pages_where_heybro_smaller_tokens']} of {n} |"]
    for r in s["large"]:
        rows.append(f"| {r['page']} | {r['ours_chars']:,} | {r['bu_chars']:,} | {r['ours_tokens']:,} | {r['bu_tokens']:,} | "
                    f"{'smaller' if r['ours_tokens'] < r['bu_tokens'] else '**larger**'} |")
    return "\n".join([
        "## Rendered size vs a browser-use-style rendering", "",
        "    .venv/bin/python scripts/bench_render.py --write", "",
        "Same scan, same elements and visible text; tokens by o200k_base (`bpe-openai`, vocabulary inside the package). "
        "heybro's rendering with no budget limit. The browser-use-style rendering (`scripts/bench/browser_use_render.js`) "
        "follows browser-use's `clickable_elements_to_string` in its most compact (0.1.x) form: `[i]<tag attr;attr>text/>`, "
        "attribute values from its default `include_attributes`, text up to the next interactive element, other visible "
        "text one node per line, no indentation (later versions add `key='value'` pairs and tab indentation, i.e. are "
        "larger). One difference in its favour of information: `value` is the live value, so it shows what was typed.", "",
        "| pages | heybro chars | browser-use-style chars | heybro tokens | browser-use-style tokens | heybro smaller on |",
        "|---|---|---|---|---|---|", *rows, "",
        f"Both carry every interactive element and the same page text; heybro's lines carry more per element "
        "(role, checked/selected/expanded/disabled/required/focused state, current value, select options, input "
        f"type, external link targets, landmark/form/dialog groups) and the untrusted-content fence (`\"\"\"` … `\"\"\"`, "
        f"{fence_tokens} tokens a page). Without the fence heybro's MiniWoB total would be {no_fence:,} tokens, smaller on "
        f"{smaller_no_fence} of {n} pages. Per page (tokens, heybro − browser-use-style): {spread}.", "",
        f"Reading: {'smaller' if t['heybro'] < t['browser_use_style'] else 'larger'} in total on MiniWoB++ ({t['heybro']:,} vs {t['browser_use_style']:,} tokens, "
        f"{100 * (t['heybro'] - t['browser_use_style']) / t['browser_use_style']:+.1f}%); "
        f"{'smaller' if all(r['ours_tokens'] < r['bu_tokens'] for r in s['large']) else 'not smaller'} on the large pages; smaller on "
        f"{s['miniwob_pages_where_heybro_smaller_tokens']} of {n} MiniWoB pages, equal on {equal}, larger on {n - equal - s['miniwob_pages_where_heybro_smaller_tokens']} "
        f"— of those, {fence_only} are larger by no more than the fence: on a tiny page where both renderings say the same "
        "thing token for token (`[e1] button Submit` costs what `[0]<button Submit/>` costs), the fence is the "
        "difference, so \"smaller on most pages\" is **not met** at equal information with a fence kept.", "",
        "Since the page map reads sentences whole and names icon-only controls (`bench_observe` below), heybro's "
        "lines carry a guessed name where browser-use's say nothing (`[e3] clickable ~\"trash\"` vs `[3]<span />`), "
        "and the controls it now finds (icon parts of clickable rows, parts of clickable bars, hover-styled controls) are "
        "in both renderings. The round before that: heybro 9,261 vs 9,574 tokens on MiniWoB (smaller on 37 of 130). "
        "Before that (same pages, same comparison): heybro 10,352 vs 9,579 tokens on MiniWoB (smaller on 9 of 130), "
        "large_1000 12,984 vs 13,067, large_5000 71,420 vs 72,759. What changed: the fence is a triple-quote pair "
        "(`\"\"\"`, the usual delimiter for quoted data in a prompt; the host's prompt already titles the section as untrusted "
        "page content; page text that contains `\"\"\"` is neutralised) instead of `<<<PAGE untrusted>>>` … `<<<END PAGE>>>` "
        "(10 tokens → 3); a group ends with a blank line (free: it merges with the line break) instead of `## —`; the "
        "`Open dialog:` header line only when none of the dialog's contents is shown (its `## dialog …` group says it).",
    ])


if __name__ == "__main__":
    main()
