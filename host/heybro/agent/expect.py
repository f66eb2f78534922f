"""Checking an action's expected outcome against what the DOM agent reports right after it."""

from __future__ import annotations

import re
from typing import Any

from .browser import Snapshot
from .signature import attrs_of
from .models import ExpectationCheck, ExpectedOutcome

ROLE_AND_NAME = re.compile(r'^\s*([\w-]+)\s+"(.+)"\s*$')


def _element_value(snap: Snapshot, element_id: str | None) -> str | None:
    if not element_id:
        return None
    sig = snap.elements.get(element_id)
    if isinstance(sig, dict):
        for holder in (sig, sig.get("state") or {}):
            if isinstance(holder, dict) and isinstance(holder.get("value"), str):
                return holder["value"]
    return None


def _is_secret(result: Any, snap: Snapshot, element_id: str | None) -> bool:
    """Whether the field is one whose value the page map never shows (a password: its state says
    `secret`, extension/lib/dom_secret.js)."""
    states = [((result.get("element") or {}).get("state") or {}) if isinstance(result, dict) else {}]
    sig = snap.elements.get(element_id) if element_id else None
    if isinstance(sig, dict):
        states.append(sig.get("state") or {})
    return any(isinstance(st, dict) and st.get("secret") is True for st in states)


def _result_value(result: Any) -> str | None:
    if not isinstance(result, dict):
        return None
    if isinstance(result.get("value"), str):
        return result["value"]
    state = (result.get("element") or {}).get("state") or {}
    return state.get("value") if isinstance(state.get("value"), str) else None


def find_elements(snap: Snapshot, what: str) -> list[str]:
    """Ids of the page-map elements `what` names: 'Place order' (its name, label, text or
    placeholder contains it) or 'button "Place order"' (that role or tag too)."""
    m = ROLE_AND_NAME.match(what)
    kind, words = (m.group(1).lower(), m.group(2)) if m else (None, what)
    words = " ".join(words.lower().split())
    found = []
    for eid, sig in snap.elements.items():
        if not isinstance(sig, dict):
            continue
        if kind and kind not in (str(sig.get("role") or "").lower(), str(sig.get("tag") or "").lower()):
            continue
        attrs = attrs_of(sig)
        names = (sig.get("name"), sig.get("label"), sig.get("text"), attrs.get("placeholder"))
        if any(isinstance(n, str) and words in " ".join(n.lower().split()) for n in names):
            found.append(eid)
    return found


# What the worker writes in `expect` (one string: its schema costs a few tokens per tool instead of
# forty) and the ExpectedOutcome field each clause sets.
CLAUSES = {"url": "url_contains", "text": "text_appears", "no text": "text_disappears",
           "element": "element_appears", "no element": "element_disappears", "value": "value"}
CLAUSE = re.compile(r"^\s*(no\s+text|no\s+element|url|text|element|value)\s*:\s*(.*?)\s*$", re.I | re.S)


def parse_expect(text: str) -> ExpectedOutcome:
    """`url:/checkout; text:Order confirmed; no element:button "Pay"` → an ExpectedOutcome.
    Raises ValueError with what to write instead."""
    found: dict[str, str] = {}
    for part in (x for x in text.split(";") if x.strip()):
        m = CLAUSE.match(part)
        if not m or not m.group(2):
            raise ValueError(f"cannot read {part.strip()!r}: write checks as url:…, text:…, "
                             "no text:…, element:…, no element:… or value:…, joined by ';'")
        found[CLAUSES[" ".join(m.group(1).lower().split())]] = m.group(2).strip('"\'') \
            if m.group(1).lower() in ("url", "value") else m.group(2)
    if not found:
        raise ValueError("expect is empty: leave it out, or write a check such as url:/checkout")
    return ExpectedOutcome(**found)


def expect_text(expect: ExpectedOutcome) -> str:
    """The checks as the models write them (parse_expect's inverse)."""
    names = {field: clause for clause, field in CLAUSES.items()}
    return "; ".join(f"{names[k]}:{v}" for k, v in expect.model_dump(exclude_none=True).items())


def check(tool: str, expect: ExpectedOutcome, params: dict[str, Any], result: Any,
          after: Snapshot) -> ExpectationCheck:
    """`after` is the page once the action settled (for URL and value, the action's own result
    is read first: it is always the page after the action)."""
    problems: list[str] = []
    facts: list[str] = []

    def note(ok: bool, yes: str, no: str) -> None:
        (facts if ok else problems).append(yes if ok else no)

    url = (result.get("url") if isinstance(result, dict) else None) or after.url
    page = f"{after.title}\n{after.text}"
    if expect.url_contains is not None:
        ok = expect.url_contains in url
        note(ok, f"URL contains {expect.url_contains!r} ({url})",
             f"URL lacks {expect.url_contains!r} ({url})")
    if expect.text_appears is not None:
        ok = expect.text_appears.lower() in page.lower()
        note(ok, f"text {expect.text_appears!r} is on the page",
             f"text {expect.text_appears!r} is not on the page")
    if expect.text_disappears is not None:
        ok = expect.text_disappears.lower() not in page.lower()
        note(ok, f"text {expect.text_disappears!r} is gone",
             f"text {expect.text_disappears!r} is still on the page")
    if expect.element_appears is not None:
        ids = find_elements(after, expect.element_appears)
        note(bool(ids), f"element {expect.element_appears} is on the page ({', '.join(ids[:3])})",
             f"no element {expect.element_appears} on the page")
    if expect.element_disappears is not None:
        ids = find_elements(after, expect.element_disappears)
        note(not ids, f"element {expect.element_disappears} is gone",
             f"element {expect.element_disappears} is still on the page ({', '.join(ids[:3])})")
    if expect.value is not None:
        actual = _result_value(result)
        if actual is None:
            actual = _element_value(after, params.get("element_id"))
        if _is_secret(result, after, params.get("element_id")):
            # Its value is never read back: filled (or empty) is all that can be told, and said.
            ok = bool(actual) == bool(expect.value)
            note(ok, "the secret field is filled (its value is never read)" if actual else "the secret field is empty",
                 "the secret field is empty" if expect.value else "the secret field is filled")
        else:
            ok = actual == expect.value or (not actual and f'="{expect.value}"' in page)
            note(ok, f"value is {expect.value!r}", f"value is not {expect.value!r} (found {actual!r})")
    return ExpectationCheck(tool=tool, expect=expect, met=not problems,
                            detail="; ".join(problems + facts) or "nothing to check")
