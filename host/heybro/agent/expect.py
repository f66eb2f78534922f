"""Checking an action's expected outcome against what the DOM agent reports right after it."""

from __future__ import annotations

import re
from typing import Any

from .browser import Snapshot
from .signature import attrs_of
from .models import ClauseCheck, ExpectationCheck, ExpectedOutcome

ROLE_AND_NAME = re.compile(r'^\s*([\w-]+)\s+"(.+)"\s*$')


def _readings(result: Any, snap: Snapshot, element_id: str | None) -> list[str]:
    """The control's value after the action as the page map shows it (a select: its option's
    words) first, then other readings of the same value (a select's form value: "editor" behind
    "Editor"). The action's own report is the page after it; the map is read only without one."""
    def of(state: Any, *more: Any) -> list[Any]:
        state = state if isinstance(state, dict) else {}
        return [state.get("value"), *more, state.get("option")]

    out: list[Any] = []
    if isinstance(result, dict):
        chosen: dict[str, Any] = result["selected"] if isinstance(result.get("selected"), dict) else {}
        out = of((result.get("element") or {}).get("state"), chosen.get("label"),
                 result.get("value"), chosen.get("value"))
    if not any(isinstance(v, str) for v in out):
        sig = snap.elements.get(element_id) if element_id else None
        if isinstance(sig, dict):
            out = of(sig.get("state"), sig.get("value"))
    return list(dict.fromkeys(v for v in out if isinstance(v, str)))


def _is_secret(result: Any, snap: Snapshot, element_id: str | None) -> bool:
    """Whether the field is one whose value the page map never shows (a password: its state says
    `secret`, extension/content/dom_secret.js)."""
    states = [((result.get("element") or {}).get("state") or {}) if isinstance(result, dict) else {}]
    sig = snap.elements.get(element_id) if element_id else None
    if isinstance(sig, dict):
        states.append(sig.get("state") or {})
    return any(isinstance(st, dict) and st.get("secret") is True for st in states)


def words(text: str) -> str:
    """Text as a person compares it: spacing (doubled, at the ends, line breaks) makes no difference."""
    return " ".join(text.split())


def same_value(shown: str, wanted: str, *, any_case: bool) -> bool:
    """Whether a control's value reads as the wanted one: spacing aside; a choice among options
    (a select) in any case, as its words and its form value name one option."""
    a, b = words(shown), words(wanted)
    return a.casefold() == b.casefold() if any_case else a == b


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
          after: Snapshot, *, chooses: bool = False) -> ExpectationCheck:
    """`after` is the page once the action settled (for URL and value, the action's own result
    is read first: it is always the page after the action). Each clause is checked on its own
    (`parts`), the whole is met when every one is. `chooses`: the tool picks one of the page's
    own options (its definition's `effects.chooses`), so a value may be told by words or value."""
    names = {field: clause for clause, field in CLAUSES.items()}
    parts: list[ClauseCheck] = []

    def note(field: str, ok: bool, yes: str, no: str) -> None:
        value = getattr(expect, field)
        parts.append(ClauseCheck(clause=f"{names[field]}:{value}", met=ok, detail=yes if ok else no))

    url = (result.get("url") if isinstance(result, dict) else None) or after.url
    page = words(f"{after.title}\n{after.text}").casefold()
    if expect.url_contains is not None:
        note("url_contains", expect.url_contains in url, f"URL contains {expect.url_contains!r} ({url})",
             f"URL lacks {expect.url_contains!r} ({url})")
    if expect.text_appears is not None:
        note("text_appears", words(expect.text_appears).casefold() in page,
             f"text {expect.text_appears!r} is on the page",
             f"text {expect.text_appears!r} is not on the page")
    if expect.text_disappears is not None:
        note("text_disappears", words(expect.text_disappears).casefold() not in page,
             f"text {expect.text_disappears!r} is gone",
             f"text {expect.text_disappears!r} is still on the page")
    if expect.element_appears is not None:
        ids = find_elements(after, expect.element_appears)
        note("element_appears", bool(ids),
             f"element {expect.element_appears} is on the page ({', '.join(ids[:3])})",
             f"no element {expect.element_appears} on the page")
    if expect.element_disappears is not None:
        ids = find_elements(after, expect.element_disappears)
        note("element_disappears", not ids, f"element {expect.element_disappears} is gone",
             f"element {expect.element_disappears} is still on the page ({', '.join(ids[:3])})")
    if expect.value is not None:
        element_id = params.get("element_id")
        readings = _readings(result, after, element_id)
        if _is_secret(result, after, element_id):
            # Its value is never read back: filled (or empty) is all that can be told, and said.
            filled = bool(readings and readings[0])
            note("value", filled == bool(expect.value),
                 "the secret field is filled (its value is never read)" if filled else "the secret field is empty",
                 "the secret field is empty" if expect.value else "the secret field is filled")
        else:
            choice = chooses or _is_choice(result, after, element_id)
            ok = any(same_value(r, expect.value, any_case=choice) for r in readings) or (
                not readings and f'="{expect.value}"' in f"{after.title}\n{after.text}")
            shown = readings[0] if readings else None
            note("value", ok, f"value is {expect.value!r}" + (f" (the page shows {shown!r})"
                                                                if shown not in (None, expect.value) else ""),
                 f"value is not {expect.value!r} (the page shows {shown!r})")
    failed = [p.detail for p in parts if not p.met]
    held = [p.detail for p in parts if p.met]
    return ExpectationCheck(tool=tool, expect=expect, met=not failed, parts=parts,
                            detail="; ".join(failed + held) or "nothing to check")


def _is_choice(result: Any, snap: Snapshot, element_id: str | None) -> bool:
    """Whether the control chooses among options (a select): its value is one option's words."""
    if isinstance(result, dict) and result.get("selected"):
        return True
    sig = snap.elements.get(element_id) if element_id else None
    return isinstance(sig, dict) and (sig.get("tag") == "select" or (
        sig.get("role") in ("combobox", "listbox")
        and isinstance((sig.get("state") or {}).get("option"), str)))


def wait_args(expect: ExpectedOutcome, fact: ExpectationCheck, timeout_ms: int) -> dict[str, Any] | None:
    """What to wait for while the page settles: the first clause that did not hold and that the
    page can still come to show (a URL, a text, a named element coming or going; not a value)."""
    unmet = {p.clause.split(":", 1)[0] for p in fact.parts if not p.met} if fact.parts else set(CLAUSES)
    if "url" in unmet and expect.url_contains:
        return {"url": expect.url_contains, "timeout_ms": timeout_ms}
    for clause, text, state in (("text", expect.text_appears, "visible"),
                                ("no text", expect.text_disappears, "hidden")):
        if clause in unmet and text:
            return {"text": text, "state": state, "timeout_ms": timeout_ms}
    for clause, named, state in (("element", expect.element_appears, "visible"),
                                 ("no element", expect.element_disappears, "hidden")):
        if clause in unmet and named:
            m = ROLE_AND_NAME.match(named)
            role, name = (m.group(1), m.group(2)) if m else (None, named)
            return {**({"role": role} if role else {}), "name": name, "state": state,
                    "timeout_ms": timeout_ms}
    return None
