"""The task's ledger of values: where each came from, which sites the user named or chose, what each
site showed, and what was already sent where.

Origins: the user's own words (the goal, their messages and answers) are the user's; a secret is
the user's *for the site it was given on*; what a page showed is its site's; what the task kept in
memory is the site's it was read on (the user's when it was given, not read).

A value going to a site (`outgoing`) is weighed against the ledger: what in it the site did not
show itself and someone else owns is what would leave. What already went to a site counts with the
next value (a number sent in two halves is one number).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import parse_qsl, unquote, urlsplit

from shared_schema.sites import matches, pattern_of, site_of

from .atoms import KIND_WORDS, Atom, carried, normal, opaque, page_atoms, user_atoms, value_atoms
from .atoms import DOMAIN, EMAIL, HOST_ADDRESS, URL

OriginKind = Literal["user", "page", "memory"]

SENT_KEEP = 4000  # characters of what went to one site kept for the next check
PAGE_KEEP = 100_000  # characters of one page's map kept to be read
PAGES_KEPT = 30  # pages shown and not read yet (the oldest forgotten)
SITES_KEPT = 40  # sites whose page atoms are kept (the oldest forgotten)
TOKENS_KEPT = 2000


@dataclass(frozen=True)
class Origin:
    kind: OriginKind
    site: str = ""  # the site a page value came from ('' for the user's own words)

    def words(self) -> str:
        if self.kind == "user":
            return "from your request"
        return f"read on {self.site}" if self.site else "kept by the task"


@dataclass(frozen=True)
class Held:
    """A piece of data and where it came from."""
    atom: Atom
    origin: Origin

    def words(self) -> str:
        return f'the {KIND_WORDS[self.atom.kind]} "{self.atom.shown}" {self.origin.words()}'


@dataclass
class Outgoing:
    """What a value sent to `site` carries that is not the site's own."""
    site: str
    named: bool
    items: list[Held] = field(default_factory=list)
    opaque: list[str] = field(default_factory=list)

    @property
    def leaks(self) -> bool:
        return bool(self.items or self.opaque)

    def words(self) -> str:
        """In the user's words: 'the number "48213" and the address "12 Elm Street" from your
        request'."""
        # (a piece inside another one is said once: the street in the address)
        items = [h for h in self.items
                 if not any(h.atom.key in o.atom.key and h is not o for o in self.items)]
        parts = [h.words() for h in items[:4]]
        if len(items) > 4:
            parts.append(f"{len(items) - 4} more")
        if self.opaque:
            parts.append("data heybro cannot read (an encoded value)")
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def sites_in(text: str) -> list[str]:
    """The sites a person's words name: addresses and bare host names (`shop.example`,
    `127.0.0.1:8080`); an email address names no site."""
    out = []
    text = EMAIL.sub(" ", text)
    for m in [*URL.finditer(text), *DOMAIN.finditer(text), *HOST_ADDRESS.finditer(text)]:
        word = m.group(0).rstrip(".,;:!?)'\"")
        site = site_of(word if "://" in word else "http://" + word)
        if site and site not in out:
            out.append(site)
    return out


class Ledger:
    """One task's values and sites (see the module's doc)."""

    def __init__(self) -> None:
        self.named: list[str] = []  # sites the user named or chose (the start page's among them)
        self.approved: set[str] = set()  # sites the user let their data go to, in this task
        self._held: dict[str, list[Held]] = {}  # atom key → who holds it
        self._shown: dict[str, set[str]] = {}  # site → keys its pages showed
        self._tokens: set[str] = set()  # long tokens pages showed (a link's own id, a session)
        self._sent: dict[str, str] = {}  # site → what went there (normalised), for the next value
        self._words: list[str] = []  # the user's words, normalised (a tool they name)
        self._pending: list[tuple[str, str, list[str]]] = []  # pages shown, not read yet

    # --- what comes in ------------------------------------------------------------------------
    def chosen(self, url: str | None) -> None:
        """The user chose this page's site (the task started there, or they handed its tab over)."""
        site = site_of(url or "")
        if site and not self.is_named(site):
            self.named.append(site)

    def said(self, text: str) -> None:
        """The user's own words: the sites they name, and their data."""
        for site in sites_in(text):
            if not self.is_named(site):
                self.named.append(site)
        self._hold(user_atoms(text), Origin("user"))
        self._words.append(normal(text))

    def kept(self, value: str, source_url: str | None) -> None:
        """A value the task kept in memory, read on the page at `source_url` (or given)."""
        site = site_of(source_url or "")
        self._hold(value_atoms(value), Origin("page", site) if site else Origin("memory"))

    def showed(self, url: str, text: str, links: list[str] | None = None) -> None:
        """What a page showed: its site may get it back; anyone else gets it only by the rules.
        Kept as it came and read only when something goes to a site not named (a step that sends
        nothing away pays nothing for it)."""
        site = site_of(url)
        if site:
            self._pending.append((site, text[:PAGE_KEEP], links or []))
            del self._pending[:-PAGES_KEPT]

    def _read_pages(self) -> None:
        """Takes in the pages shown since the last look (see `showed`)."""
        pending, self._pending = self._pending, []
        for site, text, links in pending:
            atoms = page_atoms(text)
            keys = self._shown.setdefault(site, set())
            keys.update(a.key for a in atoms)
            if len(self._shown) > SITES_KEPT:
                self._shown.pop(next(iter(self._shown)))
            self._hold(atoms, Origin("page", site))
            for link in links:
                for token in opaque(parts_of(link)):
                    if len(self._tokens) < TOKENS_KEPT:
                        self._tokens.add(token)

    def _hold(self, atoms: list[Atom], origin: Origin) -> None:
        for a in atoms:
            holders = self._held.setdefault(a.key, [])
            if not any(h.origin == origin for h in holders):
                holders.append(Held(a, origin))

    # --- what goes out ------------------------------------------------------------------------
    def is_named(self, site: str) -> bool:
        return any(matches(p, site) or matches(site, p) for p in self.named)

    def outgoing(self, value: str, dest_url: str) -> Outgoing:
        """What `value`, sent to the site of `dest_url`, carries that is not that site's own:
        another's data (the user's, another site's) or what heybro cannot read. Counted with what
        already went there (`sent`)."""
        site = site_of(dest_url)
        out = Outgoing(site=site or dest_url[:80], named=bool(site) and self.is_named(site))
        if out.named or out.site in self.approved:
            return out  # (nothing to weigh: what goes there may go)
        self._read_pages()
        before = self._sent.get(site, "")
        texts = [value] + ([before + _carrying(value)] if before else [])
        shown = self._shown.get(site, set())
        candidates = [holders[0].atom for key, holders in self._held.items() if key not in shown]
        found: dict[str, Atom] = {}
        for text in texts:
            for a in carried(text, candidates):
                found.setdefault(a.key, a)
        for key in found:
            holders = [h for h in self._held[key] if not (h.origin.kind == "page" and h.origin.site == site)]
            if holders:
                out.items.append(_first(holders))
        out.opaque = [t for t in opaque(parts_of(value)) if t not in self._tokens]
        return out

    def sent(self, value: str, dest_url: str) -> None:
        """`value` went to the site of `dest_url`: it counts with what goes there next."""
        site = site_of(dest_url)
        if site:
            self._sent[site] = (self._sent.get(site, "") + _carrying(value))[-SENT_KEEP:]

    def approve(self, site: str) -> None:
        self.approved.add(site)

    def may_go(self, out: Outgoing) -> bool:
        """Whether what leaves may go without asking: nothing of anyone's, or to a site the user
        named, chose or let it go to in this task."""
        return not out.leaks or out.named or out.site in self.approved

    def tool_named(self, *names: str) -> bool:
        """Whether the user's words name a tool (or the server it is of): their data may go there."""
        keys = [normal(n) for n in names if len(normal(n)) >= 3]
        return any(k in w for k in keys for w in self._words)

    def learning_site(self, site: str) -> bool:
        """Whether learnings may be kept for `site`: the user named or chose it."""
        return self.is_named(site)

    def named_patterns(self) -> list[str]:
        return [pattern_of(s) for s in self.named]


def _first(holders: list[Held]) -> Held:
    """Whose it is, as the question names it: the user's before a site's."""
    order = {"user": 0, "memory": 1, "page": 2}
    return sorted(holders, key=lambda h: order[h.origin.kind])[0]


def parts_of(value: str) -> list[str]:
    """The parts of a value a token could hide in: an address's host, path segments, query names
    and values and fragment (decoded); a typed text as it is."""
    if "://" not in value[:12]:
        return [value]
    try:
        u = urlsplit(value)
    except ValueError:
        return [value]
    parts = [u.hostname or "", *(unquote(p) for p in u.path.split("/"))]
    for k, v in parse_qsl(u.query, keep_blank_values=True):
        parts += [k, v]
    return [p for p in [*parts, unquote(u.fragment)] if p]


def _carrying(value: str) -> str:
    """What of a value carries data, normalised, for joining with what went before: an address's
    query values and fragment; a typed text whole."""
    if "://" not in value[:12]:
        return normal(value)
    try:
        u = urlsplit(value)
    except ValueError:
        return normal(value)
    values = [v for _, v in parse_qsl(u.query, keep_blank_values=True)]
    return normal("".join([*values, unquote(u.fragment)]))


def forwards(value: str) -> list[str]:
    """The web addresses a value holds in its parts (a query's `to=https://…`): where a site may
    send on what it is given."""
    if "://" not in value[:12]:
        return []
    return [p for p in parts_of(value)[1:] if re.match(r"(?i)^https?://[^/\s]+", p)][:4]
