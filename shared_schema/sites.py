"""Which sites a task may work on: the user's per-site permissions, one rule both sides enforce.

Three lists the user keeps (the options page and `heybro config` edit them): sites heybro must
never touch, sites where it asks the user first, and sites it may always work on. Under them,
categories of sites heybro stays off unless the user says otherwise (banks and payments, investing
and crypto, passwords and sign-in accounts, taxes and government identity): the user can turn a
category off, or let heybro on one site of it by listing that site as allowed.

A site is a page's host name (with its port when the address names one). A pattern is a host
name — it covers its subdomains too (`example.com` covers `shop.example.com`) — or a host name
with `*` for any characters (`*bank*`), optionally with a port (`127.0.0.1:8080`: that port
only). What a user pastes is read as they mean it: `https://www.Example.com/login` is
`example.com`.

Order, first that applies: the user's never, their ask-first (unless they said yes to that site
during this task), their allowed, then the categories. The host checks an address before a call
leaves; the coordinator checks the live tab's page again before any call reads or acts on it and
withholds a page an action led to (extension/shared/site_rules.js, tested against the same cases).
"""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, field_validator

from .payload import Payload

Rule = Literal["never", "ask"]


class SiteCategory(BaseModel):
    name: str
    label: str
    patterns: list[str]


# Sites where one wrong click moves money or hands over an identity. Broad on purpose: a site
# wrongly kept off costs the user one entry under "allowed"; one wrongly let on can cost savings.
CATEGORIES: tuple[SiteCategory, ...] = (
    SiteCategory(name="banking", label="Banks and payments", patterns=[
        "*bank*", "*banco*", "*banque*", "*sparkasse*",
        "paypal.com", "venmo.com", "wise.com", "revolut.com", "monzo.com", "n26.com",
        "chase.com", "wellsfargo.com", "citi.com", "citibank.com", "usaa.com", "capitalone.com",
        "americanexpress.com", "discover.com", "barclays.co.uk", "hsbc.com", "santander.com",
        "klarna.com", "stripe.com", "squareup.com", "zellepay.com", "westernunion.com"]),
    SiteCategory(name="investing", label="Investing and crypto", patterns=[
        "schwab.com", "fidelity.com", "vanguard.com", "etrade.com", "robinhood.com",
        "interactivebrokers.com", "tdameritrade.com", "merrilledge.com", "coinbase.com",
        "binance.com", "kraken.com", "crypto.com", "gemini.com", "bitstamp.net", "*wallet*"]),
    SiteCategory(name="accounts", label="Passwords and sign-in accounts", patterns=[
        "accounts.google.com", "myaccount.google.com", "passwords.google.com",
        "account.microsoft.com", "login.microsoftonline.com", "login.live.com",
        "appleid.apple.com", "account.apple.com", "icloud.com", "1password.com",
        "bitwarden.com", "lastpass.com", "dashlane.com", "keepersecurity.com", "okta.com",
        "auth0.com"]),
    SiteCategory(name="government", label="Taxes and government identity", patterns=[
        "irs.gov", "ssa.gov", "login.gov", "id.me", "healthcare.gov", "tax.service.gov.uk",
        "gov.uk", "impots.gouv.fr", "elster.de", "canada.ca", "my.gov.au", "ato.gov.au"]),
)
CATEGORY_NAMES: tuple[str, ...] = tuple(c.name for c in CATEGORIES)


class SiteRules(Payload):
    """The user's per-site permissions (in the settings file under `sites`)."""

    never: list[str] = Field(default_factory=list, max_length=1000,
                             description="Sites heybro must never open, read or act on.")
    ask: list[str] = Field(default_factory=list, max_length=1000,
                           description="Sites where heybro asks the user before it works there.")
    allow: list[str] = Field(default_factory=list, max_length=1000,
                             description="Sites heybro may work on even when a category keeps it off.")
    categories_off: list[Literal["banking", "investing", "accounts", "government"]] = Field(
        default_factory=list, description="Categories the user lets heybro work on.")

    @field_validator("never", "ask", "allow")
    @classmethod
    def _sites(cls, value: list[str]) -> list[str]:
        """Each entry as heybro reads it (a pasted address becomes its site); repeats dropped."""
        out: list[str] = []
        for entry in value:
            p = pattern_of(entry)
            if not SITE_PATTERN.fullmatch(p):
                raise ValueError(f"{entry[:80]!r} is not a site: write one like shop.example, "
                                 "*.shop.example or 127.0.0.1:8080")
            if p not in out:
                out.append(p)
        return out


class SiteGate(SiteRules):
    """The rules as one task's call carries them to the coordinator, with the ask-first sites the
    user said yes to during that task."""

    approved: list[str] = Field(default_factory=list, max_length=1000)


class Verdict(BaseModel):
    rule: Rule
    site: str
    why: str  # which setting decided, in the user's words


_PORT = re.compile(r"^(.*):(\d{1,5})$")
SITE_PATTERN = re.compile(r"[a-z0-9*\[\]:.\-]+")  # a pattern once read (pattern_of)
_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _idna(host: str) -> str:
    host = host.strip().lower().rstrip(".")
    try:
        return ".".join(label.encode("idna").decode("ascii") if label and not label.isascii()
                        else label for label in host.split("."))
    except UnicodeError:
        return host


def site_of(url: str) -> str:
    """A page's site: its host name, with the port when the address names one (not the scheme's
    own); '' for an address that has no host."""
    try:
        parts = urlsplit(url.strip())
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return ""
    if not host:
        return ""
    host = _idna(host)
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    p = str(port) if port is not None else ""
    return f"{host}:{p}" if p and _DEFAULT_PORTS.get(parts.scheme.lower()) != p else host


def pattern_of(text: str) -> str:
    """A pattern as the user means it: a pasted address cut to its host (and port), lower case,
    without `www.` or a leading `*.`; '' when nothing is left."""
    p = text.strip().lower()
    if "://" in p:
        p = p.split("://", 1)[1]
    p = re.split(r"[/?#]", p, maxsplit=1)[0]
    p = p.rsplit("@", 1)[-1]
    for prefix in ("*.", "www."):
        if p.startswith(prefix):
            p = p[len(prefix):]
    m = _PORT.match(p)
    host, port = (m.group(1), m.group(2)) if m else (p, "")
    host = host if "*" in host or host.startswith("[") else _idna(host)
    return f"{host}:{port}" if port and host else host.rstrip(".")


def matches(pattern: str, site: str) -> bool:
    """Whether `pattern` (as pattern_of reads it) covers `site` (as site_of gives it)."""
    p = pattern_of(pattern)
    if not p or not site:
        return False
    pm, sm = _PORT.match(p), _PORT.match(site)
    p_host, p_port = (pm.group(1), pm.group(2)) if pm and not p.endswith("]") else (p, "")
    s_host, s_port = (sm.group(1), sm.group(2)) if sm and not site.endswith("]") else (site, "")
    if p_port and p_port != s_port:
        return False
    if "*" in p_host:
        return re.fullmatch(".*".join(re.escape(x) for x in p_host.split("*")), s_host) is not None
    return s_host == p_host or s_host.endswith("." + p_host)


def verdict(url: str, rules: SiteRules, approved: list[str] | tuple[str, ...] = ()) -> Verdict | None:
    """Whether a task may work on the page at `url`: None when it may, else never or ask-first,
    with the reason. Addresses that are no web page are reach.py's concern."""
    site = site_of(url)
    if not site:
        return None
    if hit := next((p for p in rules.never if matches(p, site)), None):
        return Verdict(rule="never", site=site, why=f"your settings list {pattern_of(hit)} among "
                       "the sites heybro must never touch")
    if hit := next((p for p in rules.ask if matches(p, site)), None):
        if site in approved:
            return None
        return Verdict(rule="ask", site=site, why=f"your settings say to ask you before heybro "
                       f"works on {pattern_of(hit)}")
    if any(matches(p, site) for p in rules.allow):
        return None
    for c in CATEGORIES:
        if c.name not in rules.categories_off and any(matches(p, site) for p in c.patterns):
            return Verdict(rule="never", site=site, why=f"it looks like a site of the kind heybro "
                           f"stays off ({c.label.lower()})")
    return None


def refusal(v: Verdict) -> str:
    """The refusal the model and the user read (the coordinator's says the same)."""
    if v.rule == "ask":
        return f"heybro asks the user before it works on {v.site}: {v.why}."
    return (f"heybro does not work on {v.site}: {v.why}. Do not try to reach it another way; tell "
            "the user. (They can allow the site in heybro's settings, under Sites, or with "
            f"`heybro config --allow-site {v.site}`.)")
