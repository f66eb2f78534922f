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
from bench_common import ROOT, chromium, load_modules, machine, serve, write_large_pages  # noqa: E402


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
                page.goto(f"{mw}/miniwob/{t}.html", timeout=10_000)
                page.wait_for_selector("#sync-task-cover", timeout=5_000)
                page.evaluate("() => { Math.seedrandom(42); core.startEpisodeReal(); }")
                page.wait_for_timeout(50)
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


if __name__ == "__main__":
    main()
