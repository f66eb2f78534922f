"""HTML reduced to the text a reader sees: no scripts, styles or markup; blocks on their own lines."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_SKIP = {"script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "head"}
_BLOCK = {"p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "li",
          "ul", "ol", "table", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "br", "hr", "pre",
          "blockquote", "form", "fieldset", "dl", "dt", "dd", "figure", "figcaption", "details",
          "summary", "address", "body"}
_VOID = {"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source",
         "track", "wbr"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: list[str] = []
        self.skipping: list[str] = []
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self.in_title = True
        elif tag in _SKIP and tag not in _VOID:
            self.skipping.append(tag)
        elif tag in _BLOCK:
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append("\t")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        elif self.skipping and tag == self.skipping[-1]:
            self.skipping.pop()
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
        elif not self.skipping:
            self.parts.append(data)


def readable_text(html: str) -> tuple[str, str]:
    """(title, text) of an HTML document."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = (re.sub(r"[ \t\r\f\v\u00a0]+", " ", line).strip()
             for line in "".join(parser.parts).split("\n"))
    text = "\n".join(line for line in lines if line)
    return " ".join("".join(parser.title).split()), text
