"""A password the user writes in their own words ("log in as ann with password Tr0ub4dor!") is a
secret of the task from the moment it is said, as if heybro had asked for it: the goal and the
messages keep `{{secret:password}}` in its place — in the record, the events, the logs and every
prompt — and the value lives only in the run's memory, typed on the site the task was started on
or named (agent/sinks.py), into a field for it.

A word that follows "password" is taken as one when the user marks it so (quoted, or after `:`,
`=` or "is") or when it reads as one (a digit or a sign in it, or letters of both cases): "the
password field" or "change my password to something" are words about a password, not one."""

from __future__ import annotations

import re

# What is said as a secret, and the field it goes into.
KINDS = {"password": "password", "passphrase": "password", "passcode": "code", "pin": "code"}
WORD = r"(?P<word>password|passphrase|passcode|pin)\b"
QUOTED = re.compile(WORD + r"""(?:\s+(?:is|was|of))?\s*[:=]?\s*(?P<q>["'“‘`])(?P<value>[^"'“”‘’`\n]{1,200}?)["'”’`]""",
                    re.I)
MARKED = re.compile(WORD + r"(?:\s*[:=]\s*|\s+(?:is|was)\s*:?\s*)(?P<value>[^\s\"'“”‘’`]{1,200})", re.I)
BARE = re.compile(WORD + r"(?:\s+(?:of|for)\s+[^\s\"'“”‘’`]{1,80})?\s+(?:to\s+)?"
                  r"(?P<value>[^\s\"'“”‘’`]{3,200})", re.I)
TRAILING = ".,;:)]}"  # (a sentence's end; a "!" or "?" is as often the password's own)


def _looks_secret(value: str) -> bool:
    """A word that reads as a password, not as English: a digit or a sign in it, or both cases."""
    return (bool(re.search(r"[\d\W_]", value))
            or (value != value.lower() and value != value.upper() and not value.istitle()))


def said_secrets(text: str, taken: dict[str, str] | None = None) -> tuple[str, dict[str, str], dict[str, str]]:
    """`text` with each password (passphrase, PIN) written in it replaced by `{{secret:NAME}}`, the
    secrets by name, and the field each goes into ("password" or "code"). `taken`: secrets the
    task already holds (a name is not reused for another value; the same value keeps its name)."""
    held = dict(taken or {})
    found: dict[str, str] = {}
    kinds: dict[str, str] = {}
    spans: list[tuple[int, int, str]] = []
    for pattern in (QUOTED, MARKED, BARE):
        for m in pattern.finditer(text):
            start, end = m.span("value")
            value = m.group("value")
            if pattern is not QUOTED:
                cut = len(value) - len(value.rstrip(TRAILING))
                value, end = value[:len(value) - cut], end - cut
            if not value or any(s < end and start < e for s, e, _ in spans):
                continue
            if pattern is BARE and not _looks_secret(value):
                continue
            if pattern is MARKED and value.lower() in ("field", "box", "input", "reset", "the", "a", "my"):
                continue
            word = m.group("word").lower()
            name = next((n for n, v in {**held, **found}.items() if v == value), None)
            if name is None:
                name, n = word, 2
                while name in held or name in found:
                    name, n = f"{word}_{n}", n + 1
            found[name] = value
            kinds[name] = KINDS[word]
            spans.append((start, end, name))
    out = text
    for start, end, name in sorted(spans, reverse=True):
        q = m_quote(out, start, end)
        out = out[:start - q] + "{{secret:" + name + "}}" + out[end + q:]
    return out, found, kinds


def m_quote(text: str, start: int, end: int) -> int:
    """1 when the value at [start, end) is wrapped in quotes (they go with it), else 0."""
    if start > 0 and end < len(text) and text[start - 1] in "\"'“‘`" and text[end] in "\"'”’`":
        return 1
    return 0
