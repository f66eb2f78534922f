#!/usr/bin/env python3
"""Writes the README's lists of tools from the tools' definitions.

    python3 scripts/gen_readme_tools.py          # rewrites README.md's generated lists
    python3 scripts/gen_readme_tools.py --check  # exit 1 when README.md is out of date

The README names the page tools `heybro mcp` offers (heybro's worker tools that reach the browser:
heybro.mcp_server.tools) in the first cell of their table row; this writes that cell from the
definitions, so a new tool's declaration is all the README needs. tests/test_readme_tools.py fails
when the file differs from what this writes, or when the README's tables of host tools and of
`heybro mcp`'s task tools miss a tool that is defined.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# The row of `heybro mcp`'s page tools ends with these words; its first cell is generated.
PAGE_ROW = " | heybro's worker tools by element id"


def page_tool_names() -> list[str]:
    sys.path.insert(0, str(ROOT / "host"))
    from heybro.outside.run import offered

    return list(offered())


def render(text: str) -> str:
    cell = "| " + ", ".join(f"`{n}`" for n in page_tool_names())
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if PAGE_ROW in line]
    if len(rows) != 1:
        raise SystemExit(f"README.md: expected one row ending {PAGE_ROW!r}, found {len(rows)}")
    line = lines[rows[0]]
    lines[rows[0]] = cell + line[line.index(PAGE_ROW):]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = README.read_text()
    new = render(text)
    if "--check" in argv:
        if new != text:
            print("README.md's list of tools is out of date: run python3 scripts/gen_readme_tools.py",
                  file=sys.stderr)
            return 1
        return 0
    if new != text:
        README.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
