"""Shared bits of the benchmarks: a static server (repo + MiniWoB pages, with CORS so pages can
import extension/content/*.js as modules), a headless Chromium, generated large pages, percentiles."""

from __future__ import annotations

import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the test suite's harness (static server)

from heybro.browser.chromium import QUIET_FLAGS as QUIET  # noqa: E402
from support.static_server import serve as serve_static  # noqa: E402


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """The tests' static server, with CORS so pages can import extension/content/*.js as modules."""
    with serve_static(root, cors=True) as base:
        yield base


@contextmanager
def chromium() -> Iterator[Page]:
    """A headless Chromium page in a throwaway profile (removed after the browser exits)."""
    udd = tempfile.mkdtemp(prefix="heybro-bench-")
    try:
        with sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(udd, executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                                       headless=True, args=QUIET, viewport={"width": 1280, "height": 800})
            try:
                yield ctx.new_page()
            finally:
                ctx.close()
    finally:
        shutil.rmtree(udd, ignore_errors=True)


def load_modules(page: Page, base: str) -> None:
    """Exposes the extension's DOM modules on window.__hb in the page."""
    page.evaluate("""async (base) => {
        const [scan, render, refind] = await Promise.all([
            import(base + '/extension/content/dom_scan.js'), import(base + '/extension/content/dom_render.js'),
            import(base + '/extension/content/refind.js')]);
        const bu = await import(base + '/scripts/bench/browser_use_render.js');
        window.__hb = { ...scan, ...render, ...refind, ...bu };
    }""", base)


def baseline_tree(ref: str, into: Path) -> str:
    """The extension's DOM modules as they were at `ref`, written under `into` where they are now
    (extension/content/; before the folders said where code runs they lived in extension/lib/, all
    in one folder either way, so their imports of each other hold); returns the short commit."""
    out = into / "extension" / "content"
    out.mkdir(parents=True, exist_ok=True)
    git = lambda *args: subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout  # noqa: E731
    for folder in ("extension/lib", "extension/content"):
        for n in git("ls-tree", "--name-only", f"{ref}:{folder}").split():
            if n.endswith(".js") and not n.startswith("agent."):
                (out / n).write_text(git("show", f"{ref}:{folder}/{n}"))
    return git("rev-parse", "--short", ref).strip()


def large_page_html(n: int, seed: int = 1) -> str:
    """A realistic-ish page with n interactive elements: nav links, forms, a product table, cards."""
    import random
    rnd = random.Random(seed)
    words = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega nova terra luna sol vega".split()
    parts = ['<!doctype html><html><head><meta charset="utf-8"><title>Catalogue</title></head><body>',
             '<header><nav aria-label="Main">']
    i = 0
    for _ in range(min(20, n // 50)):
        parts.append(f'<a href="/section/{i}">{rnd.choice(words).title()} section</a> ')
        i += 1
    parts.append('</nav></header><main><h1>Catalogue</h1><p>Browse our products. Prices include tax.</p>')
    while i < n:
        kind = rnd.random()
        if kind < 0.45:
            name = f"{rnd.choice(words).title()} {rnd.choice(words)} {i}"
            parts.append(f'<div class="card c-{i % 7}"><h3>{name}</h3><p>Only {rnd.randint(2, 99)} left in stock.</p>'
                         f'<button class="btn buy" data-sku="{i}">Add to cart</button> ')
            i += 1
            if i < n:
                parts.append(f'<a href="/p/{i}">Details</a>')
                i += 1
            parts.append('</div>')
        elif kind < 0.75:
            parts.append(f'<form aria-label="Review {i}"><label>Name <input name="name{i}"></label>')
            i += 1
            if i < n:
                parts.append(f'<label>Rating <select name="r{i}"><option>1</option><option>2</option><option>3</option></select></label>')
                i += 1
            if i < n:
                parts.append(f'<label><input type="checkbox" name="rec{i}"> Recommend</label>')
                i += 1
            if i < n:
                parts.append(f'<button type="submit">Send review</button>')
                i += 1
            parts.append('</form>')
        else:
            parts.append('<table><tr><th>Item</th><th>Price</th><th></th></tr>')
            for _ in range(5):
                if i >= n:
                    break
                parts.append(f'<tr><td>{rnd.choice(words)} {i}</td><td>${rnd.randint(1, 500)}</td><td><a href="/buy/{i}">Buy</a></td></tr>')
                i += 1
            parts.append('</table>')
    parts.append('</main></body></html>')
    return "".join(parts)


def start_miniwob(page: Page, base: str, task: str, seed: int = 42) -> None:
    """Opens a MiniWoB++ task page served at `base` and starts a seeded episode (TESTING.md)."""
    page.goto(f"{base}/miniwob/{task}.html", timeout=10_000)
    page.wait_for_selector("#sync-task-cover", timeout=5_000)
    page.evaluate(f"() => {{ Math.seedrandom({seed}); core.startEpisodeReal(); }}")
    page.wait_for_timeout(50)


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os
    ver = subprocess.run(["chromium", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    return f"{cpu or platform.processor()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, {ver[-1] if ver else 'chromium'}"


def write_large_pages(dir_: Path) -> list[str]:
    names = []
    for n in (1000, 5000):
        (dir_ / f"large_{n}.html").write_text(large_page_html(n))
        names.append(f"large_{n}.html")
    return names


def summary(values: list[float]) -> dict[str, float]:
    """n, p50, p95 and mean of a list of timings."""
    return {"n": len(values), "p50": percentile(values, 0.5), "p95": percentile(values, 0.95),
            "mean": sum(values) / len(values) if values else 0.0}


def write_section(name: str, markdown: str) -> None:
    """Rewrites one benchmark's section of BENCHMARKS.md and leaves the others alone.

    The section is kept between `<!-- bench:NAME -->` markers; the first time, it replaces the
    `## …` section whose heading is the markdown's first line (or is appended)."""
    path = ROOT / "BENCHMARKS.md"
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    block = f"{start}\n{markdown.strip()}\n{end}\n"
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + block + rest.split(end, 1)[1].lstrip("\n")
    else:
        heading = markdown.strip().splitlines()[0]
        i = text.find(heading + "\n") if heading.startswith("## ") else -1
        if i >= 0:
            # The section ends at the next heading or at the next benchmark's own marker.
            ends = [k for k in (text.find("\n## ", i + len(heading)), text.find("\n<!-- bench:", i)) if k >= 0]
            j = min(ends) if ends else -1
            text = text[:i] + block + ("\n" + text[j + 1:] if j >= 0 else "")
        else:
            text = text.rstrip("\n") + "\n\n" + block
    path.write_text(text)


def over_corpus(names: list[str], run: Callable[[str, Path], list[Any]]) -> list[Any]:
    """`run(app, extension)` for each named application of the corpus, all read by the extension
    as it was when the run began (a long run is not measured half on one version of the code and
    half on another); an application not installed is said and skipped."""
    from heybro.install import bundle
    from support.corpus import NotInstalled

    rows: list[Any] = []
    with tempfile.TemporaryDirectory(prefix="heybro-corpus-ext-") as ext:
        bundle.copy(bundle.source(), Path(ext))
        for name in names:
            try:
                print(f"{name}:", file=sys.stderr, flush=True)
                rows += run(name, Path(ext))
            except NotInstalled as e:
                print(f"  skipped: {e}", file=sys.stderr)
    return rows
