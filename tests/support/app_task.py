"""A whole task in a browser that is already open (logged in to an application): the panel starts
the real host over native messaging, and the real `heybro run` CLI hands it the task over the
host's websocket and follows it to the end, as a user in a terminal would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from heybro.endpoint import files

from .browser import ExtBrowser
from .scripted_llm import ScriptedLLM


@dataclass
class TaskRun:
    rc: int
    events: list[dict[str, Any]]
    stderr: str
    script_errors: list[str]
    before: Any = None  # what the application held before the task (CorpusTask.before)

    @property
    def final(self) -> dict[str, Any]:
        return [e for e in self.events if e["kind"] == "status"][-1]["data"]

    def results(self, tool: str) -> list[dict[str, Any]]:
        """The tool results the host reported for `tool`, in order."""
        return [e["data"] for e in self.events
                if e["kind"] == "tool_result" and e["data"]["tool"] == tool]

    def explain(self) -> str:
        lines = [f"rc={self.rc}", self.stderr[-1500:], *self.script_errors]
        for e in self.events:
            if e["kind"] in ("tool_result", "status", "verdict", "message", "error"):
                lines.append(json.dumps(e["data"])[:int(os.environ.get("HEYBRO_EXPLAIN_CHARS", "400"))])
        return "\n".join(lines)


def host_ready(eb: ExtBrowser, timeout_s: float = 30) -> None:
    """Opens the panel (which connects the extension, which starts its host) and waits until the
    host announces its websocket."""
    eb.open_panel()
    deadline = time.monotonic() + timeout_s
    with mock.patch.dict("os.environ", {"HEYBRO_HOME": str(eb.home)}):
        while files.read() is None:
            if time.monotonic() > deadline:
                raise AssertionError("the browser's host never announced itself")
            time.sleep(0.1)


def run_task(eb: ExtBrowser, llm: ScriptedLLM, goal: str, url: str, *,
             resources: dict[str, Path] | None = None, timeout_s: float = 240,
             env: dict[str, str] | None = None,
             answer: Callable[[dict[str, Any]], str] | None = None) -> TaskRun:
    """`answer(question)`: the user's answer to each question heybro asks (sent as `heybro
    message`, as a user in another terminal would); without it a question waits."""
    host_ready(eb)
    cmd = [sys.executable, "-m", "heybro.cli", "run", goal, "--url", url, "--json"]
    for name, path in (resources or {}).items():
        cmd += ["--resource", f"{name}={path}"]
    full_env = eb.env | llm.env(**(env or {}))
    proc = subprocess.Popen(cmd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    events: list[dict[str, Any]] = []
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read() if proc.stderr else ""))
    reader.start()
    watchdog = threading.Timer(timeout_s, proc.kill)  # (a run that never ends is cut off)
    watchdog.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if not line.startswith("{"):
                continue
            ev = json.loads(line)
            events.append(ev)
            if answer is not None and ev.get("kind") == "question":
                said = answer(ev["data"])
                subprocess.run([sys.executable, "-m", "heybro.cli", "message", ev["task_id"], said],
                               env=full_env, capture_output=True, text=True, timeout=60)
        rc = proc.wait()
    finally:
        watchdog.cancel()
    reader.join(timeout=10)
    return TaskRun(rc, events, "".join(err), list(llm.errors))
