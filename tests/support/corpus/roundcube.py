"""Roundcube Webmail (Debian's roundcube 1.6, Elastic skin) on a private Dovecot IMAP server: a mail
client with a folder tree, a message list, messages, a compose form with a plain and an HTML
(TinyMCE) editor, search, an address book, identities, folders and preferences in its settings.

Everything lives in the data folder: Roundcube's configuration (ROUNDCUBE_CONFIG_DIR) and its SQLite
database, Dovecot's configuration, its passwd-file and the Maildir, and the mails Roundcube sends,
caught by a small SMTP server of this module (they are not delivered anywhere else). Roundcube is
served by PHP's built-in server from Debian's /var/lib/roundcube/public_html, read-only.

Seeded, as the user `ann@example.com` (Ann Lee): 38 messages from a dozen senders across Inbox (two
pages of 20), Work, Work/Projects, Travel, Receipts, Sent, Drafts, Junk and Trash — some unread,
some flagged or answered, plain and HTML, two with attachments — 12 contacts in two groups, and two
identities (the one Roundcube made at the first login, named, and a second one for work).
"""

from __future__ import annotations

import email.utils
import grp
import http.cookiejar
import imaplib
import json
import os
import pwd
import re
import secrets
import shutil
import socket
import sqlite3
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from ..servers import Process, free_port, run, wait_http
from .base import App, DIALOG_GRACE_MS, Page, apt_install, apt_missing, then

NAME = "roundcube"
PACKAGES = ["roundcube", "roundcube-core", "roundcube-sqlite3", "roundcube-plugins", "dovecot-imapd",
            "php-cli", "php-sqlite3", "php-intl", "php-mbstring"]
RC_ROOT = Path("/var/lib/roundcube")      # Debian's INSTALL_PATH (links into /usr/share/roundcube)
RC_SHARE = Path("/usr/share/roundcube")
USER, PASSWORD, FULL_NAME = "ann@example.com", "heybro-mail-pass-1", "Ann Lee"
PAGE_SIZE = 20

# --- the seeded mailbox ---------------------------------------------------------------------------

NOW = datetime(2025, 10, 20, 9, 30, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Mail:
    folder: str
    sender: str             # "Name <address>"
    subject: str
    body: str
    age_h: float            # hours before NOW
    flags: str = "\\Seen"   # IMAP flags ("" = unread)
    html: bool = False
    attachment: tuple[str, str, bytes] | None = None   # (file name, MIME type, content)
    to: str = f"{FULL_NAME} <{USER}>"


_PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>"
        b"endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 144]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
_CSV = b"item,amount\nHosting (October),12.00\nDomain renewal,9.50\nTotal,21.50\n"

BOB, CLEO, DEV = "Bob Stone <bob.stone@example.com>", "Cleo Park <cleo.park@example.com>", \
    "Dev Shah <dev.shah@example.com>"
EVE, FINN, GINA = "Eve Moss <eve.moss@example.com>", "Finn Hale <finn.hale@example.com>", \
    "Gina Ortiz <gina.ortiz@example.com>"
HUGO, IRIS, LIAM = "Hugo Brandt <hugo@brandt-builders.example>", "Iris Novak <iris.novak@example.com>", \
    "Liam Walsh <liam.walsh@example.com>"
MARY, KIRA, NOAH = "Mary Lee <mary.lee@example.net>", "Kira Tanaka <kira.tanaka@example.com>", \
    "Noah Fischer <noah.fischer@example.com>"

MAILS = [
    # Inbox: 24, newest first.
    Mail("INBOX", BOB, "Team lunch on Friday", "Hi Ann,\n\nShall we book the Italian place for the team "
         "lunch on Friday at 12:30? Eight of us so far.\n\nBob", 1, ""),
    Mail("INBOX", "GreenHost Billing <billing@greenhost.example>", "Invoice #4821 for October",
         "Dear customer,\n\nPlease find attached invoice #4821 for October (21.50 EUR), due by "
         "5 November.\n\nGreenHost Billing", 3, "",
         attachment=("invoice-4821.pdf", "application/pdf", _PDF)),
    Mail("INBOX", CLEO, "Re: Project Apollo timeline", "Ann,\n\nThe design phase slips by one week; "
         "launch stays on 1 December if QA starts on the 10th. Can you confirm?\n\nCleo", 5, "\\Flagged"),
    Mail("INBOX", DEV, "Quarterly report draft", "<p>Hi Ann,</p><p>Here is the <b>draft of the Q3 "
         "report</b>. Highlights:</p><ul><li>Revenue up 12%</li><li>Two new hires</li><li>Office move "
         "planned for January</li></ul><p>Comments welcome by Wednesday.</p><p>Dev</p>", 8, "", html=True),
    Mail("INBOX", "Oak & Iron Shop <orders@oakiron.example>", "Your order has shipped",
         "Your order #30177 (Cast Iron Pan, Oak Tray) has shipped and should arrive on Thursday.", 20),
    Mail("INBOX", EVE, "Photos from the weekend", "Hi Ann,\n\nThe spreadsheet of who paid what is "
         "attached; photos follow in a shared album.\n\nEve", 26, "\\Seen \\Flagged",
         attachment=("weekend-costs.csv", "text/csv", _CSV)),
    Mail("INBOX", "Smile Dental <reception@smiledental.example>", "Reminder: dentist appointment",
         "This is a reminder of your appointment on Tuesday 28 October at 08:45.", 30),
    Mail("INBOX", IRIS, "Book club: next month's pick", "Hello all,\n\nNext month we read \"The Remains "
         "of the Day\". We meet on the 14th at my place.\n\nIris", 44, ""),
    Mail("INBOX", "Summit Climbing <hello@summitclimb.example>", "Welcome to the climbing gym",
         "Welcome, Ann! Your membership card is ready at the front desk.", 52),
    Mail("INBOX", "Kitchen Notes <news@kitchennotes.example>", "Newsletter: Autumn recipes",
         "<h2>Autumn recipes</h2><p>Pumpkin soup, apple crumble and a <i>very</i> easy focaccia.</p>"
         "<p><a href=\"https://kitchennotes.example/autumn\">Read more</a></p>", 60, html=True),
    Mail("INBOX", FINN, "Can you review my pull request?", "Hi Ann,\n\nCould you review the search "
         "filter change before Thursday? It touches the order export too.\n\nThanks, Finn", 70, "\\Flagged"),
    Mail("INBOX", "SkyBlue Air <noreply@skyblue.example>", "Flight confirmation LHR to LIS",
         "<p>Booking <b>K7Q2LM</b> confirmed.</p><table><tr><td>Out</td><td>Fri 7 Nov, LHR 07:10 - LIS "
         "09:55</td></tr><tr><td>Back</td><td>Mon 10 Nov, LIS 18:30 - LHR 21:05</td></tr></table>", 80,
         html=True),
    Mail("INBOX", HUGO, "Re: Garden shed quote", "Hello Ann,\n\nThe shed with a felt roof comes to "
         "1,450 GBP fitted. We could start on 3 November.\n\nHugo Brandt", 96, "\\Seen \\Answered"),
    Mail("INBOX", "Accounts <security@greenhost.example>", "Password reset request",
         "Someone asked to reset your password. If it was not you, ignore this message.", 110),
    Mail("INBOX", GINA, "Meeting notes 14 Oct", "Notes:\n- Move the retro to Thursday\n- Ann to draft "
         "the hiring plan\n- Budget review next week\n\nGina", 130),
    Mail("INBOX", MARY, "Happy birthday!", "Happy birthday, darling! Lunch on Sunday? Love, Mum", 150),
    Mail("INBOX", "DevConf <tickets@devconf.example>", "Your conference tickets",
         "Two tickets for DevConf Lisbon, 8-9 November. Show the QR code at the door.", 170),
    Mail("INBOX", "Canteen <canteen@example.com>", "Lunch menu this week",
         "Mon: lentil soup. Tue: fish pie. Wed: risotto. Thu: curry. Fri: pizza.", 190),
    Mail("INBOX", "IT Service Desk <it@example.com>", "Server maintenance on Sunday",
         "Mail and file servers will be offline on Sunday from 06:00 to 09:00.", 210),
    Mail("INBOX", LIAM, "Re: Holiday plans", "Ann,\n\nCork in the first week of August works for us. "
         "Shall I book the cottage?\n\nLiam", 230, ""),
    Mail("INBOX", KIRA, "Invitation: Design review", "Design review of the new checkout, Wednesday "
         "15:00, room 2.14.", 260),
    Mail("INBOX", "City Library <library@city.example>", "Your library books are due",
         "Two books are due back on 24 October: \"Wolf Hall\" and \"Atlas of Remote Islands\".", 300),
    Mail("INBOX", NOAH, "Running club this Saturday", "We meet at the park gate at 08:00 for 10 km.", 330),
    Mail("INBOX", BOB, "Parking permits", "The new parking permits are at reception.", 360),
    # Other folders.
    Mail("Work", GINA, "Sprint planning agenda", "1. Review last sprint\n2. Capacity\n3. Goals", 40),
    Mail("Work", DEV, "Budget approval", "Finance approved the Q4 budget of 48,000 EUR.", 120, "\\Seen \\Flagged"),
    Mail("Work", CLEO, "Re: Hiring plan", "Two engineers and one designer, starting in January?", 200, ""),
    Mail("Work", KIRA, "Office move update", "The move to the fourth floor is set for 12 January.", 400),
    Mail("Work/Projects", CLEO, "Apollo: kickoff notes", "Scope, milestones and owners are in the wiki.", 500),
    Mail("Work/Projects", FINN, "Apollo: test plan", "First draft of the test plan for review.", 520, ""),
    Mail("Travel", "Hotel Alfama <stay@alfama.example>", "Hotel booking Lisbon",
         "Three nights, 7-10 November, double room with breakfast. Ref AL-2291.", 90),
    Mail("Travel", "RailEurope <tickets@rail.example>", "Train tickets", "Leeds to London, 7 November 04:55.", 100),
    Mail("Receipts", "Oak & Iron Shop <orders@oakiron.example>", "Receipt for order #30177",
         "Cast Iron Pan 42.00\nOak Tray 18.00\nTotal 60.00 GBP", 22),
    Mail("Sent", f"{FULL_NAME} <{USER}>", "Re: Garden shed quote", "Hi Hugo,\n\nThanks, 3 November is fine.",
         95, to=HUGO),
    Mail("Sent", f"{FULL_NAME} <{USER}>", "Weekend plans", "Mum, Sunday lunch works. Love, Ann", 140, to=MARY),
    Mail("Drafts", f"{FULL_NAME} <{USER}>", "Thank-you note", "Dear Iris,\n\nThank you for hosting", 12,
         "\\Seen \\Draft", to=IRIS),
    Mail("Junk", "Prize Center <win@prizes.example>", "You have won a prize!!!", "Click here to claim.", 15, ""),
    Mail("Trash", "Deals <deals@shop.example>", "Last chance: 50% off", "Sale ends tonight.", 48),
]
FOLDERS = ["Work", "Work/Projects", "Travel", "Receipts"]

CONTACTS = [
    ("Bob", "Stone", "bob.stone@example.com", "+44 113 496 0101", "Green Kitchen Ltd", "Work team"),
    ("Cleo", "Park", "cleo.park@example.com", "+44 113 496 0102", "Green Kitchen Ltd", "Work team"),
    ("Dev", "Shah", "dev.shah@example.com", "", "Green Kitchen Ltd", "Work team"),
    ("Eve", "Moss", "eve.moss@example.com", "+44 7700 900123", "", ""),
    ("Finn", "Hale", "finn.hale@example.com", "", "Green Kitchen Ltd", "Work team"),
    ("Gina", "Ortiz", "gina.ortiz@example.com", "+44 113 496 0105", "Green Kitchen Ltd", "Work team"),
    ("Hugo", "Brandt", "hugo@brandt-builders.example", "+44 1904 555 010", "Brandt Builders", ""),
    ("Iris", "Novak", "iris.novak@example.com", "", "", ""),
    ("Kira", "Tanaka", "kira.tanaka@example.com", "", "Green Kitchen Ltd", ""),
    ("Liam", "Walsh", "liam.walsh@example.com", "+353 21 555 0199", "", "Family"),
    ("Mary", "Lee", "mary.lee@example.net", "+44 1132 555 777", "", "Family"),
    ("Noah", "Fischer", "noah.fischer@example.com", "", "", ""),
]

# Canned answers (Settings > Responses), inserted in the compose body with one click.
RESPONSES = [
    ("Thanks, will reply soon", "Thank you for your message. I will get back to you by the end of the week."),
    ("Out of office", "I am out of the office until Monday 27 October, with no access to mail."),
    ("Meeting time works", "That time works for me. See you then."),
]


def _message(m: Mail, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = m.sender
    msg["To"] = m.to
    msg["Subject"] = m.subject
    when = NOW - timedelta(hours=m.age_h)
    msg["Date"] = email.utils.format_datetime(when)
    msg["Message-ID"] = f"<seed-{n}@example.com>"
    if m.html:
        plain = re.sub(r"<[^>]+>", " ", m.body)
        msg.set_content(re.sub(r"[ \t]+", " ", plain).strip())
        msg.add_alternative(f"<html><body>{m.body}</body></html>", subtype="html")
    else:
        msg.set_content(m.body)
    if m.attachment:
        name, ctype, data = m.attachment
        main, sub = ctype.split("/")
        msg.add_attachment(data, maintype=main, subtype=sub, filename=name)
    return msg.as_bytes(policy=policy.SMTP)


# --- Dovecot ------------------------------------------------------------------------------------

_DOVECOT_CONF = """# Dovecot for one mailbox in a throwaway folder: IMAP on 127.0.0.1 only, plain-text logins.
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = {login_user}
default_internal_user = {internal_user}
default_internal_group = {internal_group}
mail_fsync = never
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {d}/users
}}
service auth {{
  user = {auth_user}
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
{chroot}}}
protocol imap {{
  mail_max_userip_connections = 50
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Drafts {{
    special_use = \\Drafts
    auto = subscribe
  }}
  mailbox Sent {{
    special_use = \\Sent
    auto = subscribe
  }}
  mailbox Junk {{
    special_use = \\Junk
    auto = subscribe
  }}
  mailbox Trash {{
    special_use = \\Trash
    auto = subscribe
  }}
}}
{extra}"""


def _mail_owner() -> tuple[int, int, str]:
    """Who the mail files belong to: Dovecot never touches mail as root, so as root it is `nobody`."""
    if os.geteuid() == 0:
        pw = pwd.getpwnam("nobody")
    else:
        pw = pwd.getpwuid(os.geteuid())
    return pw.pw_uid, pw.pw_gid, pw.pw_name


def _wait_port(port: int, server: Process, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if server.proc.poll() is not None:
            raise server.failed(f"the server for port {port} exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise server.failed(f"nothing answered on port {port} in {timeout:.0f} s") from None
            time.sleep(0.1)


def _start_dovecot(data: Path, port: int) -> Process:
    d = data / "dovecot"
    for sub in ("run", "state"):
        (d / sub).mkdir(parents=True, exist_ok=True)
    uid, gid, owner = _mail_owner()
    home = data / "mail" / USER
    if not home.exists():
        home.mkdir(parents=True)
        os.chown(home, uid, gid)
    if os.geteuid() == 0:
        # The mail processes run as `nobody`: they must be able to pass through the data folder.
        data.chmod(data.stat().st_mode | 0o111)
        users, group, chroot, extra = ("dovenull", "dovecot", "root"), "dovecot", "", ""
    else:
        # Rootless: every service runs as this user, none in a chroot.
        users, group, chroot = (owner, owner, owner), grp.getgrgid(gid).gr_name, "  chroot =\n"
        extra = "".join(f"service {s} {{\n  chroot =\n}}\n" for s in ("anvil", "ipc"))
    (d / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}:{uid}:{gid}::{home}::\n")
    conf = d / "dovecot.conf"
    conf.write_text(_DOVECOT_CONF.format(d=d, port=port, login_user=users[0], internal_user=users[1],
                                         auth_user=users[2], internal_group=group, chroot=chroot,
                                         extra=extra))
    server = Process.start(["/usr/sbin/dovecot", "-F", "-c", str(conf)], d / "dovecot.out")
    try:
        _wait_port(port, server)
    except Exception:
        server.stop()
        raise
    return server


def _seed_mail(port: int) -> None:
    """The mailbox as mail delivery and the user would leave it, appended over IMAP."""
    imap = imaplib.IMAP4("127.0.0.1", port)
    try:
        imap.login(USER, PASSWORD)
        for f in FOLDERS:
            imap.create(f)
            imap.subscribe(f)
        for n, m in enumerate(sorted(MAILS, key=lambda m: -m.age_h)):
            when = imaplib.Time2Internaldate((NOW - timedelta(hours=m.age_h)).timestamp())
            typ, resp = imap.append(m.folder, f"({m.flags})" if m.flags else None, when, _message(m, n))
            if typ != "OK":
                raise RuntimeError(f"IMAP APPEND to {m.folder} failed: {resp}")
        imap.logout()
    except Exception:
        imap.shutdown()
        raise


# --- the SMTP catcher -----------------------------------------------------------------------------

# Accepts every message and writes it to OUT/N.eml with its envelope in OUT/N.json.
_SMTP_PY = r'''
import asyncio, json, re, sys, time
from pathlib import Path
PORT, OUT = int(sys.argv[1]), Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

async def handle(reader, writer):
    def say(*lines):
        writer.write("".join(l + "\r\n" for l in lines).encode())
    say("220 127.0.0.1 ESMTP mail catcher")
    sender, rcpts = "", []
    while True:
        raw = await reader.readline()
        if not raw:
            break
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        up = line.upper()
        if up.startswith("EHLO"):
            say("250-127.0.0.1", "250-8BITMIME", "250 SMTPUTF8")
        elif up.startswith("HELO"):
            say("250 127.0.0.1")
        elif up.startswith("MAIL FROM:"):
            m = re.search(r"<([^>]*)>", line)
            sender, rcpts = (m.group(1) if m else line[10:].strip()), []
            say("250 OK")
        elif up.startswith("RCPT TO:"):
            m = re.search(r"<([^>]*)>", line)
            rcpts.append(m.group(1) if m else line[8:].strip())
            say("250 OK")
        elif up == "DATA":
            say("354 End data with <CR><LF>.<CR><LF>")
            await writer.drain()
            body = []
            while True:
                l = await reader.readline()
                if not l or l in (b".\r\n", b".\n"):
                    break
                body.append(l[1:] if l.startswith(b"..") else l)
            name = f"{time.time_ns()}"
            (OUT / f"{name}.eml").write_bytes(b"".join(body))
            (OUT / f"{name}.json").write_text(json.dumps({"from": sender, "to": rcpts}))
            say("250 OK queued")
        elif up.startswith("RSET"):
            sender, rcpts = "", []
            say("250 OK")
        elif up.startswith("NOOP"):
            say("250 OK")
        elif up.startswith("QUIT"):
            say("221 Bye")
            await writer.drain()
            break
        else:
            say("502 Command not implemented")
        await writer.drain()
    writer.close()

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", PORT)
    async with server:
        await server.serve_forever()

asyncio.run(main())
'''


# --- Roundcube ----------------------------------------------------------------------------------

_CONFIG_PHP = """<?php
// Roundcube for one mailbox in a throwaway folder (see roundcube.py); rewritten at every start.
$config = [];
$config['db_dsnw'] = 'sqlite:///{db}?mode=0640';
$config['imap_host'] = '127.0.0.1:{imap_port}';
$config['smtp_host'] = '127.0.0.1:{smtp_port}';
$config['smtp_user'] = '';
$config['smtp_pass'] = '';
$config['support_url'] = '';
$config['product_name'] = 'Roundcube Webmail';
$config['des_key'] = '{des_key}';
$config['plugins'] = ['archive', 'zipdownload', 'markasjunk'];
$config['skin'] = 'elastic';
$config['enable_spellcheck'] = false;
$config['enable_installer'] = false;
$config['temp_dir'] = '{data}/temp/';
$config['log_dir'] = '{data}/logs/';
$config['session_lifetime'] = 240;
$config['ip_check'] = false;
$config['mail_pagesize'] = {page_size};
$config['addressbook_pagesize'] = 50;
// HTML editor (TinyMCE) when replying to an HTML message; plain text for new messages.
$config['htmleditor'] = 2;
$config['draft_autosave'] = 0;
$config['archive_mbox'] = 'Archive';
$config['timezone'] = 'Europe/London';
$config['language'] = 'en_US';
"""

# Contacts, groups and identities through Roundcube's own classes (as its address book and its
# identities page store them).
_SEED_PHP = """<?php
define('INSTALL_PATH', '{root}/');
require_once INSTALL_PATH . 'program/include/clisetup.php';
$rc = rcube::get_instance(rcube::INIT_WITH_DB);
$seed = json_decode(file_get_contents($argv[1]), true);
$user = rcube_user::query($seed['user'], '127.0.0.1');
if (!$user) {{ fwrite(STDERR, "no such user\\n"); exit(1); }}
$book = new rcube_contacts($rc->db, $user->ID);
$groups = [];
foreach ($seed['contacts'] as $c) {{
    $id = $book->insert($c['data']);
    if (!$id) {{ fwrite(STDERR, "contact not saved\\n"); exit(1); }}
    if ($c['group']) {{
        if (!isset($groups[$c['group']])) {{
            $g = $book->create_group($c['group']);
            $groups[$c['group']] = $g['id'];
        }}
        $book->add_to_group($groups[$c['group']], [$id]);
    }}
}}
foreach ($user->list_identities() as $i) {{
    $user->update_identity($i['identity_id'], $seed['identity']);
}}
$user->insert_identity($seed['work_identity']);
foreach ($seed['responses'] as $r) {{
    $user->insert_response($r);
}}
echo "ok\\n";
"""


@dataclass
class Roundcube:
    url: str
    data: Path
    imap_port: int
    user: str = USER
    password: str = PASSWORD
    _env: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def db(self) -> Path:
        return self.data / "roundcube.db"

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of a query on Roundcube's SQLite database (users, identities, contacts, ...)."""
        con = sqlite3.connect(self.db, timeout=10)
        try:
            return con.execute(query, params).fetchall()
        finally:
            con.close()

    def contacts(self) -> list[dict[str, str]]:
        """The address book's live contacts: name, first name, surname, emails (comma-separated)."""
        rows = self.sql("SELECT name, firstname, surname, email FROM contacts WHERE del = 0 ORDER BY name")
        return [{"name": r[0], "firstname": r[1], "surname": r[2], "email": r[3]} for r in rows]

    def contact_groups(self) -> dict[str, list[str]]:
        """Each group's members (their emails)."""
        rows = self.sql("SELECT g.name, c.email FROM contactgroups g "
                        "LEFT JOIN contactgroupmembers m ON m.contactgroup_id = g.contactgroup_id "
                        "LEFT JOIN contacts c ON c.contact_id = m.contact_id AND c.del = 0 WHERE g.del = 0")
        out: dict[str, list[str]] = {}
        for name, mail in rows:
            out.setdefault(name, [])
            if mail:
                out[name].append(mail)
        return out

    def identities(self) -> list[dict[str, str]]:
        rows = self.sql("SELECT name, email, organization, signature FROM identities WHERE del = 0 "
                        "ORDER BY standard DESC, identity_id")
        return [{"name": r[0], "email": r[1], "organization": r[2], "signature": r[3]} for r in rows]

    def imap(self) -> imaplib.IMAP4:
        """A logged-in IMAP connection to the mailbox (log out when done)."""
        conn = imaplib.IMAP4("127.0.0.1", self.imap_port)
        conn.login(self.user, self.password)
        return conn

    def folders(self) -> list[str]:
        conn = self.imap()
        try:
            _, lines = conn.list()
            names = []
            for raw in lines:
                line = raw.decode() if isinstance(raw, bytes) else str(raw)
                m = re.match(r'\((?P<flags>[^)]*)\) "(?P<sep>[^"]*)" (?P<name>.*)$', line)
                if m:
                    names.append(m["name"].strip('"'))
            return sorted(names)
        finally:
            conn.logout()

    def messages(self, folder: str = "INBOX") -> list[dict[str, Any]]:
        """The folder's messages, oldest first: uid, from, to, subject, date, flags, text (the first
        text/plain part, or the HTML one with its tags)."""
        conn = self.imap()
        try:
            typ, _ = conn.select(_imap_quote(folder), readonly=True)
            if typ != "OK":
                raise KeyError(f"no folder {folder!r}")
            _, data = conn.uid("SEARCH", "ALL")
            out = []
            for uid in data[0].split():
                _, parts = conn.uid("FETCH", uid.decode(), "(FLAGS BODY.PEEK[])")
                meta = parts[0][0].decode()
                msg = message_from_bytes(parts[0][1], policy=policy.default)
                flags = re.search(r"FLAGS \(([^)]*)\)", meta)
                body = msg.get_body(preferencelist=("plain", "html"))
                out.append({"uid": int(uid), "from": str(msg["From"] or ""), "to": str(msg["To"] or ""),
                            "subject": str(msg["Subject"] or ""), "date": str(msg["Date"] or ""),
                            "flags": [f for f in flags[1].split() if f != "\\Recent"] if flags else [],
                            "text": body.get_content().replace("\r\n", "\n") if body else "",
                            "attachments": [a.get_filename() for a in msg.iter_attachments()]})
            return out
        finally:
            conn.logout()

    def sent(self) -> list[dict[str, Any]]:
        """The mails Roundcube handed to SMTP, oldest first: envelope from/to, subject, text."""
        out = []
        for eml in sorted((self.data / "smtp").glob("*.eml")):
            env = json.loads(eml.with_suffix(".json").read_text())
            msg = message_from_bytes(eml.read_bytes(), policy=policy.default)
            body = msg.get_body(preferencelist=("plain", "html"))
            out.append({**env, "subject": str(msg["Subject"] or ""), "headers_to": str(msg["To"] or ""),
                        "cc": str(msg["Cc"] or ""),
                        "text": body.get_content().replace("\r\n", "\n") if body else "",
                        "attachments": [a.get_filename() for a in msg.iter_attachments()]})
        return out

    def uid(self, subject: str, folder: str = "INBOX") -> int:
        """The IMAP uid of the first message with this subject (for addresses of messages)."""
        for m in self.messages(folder):
            if m["subject"] == subject:
                return int(m["uid"])
        raise KeyError(f"no message {subject!r} in {folder}")

    def login(self, page: Any) -> None:
        """Roundcube's own login form."""
        page.goto(f"{self.url}/?_task=login")
        page.fill("#rcmloginuser", self.user)
        page.fill("#rcmloginpwd", self.password)
        with page.expect_navigation():
            page.click("#rcmloginsubmit")
        if "_task=mail" not in page.url:
            raise RuntimeError(f"Roundcube refused the login (ended on {page.url})")

    def pages(self) -> list[Page]:
        return _pages(self)


def _imap_quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pages(rc: Roundcube) -> list[Page]:
    uids: dict[tuple[str, str], int] = {}
    counts: dict[str, int] = {}
    for m in _uid_order():
        counts[m.folder] = counts.get(m.folder, 0) + 1
        uids.setdefault((m.folder, m.subject), counts[m.folder])

    def uid(subject: str, folder: str = "INBOX") -> int:
        return uids[(folder, subject)]

    # The list page is kept in the session: every list address names its page.
    mail = "/?_task=mail&_mbox=INBOX&_page=1"
    listed = "#messagelist tbody tr"
    contacts = "#contacts-table tbody tr"
    folders = "#subscription-table li.inbox"

    def click(selector: str, wait: str) -> Callable[[Any], None]:
        def go(page: Any) -> None:
            page.click(selector)
            page.wait_for_selector(wait, state="visible", timeout=10_000)
        return go

    def frame_ready(frame: str, selector: str) -> Callable[[Any], None]:
        """Waits for the content frame (the right-hand pane) to show `selector`."""
        def go(page: Any) -> None:
            page.frame_locator(f"iframe#{frame}").locator(selector).first.wait_for(timeout=10_000)
        return go

    def search(page: Any) -> None:
        page.click("#mailsearchform")
        page.fill("#mailsearchform", "invoice")
        page.press("#mailsearchform", "Enter")
        page.wait_for_function("() => document.querySelectorAll('#messagelist tbody tr').length"
                               " > 0 && document.querySelectorAll('#messagelist tbody tr').length < 10",
                               timeout=10_000)

    def click_in(frame: str, selector: str) -> Callable[[Any], None]:
        def go(page: Any) -> None:
            page.frame_locator(f"iframe#{frame}").locator(selector).first.click()
        return go

    def to_html_editor(page: Any) -> None:
        # The body holds the signature, so Roundcube asks with window.confirm() whether to convert.
        # It is the harness's to answer (see DIALOG_GRACE_MS: the page before was just observed).
        page.wait_for_timeout(DIALOG_GRACE_MS)
        page.once("dialog", lambda d: d.accept())
        page.click(".editor-toolbar a.mce-i-html")
        page.wait_for_selector(".tox-tinymce iframe", state="visible", timeout=15_000)

    def autocomplete(page: Any) -> None:
        page.click("#compose_to input")
        page.keyboard.type("par")
        page.wait_for_selector("#rcmKSearchpane li", state="visible", timeout=10_000)

    def search_contacts(page: Any) -> None:
        box = "#searchform"
        page.click(box)
        page.fill(box, "green kitchen")
        page.press(box, "Enter")
        page.wait_for_function("() => document.querySelectorAll('#contacts-table tbody tr').length"
                               " > 0 && document.querySelectorAll('#contacts-table tbody tr').length < 12",
                               timeout=10_000)

    def select_row(n: int) -> Callable[[Any], None]:
        def go(page: Any) -> None:
            page.click(f"#messagelist tbody tr:nth-child({n}) td.subject")
        return go

    return [
        Page("inbox", mail, "list", ready=listed),
        Page("inbox-page2", f"/?_task=mail&_mbox=INBOX&_page=2", "list", ready=listed),
        Page("folder-work", "/?_task=mail&_mbox=Work&_page=1", "list", ready=listed),
        Page("message-preview", mail, "view", ready=listed,
             open=then(select_row(3), frame_ready("messagecontframe", "#messagebody"))),
        Page("message", f"/?_task=mail&_mbox=INBOX&_uid={uid('Re: Project Apollo timeline')}&_action=show",
             "view", ready="#messagebody"),
        Page("message-attachment", f"/?_task=mail&_mbox=INBOX&_uid={uid('Invoice #4821 for October')}"
             "&_action=show", "view", ready="#messagebody"),
        Page("message-html", f"/?_task=mail&_mbox=INBOX&_uid={uid('Quarterly report draft')}&_action=show",
             "view", ready="#messagebody"),
        Page("compose", "/?_task=mail&_action=compose", "form", ready="#composebody"),
        Page("compose-html", "/?_task=mail&_action=compose", "editor", ready="#composebody",
             open=to_html_editor),
        Page("compose-autocomplete", "/?_task=mail&_action=compose", "form", ready="#composebody",
             open=autocomplete),
        Page("reply-html", f"/?_task=mail&_reply_uid={uid('Quarterly report draft')}&_mbox=INBOX"
             "&_action=compose", "editor", ready=".tox-tinymce iframe"),
        Page("reply-plain", f"/?_task=mail&_reply_uid={uid('Team lunch on Friday')}&_mbox=INBOX"
             "&_action=compose", "form", ready="#composebody"),
        Page("search-results", mail, "search", ready=listed, open=search),
        Page("message-more-menu", mail, "dialog", ready=listed,
             open=then(select_row(2), click("#messagemenulink", "#message-menu"))),
        Page("mark-menu", mail, "dialog", ready=listed,
             open=then(select_row(1), click("#markmessagemenulink", "#markmessage-menu"))),
        Page("list-options", mail, "dialog", ready=listed, open=click("#listmenulink", ".ui-dialog")),
        Page("folder-actions-menu", mail, "dialog", ready=listed,
             open=click("#layout-sidebar .header a.sidebar-menu", "#mailboxoptions-menu")),
        Page("empty-trash-confirm", "/?_task=mail&_mbox=Trash&_page=1", "dialog", ready=listed,
             open=then(click("#layout-sidebar .header a.sidebar-menu", "#mailboxoptions-menu"),
                       click("#mailboxoptions-menu a.purge", ".ui-dialog"))),
        Page("addressbook", "/?_task=addressbook", "list", ready=contacts),
        Page("contact-view", "/?_task=addressbook", "view", ready=contacts,
             open=then(click(f"{contacts}:nth-child(2) td.name", "#contact-frame"),
                       frame_ready("contact-frame", ".contactfieldgroup, #contacthead, fieldset"))),
        Page("contact-edit", "/?_task=addressbook", "form", ready=contacts,
             open=then(click(f"{contacts}:nth-child(3) td.name", "#contact-frame"),
                       frame_ready("contact-frame", ".contactfieldgroup, #contacthead, fieldset"),
                       click_in("contact-frame", "button.edit, a.edit"),
                       frame_ready("contact-frame", "input[name='_firstname']"))),
        Page("contact-create", "/?_task=addressbook", "form", ready=contacts,
             open=then(click("#toolbar-menu a.create", "#contact-frame"),
                       frame_ready("contact-frame", "input[name='_firstname']"))),
        Page("contact-group", "/?_task=addressbook", "list", ready=contacts,
             open=click("#directorylist li.contactgroup a", f"{contacts}")),
        Page("contact-search", "/?_task=addressbook", "search", ready=contacts, open=search_contacts),
        Page("settings-preferences", "/?_task=settings&_action=preferences", "settings",
             ready="#sections-table tbody tr",
             open=then(click("#sections-table tr#rcmrowgeneral td", "#preferences-frame"),
                       frame_ready("preferences-frame", "form"))),
        Page("preferences-composing", "/?_task=settings&_action=preferences", "settings",
             ready="#sections-table tbody tr",
             open=then(click("#sections-table tr#rcmrowcompose td", "#preferences-frame"),
                       frame_ready("preferences-frame", "form"))),
        Page("folders", "/?_task=settings&_action=folders", "settings", ready=folders),
        Page("folder-create", "/?_task=settings&_action=folders", "form", ready=folders,
             open=then(click("#toolbar-menu a.create", "#preferences-frame"),
                       frame_ready("preferences-frame", "input[name='_name']"))),
        Page("folder-delete-confirm", "/?_task=settings&_action=folders", "dialog", ready=folders,
             open=then(click("#subscription-table li.mailbox:has(> a:text-is('Travel')) > a", "#preferences-frame"),
                       frame_ready("preferences-frame", "input[name='_name']"),
                       click("#toolbar-menu a.delete", ".ui-dialog"))),
        Page("identities", "/?_task=settings&_action=identities", "list", ready="#identities-table tbody tr"),
        Page("identity-edit", "/?_task=settings&_action=identities", "form", ready="#identities-table tbody tr",
             open=then(click("#identities-table tbody tr:nth-child(1) td", "#preferences-frame"),
                       frame_ready("preferences-frame", "input[name='_name']"))),
        Page("responses", "/?_task=settings&_action=responses", "list", ready="#responses-table tbody tr"),
    ]


def _uid_order() -> list[Mail]:
    """The messages of each folder in the order they were appended (IMAP uids count from 1)."""
    return sorted(MAILS, key=lambda m: -m.age_h)


def _first_login(url: str) -> None:
    """Logs in once over HTTP, as the user's first visit does: Roundcube then makes its user row and
    default identity, which the address book and identities are seeded under."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{url}/?_task=login", timeout=30) as r:
        html = r.read().decode()
    token = re.search(r'name="_token" value="([^"]+)"', html)
    if not token:
        raise RuntimeError("Roundcube's login page has no request token")
    form = urllib.parse.urlencode({"_token": token[1], "_task": "login", "_action": "login",
                                   "_timezone": "Europe/London", "_url": "", "_user": USER,
                                   "_pass": PASSWORD}).encode()
    with opener.open(f"{url}/?_task=login", data=form, timeout=60) as r:
        if "_task=mail" not in r.url:
            raise RuntimeError(f"Roundcube refused the first login (ended on {r.url})")


def _seed_roundcube(data: Path, env: dict[str, str]) -> None:
    seed = {
        "user": USER,
        "contacts": [{"data": {"name": f"{first} {last}", "firstname": first, "surname": last,
                               "email:home" if not org else "email:work": [mail],
                               **({"phone:mobile": [phone]} if phone else {}),
                               **({"organization": org} if org else {})},
                      "group": group} for first, last, mail, phone, org, group in CONTACTS],
        "identity": {"name": FULL_NAME, "email": USER, "organization": "Green Kitchen Ltd",
                     "signature": f"{FULL_NAME}\nGreen Kitchen Ltd"},
        "work_identity": {"name": f"{FULL_NAME} (Projects)", "email": "projects@example.com",
                          "organization": "Green Kitchen Ltd", "reply-to": USER, "signature": "",
                          "bcc": "", "html_signature": 0, "standard": 0},
        "responses": [{"name": name, "data": text, "is_html": 0} for name, text in RESPONSES],
    }
    (data / "seed.json").write_text(json.dumps(seed))
    (data / "seed.php").write_text(_SEED_PHP.format(root=str(RC_ROOT).rstrip("/")))
    run(["php", str(data / "seed.php"), str(data / "seed.json")], env)


def _missing() -> str | None:
    need = apt_missing(PACKAGES)
    return f"Debian packages {' '.join(need)}" if need else None


def _install() -> None:
    apt_install(PACKAGES)


@contextmanager
def _start(data: Path) -> Iterator[Roundcube]:
    with ExitStack() as stack:
        imap_port, smtp_port, port = free_port(), free_port(), free_port()
        fresh = not (data / "roundcube.db").exists()
        dovecot = _start_dovecot(data, imap_port)
        stack.callback(dovecot.stop)
        (data / "smtp.py").write_text(_SMTP_PY)
        smtp = Process.start([sys.executable, str(data / "smtp.py"), str(smtp_port), str(data / "smtp")],
                             data / "smtp.log")
        stack.callback(smtp.stop)
        _wait_port(smtp_port, smtp)

        conf = data / "config"
        conf.mkdir(exist_ok=True)
        for f in ("defaults.inc.php", "mimetypes.php"):
            if not (conf / f).exists():
                shutil.copy(Path("/etc/roundcube") / f, conf / f)
        for sub in ("temp", "logs", "sessions"):
            (data / sub).mkdir(exist_ok=True)
        des_key = conf / "des_key"
        if not des_key.exists():
            des_key.write_text(secrets.token_urlsafe(18)[:24])
        (conf / "config.inc.php").write_text(_CONFIG_PHP.format(
            db=data / "roundcube.db", imap_port=imap_port, smtp_port=smtp_port, des_key=des_key.read_text(),
            data=data, page_size=PAGE_SIZE))
        env = {"ROUNDCUBE_CONFIG_DIR": str(conf)}
        if fresh:
            _seed_mail(imap_port)
            con = sqlite3.connect(data / "roundcube.db")
            with con:
                con.executescript((RC_SHARE / "SQL" / "sqlite.initial.sql").read_text())
            con.close()
        ini = {"session.save_path": str(data / "sessions"), "upload_tmp_dir": str(data / "temp"),
               "sys_temp_dir": str(data / "temp"), "sendmail_path": "/bin/true", "memory_limit": "256M",
               "upload_max_filesize": "16M", "post_max_size": "16M"}
        server = Process.start(["php", *[a for k, v in ini.items() for a in ("-d", f"{k}={v}")],
                                "-S", f"127.0.0.1:{port}", "-t", str(RC_ROOT / "public_html")],
                               data / "php.log", env={"PHP_CLI_SERVER_WORKERS": "4", **env})
        stack.callback(server.stop)
        running = Roundcube(url=f"http://127.0.0.1:{port}", data=data, imap_port=imap_port, _env=env)
        wait_http(f"{running.url}/?_task=login", server)
        if fresh:
            _first_login(running.url)
            _seed_roundcube(data, env)
        yield running


APP = App(name=NAME, kind="webmail", half="tune",
          built_from="Debian roundcube 1.6.5 (Elastic skin, TinyMCE 5), dovecot-imapd 2.3.19, php-cli 8.2",
          missing=_missing, install=_install, start=_start)
