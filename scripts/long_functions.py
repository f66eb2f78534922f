#!/usr/bin/env python3
"""The host's functions longer than a limit (default 80 lines), longest first: where a newcomer
meets a function too long to read as one thing, to cut into named phases.

    python3 scripts/long_functions.py            # host/heybro, over 80 lines
    python3 scripts/long_functions.py 50 host/heybro/agent
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def long_functions(folder: Path, limit: int) -> list[tuple[int, str]]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    found.append((lines, f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"))
    return sorted(found, reverse=True)


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "host" / "heybro"
    for lines, where in long_functions(folder.resolve(), limit):
        print(f"{lines:4d}  {where}")


if __name__ == "__main__":
    main()
