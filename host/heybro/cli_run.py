"""`heybro run "goal" --url URL`: run a task through the host's websocket and stream its progress.

With Chrome already running the extension (its host announced an endpoint) the task runs in the
user's own browser; otherwise Chromium is launched with the extension and host, in a throwaway
profile unless --profile is given.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from websockets.exceptions import ConnectionClosed

from pydantic import ValidationError

from shared_schema import build
from shared_schema.events import (AnswerData, ControlData, ErrorData, ExperienceData, MessageData,
                                  PlanData, QuestionData, StatusData, ToolCallData, ToolResultData,
                                  UsageData, VerdictData)
from shared_schema.messages import Event
from shared_schema.status import FINAL, TaskStatus, meaning_of

from . import config, logs
from .cli_interrupts import Interrupts
from .browser.chromium import (OWN_BROWSER_FLAGS, QUIET_FLAGS, extension_flags, find_chromium,
                               parse_size, window_flags)
from .agent.history import verdict_numbers
from .agent.toolbox import reports
from .endpoint import files
from .endpoint.client import EndpointUnavailable, events, open_endpoint, send_control, start_task
from .install import browsers as browser_dirs
from .install import registration
from .native.identity import EXTENSION_ID
from .processes import alive, group_alive

log = logs.get("heybro.cli")

WORKING_ROLES = ("worker", "analyst", "technician")
NEEDED_YOU = 4  # exit status: stopped at a question nobody was there to answer
HOST_BACK_S = 90.0  # how long `heybro run` waits for a host that stopped to come back
PANEL_URL = f"chrome-extension://{EXTENSION_ID}/extension/pages/panel/panel.html"


def without_keys(env: Mapping[str, str]) -> dict[str, str]:
    """The terminal's environment without its API keys: Chromium, its helpers and the host it
    starts need none (the task carries its settings over the local endpoint; the host reads its
    own file), and a process's environment is readable by more than its owner's eyes."""
    return {k: v for k, v in env.items() if not k.upper().endswith("API_KEY")}


def _chromium_using(profile: Path) -> int | None:
    """The pid of a live Chromium that holds the profile (its `SingletonLock`, "host-pid", on this
    machine), or None. A lock left by a Chromium that was killed names a pid that is gone, or one
    the system has since given to another program."""
    lock = profile / "SingletonLock"
    try:
        target = os.readlink(lock)
    except OSError:
        return None
    host, _, pid = target.rpartition("-")
    if not pid.isdigit() or host != socket.gethostname() or not alive(int(pid)):
        return None
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
    except OSError:
        return int(pid)  # (no /proc to ask: a live pid is taken at its word)
    return int(pid) if "chrom" in Path(cmdline).name.lower() else None


def desktop_size() -> tuple[int, int]:
    """The viewport the settings ask for (`window_size`, HEYBRO_WINDOW_SIZE over the config file);
    settings that do not load are reported by whatever reads them for the task."""
    try:
        return parse_size(config.load().window_size)
    except config.ConfigError:
        return parse_size(config.Settings().window_size)


def claim_profile(profile: Path) -> None:
    """Makes a profile usable after any death of the run that used it before: the locks and the
    `DevToolsActivePort` a killed Chromium left are removed (the old port would be read before
    the new Chromium writes its own). A profile a live Chromium still holds is refused, by name."""
    pid = _chromium_using(profile)
    if pid is not None:
        raise RuntimeError(f"The profile {profile} is in use by a running Chromium (pid {pid}): "
                           "close that browser first, or give --profile another folder.")
    for name in ("SingletonLock", "SingletonSocket", "SingletonCookie", "DevToolsActivePort"):
        with contextlib.suppress(FileNotFoundError):
            (profile / name).unlink()


class LaunchedChromium:
    """Chromium with the extension and the host registered in its profile."""

    def __init__(self, profile: Path | None, headless: bool,
                 size: tuple[int, int] | None = None) -> None:
        chromium = find_chromium()
        if not chromium:
            raise RuntimeError("Chromium/Chrome not found; install it or set HEYBRO_CHROMIUM.")
        self.headless = headless
        self.size = size or desktop_size()
        # A host announced before this launch (another browser's) is not this browser's.
        self.host_before = int((files.read() or {}).get("pid", 0))
        self.tmp = None if profile else Path(tempfile.mkdtemp(prefix="heybro-run-"))
        self.profile = profile or self.tmp / "profile"  # type: ignore[operator]
        self.profile.mkdir(parents=True, exist_ok=True)
        claim_profile(self.profile)
        launcher = registration.write_launcher()
        registration.register(browser_dirs.custom_profile(self.profile), launcher, [EXTENSION_ID])
        cmd = [chromium, *QUIET_FLAGS, *OWN_BROWSER_FLAGS, *extension_flags(),
               *window_flags(self.size), f"--user-data-dir={self.profile}"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--no-sandbox")
        if headless:
            cmd.append("--headless=new")
        cmd += ["--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "about:blank"]
        self.started = time.time()
        # Its own session (a Ctrl-C in the terminal is ours to answer, not Chromium's), ended by
        # close(); and should this process be killed outright, Linux ends Chromium with it.
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True,
                                     env=without_keys(os.environ),
                                     preexec_fn=_die_with_parent if sys.platform == "linux" else None)

    async def open_panel(self, deadline: float) -> None:
        """Opens heybro's panel page (which connects the extension to its host) over CDP."""
        from websockets.asyncio.client import connect

        marker = self.profile / "DevToolsActivePort"
        while not (marker.exists() and marker.stat().st_mtime >= self.started - 1):  # (this Chromium's)
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("Chromium did not start (no DevToolsActivePort).")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.05)
        port, path = marker.read_text().split()[:2]
        last: Exception | None = None
        while time.monotonic() < deadline:
            try:
                async with connect(f"ws://127.0.0.1:{port}{path}", max_size=None) as cdp:
                    await cdp.send(json.dumps({"id": 1, "method": "Target.createTarget",
                                               "params": {"url": PANEL_URL}}))
                    reply = json.loads(await cdp.recv())
                    if "error" not in reply:
                        with contextlib.suppress(Exception):
                            await self._fit_viewport(cdp, reply["result"]["targetId"])
                        return
                    last = RuntimeError(str(reply["error"]))
            except OSError as err:
                last = err
            await asyncio.sleep(0.2)
        raise RuntimeError(f"Could not open heybro's panel in Chromium ({last}).")

    async def _fit_viewport(self, cdp: Any, target: str) -> None:
        """The window's tabs and toolbar (drawn or, headless, only reckoned) take part of
        `--window-size`: the window grows by what they take, measured on the panel's tab, so the
        page gets the viewport asked for."""
        asked = iter(range(2, 100))

        async def call(method: str, params: dict[str, Any], session: str | None = None) -> Any:
            n = next(asked)
            await cdp.send(json.dumps({"id": n, "method": method, "params": params}
                                      | ({"sessionId": session} if session else {})))
            while (reply := json.loads(await asyncio.wait_for(cdp.recv(), 5))).get("id") != n:
                pass
            return reply["result"]

        window = await call("Browser.getWindowForTarget", {"targetId": target})
        session = (await call("Target.attachToTarget", {"targetId": target,
                                                        "flatten": True}))["sessionId"]
        seen = await call("Runtime.evaluate", {"expression": "[innerWidth, innerHeight]",
                                               "returnByValue": True}, session)
        width, height = seen["result"]["value"]
        bounds = window["bounds"]
        if (width, height) != self.size:
            await call("Browser.setWindowBounds", {"windowId": window["windowId"], "bounds": {
                "width": bounds["width"] + self.size[0] - width,
                "height": bounds["height"] + self.size[1] - height}})
        await call("Target.detachFromTarget", {"sessionId": session})

    async def endpoint(self, timeout: float = 45) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        await self.open_panel(deadline)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Chromium exited with {self.proc.returncode}")
            info = files.read()
            pid = int(info.get("pid", 0)) if info else 0
            if (info and pid != self.host_before and alive(pid)
                    and files.endpoint_file().stat().st_mtime >= self.started - 1):
                return info
            await asyncio.sleep(0.1)
        raise RuntimeError("The browser started but the heybro host never announced itself; "
                           "run `heybro doctor`.")

    def close(self) -> None:
        """Ends Chromium and every process of its group (renderers, zygotes, GPU and network
        services), waiting until they are gone, then removes a throwaway profile."""
        group = self.proc.pid  # its own process group (start_new_session)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + 5
        while group_alive(group) and time.monotonic() < deadline:
            time.sleep(0.05)
        if group_alive(group):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM it when the process that started it dies."""
    import ctypes

    PR_SET_PDEATHSIG = 1
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _n(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


class Progress:
    """Turns events into terminal lines (or JSON lines with --json)."""

    def __init__(self, as_json: bool, out: Any = sys.stdout) -> None:
        self.as_json = as_json
        self.out = out
        self.steps = 0
        self.tokens = 0
        self.calls = 0
        self.subtasks: list[str] = []
        self.current = 0
        self.status: str | None = None

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show(self, ev: dict[str, Any]) -> None:
        if self.as_json:
            self.say(json.dumps(ev))
            return
        try:
            event = Event.model_validate(ev)
        except ValidationError as err:  # a newer host's event: the rest still reads
            log.warning("event_unreadable", kind=ev.get("kind"), error=str(err)[:300])
            return
        self.show_event(event)

    def show_event(self, ev: Event) -> None:
        d = ev.data
        if isinstance(d, StatusData):
            self._status(d)
        elif isinstance(d, PlanData):
            if d.subtasks != self.subtasks:
                self.say("Plan:")
                for i, s in enumerate(d.subtasks):
                    self.say(f"  {'✓' if i < d.current else '→' if i == d.current else ' '} "
                             f"{i + 1}. {s}")
            self.subtasks, self.current = d.subtasks, d.current
        elif isinstance(d, AnswerData):
            self.say(f"  {d.role} answers: {d.text}")
        elif isinstance(d, ExperienceData):
            self.say(f"  learned about {d.site}: {d.text} (`heybro experiences` lists them)")
        elif isinstance(d, QuestionData):  # the task waits for the user's word
            options = f" [{' / '.join(d.choices)}]" if d.choices else ""
            page = f" (asked while reading {d.page})" if d.page else ""
            self.say(f"  ? heybro asks{page}: {d.text}{options}")
            self.say(f"    answer with `heybro message {ev.task_id} -` (asks for it without "
                     "showing it)" if d.kind == "secret" else
                     f"    answer with `heybro message {ev.task_id} \"…\"`")
        elif isinstance(d, ToolCallData) and d.role in WORKING_ROLES:
            if not reports(d.tool):
                self.steps += 1
            params = ", ".join(f"{k}={v!r}" for k, v in d.parameters.items() if k != "expect")
            n = len(self.subtasks)
            self.say(f"  [step {self.steps} · subtask {min(self.current + 1, n)}/{n}] "
                     f"{d.tool}({params})" + (f" → {d.target}" if d.target else ""))
        elif isinstance(d, ToolResultData) and d.role in WORKING_ROLES:
            self._result(d)
        elif isinstance(d, VerdictData):
            if d.by == "host":  # the subtask's declared outcome, proven on the page
                self.say(f"  checked by heybro: {d.reason}")
            else:
                self.say(f"  verifier: {d.decision} ({verdict_numbers(d)}) {d.reason}")
        elif isinstance(d, UsageData):
            self.calls += 1
            self.tokens += d.total_tokens
        elif isinstance(d, ControlData):  # the answer to a pause, resume or stop request
            self.say(f"  · {d.text}")
        elif isinstance(d, MessageData) and d.who == "user":
            self.say(f"  you: {d.text}")
        elif isinstance(d, ErrorData) or (isinstance(d, MessageData) and d.level == "warning"):
            self.say(f"  ! {d.text}")

    def _status(self, d: StatusData) -> None:
        s = d.status
        if s == TaskStatus.completed and d.answer:  # the answer first, then how it was checked
            self.say(f"✓ answer: {d.answer}")
            self.say(f"  completed: {d.reason or d.result}")
        elif s == TaskStatus.completed:
            self.say(f"✓ completed: {d.reason or d.result}")
        elif s.final:  # ended, not completed
            self.say(f"✗ {s}: {d.reason}")
        elif s != self.status or d.reason:  # the same status again says nothing new
            self.say(f"● {s}" + (f" — {d.reason}" if d.reason else ""))
        self.status = s
        if s in FINAL:
            if d.memory:
                self.say("  memory: " + ", ".join(f"{k}={v}" for k, v in d.memory.items()))
            steps = self.steps if d.steps is None else d.steps
            self.say(f"  {_n(steps, 'action')}, {_n(self.calls, 'LLM call')}, "
                     f"{_n(self.tokens, 'token')}")

    def _result(self, d: ToolResultData) -> None:
        if d.decided:
            self.say(f"      · {d.decided}")
        if d.success and d.said:  # (what was chosen, kept, read; a dialog and heybro's answer)
            self.say(f"      · {d.tool}: {d.said}")
        if d.success is False:
            self.say(f"      ✗ {d.error_code or 'error'}: {d.error}")
        elif not d.expectation and not reports(d.tool):
            self.say(f"      ✓ {d.tool}: done" + (" — but the page showed no change after it"
                                                  if d.no_effect else ""))
        elif d.no_effect:
            self.say(f"      · {d.tool}: the page showed no change after it")
        if (e := d.expectation):
            # Named by its tool: in a batch the results follow the calls they answer.
            self.say(f"      ↳ {d.tool}: expected {'met' if e.met else 'NOT met'} ({e.detail})")


def _resources(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        name, _, path = item.partition("=")
        if not path:
            path, name = name, Path(name).name
        out[name] = str(Path(path).expanduser().resolve())
    return out


def refusal(payload: dict[str, Any]) -> str:
    """The host's refusal in terminal words: one task at a time, and the commands that end the
    wait for the other one (the host's own text names the panel's buttons)."""
    detail = payload.get("detail") or {}
    if payload.get("code") != "busy" or not detail.get("task_id"):
        return str(payload["message"])
    other, status = detail["task_id"], detail.get("status")
    goal = str(detail.get("goal") or "")
    goal = goal if len(goal) <= 80 else goal[:79] + "…"
    where = "" if detail.get("here") else " in another heybro window"
    if status == TaskStatus.waiting:
        how = (f'answer its question with `heybro message {other} "…"` or stop it with '
               f"`heybro stop {other}`")
    elif (meaning := meaning_of(status)) and meaning.resumable:
        how = f"resume it with `heybro resume {other}` or stop it with `heybro stop {other}`"
    else:
        how = f"wait for it, or pause it with `heybro pause {other}` or stop it with `heybro stop {other}`"
    return f'Task "{goal}" ({other}) is {status}{where}. One task runs at a time: {how}.'


# Starts the task on the host's endpoint: its answer (task.accepted, or an error) and the task's
# title for the terminal. Events must flow on `ws` afterwards (task.start subscribes the caller).
Begin = Callable[[Any], Awaitable[tuple[dict[str, Any], str]]]


async def _run(args: argparse.Namespace, settings: config.Settings, interrupts: Interrupts,
               begin: Begin | None = None, prog: str = "heybro run") -> int:
    interrupts.install()
    try:
        return await _run_task(args, settings, interrupts, begin, prog)
    finally:
        interrupts.remove()


async def _run_task(args: argparse.Namespace, settings: config.Settings,
                    interrupts: Interrupts, begin: Begin | None = None,
                    prog: str = "heybro run") -> int:
    progress = Progress(args.json)
    launched: LaunchedChromium | None = None
    ws = None
    info = files.read()
    if info and alive(int(info.get("pid", 0))) and not args.new_browser:
        try:
            ws = await open_endpoint(info)
            progress.say("Using your running browser (heybro host pid "
                         f"{info['pid']}).") if not args.json else None
        except EndpointUnavailable:
            ws = None
    try:
        if ws is None:
            launched = LaunchedChromium(Path(args.profile) if args.profile else None,
                                        headless=args.headless or not os.environ.get("DISPLAY"))
            if not args.json:
                progress.say("Started Chromium with heybro" + (f" (profile {args.profile})"
                                                               if args.profile else "") + ".")
            info = await launched.endpoint()
            ws = await open_endpoint(info)
        # The settings resolved here (this terminal's environment over the config file) go with
        # the task: a host that Chrome started has Chrome's environment, not this terminal's.
        if begin is None:
            reply = await start_task(ws, args.goal, args.url, _resources(args.resource or []),
                                     llm=settings.model_dump(mode="json"))
            title = args.goal
        else:
            reply, title = await begin(ws)
        if reply["type"] == "error":
            p = reply["payload"]
            print(f"{prog}: {refusal(p)}", file=sys.stderr)
            usage = ("no_llm", "busy") + (("invalid_settings", "invalid_state") if begin else ())
            return 2 if p["code"] in usage else 1
        task_id = reply["payload"]["task_id"]
        if not args.json:
            progress.say(f"Task {task_id}: {title}")
        # Nobody can answer a question here: no terminal, and a browser without a window (cron,
        # a systemd timer). The task is stopped then, rather than left waiting for no one.
        alone = launched is not None and launched.headless and not sys.stdin.isatty()
        watch = Watch(ws, task_id, int(info.get("pid", 0)) if info else 0, progress,
                      prog=prog, unattended=alone)
        interrupts.following(lambda: send_control(watch.ws, "stop", task_id))
        try:
            return interrupts.exit_code(await watch.until_the_end())
        finally:
            interrupts.following(None)
            ws = watch.ws
    finally:
        if ws is not None:
            await ws.close()
        if launched is not None:
            launched.close()


class Watch:
    """Follows the task to its end: through pauses and resumes (from the panel too), and across
    host restarts — the terminal waits for the new host and picks up after the last event it saw.
    Exit status: 0 completed, 1 failed or stopped, 3 the host did not come back, 4 stopped
    because it asked something and nobody was there to answer (`unattended`)."""

    def __init__(self, ws: Any, task_id: str, host_pid: int, progress: Progress, *,
                 prog: str = "heybro run", unattended: bool = False) -> None:
        self.ws, self.task_id, self.host_pid, self.progress = ws, task_id, host_pid, progress
        self.prog, self.unattended = prog, unattended
        self.last = -1
        self.asked: str | None = None  # the question nobody could answer

    async def until_the_end(self) -> int:
        while True:
            try:
                async for ev in events(self.ws):
                    if ev["seq"] <= self.last:
                        continue
                    self.last = ev["seq"]
                    self.progress.show(ev)
                    if ev["kind"] == "status" and ev["data"].get("status") in FINAL:
                        if self.asked is not None:
                            return NEEDED_YOU
                        return 0 if ev["data"]["status"] == TaskStatus.completed else 1
                    if ev["kind"] == "question" and self.unattended and self.asked is None:
                        self.asked = str(ev["data"].get("text") or "")
                        print(f"{self.prog}: the task asked \"{self.asked}\" and nobody can "
                              "answer here (no terminal, no browser window); it is stopped. Run "
                              "it where you can answer, or from your running browser.",
                              file=sys.stderr, flush=True)
                        await send_control(self.ws, "stop", self.task_id)
            except ConnectionClosed:
                pass
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await send_control(self.ws, "stop", self.task_id)
                raise
            print("heybro run: the heybro host stopped; waiting for it to come back (the task "
                  "comes back paused)…", file=sys.stderr, flush=True)
            if not await self.reconnect():
                print(f"heybro run: the heybro host did not come back within {HOST_BACK_S:.0f} s."
                      " The task stays in heybro's record: resume it with `heybro resume "
                      f"{self.task_id}` or stop it with `heybro stop {self.task_id}` (or from "
                      "heybro's panel or popup).", file=sys.stderr)
                return 3
            print(f"heybro run: reconnected to the heybro host (pid {self.host_pid}).",
                  file=sys.stderr, flush=True)

    async def reconnect(self) -> bool:
        with contextlib.suppress(Exception):
            await self.ws.close()
        deadline = time.monotonic() + HOST_BACK_S
        while time.monotonic() < deadline:
            info = files.read()
            pid = int(info.get("pid", 0)) if info else 0
            if info and pid != self.host_pid and alive(pid):
                try:
                    ws = await open_endpoint(info)
                    msg = build("task.watch", {"task_id": self.task_id, "after_seq": self.last})
                    await ws.send(json.dumps(msg))
                    self.ws, self.host_pid = ws, pid
                    return True
                except (EndpointUnavailable, ConnectionClosed, OSError):
                    pass
            await asyncio.sleep(0.25)
        return False


def cmd_run(args: argparse.Namespace) -> int:
    logs.setup("cli.log")
    try:
        settings = config.load()
    except config.ConfigError as err:
        print(f"heybro run: {err}", file=sys.stderr)
        return 2
    if not settings.configured:
        print("heybro run: " + config.NOT_CONFIGURED.format(path=config.config_file()),
              file=sys.stderr)
        return 2
    interrupts = Interrupts()
    try:
        return asyncio.run(_run(args, settings, interrupts))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("heybro run: interrupted.", file=sys.stderr)
        return interrupts.exit_code(130)
    except (RuntimeError, EndpointUnavailable) as err:
        print(f"heybro run: {err}", file=sys.stderr)
        return 1


def add_watch_args(p: argparse.ArgumentParser) -> None:
    """What every command that runs a task and follows it takes: where the browser comes from,
    and how its progress is printed."""
    p.add_argument("--profile", metavar="DIR", help="launch Chromium with this profile "
                   "(default: a throwaway one) when no browser is running heybro")
    p.add_argument("--new-browser", action="store_true",
                   help="launch Chromium even if a browser is running heybro")
    p.add_argument("--headless", action="store_true", help="launched Chromium without a window")
    p.add_argument("--json", action="store_true", help="print events as JSON lines")


def extend(sub: Any, commands: dict[str, Any]) -> None:
    p = sub.add_parser("run", help="run a task in the browser and watch its progress")
    p.add_argument("goal", help="what to do, in plain words")
    p.add_argument("--url", help="open this page first")
    p.add_argument("--resource", action="append", metavar="NAME=PATH",
                   help="a file the agent may upload (repeatable)")
    add_watch_args(p)
    commands["run"] = cmd_run


