"""A task's statuses are defined once (shared_schema/status.py) and the extension reads them from
the generated extension/shared/vocabulary.js: no code compares a status with a word of its own, so a
status renamed or added is one change, and the wire types say which words a status may be."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from shared_schema.events import StatusData
from shared_schema.generate import VOCABULARY_PATH, vocabulary
from shared_schema.status import FINAL, TaskStatus

ROOT = Path(__file__).resolve().parents[1]
WORDS = {s.value for s in TaskStatus}
GENERATED = {"vocabulary.js", "agent.classic.js"}


def _js_status_words(source: str) -> list[str]:
    alt = "|".join(sorted(WORDS))
    found = re.findall(rf"[sS]tatus[\w?.\]\[\"']*\s*[!=]==?\s*\"(?:{alt})\"", source)
    found += [m.group(0) for m in re.finditer(rf"\[\s*\"(?:{alt})\"(?:\s*,\s*\"(?:{alt})\")+\s*\]", source)]
    found += re.findall(rf"status:\s*\"(?:{alt})\"", source)
    return found


def _py_status_words(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            said = {s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)}
            said |= {e.value for s in sides if isinstance(s, (ast.Tuple, ast.Set, ast.List))
                     for e in s.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if said & WORDS and any("status" in ast.unparse(s) for s in sides):
                lines.append(node.lineno)
    return lines


def test_the_scans_find_a_status_word_of_its_own() -> None:
    assert len(_js_status_words('if (ctx?.status === "paused") x(); const L = ["failed", "stopped"];')) == 2
    assert _js_status_words('if (ctx?.status === STATUS.paused) x(); if (state === "failed") y();') == []
    assert _py_status_words('if row.status != "paused": pass\nif t["status"] in ("failed", "stopped"): pass') == [1, 2]


def test_the_extension_reads_statuses_from_the_vocabulary() -> None:
    found = [f"{p.relative_to(ROOT)}: {hit}" for p in sorted((ROOT / "extension").rglob("*.js"))
             if p.name not in GENERATED for hit in _js_status_words(p.read_text())]
    assert found == [], "\n".join(found)


def test_the_host_compares_statuses_with_the_one_definition() -> None:
    found = [f"{p.relative_to(ROOT)}:{line}" for p in sorted((ROOT / "host" / "heybro").rglob("*.py"))
             for line in _py_status_words(p.read_text())]
    assert found == [], "\n".join(found)


def test_the_generated_vocabulary_says_every_status_and_which_end_a_task() -> None:
    text = VOCABULARY_PATH.read_text()
    assert text == vocabulary()
    for s in TaskStatus:
        assert f'{s.value}: "{s.value}"' in text
    final = re.search(r"FINAL_STATUSES = new Set\((\[.*?\])\)", text)
    assert final and set(json.loads(final.group(1))) == {x.value for x in FINAL}


def test_a_status_the_vocabulary_lacks_is_refused_on_the_wire() -> None:
    assert StatusData(status="paused").status is TaskStatus.paused
    with pytest.raises(ValidationError):
        StatusData(status="sleeping")
