"""The terminal does what the panel does: `heybro tasks`, `show`, `pause`, `resume`, `stop`,
`message` against a real host (over its websocket) and a real store, with and without a host
running; `heybro run` answers Ctrl-C with a question and SIGTERM by stopping the task, and always
closes the Chromium it launched."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest

from support import demo_script
from support.browser import host_pids, launch
from support.browser import test_env as base_env
from support.scripted_llm import ScriptedLLM, call, calls, slow

from heybro.demo import DemoSite
from heybro.store import TaskStore

GOAL = "Buy a blue kettle for Ann Lee"
# A scheduler asked again (after the user's message) goes on with the plan it has.
AGAIN = {"scheduler": calls(("start_work", {}))}


def heybro(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "heybro.cli", *args], env=env,
                          capture_output=True, text=True, timeout=timeout)


class Background:
    """`heybro …` running in the background, its output collected line by line."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "heybro.cli", *args], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()

    @staticmethod
    def _read(stream: IO[str] | None, lines: list[str]) -> None:
        """Lines as they come; the last one also while it is unfinished (a question's prompt
        waits for its answer on the same line)."""
        assert stream is not None
        partial = False
        for chunk in iter(lambda: os.read(stream.fileno(), 4096).decode(errors="replace"), ""):
            for i, piece in enumerate(chunk.split("\n")):
                if i == 0 and partial:
                    lines[-1] += piece
                else:
                    lines.append(piece)
            partial = True  # the piece after the last newline ("" when the chunk ended one)

    def wait_for(self, pred: Callable[[str], bool], timeout: float = 60, err: bool = False) -> str:
        lines = self.err if err else self.out
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(lines):
                if pred(line):
                    return line
            assert self.proc.poll() is None or lines, (self.out, self.err)
            time.sleep(0.05)
        raise AssertionError(f"not seen in time: {self.out[-20:]} {self.err[-20:]}")

    def task_id(self) -> str:
        line = self.wait_for(lambda s: s.startswith("Task "))
        return line.split()[1].rstrip(":")

    def answer(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text)
        try:
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise AssertionError((self.out, self.err)) from None

    def finish(self, timeout: float = 120) -> int:
        return self.proc.wait(timeout=timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def status_of(env: dict[str, str], task_id: str) -> str:
    r = heybro(env, "show", task_id)
    assert r.returncode == 0, r.stderr
    return re.search(r"^  status: (\w+)", r.stdout, re.M).group(1)  # type: ignore[union-attr]


def until(pred: Callable[[], bool], timeout: float = 30, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def gated(gate: threading.Event, step: Callable[[dict], Any]) -> Callable[[dict], Any]:
    """A model answer that comes only once the test opens the gate (at most a minute)."""
    def answer(body: dict) -> Any:
        gate.wait(60)
        return step(body)
    return answer


def processes_with(marker: str) -> list[int]:
    """PIDs whose command line names `marker` (e.g. a Chromium profile folder)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit() and int(proc.name) != os.getpid():
            try:
                if marker.encode() in (proc / "cmdline").read_bytes():
                    found.append(int(proc.name))
            except OSError:
                pass
    return found


@pytest.mark.browser
def test_the_terminal_lists_pauses_messages_resumes_and_shows_a_task_in_the_users_browser(
        tmp_path: Path) -> None:
    script = demo_script.happy()
    # The model's first answer waits until the pause was asked for: that reply is then kept,
    # not acted on, and the worker is asked again after the resume.
    asked_to_pause = threading.Event()
    script["worker"].insert(0, gated(asked_to_pause, script["worker"][0]))
    with DemoSite() as site, ScriptedLLM(script, default=AGAIN) as llm, \
            launch(home=tmp_path / "home") as eb:  # the home outlives the browser
        eb.open_panel()  # the panel connects the extension, which starts its host
        until(lambda: (eb.home / "state" / "endpoint.json").exists(), what="the browser's host")
        env = eb.env | llm.env()
        run = Background(env, "run", GOAL, "--url", site.url)
        watcher: Background | None = None
        try:
            task = run.task_id()
            listed = heybro(env, "tasks")
            assert listed.returncode == 0 and re.search(
                rf"^{task}\s+(planning|executing)\s+.*{GOAL}$", listed.stdout, re.M), listed.stdout

            pausing = Background(env, "pause", task)
            run.wait_for(lambda s: "Pausing at the next safe point" in s)
            asked_to_pause.set()
            assert pausing.finish(60) == 0, pausing.err
            assert "".join(pausing.out).startswith(f"Task {task} is paused"), pausing.out
            assert site.orders == [] and status_of(env, task) == "paused"

            # Another task is refused, naming the commands that end the wait.
            other = heybro(env, "run", "Buy a red kettle", "--url", site.url)
            assert other.returncode == 2
            assert f"({task}) is paused" in other.stderr
            assert f"`heybro resume {task}`" in other.stderr and f"`heybro stop {task}`" in other.stderr

            said = heybro(env, "message", task, "Ann wants gift wrapping")
            assert said.returncode == 0 and f"Sent to task {task}. Task {task} is paused" in said.stdout
            assert status_of(env, task) == "paused"  # a message does not resume it

            # A second terminal says something and follows the task from there to its end.
            watcher = Background(env, "message", task, "Ann prefers express shipping", "--follow")
            watcher.wait_for(lambda s: s == "  you: Ann prefers express shipping")
            resumed = heybro(env, "resume", task)
            assert resumed.returncode == 0 and f"Task {task} resumed" in resumed.stdout
            assert run.finish() == 0, "\n".join(run.out + run.err)
            assert watcher.finish() == 0, "\n".join(watcher.out + watcher.err)
            assert any(s.startswith("✓ completed: The shop confirms order") for s in watcher.out)
            assert not any("Pausing" in s for s in watcher.out)  # only what came after it
            assert len(site.orders) == 1
            assert "  · Pausing at the next safe point (between actions)…" in run.out
            assert "  you: Ann wants gift wrapping" in run.out
            after = [r for r in llm.requests if "Ann wants gift wrapping" in str(r["messages"])]
            assert after, "the planner never heard the message"

            shown = heybro(env, "show", task)
            assert shown.returncode == 0, shown.stderr
            text = shown.stdout
            assert text.startswith(f"Task {task}: {GOAL}\n  status: completed")
            assert "Plan:\n  ✓ 1. " in text and "Run:" in text
            assert re.search(r"\[step \d+ · subtask 1/\d+\] fill\(", text)
            assert "      ↳ click: expected met (URL contains '/product/p1'" in text
            assert "      ✓ fill: done" in text  # an action without an expectation: its outcome
            assert re.search(r"^  verifier: mark_complete \(model 0\.\d\d ≥ 0\.70; page: [^)]*\) Results "
                             "listed$", text, re.M)
            assert "  you: Ann wants gift wrapping" in text
            assert f"✓ completed: The shop confirms order {site.orders[0]['id']}" in text

            again = heybro(env, "stop", task)
            assert again.returncode == 1 and "That task is already completed." in again.stderr
        finally:
            for b in (run, watcher):
                if b is not None:
                    b.kill()
    # No host now: the same record, read from the store.
    offline = heybro(eb.env, "show", task)
    assert offline.returncode == 0 and offline.stdout == text
    listed = heybro(eb.env, "tasks")
    assert re.search(rf"^{task}\s+completed\s", listed.stdout, re.M), listed.stdout
    assert host_pids(eb.home) == []  # reading started no host


def test_stop_and_pause_without_a_host_change_the_record(tmp_path: Path) -> None:
    env = base_env(tmp_path)
    store = TaskStore(tmp_path / "data" / "tasks.sqlite3")
    row = store.create_task("Book a table for two", url="http://127.0.0.1:9/")
    store.set_status(row.id, "paused", "interrupted: the browser disconnected")
    store.close()
    r = heybro(env, "tasks")
    assert re.search(rf"^{row.id}\s+paused\s.*Book a table for two$", r.stdout, re.M), r.stdout
    assert "└ interrupted: the browser disconnected" in r.stdout
    r = heybro(env, "pause", row.id)
    assert r.returncode == 0 and f"Task {row.id} is paused" in r.stdout
    r = heybro(env, "message", row.id, "for three, actually")
    assert r.returncode == 0 and f"Task {row.id} is paused" in r.stdout, (r.stdout, r.stderr)
    r = heybro(env, "stop", row.id)
    assert r.returncode == 0 and r.stdout.startswith(f"Task {row.id} is stopped"), r.stderr
    shown = heybro(env, "show", row.id).stdout
    assert "  status: stopped — stopped by the user" in shown and "  you: for three, actually" in shown
    r = heybro(env, "resume", row.id)
    assert r.returncode == 1 and "That task is stopped, not paused." in r.stderr
    # A task the record calls running that no live process holds (its host was killed).
    store = TaskStore(tmp_path / "data" / "tasks.sqlite3")
    cut = store.create_task("Renew the library books", status="executing")
    store.close()
    r = heybro(env, "tasks")
    assert re.search(rf"^{cut.id}\s+paused\s", r.stdout, re.M), r.stdout
    assert "└ interrupted: the heybro host running it stopped (resume it to go on)" in r.stdout
    r = heybro(env, "tasks", "--limit", "0")
    assert r.returncode == 2 and "'0' is not a number from 1 to 500" in r.stderr
    r = heybro(env, "tasks", "--limit", "1")
    rows = [line for line in r.stdout.splitlines()[1:] if "└" not in line]
    assert len(rows) == 1 and rows[0].startswith(cut.id)  # the newest task only
    r = heybro(env, "show", "nope")
    assert r.returncode == 1 and "There is no task 'nope'." in r.stderr
    assert host_pids(tmp_path) == []  # each host started for a request has ended


@pytest.mark.browser
def test_sigterm_stops_the_task_and_closes_the_chromium_it_launched(tmp_path: Path) -> None:
    script = demo_script.happy()
    script["worker"][1] = slow(30, script["worker"][1])  # busy when the signal comes
    with DemoSite() as site, ScriptedLLM(script) as llm:
        env = base_env(tmp_path / "home") | llm.env(TMPDIR=str(tmp_path))
        run = Background(env, "run", GOAL, "--url", site.url, "--new-browser", "--headless")
        try:
            task = run.task_id()
            run.wait_for(lambda s: "search" in s or "fill(" in s)
            profiles = list(tmp_path.glob("heybro-run-*/profile"))
            assert len(profiles) == 1 and processes_with(str(profiles[0]))
            run.proc.send_signal(signal.SIGTERM)
            assert run.finish(60) == 143, (run.out, run.err)
        finally:
            run.kill()
        assert any(line.startswith("✗ stopped") for line in run.out), run.out
        assert processes_with(str(profiles[0])) == []
        assert host_pids(tmp_path / "home") == []
        assert not profiles[0].exists()  # the throwaway profile is gone too
        assert status_of(env, task) == "stopped"
        assert site.orders == []


@pytest.mark.browser
def test_ctrl_c_asks_before_stopping(tmp_path: Path) -> None:
    script = demo_script.happy()
    answered, released = threading.Event(), threading.Event()
    # Nothing happens before the first answer "n"; the third model call is in flight (until the
    # stop cancels it) when Ctrl-C comes again.
    script["worker"][0] = gated(answered, script["worker"][0])
    script["worker"][2] = gated(released, script["worker"][2])
    with DemoSite() as site, ScriptedLLM(script) as llm:
        env = base_env(tmp_path / "home") | llm.env(TMPDIR=str(tmp_path))
        run = Background(env, "run", GOAL, "--url", site.url, "--new-browser", "--headless")
        try:
            task = run.task_id()
            run.proc.send_signal(signal.SIGINT)
            run.wait_for(lambda s: "stop the task? [Y/n]" in s, err=True)
            run.answer("n\n")
            answered.set()
            run.wait_for(lambda s: s.endswith("Going on."), err=True)
            run.wait_for(lambda s: "[step 1 " in s)  # it went on
            run.wait_for(lambda s: "mark_done" in s)
            assert run.proc.poll() is None
            run.proc.send_signal(signal.SIGINT)
            until(lambda: sum("stop the task?" in s for s in run.err) == 2, what="the question")
            run.answer("\n")  # Enter: yes
            assert run.finish(60) == 130, (run.out, run.err)
            profiles = list(tmp_path.glob("heybro-run-*"))
        finally:
            released.set()
            run.kill()
        assert any(line.startswith("✗ stopped") for line in run.out), run.out
        assert profiles == [] and processes_with(str(tmp_path / "heybro-run-")) == []
        assert status_of(env, task) == "stopped"
        assert site.orders == []


@pytest.mark.browser
def test_a_task_cut_off_with_its_browser_is_resumed_from_the_terminal(tmp_path: Path) -> None:
    """`heybro run` killed outright takes its Chromium with it; the task waits paused, and
    `heybro resume` (no browser running heybro) starts one and finishes the task there."""
    script = demo_script.happy()
    # Killed while the model answers in the second subtask; that answer is lost, asked again.
    script["worker"].insert(2, slow(30, script["worker"][2]))
    def scheduler(body: dict) -> dict:
        if "Also note the order number" in str(body["messages"]):
            return calls(("add_subtask", {"subtask": "Note the order number"}), ("start_work", {}))
        return AGAIN["scheduler"]

    after = {"scheduler": scheduler, "worker": call("mark_done", summary="Order number noted"),
                     "verifier": call("mark_complete", reason="Nothing more to do",
                                      confidence=0.9)}
    with DemoSite() as site, ScriptedLLM(script, default=after) as llm:
        env = base_env(tmp_path / "home") | llm.env(TMPDIR=str(tmp_path))
        run = Background(env, "run", GOAL, "--url", site.url, "--new-browser", "--headless")
        try:
            task = run.task_id()
            run.wait_for(lambda s: "mark_done" in s or "verifier:" in s)
            profile = next(tmp_path.glob("heybro-run-*/profile"))
            run.proc.kill()
            run.proc.wait()
        finally:
            run.kill()
        until(lambda: processes_with(str(profile)) == [] and host_pids(tmp_path / "home") == [],
              what="Chromium and its host to end with the killed command")
        r = heybro(env, "resume", task, "--headless", timeout=180)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "starting Chromium with heybro to resume task" in r.stdout
        assert "✓ completed: The shop confirms order" in r.stdout
        assert len(site.orders) == 1
        assert host_pids(tmp_path / "home") == []
        # A word to the finished task continues it: a browser is started for that too.
        r = heybro(env, "message", task, "Also note the order number", "--headless", timeout=180)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "starting Chromium with heybro to message task" in r.stdout
        assert "  you: Also note the order number" in r.stdout
        assert "✓ completed: Nothing more to do" in r.stdout and len(site.orders) == 1
        assert host_pids(tmp_path / "home") == []
        # Only the killed command's throwaway profile is left (nothing could remove it).
        assert list(tmp_path.glob("heybro-run-*")) == [profile.parent]
