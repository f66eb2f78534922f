"""Roundup (PyPI): an issue tracker with its "classic" template — issues with messages, statuses,
priorities, keywords, nosy lists and a superseder — served by `roundup-server` from an instance
made with `roundup-admin install` + `initialise` (SQLite backend).

Seeded as the help desk of a small company: eight people (Ann Lee, an administrator, logs in),
keywords, 26 issues in every status and priority with one to four messages each, saved queries.
Outgoing e-mail is written to a file in the data folder (the tracker's mail debug option).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, Page, first_missing, venv_dir, venv_install, venv_missing

NAME = "roundup"
REQUIREMENTS = ["roundup==2.6.0"]
USER, PASSWORD = "ann", "heybro-roundup-pass-1"
TRACKER = "support"  # the tracker's name in its address: http://127.0.0.1:PORT/support/

# username, real name, organisation, roles
PEOPLE = [("ann", "Ann Lee", "IT", "Admin,User"), ("bob", "Bob Stone", "IT", "User"),
          ("cleo", "Cleo Park", "IT", "User"), ("dev", "Dev Shah", "Finance", "User"),
          ("eve", "Eve Moss", "Sales", "User"), ("farid", "Farid Haddad", "Warehouse", "User"),
          ("gina", "Gina Rossi", "Marketing", "User"), ("hugo", "Hugo Brandt", "Sales", "User")]
KEYWORDS = ["printer", "network", "email", "laptop", "accounts", "phone", "website", "security",
            "software", "hardware"]
# title, priority, status, assignedto, creator, keywords, messages (author, text)
ISSUES: list[tuple[Any, ...]] = [
    ("Printer on the second floor jams on duplex", "bug", "in-progress", "bob", "eve", ["printer", "hardware"],
     [("eve", "The HP printer by the kitchen jams every time I print on both sides."),
      ("bob", "Ordered a new duplex unit, it arrives on Thursday."),
      ("eve", "Thanks, single-sided works for now.")]),
    ("VPN drops every hour", "urgent", "chatting", "cleo", "dev", ["network", "security"],
     [("dev", "Working from home, the VPN disconnects every 60 minutes exactly."),
      ("cleo", "That's the key lifetime. Which client version do you have?"),
      ("dev", "Version 5.2 on Windows 11."),
      ("cleo", "Please update to 5.4, the reconnect bug is fixed there.")]),
    ("New laptop for Gina Rossi", "feature", "testing", "bob", "gina", ["laptop"],
     [("gina", "My laptop is five years old and the battery lasts 40 minutes."),
      ("bob", "A new ThinkPad is set up, please come by on Monday to collect it.")]),
    ("Cannot open shared calendar", "bug", "unread", "", "hugo", ["email", "software"],
     [("hugo", "The Sales team calendar says 'You do not have permission'.")]),
    ("Website contact form sends no mail", "critical", "in-progress", "cleo", "gina", ["website", "email"],
     [("gina", "Leads from the contact form have not arrived since Friday."),
      ("cleo", "The mail relay password expired; renewing it now."),
      ("ann", "Please add a check to the monitoring so we see this sooner.")]),
    ("Desk phone shows 'No service'", "bug", "resolved", "bob", "farid", ["phone", "hardware"],
     [("farid", "Phone at the warehouse desk shows 'No service' since the move."),
      ("bob", "The cable was in the wrong port. Fixed.")]),
    ("Password reset for the payroll system", "urgent", "resolved", "ann", "dev", ["accounts", "security"],
     [("dev", "I'm locked out of payroll after three wrong passwords."),
      ("ann", "Unlocked, please set a new password at the next login.")]),
    ("Install the design software on two laptops", "feature", "deferred", "bob", "gina", ["software", "laptop"],
     [("gina", "Marketing needs the design suite on the laptops of our two interns."),
      ("bob", "Licences are ordered for next quarter; deferring until then.")]),
    ("Spam e-mails pretending to be the CEO", "critical", "chatting", "ann", "eve", ["email", "security"],
     [("eve", "Three people in Sales got mails 'from the CEO' asking for gift cards."),
      ("ann", "Blocked the sender domain. I'll send a warning to everyone."),
      ("hugo", "I got one too this morning, from another address.")]),
    ("Wi-Fi weak in meeting room B", "bug", "need-eg", "cleo", "hugo", ["network"],
     [("hugo", "Video calls in room B freeze all the time."),
      ("cleo", "Could you run the speed test from room B and paste the result here?")]),
    ("Second monitor for the warehouse office", "wish", "unread", "", "farid", ["hardware"],
     [("farid", "A second screen would help with the stock lists.")]),
    ("Shared drive full", "urgent", "done-cbb", "bob", "dev", ["hardware", "software"],
     [("dev", "Finance can't save files: the shared drive is full."),
      ("bob", "Moved old archives to cold storage, 300 GB free now."),
      ("dev", "Saving works again, thanks.")]),
    ("Add Hugo Brandt to the sales mailing list", "feature", "resolved", "ann", "eve", ["email", "accounts"],
     [("eve", "Hugo started this week, please add him to sales@."),
      ("ann", "Done.")]),
    ("Website loads slowly on phones", "bug", "in-progress", "cleo", "gina", ["website"],
     [("gina", "The home page takes 8 seconds on my phone."),
      ("cleo", "The hero image is 6 MB; converting images to WebP.")]),
    ("Scanner saves PDFs without text", "wish", "deferred", "", "dev", ["printer", "software"],
     [("dev", "Scanned invoices are images only, so I can't search them.")]),
    ("Old accounts of people who left", "bug", "chatting", "ann", "ann", ["accounts", "security"],
     [("ann", "We still have 12 active accounts of people who left last year."),
      ("cleo", "I can list them from the directory export."),
      ("ann", "Please do, and disable them after HR confirms.")]),
    ("Mobile phone for the new warehouse lead", "feature", "testing", "bob", "farid", ["phone"],
     [("farid", "Our new lead starts on the 1st and needs a work phone."),
      ("bob", "Phone is set up with mail and the stock app.")]),
    ("Outlook asks for the password again and again", "bug", "need-eg", "cleo", "hugo", ["email", "software"],
     [("hugo", "Outlook keeps asking for my password, several times a day."),
      ("cleo", "Which Outlook version is it? Help > About shows it.")]),
    ("Backup of the accounting database", "critical", "resolved", "bob", "ann", ["security", "software"],
     [("ann", "We need a nightly backup of the accounting database."),
      ("bob", "Backup runs at 02:00, kept for 30 days, tested a restore.")]),
    ("Projector in room A shows no picture", "bug", "unread", "", "eve", ["hardware"],
     [("eve", "The projector turns on but stays blue with the new HDMI cable.")]),
    ("Request: dark theme for the intranet", "wish", "unread", "", "gina", ["website"],
     [("gina", "Could the intranet get a dark theme?")]),
    ("Printer prints blank pages", "bug", "resolved", "bob", "dev", ["printer"],
     [("dev", "The printer in Finance prints blank pages."),
      ("bob", "Toner was empty, replaced.")]),
    ("Two-factor login for everyone", "urgent", "in-progress", "ann", "ann", ["security", "accounts"],
     [("ann", "Everyone should use two-factor login by the end of the month."),
      ("cleo", "Sales and Finance are done, the warehouse is next."),
      ("farid", "We share one PC in the warehouse, how does that work?"),
      ("ann", "Each person uses the app on their own phone; I'll come by to help.")]),
    ("Laptop fan very loud", "bug", "deferred", "bob", "hugo", ["laptop", "hardware"],
     [("hugo", "The fan of my laptop is very loud during calls."),
      ("bob", "It goes in for service when your replacement arrives.")]),
    ("Printer jams with thick paper", "bug", "resolved", "bob", "gina", ["printer"],
     [("gina", "Printing flyers on thick paper jams the printer on floor 2."),
      ("bob", "Same printer as the duplex problem, see the other issue.")]),
    ("Online shop shows old prices", "critical", "chatting", "cleo", "eve", ["website"],
     [("eve", "Customers see last month's prices in the online shop."),
      ("cleo", "The cache wasn't cleared after the price import. Clearing it now."),
      ("eve", "Still old prices on the product pages for mugs.")]),
]
# issue title: (file name, who attaches it, message, file content)
FILES = {"Wi-Fi weak in meeting room B": (
    "speedtest-room-b.txt", "hugo", "Here is the speed test from room B.",
    "Speed test, meeting room B, 10:15\nDownload: 3.2 Mbit/s\nUpload: 0.8 Mbit/s\nPing: 180 ms\n"
    "Signal: -78 dBm (weak)\n"),
    "Outlook asks for the password again and again": (
    "outlook-version.txt", "hugo", "Version attached.", "Microsoft Outlook for Microsoft 365 MSO\n"
    "Version 2408 (Build 17928.20114)\n")}
QUERIES = [("My open issues", "issue", "@columns=id,activity,title,status,priority&@sort=-activity&@filter=status,"
            "assignedto&status=-1,1,2,3,4,5,6,7&assignedto=ann"),
           ("Printer problems", "issue", "@columns=id,title,status,assignedto&@sort=-activity&@filter=keyword"
            "&keyword=1")]

_SEED = r'''
import json, sys
from roundup import instance, password
home, spec = sys.argv[1], json.load(open(sys.argv[2]))
tracker = instance.open(home)
db = tracker.open("admin")
for name in spec["keywords"]:
    db.keyword.create(name=name)
users = {}
for username, realname, org, roles, pw in spec["people"]:
    users[username] = db.user.create(
        username=username, realname=realname, organisation=org, roles=roles,
        address=username + "@harbor.example", password=password.Password(pw, config=db.config), timezone="UTC")
db.commit()
db.close()
for (title, prio, status, owner, creator, keywords, messages), sup in zip(spec["issues"], spec["superseders"]):
    # each person files and answers as themselves (the history and the message authors say who)
    db = tracker.open(creator)
    first = db.msg.create(content=messages[0][1], author=users[creator])
    props = dict(title=title, messages=[first], priority=db.priority.lookup(prio),
                 status=db.status.lookup("unread"),
                 keyword=[db.keyword.lookup(k) for k in keywords],
                 nosy=[users[creator]] + ([users[owner]] if owner else []))
    issue = db.issue.create(**props)
    db.commit()
    db.close()
    for author, text in messages[1:]:
        db = tracker.open(author)
        m = db.msg.create(content=text, author=users[author])
        db.issue.set(issue, messages=db.issue.get(issue, "messages") + [m],
                     nosy=sorted(set(db.issue.get(issue, "nosy") + [users[author]])))
        db.commit()
        db.close()
    if title in spec["files"]:
        fname, author, text, content = spec["files"][title]
        db = tracker.open(author)
        f = db.file.create(name=fname, type="text/plain", content=content)
        m = db.msg.create(content=text, author=users[author], files=[f])
        db.issue.set(issue, messages=db.issue.get(issue, "messages") + [m], files=[f])
        db.commit()
        db.close()
    db = tracker.open(owner or "admin")
    changes = dict(status=db.status.lookup(status))
    if owner:
        changes["assignedto"] = users[owner]
    if sup:
        changes["superseder"] = [str(sup)]
    db.issue.set(issue, **changes)
    db.commit()
    db.close()
for qname, klass, url, owner in spec["queries"]:
    db = tracker.open(owner)
    q = db.query.create(name=qname, klass=klass, url=url, private_for=users[owner])
    db.user.set(users[owner], queries=db.user.get(users[owner], "queries") + [q])
    db.commit()
    db.close()
'''


def _seed(data: Path) -> None:
    venv = venv_dir(NAME) / "bin"
    home = data / "tracker"
    opts = ",".join([f"mail_debug={data / 'mail.log'}", "mail_domain=harbor.example",
                     "tracker_web=http://127.0.0.1:1/support/", "tracker_name=Harbor Help Desk"])
    run([str(venv / "roundup-admin"), "-i", str(home), "install", "classic", "sqlite", opts])
    run([str(venv / "roundup-admin"), "-i", str(home), "initialise", "heybro-roundup-admin-1"])
    superseders = [1 if t[0] == "Printer jams with thick paper" else 0 for t in ISSUES]
    spec = {"keywords": KEYWORDS, "issues": ISSUES, "superseders": superseders, "files": FILES,
            "people": [(u, n, o, r, PASSWORD if u == USER else f"heybro-{u}-pass") for u, n, o, r in PEOPLE],
            "queries": [(n, k, u, USER) for n, k, u in QUERIES]}
    (data / "seed.json").write_text(json.dumps(spec))
    (data / "seed.py").write_text(_SEED)
    run([str(venv / "python"), str(data / "seed.py"), str(home), str(data / "seed.json")], timeout=300)
    _backdate(home / "db" / "db")


def _stamp(t: dt.datetime) -> str:
    return t.strftime("%Y%m%d%H%M%S.%f")[:-3]  # Roundup's own date format in its tables


def _backdate(db: Path) -> None:
    """Spreads the seeded history over the past six weeks (it was all written within seconds):
    each issue's journal a few hours apart, its messages dated with the change that added them."""
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    con = sqlite3.connect(db)
    with con:
        issues = [r[0] for r in con.execute("SELECT id FROM _issue ORDER BY id")]
        for n, issue in enumerate(issues):
            base = now - dt.timedelta(days=42 - n * 1.6, hours=(n * 7) % 9)
            rows = con.execute("SELECT rowid, action, params FROM issue__journal WHERE nodeid = ? "
                               "ORDER BY date, rowid", (issue,)).fetchall()
            first = con.execute("SELECT MIN(linkid) FROM issue_messages WHERE nodeid = ?", (issue,)).fetchone()[0]
            when = base
            for k, (rowid, action, params) in enumerate(rows):
                when = min(base + dt.timedelta(hours=k * (3 + n % 5), minutes=k * 17), now - dt.timedelta(minutes=30))
                con.execute("UPDATE issue__journal SET date = ? WHERE rowid = ?", (_stamp(when), rowid))
                added = [first] if action == "create" else re.findall(r"'messages': \(\('\+', \['(\d+)'", params)
                for m in added:
                    con.execute("UPDATE _msg SET _date = ?, _creation = ?, _activity = ? WHERE id = ?",
                                (_stamp(when), _stamp(when), _stamp(when), int(m)))
                    con.execute("UPDATE msg__journal SET date = ? WHERE nodeid = ?", (_stamp(when), int(m)))
                if k == 0:
                    con.execute("UPDATE _issue SET _creation = ? WHERE id = ?", (_stamp(when), issue))
            con.execute("UPDATE _issue SET _activity = ? WHERE id = ?", (_stamp(when), issue))
        con.execute("UPDATE _file SET _creation = (SELECT _date FROM _msg JOIN msg_files ON msg_files.nodeid = "
                    "_msg.id WHERE msg_files.linkid = _file.id), _activity = _creation")
        con.execute("UPDATE file__journal SET date = (SELECT _creation FROM _file WHERE _file.id = nodeid)")
        start = _stamp(now - dt.timedelta(days=50))
        for table in ("user", "keyword", "query", "status", "priority"):
            con.execute(f"UPDATE {table}__journal SET date = ? WHERE action = 'create'", (start,))
        con.execute("UPDATE _user SET _creation = ?, _activity = ?", (start, start))
    con.close()


def _set_web(home: Path, url: str) -> None:
    """The tracker's own address in config.ini (its forms check that requests come from it)."""
    ini = home / "config.ini"
    text = re.sub(r"(?m)^web = .*$", f"web = {url}/", ini.read_text(), count=1)
    ini.write_text(text)


@dataclass
class Roundup:
    url: str
    home: Path
    user: str = USER
    password: str = PASSWORD

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of a query on the tracker's SQLite database (tables _issue, _msg, _user,
        _keyword, _status, _priority and issue_keyword, issue_messages … for multilinks)."""
        con = sqlite3.connect(self.home / "db" / "db", timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def admin(self, *args: str) -> str:
        """Output of a roundup-admin command on the tracker, e.g. admin("list", "issue", "title")."""
        return run([str(venv_dir(NAME) / "bin" / "roundup-admin"), "-i", str(self.home), *args])

    def issues(self) -> list[dict[str, Any]]:
        """Every issue (not retired): id, title, status, priority, assignedto (username or ""),
        keywords (names), messages (count)."""
        out = run([str(venv_dir(NAME) / "bin" / "python"), "-c", _DUMP, str(self.home)])
        return list(json.loads(out))

    def messages(self, issue: int) -> list[tuple[str, str]]:
        """(author username, text) of an issue's messages, in order."""
        out = run([str(venv_dir(NAME) / "bin" / "python"), "-c", _MESSAGES, str(self.home), str(issue)])
        return [(m["author"], m["content"]) for m in json.loads(out)]

    def login(self, page: Any) -> None:
        page.goto(f"{self.url}/")
        page.fill("input[name=__login_name]", self.user)
        page.fill("input[name=__login_password]", self.password)
        with page.expect_navigation():
            page.click("input[type=submit][value='Login']")
        if not page.locator("a", has_text="Logout").count():
            raise RuntimeError(f"Roundup did not log {self.user} in (at {page.url})")

    def pages(self) -> list[Page]:
        def search(page: Any) -> None:
            """Filters on a status and a keyword, groups by assignee, and searches."""
            page.select_option("select[name=status]", label="chatting")
            page.select_option("select[name=keyword]", label="security")
            page.check("input[name='@group'][value=assignedto]")
            with page.expect_navigation():
                page.click("form[name=itemSynopsis] input[type=submit]")

        index = ("/issue?@columns=id,activity,title,creator,assignedto,status&@sort=-activity&@group=priority"
                 "&@filter=status&status=-1,1,2,3,4,5,6,7&@pagesize=50&@startwith=0")
        return [
            Page("home", "/", "list"),
            Page("issue-index", index, "grid"),
            Page("issue-index-sorted", "/issue?@columns=id,title,priority,status,assignedto,keyword&@sort=title"
                 "&@pagesize=10&@startwith=0", "grid"),
            Page("issue-index-page2", "/issue?@columns=id,title,priority,status,assignedto&@sort=id"
                 "&@pagesize=10&@startwith=10", "grid"),
            Page("issue-index-by-status", "/issue?@columns=id,title,priority,assignedto,activity&@sort=priority"
                 "&@group=status&@pagesize=50", "grid"),
            Page("issue-index-keyword", "/issue?@columns=id,title,status,assignedto&@sort=-activity"
                 "&@filter=keyword&keyword=1&@dispname=Printer%20problems", "grid"),
            Page("issue", "/issue2", "form"),
            Page("issue-superseded", "/issue25", "form"),
            Page("new-issue", "/issue?@template=item", "form"),
            Page("search", "/issue?@template=search", "form"),
            Page("search-results", "/issue?@search_text=printer&@columns=id,title,status,assignedto"
                 "&@sort=-activity", "search"),
            Page("message", "/msg5", "view"),
            Page("users", "/user", "grid"),
            Page("user-edit", "/user4", "form"),
            Page("my-details", "/user3", "settings"),
            Page("new-user", "/user?@template=item", "form"),
            Page("classes", "/home?@template=classlist", "list"),
            Page("keyword-edit", "/keyword?@template=item", "form"),
            Page("status-class-editor", "/status", "editor"),
            Page("queries-edit", "/query?@template=edit", "settings"),
            Page("issue-with-file", "/issue10", "form"),
            Page("file", "/file1", "view"),
            Page("messages", "/msg?@columns=id,author,date,summary&@sort=-date&@pagesize=20", "grid"),
            Page("priority-class-editor", "/priority", "editor"),
            Page("keyword-rename", "/keyword2", "form"),
            Page("saved-query", "/query1", "form"),
            Page("search-submitted", "/issue?@template=search", "search", open=search),
        ]


_DUMP = r'''
import json, sys
from roundup import instance
db = instance.open(sys.argv[1]).open("admin")
out = []
for i in db.issue.list():
    n = db.issue.getnode(i)
    out.append({"id": int(i), "title": n.title, "status": db.status.get(n.status, "name") if n.status else "",
                "priority": db.priority.get(n.priority, "name") if n.priority else "",
                "assignedto": db.user.get(n.assignedto, "username") if n.assignedto else "",
                "keywords": sorted(db.keyword.get(k, "name") for k in n.keyword),
                "nosy": sorted(db.user.get(u, "username") for u in n.nosy),
                "messages": len(n.messages)})
print(json.dumps(out))
'''

_MESSAGES = r'''
import json, sys
from roundup import instance
db = instance.open(sys.argv[1]).open("admin")
print(json.dumps([{"author": db.user.get(db.msg.get(m, "author"), "username"),
                   "content": db.msg.get(m, "content")} for m in db.issue.get(sys.argv[2], "messages")]))
'''


# roundup-server itself, less its refusal to run as root without switching to another user (this
# machine's sessions are root; the data folder is private to the session).
_SERVER = ("import os, sys\nfrom roundup.scripts import roundup_server as s\n"
           "if os.getuid() == 0:\n    s.setuid = lambda user: None\n"
           "sys.argv[0] = 'roundup-server'\nsys.exit(s.run())\n")


def _missing() -> str | None:
    return first_missing(venv_missing(NAME, REQUIREMENTS))


def _install() -> None:
    venv_install(NAME, REQUIREMENTS)


@contextmanager
def _start(data: Path) -> Iterator[Roundup]:
    home = data / "tracker"
    if not (home / "db" / "db").exists():
        _seed(data)
    port = free_port()
    url = f"http://127.0.0.1:{port}/{TRACKER}"
    _set_web(home, url)
    server = Process.start([str(venv_dir(NAME) / "bin" / "python"), "-c", _SERVER, "-n", "127.0.0.1",
                            "-p", str(port), f"{TRACKER}={home}"], data / "roundup-server.log")
    try:
        running = Roundup(url=url, home=home)
        wait_http(f"{url}/", server)
        yield running
    finally:
        server.stop()


APP = App(name=NAME, kind="issue tracker", half="heldout",
          built_from="PyPI roundup 2.6.0 (classic template, SQLite, roundup-server)",
          missing=_missing, install=_install, start=_start)
