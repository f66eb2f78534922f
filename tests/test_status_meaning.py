"""A status's meaning is written once (shared_schema/status.py's MEANING and PAUSE_MEANING) and read
everywhere: the host, the store, the CLI and the MCP server from there, the panel, the popup and the
notifications from the generated extension/shared/vocabulary.js. No file keeps a set of statuses of
its own (which ones have ended, which are at work), a status's label, or reads a reason's words to
learn whether the person is awaited. So a new status is its declaration: the last test adds
`needs_review` to a copy of the project, changing status.py alone, and every reader knows it."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from shared_schema.status import MEANING, PAUSE_MEANING, FINAL, RUNNING, Pause, TaskStatus, awaits_user

ROOT = Path(__file__).resolve().parents[1]
DECLARED = ROOT / "shared_schema" / "status.py"
GENERATED = {"vocabulary.js", "agent.classic.js", "messages.schema.js"}
WORDS = "|".join(s.value for s in TaskStatus)


def _js_sources() -> list[Path]:
    return [p for p in sorted((ROOT / "extension").rglob("*.js")) if p.name not in GENERATED]


def _py_sources() -> list[Path]:
    return [p for p in sorted([*(ROOT / "host" / "heybro").rglob("*.py"),
                               *(ROOT / "shared_schema").glob("*.py")]) if p != DECLARED]


def _js_status_sets(source: str) -> list[str]:
    """Statuses grouped by hand: a list or set of them, or a test of one against several."""
    one = r"STATUS\.\w+"
    found = re.findall(rf"[\[(]\s*{one}\s*,\s*{one}", source)
    found += re.findall(rf"===?\s*{one}\s*(?:\|\||&&)[^;\n]*?[!=]==?\s*{one}", source)
    return found


def _py_status_sets(source: str) -> list[int]:
    """Lines where two or more statuses are grouped by hand (a tuple, set or list of members, or
    a boolean of comparisons with them)."""
    def members(node: ast.AST) -> set[str]:
        return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name) and n.value.id == "TaskStatus"}
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Tuple, ast.Set, ast.List, ast.BoolOp)) and len(members(node)) > 1:
            lines.append(node.lineno)
    return sorted(lines)


def test_the_scans_find_a_hand_written_set_of_statuses() -> None:
    assert len(_js_status_sets("const B = new Set([STATUS.planning, STATUS.executing]);\n"
                               "const f = s === STATUS.completed || s === STATUS.failed;")) == 2
    assert _js_status_sets("const f = meaningOf(s)?.final; if (s === STATUS.waiting) x();") == []
    assert _py_status_sets("if s in (TaskStatus.failed, TaskStatus.stopped): pass\n"
                           "ok = s == TaskStatus.paused or s == TaskStatus.waiting\n"
                           "if s.final and s != TaskStatus.completed: pass") == [1, 2]


def test_no_file_keeps_a_set_of_statuses_of_its_own() -> None:
    found = [f"{p.relative_to(ROOT)}: {hit}" for p in _js_sources()
             for hit in _js_status_sets(p.read_text())]
    found += [f"{p.relative_to(ROOT)}:{line}" for p in _py_sources()
              for line in _py_status_sets(p.read_text())]
    assert found == [], "read final / running / resumable from the vocabulary:\n" + "\n".join(found)


def test_no_file_reads_a_reason_to_learn_what_a_pause_means() -> None:
    """Whether a pause waits for the person, was asked for, or holds an action is its `pause`
    word: never a prefix or a pattern of its reason's text."""
    phrases = ("waiting for you", "paused by the user", "stopped by the user", "cannot write its record")
    found = []
    for p in _js_sources():
        for m in re.finditer(r"/(?:\\/|[^/\n])+/[a-z]*\.test\(", p.read_text()):
            if any(ph in m.group(0).lower() for ph in phrases):
                found.append(f"{p.relative_to(ROOT)}: {m.group(0)}")
    for p in _py_sources():
        for node in ast.walk(ast.parse(p.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("startswith", "endswith", "search", "match")):
                said = " ".join(ast.unparse(a) for a in node.args).lower()
                if "reason" in ast.unparse(node.func.value) or any(ph in said for ph in phrases):
                    found.append(f"{p.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert found == [], "\n".join(found)


def test_a_status_s_words_are_written_once() -> None:
    """The labels, busy words and pause advice are the vocabulary's: no view spells them."""
    said = {m.label for m in MEANING.values() if " " in m.label}
    said |= {m.busy for m in MEANING.values() if m.busy} | {m.advice for m in PAUSE_MEANING.values()}
    found = [f"{p.relative_to(ROOT)}: {text!r}" for p in [*_js_sources(), *_py_sources()]
             for text in said if text in p.read_text()]
    assert found == [], "\n".join(found)


def test_each_status_says_what_it_means() -> None:
    assert FINAL == {TaskStatus.completed, TaskStatus.failed, TaskStatus.stopped}
    assert RUNNING == {TaskStatus.planning, TaskStatus.executing, TaskStatus.verifying,
                       TaskStatus.correcting}
    assert awaits_user("waiting") and not awaits_user("paused", Pause.asked)
    assert awaits_user("paused", Pause.held) and awaits_user("paused", Pause.cut_off)
    vocabulary = (ROOT / "extension" / "shared" / "vocabulary.js").read_text()
    for status, meaning in MEANING.items():  # the extension's copy says the same
        assert f'"label": {json.dumps(meaning.label, ensure_ascii=False)}' in vocabulary, status


ADD_NEEDS_REVIEW = (
    '    stopped = "stopped"\n',
    '    stopped = "stopped"\n    needs_review = "needs_review"\n',
    "    TaskStatus.stopped: Meaning(\"Stopped\", final=True),\n",
    "    TaskStatus.stopped: Meaning(\"Stopped\", final=True),\n"
    "    TaskStatus.needs_review: Meaning(\"Needs your review\", awaits_user=True, "
    "notice=\"needs_you\"),\n",
)

READ_IN_THE_EXTENSION = """
import { STATUS_WORDS, adviceFor, shownStatus } from "./extension/pages/panel/task_view.js";
import { alertFor, badgeCleared } from "./extension/background/notify.js";
import { applyEvent, emptyState, isLive, isRunning, newTaskContext, awaitsUser } from "./extension/shared/state.js";
import { StepStream } from "./extension/pages/panel/step_stream.js";
const ctx = { ...newTaskContext("t1", "Order the kettle", 0), status: "executing" };
const s = applyEvent({ ...emptyState(), taskContext: ctx },
  { task_id: "t1", seq: 1, at: 1, kind: "status", data: { status: "needs_review", reason: "check the basket" } });
const after = s.taskContext;
const stream = new StepStream("t1");
stream.add({ seq: 1, at: 1, kind: "status", data: { status: "needs_review", reason: "check the basket" } });
console.log(JSON.stringify({
  label: STATUS_WORDS.needs_review, shown: shownStatus(after), live: isLive(s), running: isRunning(s),
  awaits: awaitsUser(after), alert: alertFor(ctx, after)?.kind, badgeKept: !badgeCleared(after),
  streamed: stream.groups.flatMap((g) => g.lines.map((l) => l.text)),
}));
"""

READ_IN_THE_HOST = """
import json
from shared_schema.status import TaskStatus, awaits_user, FINAL, RUNNING
from shared_schema.events import StatusData
from heybro.store.task_store import ACTIVE, TaskStore
s = TaskStatus.needs_review
StatusData(status="needs_review")  # the wire takes it
print(json.dumps({"final": s in FINAL, "running": s in RUNNING, "awaits": awaits_user(s),
                  "held_by_its_run": "needs_review" in ACTIVE, "label": s.meaning.label}))
"""


def test_a_new_status_is_its_declaration_alone(tmp_path: Path) -> None:
    """`needs_review` added to a copy: status.py changed by hand, the vocabulary regenerated,
    and the host, the panel, the popup's words and the notifications read what it means."""
    for part in ("shared_schema", "extension", "host"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns(
            "__pycache__", "*.egg-info"))
    (tmp_path / "package.json").write_text((ROOT / "package.json").read_text())
    status_py = tmp_path / "shared_schema" / "status.py"
    text = status_py.read_text()
    for old, new in zip(ADD_NEEDS_REVIEW[::2], ADD_NEEDS_REVIEW[1::2]):
        assert old in text
        text = text.replace(old, new)
    status_py.write_text(text)
    env = {"PYTHONPATH": f"{tmp_path}:{tmp_path / 'host'}", "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-m", "shared_schema.generate"], cwd=tmp_path, env=env,
                   check=True)
    host = json.loads(subprocess.run([sys.executable, "-c", READ_IN_THE_HOST], cwd=tmp_path,
                                     env=env, check=True, capture_output=True, text=True).stdout)
    assert host == {"final": False, "running": False, "awaits": True, "held_by_its_run": True,
                    "label": "Needs your review"}
    (tmp_path / "read.mjs").write_text(READ_IN_THE_EXTENSION)
    out = subprocess.run(["node", "read.mjs"], cwd=tmp_path, check=True, capture_output=True,
                         text=True).stdout
    assert json.loads(out) == {
        "label": "Needs your review", "shown": "needs_review", "live": True, "running": False,
        "awaits": True, "alert": "waiting", "badgeKept": True,
        "streamed": ["Needs your review — check the basket"]}
