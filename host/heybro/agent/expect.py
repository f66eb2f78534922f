"""Checking an action's expected outcome against what the DOM agent reports afterwards."""

from __future__ import annotations

from typing import Any

from .browser import Snapshot
from .models import ExpectationCheck, ExpectedOutcome


def _element_value(snap: Snapshot, element_id: str | None) -> str | None:
    if not element_id:
        return None
    sig = snap.elements.get(element_id)
    if isinstance(sig, dict):
        for holder in (sig, sig.get("state") or {}):
            if isinstance(holder, dict) and isinstance(holder.get("value"), str):
                return holder["value"]
    return None


def _result_value(result: Any) -> str | None:
    if not isinstance(result, dict):
        return None
    if isinstance(result.get("value"), str):
        return result["value"]
    state = (result.get("element") or {}).get("state") or {}
    return state.get("value") if isinstance(state.get("value"), str) else None


def check(tool: str, expect: ExpectedOutcome, params: dict[str, Any], result: Any,
          after: Snapshot) -> ExpectationCheck:
    problems, facts = [], []
    url = after.url or (result.get("url", "") if isinstance(result, dict) else "")
    page = f"{after.title}\n{after.text}"
    if expect.url_contains is not None:
        ok = expect.url_contains in url
        (facts if ok else problems).append(f"URL {'contains' if ok else 'lacks'} "
                                           f"{expect.url_contains!r} ({url})")
    if expect.text_appears is not None:
        ok = expect.text_appears.lower() in page.lower()
        (facts if ok else problems).append(f"text {expect.text_appears!r} "
                                           f"{'is' if ok else 'is not'} on the page")
    if expect.text_disappears is not None:
        ok = expect.text_disappears.lower() not in page.lower()
        (facts if ok else problems).append(f"text {expect.text_disappears!r} "
                                           f"{'is gone' if ok else 'is still on the page'}")
    if expect.value is not None:
        actual = _result_value(result)
        if actual is None:
            actual = _element_value(after, params.get("element_id"))
        ok = actual == expect.value or (not actual and f'="{expect.value}"' in page)
        (facts if ok else problems).append(f"value {'is' if ok else 'is not'} {expect.value!r}"
                                           + ("" if ok else f" (found {actual!r})"))
    return ExpectationCheck(tool=tool, expect=expect, met=not problems,
                            detail="; ".join(problems + facts) or "nothing to check")
