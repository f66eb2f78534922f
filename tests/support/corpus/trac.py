"""Trac (PyPI): an issue tracker with a wiki, a roadmap, reports, a custom query builder, a timeline
and a source browser, served by its own `tracd`, with the AccountManager plugin's login form.

Seeded for a small team building "Harbor Booking": six people (Ann Lee, the administrator, logs
in), components, milestones (two completed), versions, 32 tickets of every type, priority and
status with comments and changes over the past weeks, wiki pages with several versions each, and a
Git repository with a few commits shown by the source browser.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, first_missing, venv_dir, venv_install, venv_missing

NAME = "trac"
REQUIREMENTS = ["Trac==1.6", "Jinja2==3.1.6", "MarkupSafe==3.0.2", "setuptools==75.8.2",
                "Pygments==2.19.1", "docutils==0.21.2", "TracAccountManager==0.6.0"]
USER, PASSWORD = "ann", "heybro-trac-pass-1"

PEOPLE = [("ann", "Ann Lee", "ann@harbor.example"), ("bob", "Bob Stone", "bob@harbor.example"),
          ("cleo", "Cleo Park", "cleo@harbor.example"), ("dev", "Dev Shah", "dev@harbor.example"),
          ("eve", "Eve Moss", "eve@harbor.example"), ("farid", "Farid Haddad", "farid@harbor.example")]
COMPONENTS = [("Backend", "bob"), ("Web UI", "cleo"), ("Payments", "dev"), ("Notifications", "eve"),
              ("Mobile App", "farid"), ("Search", "bob"), ("Documentation", "ann")]
# name, due (days from now), completed (days from now or None), description
MILESTONES = [("1.0 Launch", -60, -58, "First public release: booking, calendar and e-mail receipts."),
              ("1.1 Polish", -25, -24, "Fixes from the launch feedback and a faster calendar."),
              ("1.2 Payments", 12, None, "Card payments, refunds and invoices in the customer area."),
              ("2.0 Mobile", 70, None, "The mobile app for iOS and Android with push notifications."),
              ("Backlog", None, None, "Ideas and requests not planned yet.")]
VERSIONS = [("1.0", -58), ("1.1", -24), ("1.2-beta", -3)]

# summary, type, priority, component, milestone, version, reporter, owner, status, resolution,
# keywords, description
TICKETS: list[tuple[str, ...]] = [
    ("Calendar shows wrong week on Sundays", "defect", "major", "Web UI", "1.1 Polish", "1.0", "eve", "cleo",
     "closed", "fixed", "calendar", "When the browser's locale starts weeks on Sunday the calendar jumps "
     "one week ahead.\n\nSteps:\n 1. Open the booking calendar on a Sunday\n 2. See next week's slots"),
    ("Card payment fails for amounts over 1000 EUR", "defect", "blocker", "Payments", "1.2 Payments", "1.2-beta",
     "dev", "dev", "accepted", "", "payments stripe", "The gateway answers `amount_too_large` because we send "
     "cents as a float.\n\n{{{\nPOST /v1/charges amount=100000.0\n}}}"),
    ("Add refunds to the admin booking page", "enhancement", "major", "Payments", "1.2 Payments", "", "ann", "dev",
     "assigned", "", "payments refunds", "Staff need a **Refund** button on a paid booking, with a partial amount."),
    ("Invoice PDF has no VAT number", "defect", "critical", "Payments", "1.2 Payments", "1.2-beta", "bob", "dev",
     "new", "", "invoice vat", "Invoices sent to companies must show their VAT number under the address."),
    ("Reminder e-mail sent twice", "defect", "major", "Notifications", "1.1 Polish", "1.0", "cleo", "eve", "closed",
     "fixed", "email", "Customers get the 24-hour reminder twice when the booking was moved."),
    ("Push notifications for booking changes", "enhancement", "major", "Mobile App", "2.0 Mobile", "", "ann",
     "farid", "new", "", "push mobile", "Send a push message when staff move or cancel a booking."),
    ("Search ignores accents", "defect", "minor", "Search", "1.2 Payments", "1.1", "farid", "bob", "assigned", "",
     "search i18n", "Searching *Jose* does not find *José Álvarez*."),
    ("Document the REST API for partners", "task", "major", "Documentation", "1.2 Payments", "", "ann", "ann",
     "accepted", "", "api docs", "Write the wiki page PartnerApi with examples for every endpoint."),
    ("Slow booking list with 5000 rows", "defect", "critical", "Backend", "1.1 Polish", "1.0", "bob", "bob",
     "closed", "fixed", "performance", "The list takes 9 s; the query has no index on `start_time`."),
    ("Dark mode for the customer area", "enhancement", "minor", "Web UI", "Backlog", "", "cleo", "", "new", "",
     "ui theme", "Follow the system's colour scheme."),
    ("Login page accepts empty password", "defect", "blocker", "Backend", "1.0 Launch", "1.0", "eve", "bob",
     "closed", "fixed", "security", "An empty password logged in users created by import."),
    ("Export bookings as CSV", "enhancement", "major", "Backend", "1.2 Payments", "", "dev", "bob", "new", "",
     "export csv", "Managers want a CSV of all bookings in a date range."),
    ("Translate the booking form into German", "task", "minor", "Web UI", "1.2 Payments", "", "ann", "cleo",
     "assigned", "", "i18n", "All labels and error messages of the booking form."),
    ("App crashes when the phone is offline", "defect", "critical", "Mobile App", "2.0 Mobile", "", "farid",
     "farid", "accepted", "", "mobile offline", "Opening *My bookings* with no network ends the app."),
    ("Show opening hours on the map", "enhancement", "trivial", "Web UI", "Backlog", "", "bob", "", "new", "",
     "map", "Hovering a venue on the map could show today's opening hours."),
    ("SMS reminders", "enhancement", "major", "Notifications", "2.0 Mobile", "", "eve", "eve", "new", "",
     "sms", "Send a text message 2 hours before the booking, for customers who ask for it."),
    ("Duplicate: calendar week wrong", "defect", "major", "Web UI", "1.1 Polish", "1.0", "dev", "cleo", "closed",
     "duplicate", "calendar", "Same as #1."),
    ("Time zone of receipts is UTC", "defect", "major", "Notifications", "1.2 Payments", "1.1", "cleo", "eve",
     "reopened", "", "email timezone", "Receipts show 09:00 UTC instead of the venue's local time."),
    ("Set up nightly database backups", "task", "critical", "Backend", "1.0 Launch", "", "ann", "bob", "closed",
     "fixed", "ops", "Daily dump kept for 30 days."),
    ("Rename 'Resource' to 'Room' everywhere", "task", "minor", "Web UI", "1.1 Polish", "", "ann", "cleo",
     "closed", "wontfix", "wording", "Customers book rooms, desks and cars: 'Room' is too narrow."),
    ("Search results page has no paging", "defect", "major", "Search", "1.2 Payments", "1.1", "eve", "bob", "new",
     "", "search", "Only the first 50 results are shown."),
    ("Apple Pay on the mobile app", "enhancement", "major", "Payments", "2.0 Mobile", "", "farid", "dev", "new", "",
     "payments mobile", "Needs the merchant certificate from the bank."),
    ("Calendar drag and drop loses the note", "defect", "minor", "Web UI", "1.2 Payments", "1.1", "bob", "cleo",
     "new", "", "calendar", "Moving a booking by drag and drop clears its note."),
    ("Write the installation guide", "task", "major", "Documentation", "1.0 Launch", "", "ann", "ann", "closed",
     "fixed", "docs", "See InstallGuide."),
    ("Cannot reproduce: blank page on Safari 15", "defect", "major", "Web UI", "1.1 Polish", "1.0", "farid",
     "cleo", "closed", "worksforme", "safari", "Reported by one customer; works on Safari 15.6."),
    ("Weekly summary e-mail for managers", "enhancement", "minor", "Notifications", "Backlog", "", "dev", "", "new",
     "", "email report", "Bookings, cancellations and revenue of the past week."),
    ("Rate limit the public booking API", "task", "critical", "Backend", "1.2 Payments", "", "bob", "bob",
     "closed", "fixed", "api security", "100 requests a minute per key."),
    ("Typo on the cancellation page", "defect", "trivial", "Web UI", "1.2 Payments", "1.1", "eve", "cleo", "closed",
     "fixed", "wording", "'Cancelation' should be 'Cancellation'."),
    ("Fingerprint login in the app", "enhancement", "minor", "Mobile App", "2.0 Mobile", "", "farid", "farid", "new",
     "", "mobile security", "Face ID and Android biometrics."),
    ("Search by booking reference", "enhancement", "major", "Search", "1.2 Payments", "", "cleo", "bob", "accepted",
     "", "search", "Staff paste references like HB-20931 into the search box."),
    ("Spam sign-ups from one network", "defect", "major", "Backend", "1.1 Polish", "1.0", "bob", "bob", "closed",
     "invalid", "spam", "Turned out to be a load test of a partner."),
    ("Explain refunds in the FAQ", "task", "minor", "Documentation", "1.2 Payments", "", "dev", "ann", "new", "",
     "docs refunds", "After the refunds feature lands (#3)."),
]
COMMENTS = ["I can reproduce this on the staging server.", "Looking into it today.",
            "Patch is in review, see the changeset in the source browser.", "Customers asked about this again.",
            "Moved to the next milestone, we ran out of time.", "Confirmed fixed on staging.",
            "Needs a decision from Ann first.", "Added a test case for it."]

WIKI = {
    "WikiStart": ["= Harbor Booking =\nWelcome to the team wiki of Harbor Booking, the booking system for "
                  "rooms, desks and cars.\n\n== Where to start ==\n * [[roadmap|Roadmap]] — what ships when\n"
                  " * [report:1 Active tickets]\n * InstallGuide — set up a development machine\n"
                  " * PartnerApi — the REST API for partners\n * ReleaseChecklist — before every release\n"
                  " * TeamContacts — who does what\n",
                  "= Harbor Booking =\nWelcome to the team wiki of Harbor Booking, the booking system for "
                  "rooms, desks and cars.\n\n== Where to start ==\n * [[roadmap|Roadmap]] — what ships when\n"
                  " * [report:1 Active tickets]\n * InstallGuide — set up a development machine\n"
                  " * PartnerApi — the REST API for partners\n * ReleaseChecklist — before every release\n"
                  " * TeamContacts — who does what\n * MeetingNotes — weekly meetings\n"],
    "InstallGuide": ["= Installation guide =\n\n== Requirements ==\n * Python 3.11\n * PostgreSQL 15\n",
                     "= Installation guide =\n\n== Requirements ==\n * Python 3.11\n * PostgreSQL 15\n"
                     " * Redis 7 for the job queue\n\n== Steps ==\n{{{\ngit clone harbor\ncd harbor\n"
                     "make dev\n}}}\n",
                     "= Installation guide =\n\n== Requirements ==\n * Python 3.11\n * PostgreSQL 15\n"
                     " * Redis 7 for the job queue\n\n== Steps ==\n{{{\ngit clone harbor\ncd harbor\n"
                     "make dev\nmake seed\n}}}\n\nThe site is then at http://localhost:8000 (login "
                     "`admin` / `admin`).\n\n== Troubleshooting ==\n||= Symptom =||= Fix =||\n"
                     "|| Port 8000 busy || `make dev PORT=8001` ||\n|| Database missing || "
                     "`createdb harbor` ||\n"],
    "PartnerApi": ["= Partner API =\nAll endpoints need the header `Authorization: Bearer KEY`.\n\n"
                   "== Bookings ==\n||= Method =||= Path =||= What =||\n|| GET || /api/bookings || list ||\n"
                   "|| POST || /api/bookings || create ||\n|| DELETE || /api/bookings/ID || cancel ||\n",
                   "= Partner API =\nAll endpoints need the header `Authorization: Bearer KEY`. Keys are "
                   "limited to 100 requests a minute (#27).\n\n== Bookings ==\n||= Method =||= Path =||= "
                   "What =||\n|| GET || /api/bookings || list ||\n|| POST || /api/bookings || create ||\n"
                   "|| DELETE || /api/bookings/ID || cancel ||\n\n== Venues ==\n||= Method =||= Path =||= "
                   "What =||\n|| GET || /api/venues || list ||\n"],
    "ReleaseChecklist": ["= Release checklist =\n 1. All tickets of the milestone closed\n 2. Changelog "
                         "written\n 3. Tag the release\n 4. Deploy to staging, then production\n 5. Close "
                         "the milestone in the [/roadmap roadmap]\n"],
    "TeamContacts": ["= Team =\n||= Person =||= Area =||= E-mail =||\n|| Ann Lee || product, docs || "
                     "ann@harbor.example ||\n|| Bob Stone || backend, search || bob@harbor.example ||\n"
                     "|| Cleo Park || web UI || cleo@harbor.example ||\n|| Dev Shah || payments || "
                     "dev@harbor.example ||\n|| Eve Moss || notifications || eve@harbor.example ||\n"
                     "|| Farid Haddad || mobile app || farid@harbor.example ||\n"],
    "MeetingNotes": ["= Meeting notes =\n== Monday ==\n * Payments milestone at risk: #2 blocks card "
                     "payments\n * Cleo starts on the German translation (#13)\n",
                     "= Meeting notes =\n== Monday ==\n * Payments milestone at risk: #2 blocks card "
                     "payments\n * Cleo starts on the German translation (#13)\n== Thursday ==\n * #2 "
                     "accepted by Dev, fix expected next week\n * Mobile app kick-off planned\n"],
}

# Source files of the Git repository, committed in order (path, text, message, author).
COMMITS = [
    ({"README.md": "# Harbor Booking\n\nBooking of rooms, desks and cars.\n",
      "src/booking/__init__.py": "", "src/booking/app.py":
      "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.get('/')\ndef index():\n"
      "    return 'Harbor Booking'\n"}, "Start the booking app", "Bob Stone <bob@harbor.example>"),
    ({"src/booking/payments.py": "from decimal import Decimal\n\n\ndef to_cents(amount: Decimal) -> int:\n"
      "    return int(amount * 100)\n\n\ndef charge(gateway, amount: Decimal, card: str) -> str:\n"
      "    return gateway.charge(amount=to_cents(amount), source=card)\n",
      "tests/test_payments.py": "from decimal import Decimal\n\nfrom booking.payments import to_cents\n\n\n"
      "def test_to_cents():\n    assert to_cents(Decimal('1000.50')) == 100050\n"},
     "Send card amounts as integer cents (refs #2)", "Dev Shah <dev@harbor.example>"),
    ({"docs/install.rst": "Installation\n============\n\n1. ``make dev``\n2. ``make seed``\n"},
     "Installation guide", "Ann Lee <ann@harbor.example>"),
    ({"src/booking/search.py": "import unicodedata\n\n\ndef fold(text: str) -> str:\n"
      "    return ''.join(c for c in unicodedata.normalize('NFKD', text) if not unicodedata.combining(c))\n"},
     "Fold accents when searching (refs #7)", "Bob Stone <bob@harbor.example>"),
]

_SEED = r'''
import json, sys
from datetime import datetime, timedelta, timezone
from trac.admin.console import TracAdmin
from trac.env import open_environment
from trac.ticket.model import Ticket
from trac.wiki.model import WikiPage

envdir, spec = sys.argv[1], json.load(open(sys.argv[2]))
for phase in ("config", "admin"):
    # a fresh environment after the configuration, so that the plugins it enables are loaded
    env = open_environment(envdir, use_cache=False)
    admin = TracAdmin()
    admin.env_set(envdir, env)
    for line in spec[phase]:
        if admin.onecmd(line):
            raise SystemExit("trac-admin " + line + " failed")
from acct_mgr.api import AccountManager
for user, password in spec["passwords"]:
    AccountManager(env).set_password(user, password)
now = datetime.now(timezone.utc)
def at(days, hours=0):
    return now + timedelta(days=days, hours=hours)
comments = spec["comments"]
for i, t in enumerate(spec["tickets"]):
    (summary, type_, prio, comp, ms, version, reporter, owner, status, resolution, kw, desc) = t
    created = at(-40 + i, 9)
    tk = Ticket(env)
    tk.populate({"summary": summary, "type": type_, "priority": prio, "component": comp,
                 "milestone": ms, "version": version, "reporter": reporter, "keywords": kw,
                 "description": desc, "status": "new", "owner": "", "cc": ""})
    tk.insert(when=created)
    step = created
    people = [p for p in spec["people"] if p not in (reporter, owner)]
    def change(author, comment, **fields):
        global step
        step = step + timedelta(hours=5 + (i % 7))
        for k, v in fields.items():
            tk[k] = v
        tk.save_changes(author, comment, when=min(step, now - timedelta(minutes=5)))
    if owner:
        change(reporter, comments[i % len(comments)], owner=owner,
               status="assigned" if status != "new" else "new")
    if i % 3 == 0:
        change(people[i % len(people)], comments[(i + 3) % len(comments)], cc=people[(i + 1) % len(people)])
    if status in ("accepted", "closed", "reopened"):
        change(owner or reporter, comments[(i + 1) % len(comments)], status="accepted")
    if status in ("closed", "reopened"):
        change(owner or reporter, "Closing: " + resolution + ".", status="closed", resolution=resolution)
    if status == "reopened":
        change(reporter, "Still happens for bookings made on the mobile site.", status="reopened",
               resolution="")
    if i % 4 == 1:
        change(people[(i + 2) % len(people)], comments[(i + 5) % len(comments)])
for name, versions in spec["wiki"].items():
    for v, text in enumerate(versions):
        page = WikiPage(env, name)
        page.text = text
        page.save(spec["people"][(v + len(name)) % len(spec["people"])],
                  "first draft" if v == 0 else "more detail", at(-30 + v * 6 + len(name) % 5))
'''


def _config(data: Path) -> list[str]:
    env = data / "env"
    return [
        "config set components acct_mgr.* enabled",
        "config set components acct_mgr.register.* disabled",
        "config set components acct_mgr.admin.* enabled",
        "config set components trac.web.auth.loginmodule disabled",
        "config set components tracopt.versioncontrol.git.* enabled",
        "config set components tracopt.ticket.deleter.* enabled",
        "config set account-manager password_store HtPasswdStore",
        f"config set account-manager htpasswd_file {env / 'htpasswd'}",
        "config set account-manager htpasswd_hash_type md5",
        "config set account-manager reset_password false",
        "config set header_logo src ''",
        "config set project descr 'Booking of rooms, desks and cars'",
        "config set notification smtp_enabled false",
        "config set query items_per_page 10",
        "config set timeline default_daysback 45",
        f"config set git git_bin {shutil.which('git') or 'git'}",
    ]


def _admin_lines(repo: Path) -> list[str]:
    lines = ["component remove component1", "component remove component2",
             "milestone remove milestone1", "milestone remove milestone2", "milestone remove milestone3",
             "milestone remove milestone4", "version remove 1.0", "version remove 2.0",
             "permission add ann TRAC_ADMIN"]
    for p in ("bob", "cleo", "dev", "eve", "farid"):
        lines += [f"permission add {p} TICKET_MODIFY WIKI_ADMIN MILESTONE_VIEW"]
    for sid, name, mail in PEOPLE:
        lines += [f"session add {sid} '{name}' {mail}"]
    for comp, owner in COMPONENTS:
        lines += [f"component add '{comp}' {owner}"]
    today = dt.date.today()

    def day(d: int) -> str:
        return (today + dt.timedelta(days=d)).isoformat()
    for name, due, done, _ in MILESTONES:
        lines += [f"milestone add '{name}'" + (f" {day(due)}" if due is not None else "")]
        if done is not None:
            lines += [f"milestone completed '{name}' {day(done)}"]
    for name, d in VERSIONS:
        lines += [f"version add {name} {day(d)}"]
    return lines + [f"repository add harbor {repo} git", "repository resync harbor"]


def _make_repo(repo: Path) -> None:
    """A Git repository with a few commits days apart (the source browser's content)."""
    run(["git", "init", "-q", "-b", "main", str(repo)])
    start = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=len(COMMITS) * 3 + 2)
    for n, (files, message, author) in enumerate(COMMITS):
        for path, text in files.items():
            f = repo / path
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(text)
        run(["git", "-C", str(repo), "add", "-A"])
        when = (start + dt.timedelta(days=n * 3)).isoformat()
        name, mail = author[:-1].split(" <")
        run(["git", "-C", str(repo), "commit", "-q", "-m", message],
            env={"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": mail, "GIT_COMMITTER_NAME": name,
                 "GIT_COMMITTER_EMAIL": mail, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when})


def _seed(data: Path) -> None:
    venv = venv_dir(NAME) / "bin"
    env = data / "env"
    repo = data / "repo"
    _make_repo(repo)
    run([str(venv / "trac-admin"), str(env), "initenv", "Harbor Booking", "sqlite:db/trac.db"])
    descr = {m[0]: m[3] for m in MILESTONES}
    spec = {"config": _config(data), "admin": _admin_lines(repo),
            "passwords": [(p[0], PASSWORD if p[0] == USER else f"heybro-{p[0]}-pass") for p in PEOPLE],
            "people": [p[0] for p in PEOPLE], "tickets": TICKETS, "comments": COMMENTS, "wiki": WIKI}
    (data / "seed.json").write_text(json.dumps(spec))
    (data / "seed.py").write_text(_SEED)
    run([str(venv / "python"), str(data / "seed.py"), str(env), str(data / "seed.json")])
    con = sqlite3.connect(env / "db" / "trac.db")
    with con:
        con.executemany("UPDATE milestone SET description = ? WHERE name = ?",
                        [(d, n) for n, d in descr.items()])
        # The help pages Trac ships date from before the project (they would fill the timeline).
        con.execute("UPDATE wiki SET time = time - ? WHERE author = 'trac'", (120 * 86400 * 10**6,))
    con.close()


@dataclass
class Trac:
    url: str
    env: Path
    user: str = USER
    password: str = PASSWORD

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of a query on the environment's SQLite database (trac.db)."""
        con = sqlite3.connect(self.env / "db" / "trac.db", timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def tickets(self) -> list[dict[str, Any]]:
        """Every ticket with its fields (id, summary, type, priority, component, milestone, owner,
        status, resolution, keywords, description …)."""
        con = sqlite3.connect(self.env / "db" / "trac.db", timeout=10)
        con.row_factory = sqlite3.Row
        try:
            return [dict(r) for r in con.execute("SELECT * FROM ticket ORDER BY id")]
        finally:
            con.close()

    def ticket_changes(self, ticket: int) -> list[tuple[Any, ...]]:
        """A ticket's changes and comments: (time, author, field, oldvalue, newvalue)."""
        return self.sql("SELECT time, author, field, oldvalue, newvalue FROM ticket_change WHERE ticket = ? "
                        "ORDER BY time", ticket)

    def wiki_text(self, name: str) -> str | None:
        """The latest text of a wiki page, or None when there is no such page."""
        rows = self.sql("SELECT text FROM wiki WHERE name = ? ORDER BY version DESC LIMIT 1", name)
        return rows[0][0] if rows else None

    def milestones(self) -> list[tuple[Any, ...]]:
        """(name, due, completed, description) of every milestone (times in microseconds)."""
        return self.sql("SELECT name, due, completed, description FROM milestone ORDER BY name")

    def components(self) -> list[tuple[Any, ...]]:
        """(name, owner, description) of every component."""
        return self.sql("SELECT name, owner, description FROM component ORDER BY name")

    def trac_ini(self) -> str:
        return (self.env / "conf" / "trac.ini").read_text()

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/login")
        page.fill("#username", self.user)
        page.fill("#password", self.password)
        with page.expect_navigation():
            page.click("form#acctmgr_loginform input[type=submit], form#acctmgr_loginform button[type=submit]")
        if "/login" in page.url or not page.locator("#metanav", has_text="Logout").count():
            raise RuntimeError(f"Trac did not log {self.user} in (at {page.url})")

    def pages(self) -> list[Page]:
        def click(selector: str, wait: str | None = None) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                page.click(selector)
                if wait:
                    page.wait_for_selector(wait, state="visible", timeout=5000)
            return go

        def follow(selector: str) -> Callable[[Any], None]:
            def go(page: Any) -> None:
                with page.expect_navigation():
                    page.locator(selector).first.click()
            return go

        def add_filter(page: Any) -> None:
            page.select_option("select[name=add_filter_0]", "priority")
            page.wait_for_selector("tr.priority", timeout=5000)

        query = ("/query?status=!closed&milestone=1.2+Payments&order=priority&col=id&col=summary"
                 "&col=status&col=owner&col=type&col=priority&col=component")
        return [
            Page("timeline", "/timeline", "list"),
            Page("roadmap", "/roadmap", "list"),
            Page("milestone", "/milestone/1.2%20Payments", "view"),
            Page("reports", "/report", "list"),
            Page("report-active", "/report/1", "grid"),
            Page("report-by-milestone", "/report/3", "grid"),
            Page("query", query, "grid"),
            Page("query-page2", "/query?status=!closed&order=id&desc=1&page=2", "grid"),
            Page("query-add-filter", query, "form", open=add_filter),
            Page("ticket", "/ticket/2", "view"),
            Page("ticket-modify", "/ticket/3", "form", 
                 open=click("h3.foldable:has-text('Modify Ticket') a", "#modify #properties")),
            Page("ticket-delete", "/ticket/17?action=delete", "form"),
            Page("new-ticket", "/newticket", "form"),
            Page("wiki", "/wiki/InstallGuide", "view"),
            Page("wiki-edit", "/wiki/PartnerApi?action=edit", "editor"),
            Page("wiki-history", "/wiki/InstallGuide?action=history", "list"),
            Page("wiki-diff", "/wiki/InstallGuide?action=diff&version=3&old_version=1", "view"),
            Page("wiki-delete", "/wiki/MeetingNotes?action=delete", "form"),
            Page("wiki-index", "/wiki/TitleIndex", "list"),
            Page("admin-basics", "/admin/general/basics", "settings"),
            Page("admin-components", "/admin/ticket/components", "grid"),
            Page("admin-milestone-edit", "/admin/ticket/milestones/1.2%20Payments", "form"),
            Page("admin-milestones", "/admin/ticket/milestones", "grid"),
            Page("admin-permissions", "/admin/general/perm", "settings"),
            Page("admin-plugins", "/admin/general/plugin", "settings"),
            Page("admin-accounts", "/admin/accounts/users", "grid"),
            Page("preferences", "/prefs", "settings"),
            Page("search", "/search?q=payment&ticket=on&wiki=on&changeset=on", "search"),
            Page("browse-source", "/browser/harbor/src/booking", "list"),
            Page("source-file", "/browser/harbor/src/booking/payments.py", "view"),
            Page("changeset", "/log/harbor", "view", open=follow("a.chgset")),
            Page("report-edit", "/report/1?action=edit", "editor"),
        ]


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[Trac]:
    env = data / "env"
    if not (env / "db" / "trac.db").exists():
        _seed(data)
    port = free_port()
    server = Process.start([str(venv_dir(NAME) / "bin" / "tracd"), "--hostname", "127.0.0.1", "--port", str(port),
                            "--single-env", str(env)], data / "tracd.log")
    try:
        running = Trac(url=f"http://127.0.0.1:{port}", env=env)
        wait_http(f"{running.url}/login", server)
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="issue tracker", half="tune",
          built_from="PyPI Trac 1.6 + TracAccountManager 0.6.0 (tracd, SQLite)",
          missing=_missing, install=_install, start=_start)
