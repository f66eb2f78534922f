"""Checking an expected outcome against the page, clause by clause, as a person compares:

- `url:/checkout` — the address contains it;
- `text:Order confirmed` / `no text:…` — the words are (not) anywhere on the page, whatever their
  spacing and case;
- `element:button "Pay"` / `no element:…` — an element with that name (its name, label, text or
  placeholder contains the words), of that role when one is written; a role alone
  (`element:dialog`) is any element of that role;
- `value:kettle` — the acted-on field's whole value as the page shows it, spacing and case aside (a
  select: its option's words or its form value); with no field acted on, a field on the page
  showing that value.

Any number of clauses of any kind, each checked and reported on its own; one the host cannot read
is refused with what to write instead, never dropped. A clause that already held on the page before
the action is said to (it proves nothing about the action)."""

from __future__ import annotations

import re
from typing import Any

from .browser import Snapshot
from .signature import attrs_of
from .models import Clause, ClauseCheck, ClauseKind, ExpectationCheck, ExpectedOutcome

ROLE_AND_NAME = re.compile(r'^\s*([\w-]+)\s+"(.+)"\s*$')
# Roles an `element:` clause may name alone (`element:dialog`): what an element is, not its words.
ROLE_WORDS = frozenset({
    "alert", "alertdialog", "article", "banner", "button", "checkbox", "columnheader", "combobox",
    "dialog", "form", "grid", "gridcell", "heading", "img", "link", "list", "listbox", "listitem",
    "menu", "menubar", "menuitem", "menuitemcheckbox", "menuitemradio", "navigation", "option",
    "progressbar", "radio", "region", "row", "rowheader", "searchbox", "slider", "spinbutton",
    "status", "switch", "tab", "table", "tablist", "tabpanel", "textbox", "toolbar", "tooltip",
    "tree", "treeitem"})


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


def same_value(shown: str, wanted: str) -> bool:
    """Whether a control's value reads as the wanted one, as a person reads it: spacing and case
    aside, the whole value (not a part of it)."""
    return words(shown).casefold() == words(wanted).casefold()


def role_only(what: str) -> str | None:
    """The role an `element:` clause names alone (`dialog`), or None (it names words)."""
    w = what.strip().lower()
    return w if w in ROLE_WORDS else None


def find_elements(snap: Snapshot, what: str) -> list[str]:
    """Ids of the page-map elements `what` names: 'Place order' (its name, label, text or
    placeholder contains it), 'button "Place order"' (that role or tag too), or a role alone
    ('dialog': any element of that role — or with those words). An open dialog of the page counts
    for `dialog` though the map lists controls, not the boxes around them (`dialog:1`)."""
    m = ROLE_AND_NAME.match(what)
    kind, wanted = (m.group(1).lower(), m.group(2)) if m else (None, what)
    alone = None if m else role_only(what)
    wanted = " ".join(wanted.lower().split())
    found = []
    for eid, sig in snap.elements.items():
        if not isinstance(sig, dict):
            continue
        roles = (str(sig.get("role") or "").lower(), str(sig.get("tag") or "").lower())
        if alone and alone in roles:
            found.append(eid)
            continue
        if kind and kind not in roles:
            continue
        attrs = attrs_of(sig)
        names = (sig.get("name"), sig.get("label"), sig.get("text"), attrs.get("placeholder"))
        if any(isinstance(n, str) and wanted in " ".join(n.lower().split()) for n in names):
            found.append(eid)
    if "dialog" in (alone, kind) and not found:
        dialogs = [d for d in (snap.model_extra or {}).get("dialogs") or []
                   if isinstance(d, dict) and not d.get("kind")]  # (a browser box is answered at once)
        for i, d in enumerate(dialogs):
            if alone or wanted in " ".join(f"{d.get('name') or ''} {d.get('text') or ''}".lower().split()):
                found.append(f"dialog:{i + 1}")
    return found


# What the worker writes in `expect` (one string: its schema costs a few tokens per tool instead of
# forty): clauses joined by ';'.
KINDS: tuple[ClauseKind, ...] = ("url", "text", "no text", "element", "no element", "value")
CLAUSE = re.compile(r"^\s*(no\s+text|no\s+element|url|text|element|value)\s*:\s*(.*?)\s*$", re.I | re.S)
WRITE = ("write checks as url:…, text:…, no text:…, element:…, no element:… or value:…, joined by "
         "';' (any number, of any kind)")


def _unquoted(text: str) -> str:
    """Words wrapped whole in quotes, without them ('"Order confirmed"' → Order confirmed)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].strip()
    return text


def parse_expect(text: str) -> ExpectedOutcome:
    """`url:/checkout; text:Order confirmed; text:Blue Kettle; no element:button "Pay"` → an
    ExpectedOutcome with every clause, in order (the same clause twice is one check). Raises
    ValueError with what to write instead: nothing is dropped."""
    found: list[Clause] = []
    for part in (x for x in text.split(";") if x.strip()):
        m = CLAUSE.match(part)
        if not m:
            raise ValueError(f"cannot read {part.strip()!r}: {WRITE}")
        kind: ClauseKind = " ".join(m.group(1).lower().split())  # type: ignore[assignment]
        what = m.group(2) if kind.endswith("element") else _unquoted(m.group(2))
        if not what.strip():
            raise ValueError(f"{part.strip()!r} says what kind of check, not what to check: "
                             f"write {kind}:… with the words")
        clause = Clause(kind=kind, what=what)
        if clause not in found:
            found.append(clause)
    if not found:
        raise ValueError("expect is empty: leave it out, or write a check such as url:/checkout")
    return ExpectedOutcome(clauses=found)


def expect_text(expect: ExpectedOutcome) -> str:
    """The checks as the models write them (parse_expect's inverse)."""
    return "; ".join(str(c) for c in expect.clauses)


def check(tool: str, expect: ExpectedOutcome, params: dict[str, Any], result: Any,
          after: Snapshot, *, before: Snapshot | None = None) -> ExpectationCheck:
    """`after` is the page once the action settled (for URL and value, the action's own result
    is read first: it is always the page after the action). Each clause is checked on its own
    (`parts`), the whole is met when every one is. `before`: the page the action was proposed on
    — a clause that held there too is marked so (it proves nothing about the action)."""
    element_id = params.get("element_id")
    url = (result.get("url") if isinstance(result, dict) else None) or after.url
    parts = [_clause(c, after, url, result, element_id) for c in expect.clauses]
    if before is not None:
        for c, part in zip(expect.clauses, parts, strict=True):
            if part.met and c.kind != "value" and _clause(c, before, before.url, None, None).met:
                part.before = True
                part.detail += " — and already so before the action (it proves nothing about it)"
    failed = [p.detail for p in parts if not p.met]
    held = [p.detail for p in parts if p.met]
    return ExpectationCheck(tool=tool, expect=expect, met=not failed, parts=parts,
                            detail="; ".join(failed + held) or "nothing to check")


def _clause(c: Clause, snap: Snapshot, url: str, result: Any, element_id: str | None) -> ClauseCheck:
    """One clause checked on `snap` (`url`: the address after the action)."""
    def note(ok: bool, yes: str, no: str) -> ClauseCheck:
        return ClauseCheck(clause=str(c), met=ok, detail=yes if ok else no)

    page = words(f"{snap.title}\n{snap.text}").casefold()
    what = c.what
    if c.kind == "url":
        return note(what in url, f"URL contains {what!r}", f"URL lacks {what!r} ({url})")
    if c.kind in ("text", "no text"):
        there = words(what).casefold() in page
        if c.kind == "text":
            return note(there, f"text {what!r} is on the page", f"text {what!r} is not on the page")
        return note(not there, f"text {what!r} is gone", f"text {what!r} is still on the page")
    if c.kind in ("element", "no element"):
        ids = find_elements(snap, what)
        named = f"an element of role {what.strip()}" if role_only(what) else f"element {what}"
        if c.kind == "element":
            return note(bool(ids), f"{named} is on the page ({', '.join(ids[:3])})",
                        f"no {named.removeprefix('an ')} on the page" if role_only(what)
                        else f"no element {what} on the page")
        return note(not ids, f"{named} is gone", f"{named} is still on the page ({', '.join(ids[:3])})")
    return _value(c, snap, result, element_id)


def _value(c: Clause, snap: Snapshot, result: Any, element_id: str | None) -> ClauseCheck:
    """`value:` on the acted-on field (or, with none, any field of the page's map)."""
    wanted = c.what

    def note(ok: bool, yes: str, no: str) -> ClauseCheck:
        return ClauseCheck(clause=str(c), met=ok, detail=yes if ok else no)

    if element_id is None and not isinstance(result, dict):
        fields = [v for v in _field_values(snap) if same_value(v, wanted)]
        return note(bool(fields), f"a field on the page shows {wanted!r}",
                    f"no field on the page shows {wanted!r}")
    readings = _readings(result, snap, element_id)
    if _is_secret(result, snap, element_id):
        # Its value is never read back: filled (or empty) is all that can be told, and said.
        filled = bool(readings and readings[0])
        return note(filled, "the secret field is filled (its value is never read, so not compared)",
                    "the secret field is empty")
    ok = any(same_value(r, wanted) for r in readings) or (
        not readings and any(same_value(v, wanted) for v in _field_values(snap)))
    shown = readings[0] if readings else None
    return note(ok, f"value is {wanted!r}" + (f" (the page shows {shown!r})" if shown not in (None, wanted) else ""),
                f"value is not {wanted!r} (the page shows {shown!r})")


VALUE_SHOWN = re.compile(r'="((?:[^"\\]|\\.)*)"')


def _field_values(snap: Snapshot) -> list[str]:
    """The values the page's fields show, from its map: each control's state, and `="…"` in its
    lines (how the map writes a field's value)."""
    out = [str((sig.get("state") or {}).get("value")) for sig in snap.elements.values()
           if isinstance(sig, dict) and isinstance((sig.get("state") or {}).get("value"), str)]
    return out + VALUE_SHOWN.findall(snap.text)


def wait_args(expect: ExpectedOutcome, fact: ExpectationCheck, seconds: float) -> dict[str, Any] | None:
    """What to wait for while the page settles (wait_for's words, up to `seconds`): the first
    clause that did not hold and that the page can still come to show (a URL, a text, a named
    element coming or going; not a value)."""
    unmet = {p.clause for p in fact.parts if not p.met} if fact.parts else {str(c) for c in expect.clauses}
    for c in expect.clauses:
        if str(c) not in unmet or c.kind == "value":
            continue
        gone = {"gone": True} if c.kind in ("no text", "no element") else {}
        if c.kind == "url":
            return {"url_contains": c.what, "seconds": seconds}
        if c.kind in ("text", "no text"):
            return {"text": c.what, **gone, "seconds": seconds}
        m = ROLE_AND_NAME.match(c.what)
        alone = role_only(c.what)
        role, name = (m.group(1), m.group(2)) if m else (alone, None if alone else c.what)
        return {**({"role": role} if role else {}), **({"name": name} if name else {}), **gone,
                "seconds": seconds}
    return None
