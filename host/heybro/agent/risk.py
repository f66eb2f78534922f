"""Which page actions need the user's yes first: those that spend money, send or publish, delete,
or submit personal data. Judged by the host itself from the target's own words, its kind and the
form it submits — never left to the model — so a model that forgets to ask cannot slip past it.

A false alarm costs the user one click; a missed one can cost them money or a message they never
meant to send. So the words are broad, and only navigation links are spared the send/publish words
(a "Posts" or "New post" link opens a page; a "Delete" link may delete)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from .signature import attrs_of

SPEND = re.compile(r"\b(buy|purchase|pay|payment|place (?:my |your |the |an? )?order|order now|"
                   r"checkout now|complete (?:purchase|order|payment|booking)|confirm (?:and pay|"
                   r"purchase|order|payment|booking)|subscribe|donate|book now|reserve now|"
                   r"add funds|top up|transfer|send money|upgrade now|start (?:my )?subscription)\b",
                   re.I)
SEND = re.compile(r"\b(send|post|publish|tweet|submit (?:comment|review|post|reply)|"
                  r"post comment|reply now|share now|schedule post)\b", re.I)
DELETE = re.compile(r"\b(delete|remove|erase|destroy|discard|trash|move to trash|empty trash|"
                    r"cancel (?:my |the )?(?:subscription|order|account|booking)|close (?:my )?"
                    r"account|deactivate|unsubscribe|permanently)\b", re.I)
# Fields whose values are personal data (by input type, autocomplete, name, id or label words).
PERSONAL = re.compile(r"\b(e-?mail|phone|tel|mobile|name|surname|address|street|city|zip|postal|"
                      r"post ?code|birth|dob|ssn|social security|passport|card|cc-|credit|iban|"
                      r"account number|password|passcode|tax|national id)", re.I)
CLICKERS = {"button", "link", "menuitem", "tab", "option", "submit", "checkbox", "switch", "radio"}


@dataclass(frozen=True)
class Risk:
    what: str  # "spend money", "send or publish", "delete", "submit personal data"
    words: str  # what on the page says so

    def decided(self, yes: bool) -> str:
        """The record of the user's word on it (the worker's history, the verifier's facts)."""
        return f"heybro asked first ({self.what}); the user said {'yes' if yes else 'no'}"


def _words(sig: dict[str, Any]) -> str:
    attrs = attrs_of(sig)
    parts = [sig.get("name"), sig.get("text"), attrs.get("value"), attrs.get("aria-label"),
             attrs.get("title")]
    return " ".join(" ".join(str(p).split()) for p in parts if p)[:300]


def _kind(sig: dict[str, Any]) -> str:
    attrs = attrs_of(sig)
    tag, role = str(sig.get("tag") or ""), str(sig.get("role") or "")
    if tag == "input" and attrs.get("type") in ("submit", "button", "image"):
        return "submit" if attrs.get("type") != "button" else "button"
    return role or tag


def _form(sig: dict[str, Any]) -> str | None:
    zones = (sig.get("context") or {}).get("zones") if isinstance(sig.get("context"), dict) else None
    return next((z for z in zones or [] if str(z).startswith("form")), None)


def _submits(sig: dict[str, Any]) -> bool:
    """A click on it sends its form: a submit button or input inside a form."""
    attrs = attrs_of(sig)
    if _form(sig) is None:
        return False
    if sig.get("tag") == "button":
        return attrs.get("type", "submit") == "submit"
    return sig.get("tag") == "input" and attrs.get("type") in ("submit", "image")


def _personal_fields(form: str, elements: dict[str, Any]) -> list[str]:
    found = []
    for sig in elements.values():
        if not isinstance(sig, dict) or _form(sig) != form:
            continue
        attrs = attrs_of(sig)
        state = sig["state"] if isinstance(sig.get("state"), dict) else {}
        if sig.get("tag") not in ("input", "textarea", "select") or not state.get("value"):
            continue
        if attrs.get("type") in ("hidden", "submit", "button", "search", "checkbox", "radio"):
            continue
        said = " ".join(str(x) for x in (attrs.get("type"), attrs.get("autocomplete"),
                                         attrs.get("name"), attrs.get("id"), sig.get("label"),
                                         sig.get("name"), attrs.get("placeholder")) if x)
        if PERSONAL.search(said):
            found.append(str(sig.get("label") or sig.get("name") or attrs.get("name") or "a field"))
    return found


def judge(act: Literal["click", "keys"] | None, params: dict[str, Any],
          elements: dict[str, Any]) -> Risk | None:
    """The risk of an action of kind `act` (its definition's `effects.risk`) with `params` on the page
    whose element map is `elements`."""
    if act is None:
        return None
    eid = params.get("element_id")
    sig = elements.get(eid) if isinstance(eid, str) else None
    if sig is None and act == "keys":  # keys go to the focused element
        sig = next((s for s in elements.values() if isinstance(s, dict)
                    and isinstance(s.get("state"), dict) and s["state"].get("focused")), None)
    if not isinstance(sig, dict):
        return None
    enter = act == "keys" and "enter" in str(params.get("keys", "")).lower()
    if act == "click":
        words, kind = _words(sig), _kind(sig)
        if kind in CLICKERS or _submits(sig):
            for what, pattern in (("spend money", SPEND), ("delete", DELETE)):
                if (m := pattern.search(words)):
                    return Risk(what, m.group(0))
            if kind != "link" and (m := SEND.search(words)):
                return Risk("send or publish", m.group(0))
    if (act == "click" and _submits(sig)) or (enter and _form(sig) is not None):
        form = _form(sig)
        fields = _personal_fields(form, elements) if form else []
        if fields:
            return Risk("submit personal data", ", ".join(dict.fromkeys(fields))[:120])
    return None


def site_of(url: str) -> str:
    """The host a per-site setting names (`shop.example`), from a page address."""
    return (urlsplit(url).hostname or "").lower()
