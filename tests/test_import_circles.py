"""The host's modules import in one direction: no circle of modules that need each other, counting
every import — at load, inside a function, under TYPE_CHECKING and in a `__main__` block (a circle
hidden in a function or a type is still two modules that cannot be understood or changed alone).
Where two rooms need each other, the lower one states what it needs as an interface that the other
hands in (session/api.py, local_tools.LocalContext, sinks.GateEnv), and a private name never crosses
a package."""

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


def imports(name: str, path: Path, known: dict[str, Path]) -> dict[str, list[str]]:
    """Every module of the host `name` imports, anywhere in it, with the names it takes."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: dict[str, list[str]] = {}
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, ast.ImportFrom):
            base = package
            for _ in range(max(n.level - 1, 0)):
                base = base.rsplit(".", 1)[0]
            base = (f"{base}.{n.module}" if n.module else base) if n.level else (n.module or "")
            for a in n.names:
                target = f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                if target in known:
                    found.setdefault(target, []).append("" if target.endswith(a.name) else a.name)
        elif isinstance(n, ast.Import):
            for a in n.names:
                if a.name in known:
                    found.setdefault(a.name, []).append("")
    found.pop(name, None)
    return found


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


def test_the_import_finder_sees_imports_in_functions_and_for_types(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"
                    "def f():\n    from .b import thing\n    import heybro.c\n")
    known = {"heybro.a": path, "heybro.b": path, "heybro.c": path, "heybro.m": path}
    assert imports("heybro.m", path, known) == {"heybro.a": ["A"], "heybro.b": ["thing"],
                                                "heybro.c": [""]}


def test_no_circle_of_imports_in_the_host() -> None:
    known = modules()
    graph = {name: set(imports(name, path, known)) for name, path in known.items()}
    assert circles(graph) == []


def test_no_private_name_crosses_a_package() -> None:
    """A module takes another package's public names only (a `_name` is its package's own)."""
    known = modules()
    found = [f"{name} takes {target}.{taken}" for name, path in known.items()
             for target, names in imports(name, path, known).items() for taken in names
             if taken.startswith("_") and target.rsplit(".", 1)[0] != name.rsplit(".", 1)[0]]
    assert found == [], "\n".join(found)
