"""The host's modules import in one direction: no circle of modules that need each other as they
load (a circle is what made the definitions, the agent and the session hard to change alone).
Imports inside functions, under TYPE_CHECKING or in a `__main__` block are not loading."""

from __future__ import annotations

import ast
from pathlib import Path

HOST = Path(__file__).resolve().parents[1] / "host"


def modules() -> dict[str, Path]:
    out = {}
    for f in (HOST / "heybro").rglob("*.py"):
        parts = f.relative_to(HOST).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return out


def loading_imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and ("TYPE_CHECKING" in ast.unparse(node.test)
                                         or "__main__" in ast.unparse(node.test)):
            continue
        for n in [node] if not isinstance(node, (ast.If, ast.Try)) else list(ast.walk(node)):
            if isinstance(n, ast.ImportFrom):
                base = package
                for _ in range(max(n.level - 1, 0)):
                    base = base.rsplit(".", 1)[0]
                base = (f"{base}.{n.module}" if n.module else base) if n.level else (n.module or "")
                subs = {f"{base}.{a.name}" for a in n.names} & set(known)
                found |= subs or ({base} & set(known))
            elif isinstance(n, ast.Import):
                found |= {a.name for a in n.names} & set(known)
    return found - {name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_the_circle_finder_finds_one() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_circle_of_imports_in_the_host() -> None:
    known = modules()
    graph = {name: loading_imports(name, path, known) for name, path in known.items()}
    assert circles(graph) == []
