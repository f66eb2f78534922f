"""Schema versions of the task store. Append a migration; never edit one that has shipped."""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[str] = [
    # 1: tasks, their append-only event history, the latest checkpoint, and the action ledger.
    """
    CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        goal TEXT NOT NULL,
        url TEXT,
        resources TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL,
        reason TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        llm_calls INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL NOT NULL DEFAULT 0
    );
    CREATE INDEX tasks_by_time ON tasks(created_at DESC);
    CREATE TABLE events (
        task_id TEXT NOT NULL REFERENCES tasks(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        at REAL NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (task_id, seq)
    ) WITHOUT ROWID;
    -- History is append-only: nothing may rewrite or remove what happened.
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'task history is append-only'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'task history is append-only'); END;
    CREATE TABLE checkpoints (
        task_id TEXT PRIMARY KEY REFERENCES tasks(id),
        state TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    -- Every side-effecting browser action is written as started before it runs and finished after,
    -- so a crash in between is known on resume instead of silently repeated.
    CREATE TABLE actions (
        task_id TEXT NOT NULL REFERENCES tasks(id),
        key TEXT NOT NULL,
        tool TEXT NOT NULL,
        params TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('started', 'done', 'failed', 'interrupted')),
        result TEXT,
        started_at REAL NOT NULL,
        finished_at REAL,
        PRIMARY KEY (task_id, key)
    ) WITHOUT ROWID;
    """,
    # 2: what the agent learned about each site (agent/experience.py), for its next tasks there.
    """
    CREATE TABLE experiences (
        id INTEGER PRIMARY KEY,
        site TEXT NOT NULL,
        text TEXT NOT NULL,
        task_id TEXT,
        created_at REAL NOT NULL
    );
    CREATE INDEX experiences_by_site ON experiences(site, created_at);
    """,
    # 3: routines (routines/model.py), and which routine a task replayed.
    """
    CREATE TABLE routines (
        name TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE routine_runs (
        task_id TEXT PRIMARY KEY REFERENCES tasks(id),
        routine TEXT NOT NULL,
        started_at REAL NOT NULL,
        heals INTEGER NOT NULL DEFAULT 0,
        model_calls INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX routine_runs_by_routine ON routine_runs(routine, started_at);
    """,
    # 4: the page each learning was learned on (a learning is a page's words through the model:
    # kept with where it came from, shown as such).
    """
    ALTER TABLE experiences ADD COLUMN page TEXT;
    """,
    # 5: why a paused task is paused (shared_schema/status.py's Pause), so whether it waits for
    # the person is read from a word of the vocabulary, never from the reason's text.
    """
    ALTER TABLE tasks ADD COLUMN pause TEXT;
    """,
]


def statements(script: str) -> list[str]:
    """The script's statements one by one (a trigger's body stays with its trigger)."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip() and not all(ln.strip().startswith("--") or not ln.strip()
                               for ln in buf.splitlines()):
        raise ValueError(f"incomplete SQL statement in a migration: {buf.strip()[:200]}")
    return out


def _version(conn: sqlite3.Connection) -> int:
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    return int(version)


def migrate(conn: sqlite3.Connection, migrations: list[str] | None = None) -> int:
    """Brings the database to the newest version; returns that version.

    Safe when several processes open a fresh file at once (Chrome starts a host per connection):
    the version is read again inside a write transaction (BEGIN IMMEDIATE), so exactly one of
    them runs each migration and the others find it done. A migration that fails leaves the
    database at the version before it. `conn` must be in autocommit mode (isolation_level=None).
    """
    steps = MIGRATIONS if migrations is None else migrations
    newest = len(steps)

    def check(version: int) -> None:
        if version > newest:
            raise RuntimeError(f"the task store is version {version}, newer than this heybro "
                               f"({newest}); update heybro")

    check(_version(conn))
    if _version(conn) == newest:
        return newest
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _version(conn)  # another process may have migrated meanwhile
        check(version)
        for number in range(version + 1, newest + 1):
            for statement in statements(steps[number - 1]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return newest
