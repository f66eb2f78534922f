"""A store written by an earlier heybro (the history rows of that version, their dict shapes of
then) still opens: in the panel's history view, checked by the extension's own validator, and in
`heybro show`."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from shared_schema import build
from heybro.cli_tasks import render
from heybro.store import TaskStore, views

ROOT = Path(__file__).resolve().parents[1]

# Rows as the version before typed events wrote them (a control signal rode on a chat message,
# a memory note on a message), plus a kind from some later version this one does not know.
OLD_ROWS: list[tuple[str, dict[str, object]]] = [
    ("plan", {"subtasks": ["Find the blue kettle", "Order it"], "current": 0}),
    ("status", {"status": "executing", "reason": None}),
    ("tool_call", {"role": "worker", "tool": "click", "parameters": {"element_id": "e5"},
                   "reason": "", "target": 'button "Buy"'}),
    ("tool_result", {"role": "worker", "tool": "click", "success": True, "error": None,
                     "error_code": None, "result": {"url": "http://shop/form", "ok": True},
                     "target": 'button "Buy"', "duration_ms": 3.0, "page_changed": True,
                     "page_ms": None, "render_ms": None, "expectation": None}),
    ("message", {"text": "Pausing at the next safe point (between actions)…",
                 "control": "pausing"}),
    ("message", {"text": "Remembered order_number = KC1",
                 "memory": {"name": "order_number", "value": "KC1", "source_url": None,
                            "at": 1795261501.0}}),
    ("message", {"text": "Use the office address", "who": "user"}),
    ("hologram", {"frames": 3}),
    ("usage", {"role": "worker", "model": "m", "prompt_tokens": 900, "completion_tokens": 20,
               "total_tokens": 920, "latency_ms": 200.0, "cost_usd": 0.0, "attempts": 1,
               "mode": "native"}),
    ("status", {"status": "completed", "reason": "Order KC1 shown", "result": "Ordered",
                "answer": None, "steps": 1, "memory": {"order_number": "KC1"}}),
]


@pytest.fixture
def old_store(tmp_path: Path) -> tuple[TaskStore, str]:
    store = TaskStore(tmp_path / "tasks.sqlite3")
    row = store.create_task("Order the blue kettle", url="http://shop/")
    for kind, data in OLD_ROWS:
        store.append(row.id, kind, data)
    store.update_status(row.id, "completed", "Order KC1 shown")
    return store, row.id


def test_an_old_stores_history_opens_in_heybro_show(old_store: tuple[TaskStore, str]) -> None:
    store, task_id = old_store
    detail = views.detail(store, task_id)
    assert detail is not None
    out = io.StringIO()
    render(detail.model_dump(mode="json"), out)
    lines = out.getvalue().splitlines()
    assert "  [step 1 · subtask 1/2] click(element_id='e5') → button \"Buy\"" in lines
    assert "  · Pausing at the next safe point (between actions)…" in lines  # now a control event
    assert "  you: Use the office address" in lines
    assert "✓ completed: Order KC1 shown" in lines
    assert "  1 action, 1 LLM call, 920 tokens" in lines  # the unknown row left out, the rest read
    store.close()


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the extension's modules")
def test_an_old_stores_history_opens_in_the_panels_history_view(
        old_store: tuple[TaskStore, str]) -> None:
    store, task_id = old_store
    detail = views.detail(store, task_id)
    assert detail is not None
    message = build("task.detail", detail, re="r1")
    script = """
        import { assertMessage } from "./extension/shared/schema_check.js";
        import { historyLines } from "./extension/pages/panel/history_view.js";
        let text = "";
        for await (const chunk of process.stdin) text += chunk;
        const msg = assertMessage(JSON.parse(text), "to_extension");
        console.log(JSON.stringify(historyLines(msg.payload.history).map((l) => l.text)));
    """
    run = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT,
                         input=json.dumps(message), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = json.loads(run.stdout)
    assert "Pausing at the next safe point (between actions)…" in lines
    assert "You: Use the office address" in lines
    assert "Remembered order_number = KC1" in lines
    assert any(line.startswith("Model use: 1 call, 920 tokens") for line in lines)
    store.close()
