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
]


def migrate(conn: sqlite3.Connection) -> int:
    """Brings the database to the newest version; returns that version."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if version > len(MIGRATIONS):
        raise RuntimeError(f"the task store is version {version}, newer than this heybro "
                           f"({len(MIGRATIONS)}); update heybro")
    for number in range(version + 1, len(MIGRATIONS) + 1):
        conn.executescript(f"BEGIN;\n{MIGRATIONS[number - 1]}\nPRAGMA user_version = {number};\n"
                           "COMMIT;")
    return len(MIGRATIONS)
