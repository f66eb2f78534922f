"""Every task, plan change, iteration, tool call, verdict, memory item and status change, written
before the next step starts, so nothing is lost when Chrome, the service worker or the host dies.

When a write fails (disk full, read-only, locked, damaged file) the store keeps that write and every
later one in memory, in order, and raises StoreUnwritable: the task pauses saying why. `flush`
writes the backlog once writing works again, so the record is whole. A file that is not a database
is moved aside (never silently replaced) and a new one started; `moved_aside` says where it went."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from shared_schema.events import StatusData, dump
from shared_schema.status import Pause, TaskStatus

from .. import logs, paths
from .errors import StoreUnwritable, explain
from .migrations import migrate

log = logs.get("heybro.store")

FINAL = tuple(s.value for s in TaskStatus if s.final)
# The statuses of a task a run holds (waiting: for an answer, still its run's).
ACTIVE = tuple(s.value for s in TaskStatus if not s.final and not s.meaning.resumable)


def default_path() -> Path:
    """`$HEYBRO_DB` if set, else tasks.sqlite3 in heybro's data folder (see `heybro paths`)."""
    override = os.environ.get("HEYBRO_DB")
    return Path(override).expanduser() if override else paths.data_dir() / "tasks.sqlite3"


class TaskRow(BaseModel):
    id: str
    goal: str
    url: str | None
    resources: dict[str, str]
    status: str
    reason: str | None
    pause: str | None = None  # paused: why (shared_schema.status.Pause)
    created_at: float
    updated_at: float
    prompt_tokens: int
    completion_tokens: int
    llm_calls: int
    cost_usd: float


class EventRow(BaseModel):
    task_id: str
    seq: int
    kind: str
    at: float
    data: dict[str, Any]


class ActionRow(BaseModel):
    key: str
    tool: str
    params: dict[str, Any]
    state: str
    result: dict[str, Any] | None
    started_at: float
    finished_at: float | None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _enable_wal(conn: sqlite3.Connection, wait_s: float = 10.0) -> None:
    """WAL mode (persistent in the file). Switching a fresh file can answer "database is locked"
    at once, without waiting, while another process switches it too: asked again until it holds."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            (mode,) = conn.execute("PRAGMA journal_mode").fetchone()
            if str(mode).lower() == "wal":
                return
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError("the task store could not be switched to WAL mode")
        time.sleep(0.01)


BUSY_TIMEOUT_S = 5.0  # how long a write waits for another program's lock before it fails


def _damaged(err: sqlite3.DatabaseError) -> bool:
    text = str(err).lower()
    return "not a database" in text or "malformed" in text


class TaskStore:
    """One SQLite file in WAL mode; safe to share between the host's threads and processes."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        paths.private_dir(self.path.parent)
        self._lock = threading.Lock()
        self.failure: StoreUnwritable | None = None
        self._backlog: list[tuple[Callable[[sqlite3.Connection], Any], str | None]] = []
        self.moved_aside: Path | None = None
        try:
            self._open()
        except sqlite3.DatabaseError as err:
            if not _damaged(err):
                raise
            self.moved_aside = self._move_aside()
            self._open()

    def _open(self) -> None:
        # Readable by the user alone: SQLite gives its -wal and -shm files the database's own mode.
        paths.private_file(self.path)
        for side in ("-wal", "-shm"):
            if (extra := self.path.with_name(self.path.name + side)).exists():
                paths.private_file(extra)
        self._conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                     check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        _enable_wal(self._conn)
        self._conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives process crashes
        self._conn.execute("PRAGMA foreign_keys=ON")
        self.version = migrate(self._conn)

    def _move_aside(self) -> Path:
        """A damaged file is kept for the user (and recovery tools) beside a fresh one."""
        try:
            self._conn.close()
        except AttributeError:
            pass
        aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(f"{self.path}{suffix}")
            if src.exists():
                src.rename(f"{aside}{suffix}")
        log.warning("store_moved_aside", path=str(self.path), moved_to=str(aside))
        return aside

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _tx(self, fn, events_of: str | None = None):  # type: ignore[no-untyped-def]
        """One write transaction. While the store is failing, writes queue up behind the one
        that failed (kept in order for `flush`) and each raises the failure."""
        with self._lock:
            if self.failure is not None:
                self._backlog.append((fn, events_of))
                raise self.failure
            try:
                return self._run(fn)
            except (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError):
                raise
            except sqlite3.DatabaseError as err:
                self.failure = StoreUnwritable(self.path, explain(err, self.path))
                self._backlog.append((fn, events_of))
                log.error("store_unwritable", path=str(self.path), why=self.failure.why,
                          error=str(err))
                raise self.failure from err

    def _run(self, fn):  # type: ignore[no-untyped-def]
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            out = fn(self._conn)
        except BaseException:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise
        self._conn.execute("COMMIT")
        return out

    def flush(self) -> None:
        """Writes what queued up while the store failed, in order; raises StoreUnwritable (with
        the rest still queued) if writing still fails."""
        with self._lock:
            while self._backlog:
                fn, _ = self._backlog[0]
                try:
                    self._run(fn)
                except (sqlite3.IntegrityError, sqlite3.ProgrammingError):
                    log.exception("store_backlog_entry_dropped")
                except sqlite3.DatabaseError as err:
                    self.failure = StoreUnwritable(self.path, explain(err, self.path))
                    raise self.failure from err
                self._backlog.pop(0)
            if self.failure is not None:
                log.info("store_writable_again", path=str(self.path))
            self.failure = None

    def pending_seq(self, task_id: str) -> int:
        """The sequence number the task's latest queued event will get once written."""
        queued = sum(1 for _, t in self._backlog if t == task_id)
        with self._lock:
            (last,) = self._conn.execute("SELECT COALESCE(MAX(seq), -1) FROM events WHERE "
                                         "task_id = ?", (task_id,)).fetchone()
        return int(last) + queued

    # --- tasks ------------------------------------------------------------------------------

    def create_task(self, goal: str, *, url: str | None = None,
                    resources: dict[str, str] | None = None, status: str = TaskStatus.planning.value,
                    task_id: str | None = None) -> TaskRow:
        now = time.time()
        tid = task_id or time.strftime("t-%Y%m%d-%H%M%S-", time.gmtime(now)) + secrets.token_hex(2)

        def go(c: sqlite3.Connection) -> None:
            c.execute("INSERT INTO tasks (id, goal, url, resources, status, created_at, updated_at)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?)",
                      (tid, goal, url, _dumps(resources or {}), status, now, now))
            self._append(c, tid, "status", dump(StatusData(status=status, goal=goal, url=url)), now)
        self._tx(go)
        return self.get_task(tid)  # type: ignore[return-value]

    def write(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """`fn` in one write transaction (for the store's other tables, e.g. experiences)."""
        return self._tx(fn)

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return list(self._conn.execute(sql, params).fetchall())

    def get_task(self, task_id: str) -> TaskRow | None:
        with self._lock:
            row = self._conn.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone()
        return self._task(row) if row else None

    def list_tasks(self, limit: int = 50) -> list[TaskRow]:
        with self._lock:
            rows = self._conn.execute("SELECT * FROM tasks ORDER BY created_at DESC, id DESC "
                                      "LIMIT ?", (limit,)).fetchall()
        return [self._task(r) for r in rows]

    @staticmethod
    def _task(row: sqlite3.Row) -> TaskRow:
        d = dict(row)
        d["resources"] = json.loads(d["resources"])
        return TaskRow(**d)

    def set_status(self, task_id: str, status: str, reason: str | None = None,
                   pause: Pause | None = None) -> int:
        """Changes the status and records the change in the history; returns the event's seq."""
        now = time.time()

        def go(c: sqlite3.Connection) -> int:
            cur = c.execute("UPDATE tasks SET status = ?, reason = ?, pause = ?, updated_at = ? "
                            "WHERE id = ?", (status, reason, pause, now, task_id))
            if cur.rowcount != 1:
                raise KeyError(task_id)
            return self._append(c, task_id, "status", dump(StatusData(
                status=status, reason=reason, pause=pause)), now)
        return self._tx(go, events_of=task_id)

    def update_status(self, task_id: str, status: str, reason: str | None = None,
                      pause: Pause | None = None) -> None:
        """Changes the status column only (the caller records the history entry itself)."""
        self._tx(lambda c: c.execute("UPDATE tasks SET status = ?, reason = ?, pause = ?, "
                                     "updated_at = ? WHERE id = ?",
                                     (status, reason, pause, time.time(), task_id)))

    def add_usage(self, task_id: str, *, prompt_tokens: int, completion_tokens: int,
                  cost_usd: float = 0.0) -> None:
        def go(c: sqlite3.Connection) -> None:
            c.execute("UPDATE tasks SET prompt_tokens = prompt_tokens + ?, completion_tokens = "
                      "completion_tokens + ?, llm_calls = llm_calls + 1, cost_usd = cost_usd + ?, "
                      "updated_at = ? WHERE id = ?",
                      (prompt_tokens, completion_tokens, cost_usd, time.time(), task_id))
        self._tx(go)

    def unfinished(self) -> list[TaskRow]:
        """Tasks neither finished nor stopped (running somewhere, or paused), newest first."""
        with self._lock:
            rows = self._conn.execute(
                f"SELECT * FROM tasks WHERE status NOT IN ({','.join('?' * len(FINAL))}) "
                "ORDER BY created_at DESC, id DESC", FINAL).fetchall()
        return [self._task(r) for r in rows]

    def pause_interrupted(self, reason: str = "interrupted: heybro restarted",
                          only: list[str] | None = None,
                          skip: Callable[[str], bool] = lambda _id: False) -> list[str]:
        """Tasks that were running when a host died come back paused (called at host start, and
        when a host loses its browser). `skip` spares tasks another live host still runs."""
        with self._lock:
            ids = [r[0] for r in self._conn.execute(
                f"SELECT id FROM tasks WHERE status IN ({','.join('?' * len(ACTIVE))})", ACTIVE)]
        ids = [i for i in ids if (only is None or i in only) and not skip(i)]
        for tid in ids:
            self.set_status(tid, TaskStatus.paused, reason, Pause.cut_off)
            self.interrupt_actions(tid)
        return ids

    def interrupt_actions(self, task_id: str) -> None:
        """Actions started and never answered were cut off: their outcome is unknown."""
        self._tx(lambda c: c.execute(
            "UPDATE actions SET state = 'interrupted', finished_at = ? WHERE task_id = ? AND "
            "state = 'started'", (time.time(), task_id)))

    # --- history ----------------------------------------------------------------------------

    @staticmethod
    def _append(c: sqlite3.Connection, task_id: str, kind: str, data: dict[str, Any],
                at: float) -> int:
        (seq,) = c.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM events WHERE task_id = ?",
                           (task_id,)).fetchone()
        c.execute("INSERT INTO events (task_id, seq, kind, at, data) VALUES (?, ?, ?, ?, ?)",
                  (task_id, seq, kind, at, _dumps(data)))
        c.execute("UPDATE tasks SET updated_at = ? WHERE id = ?", (at, task_id))
        return int(seq)

    def append(self, task_id: str, kind: str, data: dict[str, Any], at: float | None = None) -> int:
        """Adds one entry to the task's history; returns its sequence number."""
        at = at or time.time()
        return self._tx(lambda c: self._append(c, task_id, kind, data, at), events_of=task_id)

    def events(self, task_id: str, after: int = -1, kinds: list[str] | None = None) -> list[EventRow]:
        sql = "SELECT * FROM events WHERE task_id = ? AND seq > ?"
        args: list[Any] = [task_id, after]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args += kinds
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY seq", args).fetchall()
        return [EventRow(task_id=r["task_id"], seq=r["seq"], kind=r["kind"], at=r["at"],
                         data=json.loads(r["data"])) for r in rows]

    # --- resume state -----------------------------------------------------------------------

    def checkpoint(self, task_id: str, state: dict[str, Any]) -> None:
        """The whole executor state after a step, so resume continues from exactly here."""
        self._tx(lambda c: c.execute(
            "INSERT INTO checkpoints (task_id, state, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT(task_id) DO UPDATE SET state = excluded.state, "
            "updated_at = excluded.updated_at", (task_id, _dumps(state), time.time())))

    def load_checkpoint(self, task_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._conn.execute("SELECT state FROM checkpoints WHERE task_id = ?",
                                     (task_id,)).fetchone()
        return json.loads(row[0]) if row else None

    # --- action ledger ----------------------------------------------------------------------

    def action_started(self, task_id: str, key: str, tool: str, params: dict[str, Any]) -> None:
        self._tx(lambda c: c.execute(
            "INSERT INTO actions (task_id, key, tool, params, state, started_at) VALUES "
            "(?, ?, ?, ?, 'started', ?)", (task_id, key, tool, _dumps(params), time.time())))

    def action_finished(self, task_id: str, key: str, ok: bool,
                        result: dict[str, Any] | None = None) -> None:
        self._tx(lambda c: c.execute(
            "UPDATE actions SET state = ?, result = ?, finished_at = ? WHERE task_id = ? AND "
            "key = ?", ("done" if ok else "failed", _dumps(result) if result is not None else None,
                        time.time(), task_id, key)))

    def actions(self, task_id: str, state: str | None = None) -> list[ActionRow]:
        sql = "SELECT * FROM actions WHERE task_id = ?"
        args: list[Any] = [task_id]
        if state:
            sql += " AND state = ?"
            args.append(state)
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY started_at", args).fetchall()
        return [ActionRow(key=r["key"], tool=r["tool"], params=json.loads(r["params"]),
                          state=r["state"], result=json.loads(r["result"]) if r["result"] else None,
                          started_at=r["started_at"], finished_at=r["finished_at"]) for r in rows]
