"""Reading an element signature as the content script sends it (extension/content/signature.js):
a JSON object whose fields may be missing or of another type on a page that did something odd."""

from __future__ import annotations

from typing import Any


def attrs_of(sig: dict[str, Any]) -> dict[str, Any]:
    """The signature's attributes (an empty dict when it has none)."""
    attrs = sig.get("attrs")
    return attrs if isinstance(attrs, dict) else {}
