"""What the host has checked on the page — actions' expectations, subtasks' done_when, what a wait
found — as the verifier and the host's confidence read it: the latest reading of each clause,
labelled by what it checked. A later fact about the same thing supersedes an earlier one (a dialog
that was still closing when a click was checked, and gone by the wait that followed)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared_schema.page_text import one_line

from .expect import expect_text
from .models import Clause, ClauseCheck, ExpectationCheck, ExpectedOutcome
from .toolbox import WaitFor

Fact = tuple[ExpectationCheck, ClauseCheck]


def _key(fact: ExpectationCheck, part: ClauseCheck) -> str:
    """What a reading is about: the page's text, elements or address by the clause alone; a value
    by the clause and the field it was read on (two fields may be expected to say the same)."""
    key = " ".join(part.clause.casefold().split())
    return f"{fact.about} · {key}" if key.startswith("value:") else key


def parts_of(fact: ExpectationCheck) -> list[ClauseCheck]:
    """The fact's clauses (one for a fact recorded before clauses were kept apart)."""
    return fact.parts or [ClauseCheck(clause=expect_text(fact.expect) or fact.tool, met=fact.met,
                                      detail=fact.detail)]


def latest(facts: Iterable[ExpectationCheck]) -> list[Fact]:
    """Each clause's latest reading, oldest first."""
    seen: dict[str, Fact] = {}
    for fact in facts:
        for part in parts_of(fact):
            key = _key(fact, part)
            seen.pop(key, None)
            seen[key] = (fact, part)
    return list(seen.values())


def share_met(facts: Iterable[ExpectationCheck]) -> float | None:
    """The share of clauses whose latest reading holds; None when nothing was checked."""
    now = latest(facts)
    return sum(p.met for _, p in now) / len(now) if now else None


def said(part: ClauseCheck) -> str:
    """A clause's reading in a word: MET, NOT MET, or MET before the action as well."""
    if not part.met:
        return "NOT MET"
    return "MET (already before the action)" if part.before else "MET"


def when(fact: ExpectationCheck) -> str:
    if fact.read_ms is None:
        return ""
    return f" (read {fact.read_ms / 1000:.1f} s after it)" if fact.read_ms >= 1000 else \
        f" (read {fact.read_ms} ms after it)"


def lines(facts: Iterable[ExpectationCheck]) -> str:
    """The facts for a prompt: one line per clause, its latest reading, by what checked it."""
    out = []
    for fact, part in latest(facts):
        about = fact.about or fact.tool
        out.append(f"- {one_line(about, 200)} · {one_line(part.clause, 200)}: "
                   f"{said(part)} — {one_line(part.detail, 300)}{when(fact)}")
    return "\n".join(out)


def of_wait(args: WaitFor, target: str | None, result: Any, error: str | None) -> ExpectationCheck | None:
    """What the model's wait_for established, as a fact (None for a wait for quiet): the text, the
    element or the URL there or gone — or not, when it timed out."""
    gone = args.gone
    named = target or (f'{args.role} "{args.name}"' if args.role and args.name else args.name or args.role)
    if args.url_contains:
        clause = Clause(kind="url", what=args.url_contains)
    elif args.text:
        clause = Clause(kind="no text" if gone else "text", what=args.text)
    elif named:
        clause = Clause(kind="no element" if gone else "element", what=named)
    else:
        return None
    expect = ExpectedOutcome(clauses=[clause])
    waited = result.get("waited_ms") if isinstance(result, dict) else None
    if error is None:
        what = "is gone" if gone else "is there"
        detail = f"{clause.what} {what}" + (f" after {waited} ms of waiting" if waited is not None else "")
    else:
        detail = error
    part = ClauseCheck(clause=str(clause), met=error is None, detail=detail)
    return ExpectationCheck(tool="wait_for", expect=expect, met=part.met, detail=detail,
                            about=f"wait_for {clause}", parts=[part])
