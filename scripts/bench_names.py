"""heybro's accessible names beside dom-accessibility-api's, both against Chrome's accessibility tree.

    .venv/bin/python scripts/bench_names.py [--daa FILE] [--apps A B …] [--fixtures] [--write]

dom-accessibility-api (the implementation Testing Library uses) is not a dependency of heybro: this
bench loads a browser bundle of it (an IIFE that sets `window.__daaName` to its
`computeAccessibleName`) into the content script's world
beside heybro's own `accessibleName`. On every page — the oracle bench's corpus pages (`--apps`, as
scripts/bench_oracle.py opens them) and the DOM fixture pages (`--fixtures`) — each control the map
lists is named by both, and both names are held against Chrome's computed name where Chrome has one
(tests/support/page_oracle.py `names_agree`: case, spacing and icon glyphs aside). Time: each
implementation naming every listed control of the page once, in one synchronous pass, no memo.

Without `--daa` the bundle is built on the first run with npm (which the README's set-up installs)
into .cache/daa/ (outside the tree git keeps), at the pinned versions below.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, machine, over_corpus, write_section  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from corpus import logged_in, open_page  # noqa: E402
from support.browser import launch  # noqa: E402
from support.page_oracle import _backends, _observe, _Session, names_agree, norm, says_words  # noqa: E402

DAA_SRC = ""
ICON_FONTS = (".material-icons, [class*='material-icons-'], [class*='material-symbols'], .fa, .fas, .far, .fab, .fal, .fad, "
              ".glyphicon, .mdi, .bi, .icon, .icons, .codicon")


def as_read(ax: str, glyphs: list[str]) -> str:
    """Chrome's name as a person reads it: an icon font's ligature words are icons, not words, and a
    name made of one label said twice (two labels pointing at one control) is said once."""
    for g in glyphs:
        ax = ax.replace(g, " ", 1)
    w = ax.split()
    half = len(w) // 2
    return " ".join(w[:half]) if half and len(w) % 2 == 0 and w[:half] == w[half:] else " ".join(w)


def _chrome_names(s: _Session) -> dict[int, str]:
    out: dict[int, str] = {}
    for n in s.send("Accessibility.getFullAXTree")["nodes"]:
        if "backendDOMNodeId" in n and not n.get("ignored"):
            out[int(n["backendDOMNodeId"])] = str((n.get("name") or {}).get("value") or "")
    return out


def judge_names(eb: Any, page: Any) -> dict[str, Any]:
    res = _observe(eb, page)
    if not res.get("ok"):
        return {"error": str(res.get("error"))[:160]}
    ids = [i for i in res["result"]["elements"] if re.fullmatch(r"e\d+", i)]
    s = _Session(eb, page)
    world = s.heybro_world()
    s.send("Runtime.evaluate", {"contextId": world, "expression": DAA_SRC})
    backs = _backends(s, world, f"(() => {{ const h = globalThis.__heybroAgent; return {ids!r}.map((id) => h.element(id)); }})()")
    expr = f"""(() => {{
        const h = globalThis.__heybroAgent, els = {ids!r}.map((id) => h.element(id));
        let t = performance.now();
        const ours = els.map((e) => e ? h.name(e) : "");
        const tOurs = performance.now() - t;
        t = performance.now();
        const daa = els.map((e) => {{ try {{ return e ? window.__daaName(e) : ""; }} catch (x) {{ return "!" + x; }} }});
        const tDaa = performance.now() - t;
        // The words of icon fonts' ligatures inside each (a person sees icons: scripts' own reading below).
        const glyphs = els.map((e) => e ? [e, ...e.querySelectorAll({ICON_FONTS!r})].filter((i) => i.matches({ICON_FONTS!r}))
            .map((i) => (i.textContent || "").trim()).filter((t) => /^[a-z][a-z0-9_]*$/.test(t)) : []);
        const guessed = {ids!r}.map((id) => h.shown(id)?.guessed ? h.shown(id).name : "");
        return {{ours, daa, tOurs, tDaa, glyphs, guessed}};
    }})()"""
    r = s.send("Runtime.evaluate", {"contextId": world, "returnByValue": True, "expression": expr})["result"]["value"]
    chrome = _chrome_names(s)
    row: dict[str, Any] = {"controls": len(ids), "named": 0, "ours": 0, "daa": 0, "ours_read": 0, "daa_read": 0, "t_ours_ms": r["tOurs"], "t_daa_ms": r["tDaa"],
                           "ours_only": 0, "daa_only": 0, "guessed": sum(1 for g in r["guessed"] if g), "guessed_named": 0, "guessed_wrong": [], "ours_wrong": [], "daa_wrong": []}
    for b, ours, daa, glyphs, guessed in zip(backs, r["ours"], r["daa"], r["glyphs"], r["guessed"], strict=False):
        ax = chrome.get(b) if b is not None else None
        if not ax or not norm(ax):
            continue
        # A name from a class where the control has a name of its own (beyond its icon's ligature).
        if guessed and says_words(as_read(ax, glyphs)):  # (signs only, "›", are shown before the guess)
            row["guessed_named"] += 1
            row["guessed_wrong"].append(f"browser {ax[:50]!r} / guessed {guessed[:50]!r}")
        row["named"] += 1
        o, d = names_agree(ax, ours), names_agree(ax, daa)
        row["ours"] += o
        row["daa"] += d
        read = as_read(ax, glyphs)
        row["ours_read"] += names_agree(read, ours) if norm(read) else not norm(ours)
        row["daa_read"] += names_agree(read, daa) if norm(read) else not norm(daa)
        row["ours_only"] += o and not d
        row["daa_only"] += d and not o
        if not o:
            row["ours_wrong"].append(f"browser {ax[:50]!r} / heybro {ours[:50]!r}")
        if not d:
            row["daa_wrong"].append(f"browser {ax[:50]!r} / dom-accessibility-api {daa[:50]!r}")
    return row


def run_app(name: str, extension: Path) -> list[dict]:
    rows = []
    with logged_in(name, extension, "names") as (a, running, eb, page):
        for spec in running.pages():
            try:
                open_page(page, running, spec, a.network_idle)
                row = judge_names(eb, page)
            except Exception as e:  # the harness could not reach or judge the page: said, and not counted
                print(f"  {name}/{spec.name}: skipped ({str(e).splitlines()[0][:120]})", file=sys.stderr)
                continue
            rows.append({"app": name, "half": a.half, "page": spec.name, **row})
            _say(rows[-1])
    return rows


def run_fixtures(extension: Path) -> list[dict]:
    from support.dom_rig import serve  # (the fixture server the DOM tests use)

    fixtures = ROOT / "tests" / "fixtures" / "dom"
    rows = []
    with serve(fixtures) as base, launch(install_host=False, extension_root=extension) as eb:
        page = eb.ctx.new_page()
        page.set_viewport_size({"width": 1280, "height": 800})
        for f in sorted(fixtures.glob("*.html")):
            try:
                page.goto(f"{base}/{f.name}")
                page.wait_for_load_state("load")
                row = judge_names(eb, page)
            except Exception as e:
                print(f"  fixtures/{f.name}: skipped ({str(e).splitlines()[0][:120]})", file=sys.stderr)
                continue
            if "error" in row:
                continue
            rows.append({"app": "fixtures", "half": "fixtures", "page": f.name, **row})
            _say(rows[-1])
    return rows


def _say(r: dict) -> None:
    if "error" in r:
        print(f"  {r['app']}/{r['page']}: {r['error']}", file=sys.stderr, flush=True)
        return
    print(f"  {r['app']}/{r['page']}: heybro {r['ours']}/{r['named']} in {r['t_ours_ms']:.1f} ms, "
          f"dom-accessibility-api {r['daa']}/{r['named']} in {r['t_daa_ms']:.1f} ms", file=sys.stderr, flush=True)


def totals(rows: list[dict]) -> dict:
    ok = [r for r in rows if "error" not in r]
    return {"pages": len(ok), "named": sum(r["named"] for r in ok), "ours": sum(r["ours"] for r in ok),
            "daa": sum(r["daa"] for r in ok), "ours_read": sum(r["ours_read"] for r in ok), "daa_read": sum(r["daa_read"] for r in ok), "ours_only": sum(r["ours_only"] for r in ok), "daa_only": sum(r["daa_only"] for r in ok),
            "t_ours": sum(r["t_ours_ms"] for r in ok) / max(1, len(ok)), "t_daa": sum(r["t_daa_ms"] for r in ok) / max(1, len(ok)),
            "controls": sum(r["controls"] for r in ok), "guessed": sum(r.get("guessed", 0) for r in ok),
            "guessed_named": sum(r.get("guessed_named", 0) for r in ok)}


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "–"


def markdown(rows: list[dict], cmd: str) -> str:
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(f"{r['app']} ({r['half']})" if r["app"] != "fixtures" else "DOM fixture pages", []).append(r)
    lines = ["## Accessible names: heybro's beside dom-accessibility-api's (`scripts/bench_names.py`)", "", f"    {cmd}", "",
             f"Machine: {machine()}.", "",
             "Every control the map lists, named by heybro's `accessibleName` (extension/content/accessible_name.js) and by "
             "dom-accessibility-api's `computeAccessibleName` (the implementation Testing Library uses, loaded for the bench "
             "only), each held against Chrome's accessibility tree where Chrome names the control (`names_agree`: case, "
             "spacing and icon glyphs aside). Time: naming every listed control of the page once (mean per page).", "",
             "Read as a person reads it: Chrome's name with the ligature words of icon fonts inside the control left out "
             "(`rss_feed`: a person sees an icon) and one label said twice said once (two labels pointing at one control).", "",
             "Guessed: controls the map names by a guess from their looks (`~\"…\"`: class, id, image or ligature words), "
             "and of those, how many Chrome names in words otherwise (a name the map should have read; a name of signs "
             "only, `›`, is shown before the guess).", "",
             "| pages | controls named by Chrome | heybro = Chrome | d-a-a = Chrome | heybro = as read | d-a-a = as read | only heybro / only d-a-a (= Chrome) | heybro ms/page | d-a-a ms/page | guessed (of them named) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for label, rs in [*groups.items(), ("**all**", rows)]:
        t = totals(rs)
        lines.append(f"| {label}: {t['pages']} | {t['named']} | {pct(t['ours'], t['named'])} ({t['ours']}) | {pct(t['daa'], t['named'])} ({t['daa']}) | "
                     f"{pct(t['ours_read'], t['named'])} ({t['ours_read']}) | {pct(t['daa_read'], t['named'])} ({t['daa_read']}) | "
                     f"{t['ours_only']} / {t['daa_only']} | {t['t_ours']:.1f} | {t['t_daa']:.1f} | {t['guessed']} ({t['guessed_named']}) |")
    t = totals(rows)
    better = "heybro's own computation" if (t["ours"], -t["t_ours"]) >= (t["daa"], -t["t_daa"]) else "dom-accessibility-api"
    lines += ["", f"Better on these pages: {better} ({pct(t['ours'], t['named'])} against {pct(t['daa'], t['named'])} in agreement "
              f"with Chrome, {t['t_ours']:.1f} against {t['t_daa']:.1f} ms a page)."]
    ours_wrong = [f"{r['app']}/{r['page']}: {w}" for r in rows for w in r.get("ours_wrong", [])[:2]][:10]
    daa_wrong = [f"{r['app']}/{r['page']}: {w}" for r in rows for w in r.get("daa_wrong", [])[:2]][:10]
    guessed = [f"{r['app']}/{r['page']}: {w}" for r in rows for w in r.get("guessed_wrong", [])[:2]][:10]
    lines += ["", "Where heybro's name is not Chrome's (first ten):", "", *[f"- {w}" for w in ours_wrong],
              "", "Guessed where Chrome has a name (first ten):", "", *[f"- {w}" for w in guessed],
              "", "Where dom-accessibility-api's is not (first ten):", "", *[f"- {w}" for w in daa_wrong]]
    return "\n".join(lines) + "\n"


DAA_VERSIONS = ("dom-accessibility-api@0.7.1", "esbuild@0.25.12")


def daa_bundle() -> Path:
    """The browser bundle of dom-accessibility-api, built once into .cache/daa/."""
    out = ROOT / ".cache" / "daa"
    bundle = out / f"daa-{DAA_VERSIONS[0].split('@')[1]}.js"
    if bundle.exists():
        return bundle
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "install", "--prefix", str(out), "--no-audit", "--no-fund", "--loglevel=error", *DAA_VERSIONS], check=True)
    entry = out / "entry.js"
    entry.write_text('import { computeAccessibleName } from "dom-accessibility-api"; window.__daaName = computeAccessibleName;\n')
    subprocess.run([str(out / "node_modules" / ".bin" / "esbuild"), str(entry), "--bundle", "--format=iife", f"--outfile={bundle}"], check=True)
    return bundle


def main() -> None:
    global DAA_SRC
    ap = argparse.ArgumentParser()
    ap.add_argument("--daa", type=Path, help="a browser bundle of dom-accessibility-api setting window.__daaName (built when not given)")
    ap.add_argument("--apps", nargs="*", default=[])
    ap.add_argument("--fixtures", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    DAA_SRC = (args.daa or daa_bundle()).read_text()
    rows: list[dict] = over_corpus(args.apps, run_app) if args.apps else []
    if args.fixtures:
        rows += _fixtures_rows()
    md = markdown(rows, ".venv/bin/python scripts/bench_names.py " + " ".join(sys.argv[1:]))
    print(md)
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))
    if args.write:
        write_section("bench_names", md)


def _fixtures_rows() -> list[dict]:
    from heybro.install import bundle

    with tempfile.TemporaryDirectory(prefix="heybro-names-ext-") as ext:
        bundle.copy(bundle.source(), Path(ext))
        return run_fixtures(Path(ext))


if __name__ == "__main__":
    main()
