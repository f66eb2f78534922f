"""What a task may reach in the browser, whatever the model asks: the one rule both sides enforce.

Browser tools open and act on web pages only — `http(s)` documents (and a blank page) — never the
user's files (`file:`), the browser's own pages (`chrome:`, `devtools:`), an extension's pages,
`view-source:`, or documents made from a string (`data:`, `javascript:`, `blob:`). The host refuses
such an address before it leaves, the coordinator refuses it again (it reaches the extension
through the generated schema files), and a tab already showing one is not read.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel

WEB_SCHEMES: tuple[str, ...] = ("http", "https")
BLANK = "about:blank"

# Marks on a tool's arguments (their json_schema_extra), read by both sides: the address the tool
# opens, the tab it works in when an argument names it, and what it gives the page (text typed, a
# file dropped: the host weighs what it carries, agent/sinks.py).
OPENS: dict[str, Any] = {"reach": "opens"}
NAMES_TAB: dict[str, Any] = {"reach": "tab"}
GIVES: dict[str, Any] = {"reach": "gives"}
KEYS: dict[str, Any] = {"reach": "keys"}  # keys pressed: a single character is text typed


def reach_fields(args: type[BaseModel]) -> dict[str, str]:
    """A tool's arguments that open an address ("opens"), name a tab ("tab"), give the page
    something ("gives") or press keys, whose characters are typed ("keys"), by field name."""
    out: dict[str, str] = {}
    for name, f in args.model_fields.items():
        extra = f.json_schema_extra
        if isinstance(extra, dict) and isinstance(extra.get("reach"), str):
            out[name] = str(extra["reach"])
    return out


def page_address_problem(url: str) -> str | None:
    """Why a task may not open (or read) this address, in words for the model and the user; None when it may."""
    u = url.strip()
    if u.lower() == BLANK:
        return None
    try:
        parts = urlsplit(u)
    except ValueError:
        return f"{u[:200]!r} is not a web address."
    scheme = parts.scheme.lower()
    if not scheme:
        return f"{u[:200]!r} is not a web address: give the whole address, with http:// or https://."
    if scheme not in WEB_SCHEMES:
        return (f"heybro does not open {scheme}: addresses — a task works on web pages (http or "
                f"https) only, never on your files or the browser's own pages.")
    if not parts.hostname:
        return f"{u[:200]!r} names no site."
    return None
