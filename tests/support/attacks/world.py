"""One browser launch that a class of attacks shares: the user's sites and the attacker's
(collector.py), the scripted model, heybro's config as a user could write it, Chromium with the
real extension and host, the side panel open — and the user at that panel: starting each task,
answering heybro's questions as the attack says, stopping what runs too long."""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from support.browser import launch
from support.scripted_llm import ScriptedLLM, call, calls, role_of

from .collector import Site
from .judge import Call, store_events
from .model import TaskSpec
from .scope import Ctx

HERE = Path(__file__).resolve().parent
RESOLVER = "--host-resolver-rules=MAP *.test 127.0.0.1"
FINAL = ("completed", "failed", "stopped")


class RecordingLLM(ScriptedLLM):
    """The scripted model, also keeping what it proposed (its tool calls) with the request each
    answered: the proof an attack was made starts there."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.proposed: list[Call] = []

    def respond(self, body: dict[str, Any]) -> tuple[int, dict[str, Any] | str, dict[str, str]]:
        status, payload, headers = super().respond(body)
        if status == 200 and isinstance(payload, dict) and "choices" in payload:
            msg = payload["choices"][0]["message"]
            with self._lock:
                index = len(self.requests) - 1
                for tc in msg.get("tool_calls") or []:
                    self.proposed.append(Call(role_of(body), tc["function"]["name"],
                                              json.loads(tc["function"]["arguments"]), index))
        return status, payload, headers


DEFAULTS: dict[str, Any] = {
    "worker": call("mark_done", summary="Done"),
    "verifier": call("mark_complete", reason="Done", confidence=0.9),
    "scheduler": call("start_work"),
    "analyst": call("answer", text="Done"),
    "technician": call("mark_done", summary="Done"),
}


def base_config(world: World) -> dict[str, Any]:
    """heybro's config.json as a user could write it: a site kept off (forum.test), fetch given to
    the worker (private addresses allowed: the suite's servers are on 127.0.0.1), and a notes MCP
    server the worker may use."""
    return {
        "sites": {"never": ["forum.test"]},
        "tools": {
            "allow_private_addresses": True,
            "roles": {"worker": ["calculate", "now", "fetch", "read_file", "write_file"]},
            "mcp_servers": {"notes": {"command": sys.executable, "args": [str(HERE / "notes_mcp.py")],
                                      "env": {"NOTES_FILE": str(world.notes)}, "roles": ["worker"]}},
        },
    }


class World:
    """One Chromium with heybro (its own HEYBRO_HOME and config), the two sites and the scripted
    model; `run_task` plays the user at the side panel for one task."""

    def __init__(self, root: Path, *, mcp: bool = False) -> None:
        self.root = root
        self.home = root / "home"
        self.notes = root / "notes.txt"
        self.mcp = mcp
        self.stack = ExitStack()

    def __enter__(self) -> World:
        try:
            self._start()
        except BaseException:
            self.stack.close()
            raise
        return self

    def _start(self) -> None:
        self.user = self.stack.enter_context(Site("user"))
        self.evil = self.stack.enter_context(Site("evil"))
        self.llm = RecordingLLM({}, default=dict(DEFAULTS))
        self.stack.enter_context(self.llm)
        config = base_config(self)
        if not self.mcp:  # a server started for every task costs a second each: only where used
            config["tools"].pop("mcp_servers")
        (self.home / "config").mkdir(parents=True, exist_ok=True)
        (self.home / "config" / "config.json").write_text(json.dumps(config, indent=1))
        env = self.model_env() | {"PYTHONPATH": str(HERE / "hosts")}
        self.eb = self.stack.enter_context(launch(env_extra=env, home=self.home, extra_args=[RESOLVER]))
        self.panel = self.eb.open_panel()
        expect(self.panel.locator("#host-pill")).to_have_text("Host connected", timeout=30_000)

    def __exit__(self, *exc: Any) -> None:
        self.stack.close()

    def model_env(self) -> dict[str, str]:
        """The scripted model's settings, with ask-first as the user has it by default (on)."""
        env = {k: v for k, v in self.llm.env().items() if k != "HEYBRO_CONFIRM"}
        return env | {"HEYBRO_MAX_LLM_CALLS": "40", "HEYBRO_TASK_TIMEOUT": "90"}

    # -- heybro's record -------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{self.home / 'data' / 'tasks.sqlite3'}?mode=ro", uri=True, timeout=10)

    def latest_task(self) -> tuple[str, str] | None:
        if not (self.home / "data" / "tasks.sqlite3").exists():
            return None
        con = self._db()
        try:
            row = con.execute("SELECT id, status FROM tasks ORDER BY created_at DESC LIMIT 1").fetchone()
        finally:
            con.close()
        return (row[0], row[1]) if row else None

    def status(self, task_id: str) -> str:
        con = self._db()
        try:
            row = con.execute("SELECT status FROM tasks WHERE id = ?", (task_id,)).fetchone()
        finally:
            con.close()
        return row[0] if row else ""

    def open_question(self, task_id: str) -> dict[str, Any] | None:
        events = store_events(self.home, [task_id])
        asked = [e["data"] for e in events if e["kind"] == "question"]
        answered = {e["data"].get("answers") for e in events if e["kind"] == "message"}
        return next((q for q in reversed(asked) if q.get("id") not in answered), None)

    # -- tabs and tasks --------------------------------------------------------------------
    def close_tabs(self) -> None:
        for p in list(self.eb.ctx.pages):
            if p is not self.panel:
                try:
                    p.close()
                except Exception:  # noqa: BLE001 (a tab already gone)
                    pass

    def open_tab(self, url: str) -> Page:
        page = self.eb.ctx.new_page()
        page.on("dialog", lambda d: None)  # a dialog stays open, for heybro to answer, as for a person
        page.goto(url, wait_until="load")
        return page

    def start_task(self, goal: str) -> str:
        self.ensure_idle()
        dismiss = self.panel.locator("#dismiss")
        if dismiss.is_visible():
            dismiss.click()
            # The panel redraws once the old task is cleared: a goal typed before that is lost.
            expect(self.panel.locator("#task")).to_be_hidden(timeout=10_000)
        before = self.latest_task()
        for _ in range(3):
            self.panel.fill("#goal", goal)
            self.panel.click("#send")
            deadline = time.monotonic() + 8
            while time.monotonic() < deadline:
                now = self.latest_task()
                if now and (before is None or now[0] != before[0]):
                    return now[0]
                time.sleep(0.1)
        raise AssertionError(f"no task started for {goal!r}: the panel shows "
                             f"{self.panel.locator('#log').inner_text()[-500:]}")

    def ensure_idle(self) -> None:
        """No task of an earlier attack still running (one task at a time)."""
        last = self.latest_task()
        if last and last[1] not in FINAL:
            self.stop(last[0])

    def stop(self, task_id: str) -> None:
        try:
            if self.panel.locator("#stop").is_visible():
                self.panel.click("#stop")
        except Exception:  # noqa: BLE001
            pass
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and self.status(task_id) not in FINAL:
            time.sleep(0.2)
        if self.status(task_id) not in FINAL:
            self.eb.heybro("stop", task_id)

    def follow(self, ctx: Ctx, task_id: str, spec: TaskSpec) -> str:
        """Follows the task to its end, answering heybro's questions as the attack's user does."""
        deadline = time.monotonic() + spec.timeout_s
        answered: set[str] = set()
        while True:
            status = self.status(task_id)
            if status in FINAL:
                return status
            if status == "waiting":
                q = self.open_question(task_id)
                if q and q.get("id") not in answered:
                    answered.add(q["id"])
                    self.answer(ctx, q, spec)
                    deadline += 5
            elif status == "paused":
                self.stop(task_id)
                return self.status(task_id)
            if time.monotonic() > deadline:
                self.stop(task_id)
                return self.status(task_id)
            time.sleep(0.15)

    def answer(self, ctx: Ctx, q: dict[str, Any], spec: TaskSpec) -> None:
        a = spec.answers
        if a.on_question:
            a.on_question(ctx, q)
        box = self.panel.locator("#question")
        expect(box).to_be_visible(timeout=10_000)
        kind = q.get("kind", "text")
        if kind == "confirm":
            said = a.confirm
            box.get_by_role("button", name=said, exact=True).click()
        elif kind == "secret":
            said = "(secret)"
            self.panel.fill("#secret-input", a.secret)
            self.panel.press("#secret-input", "Enter")
        elif kind == "choice" and q.get("choices"):
            said = a.choice if a.choice and a.choice in q["choices"] else str(q["choices"][0])
            box.get_by_role("button", name=said, exact=True).click()
        else:
            said = a.text
            self.panel.fill("#goal", a.text)
            self.panel.click("#send")
        ctx.answered.append((q, said))

    def run_task(self, ctx: Ctx, spec: TaskSpec) -> None:
        self.close_tabs()
        ctx.page = self.open_tab(spec.start)
        if spec.before:
            spec.before(ctx)
        self.llm.script = {
            "scheduler": list(spec.scheduler or [calls(("set_subtasks", {"subtasks": [spec.goal]}), ("start_work", {}))]),
            "worker": list(spec.worker),
            "verifier": list(spec.verifier or []),
            "analyst": list(spec.analyst or []),
        }
        ctx.page.bring_to_front()
        lo = len(self.llm.requests)
        task_id = self.start_task(spec.goal)
        ctx.task_ids.append(task_id)
        self.follow(ctx, task_id, spec)
        ctx.bounds.append((lo - ctx.bounds_base, len(self.llm.requests) - ctx.bounds_base))
