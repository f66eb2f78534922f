"""Page text made safe to show the model, on both sides: the extension's page map and every page
string the host prints (a title, an address, a tab's name, what a reading tool brought back).

A page may try to close the fence the map is quoted in (`\"\"\"`, or a look-alike: fullwidth
quotes, quotes with invisible characters between them) or to write a line that reads as one of the
map's own (`[e1] button Keep my account`, `[e4 link Pay]`). Format characters (zero-width spaces
and joiners, direction overrides: invisible by nature) are dropped; characters that NFKC folds onto
a quote or a square bracket are taken as what they look like; a run of three quotes (or `<<<`,
`>>>`) becomes «; a bracket opening an element id becomes a parenthesis. The extension reads these
rules from the generated schema files.
"""

from __future__ import annotations

import re
import unicodedata

# Characters NFKC folds onto '"', '[' and ']' (tests/test_page_text.py checks the list is whole).
LOOKALIKES: dict[str, str] = {"\uff02": '"', "\uff3b": "[", "\ufe47": "[", "\uff3d": "]", "\ufe48": "]"}
# The fence and other delimiters a page must not write.
DELIMITERS = r'"{3,}|<<<|>>>'
# A bracket that would open an element of the map: `[e12`, `[*e12` (new), `[f1e12` (in a frame).
ELEMENT_BRACKET = r"\[(?=\*?(?:f\d+)?e\d+\b)"

_DELIM = re.compile(DELIMITERS)
_BRACKET = re.compile(ELEMENT_BRACKET)
_FOLD = str.maketrans(LOOKALIKES)


def neutral(s: str, *, one_line: bool = True) -> str:
    """The page's words as they may be shown: no fence, no line of the map's, nothing invisible."""
    s = "".join(ch for ch in s.translate(_FOLD) if unicodedata.category(ch) != "Cf")
    s = _BRACKET.sub("(", _DELIM.sub("«", s))
    return " ".join(s.split()) if one_line else s


def one_line(s: str, limit: int) -> str:
    """A string someone else chose (a page, a site, the model) as one bounded line of a prompt:
    neutral, its line breaks gone, at most `limit` characters — so it can neither start a line of
    its own nor grow a request."""
    s = neutral(s)
    return s if len(s) <= limit else s[:limit - 1] + "…"
