"""Re-finding on real applications changing as their users and developers change them.

    .venv/bin/python scripts/bench_refind_apps.py [--apps A B …] [--half tune|heldout] [--write] [--explain FILE]

Each application of the corpus is started with its seeded content and logged in. For each of its
changes below, the page before is read: every control the scanner reports whose key is unique
(what the application's data says it is: the record a link opens, a field's name, a checkbox's
record, an id the page did not generate, its form — scripts/bench/refind_apps.js) has its
signature captured as heybro keeps it. Then the application changes — the same page reloaded
(nothing changed), its rows sorted, filtered, paged, searched, added, deleted or renamed through
its own database, its interface language, skin or theme switched, or, in the same document, a
panel opened or closed by a person's click, a row redrawn by the page's own request (ajax) — and
each signature is re-found in the new document with extension/content/refind.js. Correct: the element with the same key; wrong: another
one; abstained: not found or ambiguous. A key the change removed, or whose control it hid, is a deleted target: only an
abstention is right. A key no longer unique is left out (unclear).

The halves are the corpus's own (tests/support/corpus/): refind.js may be adjusted looking at a
tune application's failures; a held-out one's failures are only counted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, machine, percentile, serve, write_section  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from support.corpus import APPS, NotInstalled, need  # noqa: E402

KINDS = ["none", "sort", "filter", "search", "paginate", "language", "skin", "theme", "add_rows",
         "delete_rows", "rename", "open_panel", "close_panel", "ajax"]


@dataclass(frozen=True)
class Change:
    kind: str
    before: str
    after: str | None = None  # another address; None: the same one, after `act`
    act: Callable[[], None] | None = None  # changes the application's data
    undo: Callable[[], None] | None = None  # puts it back after (a setting the next change must not see)
    ignore: tuple[str, ...] = ()  # the view's own parameters (sort order, page, tokens)
    name: str = ""
    # A change made on the page itself, in the same document (a panel opened, a row updated by the
    # page's own request): `setup` before the capture, `ui` instead of loading the page again.
    setup: Callable[[Any], None] | None = None
    ui: Callable[[Any], None] | None = None


def click(selector: str) -> Callable[[Any], None]:
    """A person's click on the first visible element matching `selector`, and the page settled."""
    def run(page: Any) -> None:
        page.locator(selector).locator("visible=true").first.click(timeout=5_000)
        settled(page)
    return run


def script_click(selector: str) -> Callable[[Any], None]:
    """A click through the page's own handler on a control shown only under the pointer (a
    table's row actions), and the page settled."""
    def run(page: Any) -> None:
        page.locator(selector).first.evaluate("(e) => e.click()", timeout=5_000)
        settled(page)
    return run


def type_into(selector: str, text: str) -> Callable[[Any], None]:
    """Words typed into a field the page answers as they come (a live search), and the page settled."""
    def run(page: Any) -> None:
        page.locator(selector).first.press_sequentially(text, delay=60, timeout=5_000)
        settled(page)
    return run


def settled(page: Any) -> None:
    page.wait_for_timeout(400)
    try:
        page.wait_for_load_state("networkidle", timeout=5_000)
    except Exception:  # noqa: BLE001 - a page that keeps polling
        pass
    page.wait_for_timeout(400)


def panel(kind: str, page: str, toggle: str) -> Change:
    """A panel opened by its toggle, or (close_panel) opened before the capture and closed after."""
    if kind == "open_panel":
        return Change(kind, page, ui=click(toggle))
    return Change(kind, page, setup=click(toggle), ui=click(toggle))


@dataclass
class Plan:
    ignore: tuple[str, ...]
    changes: list[Change] = field(default_factory=list)


# --- the applications' changes ---------------------------------------------------------------------

def mediawiki(r: Any) -> Plan:
    t = lambda title, q="": f"/index.php?title={title}{q}"  # noqa: E731
    wiki = r.wiki

    def new_revision() -> None:
        wiki.edit("Kettles", (wiki.page_text("Kettles") or "") + "\n\nDescaling: vinegar works.")

    def new_page() -> None:
        wiki.edit("Kettle_lids", "Lids fit most kettles.")

    def lang(code: str, page: str) -> Change:
        """The user's interface language switched in their preferences (the links stay as they were)."""
        def on() -> None:
            _write(wiki.db, "INSERT INTO user_properties (up_user, up_property, up_value) "
                   "SELECT user_id, 'language', ? FROM user WHERE user_name = ?", code, wiki.admin)

        def off() -> None:
            _write(wiki.db, "DELETE FROM user_properties WHERE up_property = 'language'")
        return Change("language", page, act=on, undo=off)

    return Plan(("uselang", "useskin", "returnto", "returntoquery", "limit", "offset", "days"), [
        Change("none", t("Kettles")), Change("none", t("Special:RecentChanges")),
        lang("de", t("Kettles")), lang("fr", t("Special:AllPages")), lang("es", t("Special:Preferences")),
        lang("ja", t("Kettles", "&action=history")), lang("de", t("Special:RecentChanges")),
        Change("skin", t("Kettles"), t("Kettles", "&useskin=monobook")),
        Change("skin", t("Special:RecentChanges"), t("Special:RecentChanges", "&useskin=timeless")),
        Change("filter", t("Special:RecentChanges", "&days=30&limit=50"), t("Special:RecentChanges", "&days=30&limit=50&hidemyself=1"),
               ignore=("hidemyself",)),
        Change("paginate", t("Kettles", "&action=history&limit=2"), t("Kettles", "&action=history&limit=3")),
        Change("search", t("Special:Search", "&search=kettle&fulltext=1"), t("Special:Search", "&search=kettles+lid&fulltext=1"),
               ignore=("search",)),
        Change("add_rows", t("Kettles", "&action=history"), act=new_revision),
        Change("add_rows", t("Special:AllPages"), act=new_page),
        panel("open_panel", t("Kettles"), "#p-cactions-checkbox"),
        panel("close_panel", t("Kettles"), "#p-cactions-checkbox"),
        # The star: the page's own request watches the page, and the link becomes "Unwatch".
        Change("ajax", t("Kettles"), ui=click("#ca-watch a"), undo=lambda: _write(wiki.db, "DELETE FROM watchlist")),
    ])


def wordpress(r: Any) -> Plan:
    wp = r.wp
    ids = [int(x[0]) for x in wp.sql("SELECT ID FROM wp_posts WHERE post_type='post' AND post_status='publish' ORDER BY ID")]
    held = [int(x[0]) for x in wp.sql("SELECT comment_ID FROM wp_comments WHERE comment_approved='0'")]

    def add_posts() -> None:
        wp.php("foreach (['Milk frothers compared', 'A kettle for camping'] as $t) "
               "wp_insert_post(['post_title' => $t, 'post_status' => 'publish', 'post_content' => 'x']);")

    def trash_post() -> None:
        wp.php(f"wp_trash_post({ids[1]});")

    def rename_post() -> None:
        wp.php(f"wp_update_post(['ID' => {ids[0]}, 'post_title' => 'Renamed: our best kettles']);")

    return Plan(("_wpnonce", "order", "paged", "_wp_http_referer", "ids"), [
        Change("none", "/wp-admin/edit.php"), Change("none", "/wp-admin/edit-comments.php"),
        Change("sort", "/wp-admin/edit.php", "/wp-admin/edit.php?orderby=title&order=asc"),
        Change("sort", "/wp-admin/users.php", "/wp-admin/users.php?orderby=email&order=desc"),
        Change("sort", "/wp-admin/edit-comments.php", "/wp-admin/edit-comments.php?orderby=comment_author&order=asc"),
        Change("filter", "/wp-admin/edit.php", "/wp-admin/edit.php?post_status=publish&post_type=post"),
        Change("filter", "/wp-admin/edit-comments.php", "/wp-admin/edit-comments.php?comment_status=approved",
               ignore=("comment_status",)),
        Change("search", "/wp-admin/edit.php", "/wp-admin/edit.php?s=kettle", ignore=("s",)),
        Change("add_rows", "/wp-admin/edit.php", act=add_posts),
        Change("delete_rows", "/wp-admin/edit.php", act=trash_post),
        Change("rename", "/wp-admin/edit.php", act=rename_post),
        Change("theme", "/wp-admin/edit.php", act=lambda: wp.php("update_user_meta(1, 'admin_color', 'midnight');"),
               undo=lambda: wp.php("delete_user_meta(1, 'admin_color');")),
        panel("open_panel", "/wp-admin/edit.php", "#show-settings-link"),
        panel("close_panel", "/wp-admin/edit.php", "#show-settings-link"),
        panel("open_panel", "/wp-admin/edit-comments.php", "#contextual-help-link"),
        # A comment approved from its row: the page's own request, the row redrawn in place.
        Change("ajax", "/wp-admin/edit-comments.php", ui=script_click("tr.comment.unapproved .row-actions .approve a"),
               undo=lambda: wp.php("".join(f"wp_set_comment_status({c}, 'hold');" for c in held))),
    ])


def trac(r: Any) -> Plan:
    q = "/query?status=!closed&max=20"
    return Plan(("order", "desc", "page", "__FORM_TOKEN", "asc", "sort", "max", "daysback"), [
        Change("none", q), Change("none", "/report/1"),
        Change("sort", q + "&order=id", q + "&order=priority"),
        Change("sort", q + "&order=id", q + "&order=id&desc=1"),
        Change("sort", "/report/1", "/report/1?sort=summary&asc=1"),
        Change("filter", q + "&order=id", "/query?status=new&max=20&order=id"),
        Change("paginate", "/query?status=!closed&order=id&max=5&page=1", "/query?status=!closed&order=id&max=5&page=2"),
        Change("filter", "/timeline?daysback=30", "/timeline?daysback=30&ticket=on"),
        panel("close_panel", q + "&order=id", "#filters legend"),
        panel("open_panel", "/ticket/1", "h3.foldable a[href='#no3']"),
    ])


def sqlite_web(r: Any) -> Plan:
    top = r.sql("SELECT id FROM products ORDER BY id")

    def add_rows() -> None:
        for name in ("Enamel kettle", "Glass kettle"):
            _write(r.db, "INSERT INTO products (name, price) VALUES (?, 19.5)", name)

    def delete_row() -> None:
        _write(r.db, "DELETE FROM products WHERE id = ?", top[1][0])

    def rename_row() -> None:
        _write(r.db, "UPDATE products SET name = 'Renamed kettle' WHERE id = ?", top[0][0])

    return Plan(("ordering", "page"), [
        Change("none", "/products/content/"), Change("none", "/products/"),
        Change("sort", "/products/content/", "/products/content/?ordering=-price"),
        Change("sort", "/customers/content/", "/customers/content/?ordering=name"),
        Change("paginate", "/products/content/", "/products/content/?page=2"),
        Change("add_rows", "/products/content/", act=add_rows),
        Change("delete_rows", "/products/content/", act=delete_row),
        Change("rename", "/products/content/", act=rename_row),
    ])


def roundup(r: Any) -> Plan:
    cols = "/issue?@columns=id,title,priority,status,assignedto,activity"

    def add_issue() -> None:
        r.admin("create", "issue", "title=Scanner jams on long pages", "priority=2")

    def retire_issue() -> None:
        r.admin("retire", "issue3")

    return Plan(("@sort", "@startwith", "@pagesize", "@csrf", "@filter", "@group", "@dispname"), [
        Change("none", cols + "&@sort=id"), Change("none", "/issue2"),
        Change("sort", cols + "&@sort=id", cols + "&@sort=title"),
        Change("sort", cols + "&@sort=id", cols + "&@sort=-activity"),
        Change("paginate", cols + "&@sort=id&@pagesize=8&@startwith=0", cols + "&@sort=id&@pagesize=8&@startwith=8"),
        Change("filter", cols + "&@sort=id", cols + "&@sort=id&@filter=status&status=1"),
        Change("search", cols + "&@sort=id", cols + "&@sort=id&@search_text=printer"),
        Change("add_rows", cols + "&@sort=id", act=add_issue),
        Change("delete_rows", cols + "&@sort=id", act=retire_issue),
    ])


def adminer(r: Any) -> Plan:
    base = r.pages()[0].path if hasattr(r, "pages") else ""
    db = base + "&db=shop" if base else ""
    sel = f"{db}&select=products"

    def add_rows() -> None:
        r.sql("INSERT INTO products (name, price, stock, category) VALUES ('Clay teapot', 21, 4, 'teapots')")

    def delete_row() -> None:
        # (a product no order names: the orders' foreign key refuses the others)
        free = r.sql("SELECT id FROM products WHERE id NOT IN (SELECT product_id FROM orders) ORDER BY id LIMIT 1")
        r.sql(f"DELETE FROM products WHERE id = {int(free[0][0])}")

    return Plan(("order[0]", "desc[0]", "page", "limit", "token", "where[0][col]", "where[0][op]", "where[0][val]"), [
        Change("none", sel), Change("none", f"{db}&edit=products&where%5Bid%5D=3"),
        Change("sort", sel, sel + "&order%5B0%5D=price&desc%5B0%5D=1"),
        Change("paginate", sel + "&limit=10", sel + "&limit=10&page=1"),
        Change("filter", sel, sel + "&where%5B0%5D%5Bcol%5D=category&where%5B0%5D%5Bop%5D=%3D&where%5B0%5D%5Bval%5D=kettles"),
        Change("add_rows", sel, act=add_rows),
        Change("delete_rows", sel, act=delete_row),
        panel("open_panel", sel, "legend a[href='#fieldset-search']"),
        panel("open_panel", sel, "legend a[href='#fieldset-sort']"),
    ])


def wagtail(r: Any) -> Plan:
    journal = r.page_id("Journal")

    def theme(name: str) -> None:
        r.shell("from django.contrib.auth import get_user_model\n"
                "from wagtail.users.models import UserProfile\n"
                f"p = UserProfile.get_for_user(get_user_model().objects.get(username={r.user!r}))\n"
                f"p.theme = {name!r}\np.save()")
    return Plan(("ordering", "p", "q"), [
        Change("none", f"/admin/pages/{journal}/"), Change("none", "/admin/users/"),
        Change("sort", f"/admin/pages/{journal}/", f"/admin/pages/{journal}/?ordering=-latest_revision_created_at"),
        Change("sort", f"/admin/pages/{journal}/", f"/admin/pages/{journal}/?ordering=title"),
        Change("search", "/admin/pages/search/?q=kettle", "/admin/pages/search/?q=cast+iron"),
        Change("sort", "/admin/users/", "/admin/users/?ordering=name"),
        Change("theme", "/admin/users/", act=lambda: theme("dark"), undo=lambda: theme("system")),
        panel("open_panel", "/admin/users/", "button[aria-label^='More options for']"),
        panel("open_panel", f"/admin/pages/{journal}/", "button[aria-label='Show filters']"),
        panel("close_panel", "/admin/users/", "button.sidebar-menu-item__link[aria-haspopup='menu']"),
        # The live search: the list of users fetched and swapped in by the page as the words come.
        Change("ajax", "/admin/users/", ui=type_into("input[name=q]", "an")),
    ])


def spirit(r: Any) -> Plan:
    return Plan(("page", "csrfmiddlewaretoken"), [
        Change("none", "/"), Change("none", "/category/"),
        Change("search", "/search/?q=brake", "/search/?q=wheel"),
        Change("sort", "/st/admin/user/", "/st/admin/user/?ordering=-date_joined"),
    ])


PLANS: dict[str, Callable[[Any], Plan]] = {
    "mediawiki": mediawiki, "wordpress": wordpress, "trac": trac, "sqlite_web": sqlite_web,
    "roundup": roundup, "adminer": adminer, "wagtail": wagtail, "spirit": spirit}


def _write(db: Path, query: str, *params: Any) -> None:
    import sqlite3

    con = sqlite3.connect(db, timeout=10)
    try:
        con.execute(query, params)
        con.commit()
    finally:
        con.close()


# --- running ---------------------------------------------------------------------------------------

def load(page: Any, base: str) -> None:
    page.evaluate("async (base) => { window.__ra = await import(base + '/scripts/bench/refind_apps.js'); }", base)


def goto(page: Any, url: str) -> None:
    page.goto(url, timeout=60_000)
    page.wait_for_load_state("load")
    try:
        page.wait_for_load_state("networkidle", timeout=8_000)
    except Exception:  # noqa: BLE001 - a page that keeps polling: read after a settle
        pass
    page.wait_for_timeout(300)


SKIPPED: list[str] = []  # changes the harness could not make (said in the report)


def run_app(name: str, base: str, explain: bool) -> list[dict]:
    from playwright.sync_api import sync_playwright

    from heybro.browser.chromium import QUIET_FLAGS, find_chromium

    a = APPS[name]
    need(a)
    rows: list[dict] = []
    udd = tempfile.mkdtemp(prefix="heybro-refind-apps-")
    try:
        with tempfile.TemporaryDirectory(prefix=f"heybro-refind-{name}-") as d, a.start(Path(d)) as running, \
                sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(udd, executable_path=find_chromium(), headless=True,
                                                       args=QUIET_FLAGS, bypass_csp=True,
                                                       viewport={"width": 1280, "height": 800})
            try:
                page = ctx.new_page()
                running.login(page)
                plan = PLANS[name](running)
                for c in plan.changes:
                    ignore = list(plan.ignore + c.ignore)
                    try:
                        goto(page, running.url + c.before)
                        if c.setup is not None:
                            c.setup(page)
                        load(page, base)
                        items = page.evaluate("(ig) => __ra.capture(ig)", ignore)
                        if c.act is not None:
                            c.act()
                        if c.ui is not None:
                            c.ui(page)  # the same document, changed by the page itself
                        else:
                            goto(page, running.url + (c.after or c.before))
                            load(page, base)
                        got = page.evaluate("([items, ig, ex]) => __ra.judge(items, ig, ex)", [items, ignore, explain])
                    except Exception as e:  # noqa: BLE001 - the harness could not make the change: said
                        why = str(e).splitlines()[0][:120]
                        SKIPPED.append(f"{name} {c.kind} {c.before}: {why}")
                        print(f"  {name} {c.kind} {c.before}: skipped ({why})", file=sys.stderr)
                        continue
                    finally:
                        if c.undo is not None:
                            c.undo()
                    for g in got:
                        rows.append({"app": name, "half": a.half, "kind": c.kind, "page": c.before, **g})
                    n = Counter(g["outcome"] for g in got)
                    print(f"  {name} {c.kind:<11} {c.before[:60]:<60} {dict(n)}", file=sys.stderr, flush=True)
            finally:
                ctx.close()
    finally:
        shutil.rmtree(udd, ignore_errors=True)
    return rows


def summary(rows: list[dict]) -> dict:
    judged = [r for r in rows if r["outcome"] != "unclear"]
    present = [r for r in judged if not r["gone"]]
    gone = [r for r in judged if r["gone"]]
    unchanged = [r for r in present if r["kind"] == "none"]
    c = Counter(r["outcome"] for r in present)
    n = len(present)
    ms = [r["ms"] for r in judged if "ms" in r]
    return {"trials": n, "correct": c["correct"], "wrong": c["wrong"], "abstained": c["abstained"],
            "deleted": len(gone), "deleted_refused": sum(1 for r in gone if r["outcome"] == "abstained"),
            "unchanged": len(unchanged), "unchanged_found": sum(1 for r in unchanged if r["outcome"] == "correct"),
            "unclear": len(rows) - len(judged), "p50": percentile(ms, 0.5) if ms else 0.0}


def pct(a: int, b: int, digits: int = 1) -> str:
    return f"{a} ({100 * a / b:.{digits}f}%)" if b else "0"


def markdown(rows: list[dict], cmd: str) -> str:
    lines = ["## Re-finding on real applications changing", "", f"    {cmd}", "",
             f"Machine: {machine()}. " + " ".join(__doc__.split(chr(10) + chr(10))[2].split()), "",
             " ".join(__doc__.split(chr(10) + chr(10))[3].split()), ""]
    for half, title in (("heldout", "Held-out"), ("tune", "Tune")):
        part = [r for r in rows if r["half"] == half]
        if not part:
            continue
        apps = sorted({r["app"] for r in part})
        s = summary(part)
        lines += [f"**{title}** ({', '.join(apps)}): {s['trials']} re-finds of controls still there — "
                  f"correct {pct(s['correct'], s['trials'])}, **wrong {pct(s['wrong'], s['trials'], 2)}**, "
                  f"abstained {pct(s['abstained'], s['trials'])}; unchanged found {pct(s['unchanged_found'], s['unchanged'])}; "
                  f"deleted targets refused {pct(s['deleted_refused'], s['deleted'])}; p50 {s['p50']:.2f} ms; "
                  f"{s['unclear']} left out (key no longer unique).", "",
                  "| change | re-finds | correct | wrong | abstained | deleted (refused) |", "|---|---|---|---|---|---|"]
        by: dict[str, list[dict]] = defaultdict(list)
        for r in part:
            by[r["kind"]].append(r)
        for k in KINDS:
            if k not in by:
                continue
            s = summary(by[k])
            lines.append(f"| {k.replace('_', ' ')} | {s['trials']} | {pct(s['correct'], s['trials'])} | "
                         f"{pct(s['wrong'], s['trials'], 2)} | {pct(s['abstained'], s['trials'])} | "
                         f"{s['deleted']} ({s['deleted_refused']}) |")
        lines.append("")
        for app in apps:
            s = summary([r for r in part if r["app"] == app])
            lines.append(f"- {app}: {s['trials']} re-finds, correct {pct(s['correct'], s['trials'])}, "
                         f"wrong {s['wrong']}, abstained {s['abstained']}; deleted {s['deleted']} "
                         f"(refused {s['deleted_refused']})")
        lines.append("")
    if SKIPPED:
        lines += ["Changes the harness could not make (not counted):", *[f"- {x}" for x in SKIPPED], ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--apps", nargs="*", help="only these applications (default: every one with changes)")
    ap.add_argument("--half", choices=["tune", "heldout"])
    ap.add_argument("--write", action="store_true", help="write the section of BENCHMARKS.md")
    ap.add_argument("--explain", help="write the wrong answers, with their candidates, as JSON here")
    ns = ap.parse_args()
    names = ns.apps or [n for n in PLANS if not ns.half or APPS[n].half == ns.half]
    rows: list[dict] = []
    t0 = time.monotonic()
    with serve(ROOT) as base:
        for name in names:
            print(f"{name}:", file=sys.stderr, flush=True)
            try:
                rows += run_app(name, base, bool(ns.explain))
            except NotInstalled as e:
                print(f"  skipped: {e}", file=sys.stderr)
    if ns.explain:
        Path(ns.explain).write_text(json.dumps([r for r in rows if "sig" in r or (r.get("gone") and r["outcome"] != "abstained")], indent=1))
    for half in ("heldout", "tune"):
        part = [r for r in rows if r["half"] == half]
        if part:
            print(half, json.dumps(summary(part)))
    print(f"{time.monotonic() - t0:.0f} s", file=sys.stderr)
    if ns.write:
        cmd = ".venv/bin/python scripts/bench_refind_apps.py --write" + (f" --apps {' '.join(ns.apps)}" if ns.apps else "")
        write_section("bench_refind_apps", markdown(rows, cmd))


if __name__ == "__main__":
    main()
