"""`heybro tasks | show | pause | resume | stop | message`: what the panel does, from a terminal.

They ask the running host over its websocket, through the same command table as the panel's
native channel, so a task behaves the same whoever asks. With no host running:
- `tasks` and `show` read the task store directly (nothing needs to run to look);
- `pause`, `stop` and a message to a task that is not finished start a host the way Chrome does,
  just for that request (no browser is needed to change the record);
- `resume`, and a message that continues a finished task, need a browser to act in: they launch
  Chromium with heybro as `heybro run` does and follow the task to its end (Ctrl-C asks whether to
  stop it), closing that Chromium afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection
from shared_schema.status import FINAL, Pause, TaskStatus, meaning_of

from . import logs
from .cli_interrupts import Interrupts
from .cli_run import LaunchedChromium, Progress, Watch, refusal
from .processes import alive
from .endpoint import files
from .endpoint.client import EndpointUnavailable, open_endpoint, request
from .store.task_store import ACTIVE

if TYPE_CHECKING:
    from .store import TaskStore

SETTLE_S = 15.0  # how long pause/stop wait to report the task's new status
CUT_OFF = "interrupted: the heybro host running it stopped (resume it to go on)"


class CommandFailed(Exception):
    """Said to the user as `heybro <command>: <message>`; exit status 1."""


async def _host() -> tuple[ClientConnection, dict[str, Any]] | None:
    """The running host's websocket, or None when no host is running."""
    info = files.read()
    if not info or not alive(int(info.get("pid", 0))):
        return None
    try:
        return await open_endpoint(info), info
    except EndpointUnavailable:
        return None


def _answer(reply: dict[str, Any]) -> dict[str, Any]:
    """The answer's payload; a refusal becomes CommandFailed with the host's words (a busy one
    naming the commands that end the other task's wait)."""
    if reply["type"] == "error":
        raise CommandFailed(refusal(reply["payload"]))
    payload: dict[str, Any] = reply["payload"]
    return payload


def _store() -> TaskStore | None:
    """The task store for reading, or None when there is none yet."""
    from .store import TaskStore, default_path

    path = default_path()
    return TaskStore(path) if path.exists() else None


def _native_request(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
    """One request to a host started for it the way Chrome starts one (no host was running)."""
    from .native.client import HostProcess

    with HostProcess([sys.executable, "-m", "heybro.native"]) as host:
        return host.request(type_, payload, timeout=30)


# --- reading ---------------------------------------------------------------------------------


def _when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def _as_left(row: dict[str, Any]) -> dict[str, Any]:
    """Read without a host: a task the record calls running that no live process holds was cut
    off with its host; it is shown as the next host will mark it (paused), never as working."""
    from .store.lease import is_owned

    if row["status"] in ACTIVE and not is_owned(row["task_id"]):
        return row | {"status": TaskStatus.paused.value, "reason": CUT_OFF, "pause": Pause.cut_off.value}
    return row


async def _list(limit: int) -> list[dict[str, Any]]:
    if (host := await _host()):
        ws, _ = host
        async with ws:
            return list(_answer(await request(ws, "task.list", {"limit": limit}))["tasks"])
    from .store import views

    store = _store()
    return [] if store is None else [_as_left(views.summary(r).model_dump(mode="json"))
                                     for r in store.list_tasks(limit)]


async def _detail(task_id: str) -> dict[str, Any]:
    if (host := await _host()):
        ws, _ = host
        async with ws:
            return _answer(await request(ws, "task.get", {"task_id": task_id}))
    from .store import views

    store = _store()
    found = views.detail(store, task_id) if store is not None else None
    if found is None:
        raise CommandFailed(f"There is no task {task_id!r}.")
    detail = found.model_dump(mode="json")
    return detail | {"task": _as_left(detail["task"])}


def cmd_tasks(args: argparse.Namespace) -> int:
    tasks = asyncio.run(_list(args.limit))
    if args.json:
        print(json.dumps(tasks))
        return 0
    if not tasks:
        print("No tasks yet: start one with `heybro run \"goal\" --url URL` or in the side panel.")
        return 0
    w = max(len(t["task_id"]) for t in tasks)
    print(f"{'ID':{w}}  {'STATUS':10} {'UPDATED':16}  GOAL")
    for t in tasks:
        goal = t["goal"] if len(t["goal"]) <= 70 else t["goal"][:69] + "…"
        print(f"{t['task_id']:{w}}  {t['status']:10} {_when(t['updated_at']):16}  {goal}")
        if t.get("reason") and t["status"] != TaskStatus.completed:
            print(f"{'':{w}}  └ {t['reason']}")
    return 0


def render(detail: dict[str, Any], out: Any = sys.stdout) -> None:
    """The run as the panel shows it: the task, its plan now, then every step in order."""
    t = detail["task"]
    say = lambda text: print(text, file=out)  # noqa: E731
    say(f"Task {t['task_id']}: {t['goal']}")
    say(f"  status: {t['status']}" + (f" — {t['reason']}" if t.get("reason") else ""))
    if t.get("url"):
        say(f"  url: {t['url']}")
    tokens = t.get("prompt_tokens", 0) + t.get("completion_tokens", 0)
    say(f"  started {_when(t['created_at'])}, last change {_when(t['updated_at'])}; "
        f"{t.get('llm_calls', 0):,} LLM calls, {tokens:,} tokens"
        + (f", ${t['cost_usd']:.4f}" if t.get("cost_usd") else ""))
    subtasks, current = detail.get("subtasks") or [], detail.get("current_subtask", 0)
    if subtasks:
        say("Plan:")
        done = t["status"] == TaskStatus.completed
        for i, s in enumerate(subtasks):
            mark = "✓" if i < current or done else "→" if i == current else " "
            say(f"  {mark} {i + 1}. {s}")
    say("Run:")
    progress = Progress(as_json=False, out=out)
    for h in detail.get("history", []):
        progress.show({"task_id": t["task_id"], **h})


def cmd_show(args: argparse.Namespace) -> int:
    detail = asyncio.run(_detail(args.task_id))
    if args.json:
        print(json.dumps(detail))
    else:
        render(detail)
    return 0


# --- changing ----------------------------------------------------------------------------------


async def _status_of(ws: ClientConnection, task_id: str) -> dict[str, Any]:
    # Only the task's row: no history after an impossible sequence number.
    reply = await request(ws, "task.get", {"task_id": task_id, "after_seq": 2 ** 62})
    return dict(_answer(reply)["task"])


async def _settle(ws: ClientConnection, task_id: str, wanted: Collection[str]) -> dict[str, Any]:
    """The task's row once it reached one of `wanted` (or after SETTLE_S, as it is then)."""
    deadline = time.monotonic() + SETTLE_S
    while True:
        row = await _status_of(ws, task_id)
        if row["status"] in wanted or time.monotonic() > deadline:
            return row
        await asyncio.sleep(0.2)


def _said(row: dict[str, Any]) -> str:
    return f"Task {row['task_id']} is {row['status']}" + (
        f": {row['reason']}." if row.get("reason") else ".")


async def _pause_or_stop(kind: str, task_id: str) -> int:
    resumable = tuple(s for s in TaskStatus if s.meaning.resumable)
    wanted = (*resumable, *FINAL) if kind == "pause" else FINAL
    if (host := await _host()):
        ws, _ = host
        async with ws:
            _answer(await request(ws, f"task.{kind}", {"task_id": task_id}))
            row = await _settle(ws, task_id, wanted)
    else:
        _answer(await asyncio.to_thread(_native_request, f"task.{kind}", {"task_id": task_id}))
        row = (await _detail(task_id))["task"]
    if row["status"] in wanted:
        print(_said(row))
    elif kind == "pause":
        print(f"Task {task_id} is pausing: it pauses at the next safe point (between actions).")
    else:
        print(f"Task {task_id} is stopping.")
    return 0


def cmd_pause(args: argparse.Namespace) -> int:
    return asyncio.run(_pause_or_stop("pause", args.task_id))


def cmd_stop(args: argparse.Namespace) -> int:
    return asyncio.run(_pause_or_stop("stop", args.task_id))


Ask = Callable[[ClientConnection], Awaitable[dict[str, Any]]]  # sends the request
Check = Callable[[], Awaitable[bool]]  # whether the task needs a browser to go on


async def _follow(ws: ClientConnection, task_id: str, host_pid: int, ask: Ask,
                  interrupts: Interrupts) -> int:
    """Subscribes to the task from its next event on, asks `ask`, then shows the task to its end
    (the exit status of `heybro run`)."""
    last = max([h["seq"] for h in (await _detail_over(ws, task_id))["history"]], default=-1)
    _answer(await request(ws, "task.watch", {"task_id": task_id, "after_seq": last}))
    _answer(await ask(ws))
    watch = Watch(ws, task_id, host_pid, Progress(as_json=False))
    interrupts.following(lambda: _stop(watch.ws, task_id))
    try:
        return interrupts.exit_code(await watch.until_the_end())
    finally:
        interrupts.following(None)


async def _detail_over(ws: ClientConnection, task_id: str) -> dict[str, Any]:
    return _answer(await request(ws, "task.get", {"task_id": task_id}))


async def _stop(ws: ClientConnection, task_id: str) -> None:
    await request(ws, "task.stop", {"task_id": task_id})


async def _in_a_browser(args: argparse.Namespace, task_id: str, ask: Ask, command: str,
                        interrupts: Interrupts) -> int:
    """No host runs: Chromium with heybro (closed at the end, whatever happens), the task
    followed to its end there."""
    print(f"No browser is running heybro: starting Chromium with heybro to {command} task "
          f"{task_id} (it stays open until the task ends; Ctrl-C asks whether to stop it).",
          flush=True)
    launched = LaunchedChromium(None, headless=args.headless or not os.environ.get("DISPLAY"))
    try:
        info = await launched.endpoint()
        ws = await open_endpoint(info)
        try:
            return await _follow(ws, task_id, int(info["pid"]), ask, interrupts)
        finally:
            await ws.close()
    finally:
        launched.close()


async def _continue(args: argparse.Namespace, command: str, needs_browser: Check,
                    done: Callable[[ClientConnection], Awaitable[str]]) -> int:
    """resume / message: asked of the running host (and followed with --follow), or, with no
    host, in a Chromium launched for it when the task will act again, else of a host started for
    the request."""
    type_, payload = (("task.message", {"task_id": args.task_id, "text": args.text})
                      if command == "message" else (f"task.{command}", {"task_id": args.task_id}))

    def ask(ws: ClientConnection) -> Awaitable[dict[str, Any]]:
        return request(ws, type_, payload)

    interrupts = Interrupts()
    interrupts.install()
    try:
        if (host := await _host()):
            ws, info = host
            async with ws:
                if args.follow:
                    return await _follow(ws, args.task_id, int(info["pid"]), ask, interrupts)
                _answer(await ask(ws))
                print(await done(ws))
                return 0
        if await needs_browser():
            return await _in_a_browser(args, args.task_id, ask, command, interrupts)
        _answer(await asyncio.to_thread(_native_request, type_, payload))
        print(_said((await _detail(args.task_id))["task"]))
        return 0
    finally:
        interrupts.remove()



def cmd_resume(args: argparse.Namespace) -> int:
    async def needs_browser() -> bool:
        row = (await _detail(args.task_id))["task"]
        if not (meaning := meaning_of(row["status"])) or not meaning.resumable:
            raise CommandFailed(f"That task is {row['status']}, not paused.")
        return True

    async def done(ws: ClientConnection) -> str:
        return (f"Task {args.task_id} resumed; follow it with `heybro show {args.task_id}` or in "
                "heybro's panel.")

    return _run_async(args, "resume", needs_browser, done)


def cmd_message(args: argparse.Namespace) -> int:
    if args.text == "-":  # an answer not to be seen on the screen nor kept in shell history
        import getpass

        args.text = getpass.getpass("Your answer (not shown): ")
    if not args.text.strip():
        raise CommandFailed("the message is empty.")
    async def needs_browser() -> bool:
        # A message continues a finished task (it acts again); to one not finished it is noted.
        return (await _detail(args.task_id))["task"]["status"] in FINAL

    async def done(ws: ClientConnection) -> str:
        return f"Sent to task {args.task_id}. " + _said(await _status_of(ws, args.task_id))

    return _run_async(args, "message", needs_browser, done)


def _run_async(args: argparse.Namespace, command: str, needs_browser: Check,
               done: Callable[[ClientConnection], Awaitable[str]]) -> int:
    try:
        return asyncio.run(_continue(args, command, needs_browser, done))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print(f"heybro {command}: interrupted.", file=sys.stderr)
        return 130


def _guarded(name: str, fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        logs.setup("cli.log")
        try:
            return fn(args)
        except CommandFailed as err:
            print(f"heybro {name}: {err}", file=sys.stderr)
            return 1
        except (RuntimeError, EndpointUnavailable, OSError, TimeoutError, EOFError) as err:
            print(f"heybro {name}: {err}", file=sys.stderr)
            return 1
    return run


def _limit(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 500:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 1 to 500")
    return n


def extend(sub: Any, commands: dict[str, Any]) -> None:
    p = sub.add_parser("tasks", help="list recent tasks and their status")
    p.add_argument("--limit", type=_limit, default=20, help="how many, 1 to 500 (newest first; "
                   "default 20)")
    p.add_argument("--json", action="store_true", help="print them as JSON")
    commands["tasks"] = _guarded("tasks", cmd_tasks)
    p = sub.add_parser("show", help="show a task's run: plan, actions, verdicts")
    p.add_argument("task_id", metavar="ID")
    p.add_argument("--json", action="store_true", help="print the task and its history as JSON")
    commands["show"] = _guarded("show", cmd_show)
    for name, fn, text in (("pause", cmd_pause, "pause a running task (between actions)"),
                           ("stop", cmd_stop, "stop a running or paused task")):
        p = sub.add_parser(name, help=text)
        p.add_argument("task_id", metavar="ID")
        commands[name] = _guarded(name, fn)
    p = sub.add_parser("resume", help="resume a paused task")
    p.add_argument("task_id", metavar="ID")
    follow_opts(p)
    commands["resume"] = _guarded("resume", cmd_resume)
    p = sub.add_parser("message", help="tell a task something new (the planner hears it first)")
    p.add_argument("task_id", metavar="ID")
    p.add_argument("text", help="what to tell it, or - to type it without it being shown (a "
                   "password or code heybro asked for)")
    follow_opts(p)
    commands["message"] = _guarded("message", cmd_message)


def follow_opts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--follow", action="store_true",
                   help="show the task's progress until it ends (always so when no browser "
                        "runs heybro and one is started for it)")
    p.add_argument("--headless", action="store_true",
                   help="a Chromium started for it has no window")


