"""Routines in the task store: saved, listed with their last run, replaced after a verified heal,
deleted. A routine's runs are ordinary tasks; `routine_runs` says which routine each one replayed
and how it went (heals, model calls), so the listing needs no second history."""

from __future__ import annotations

import sqlite3
import time

from shared_schema.routines import RoutineSummary

from ..routines.model import Routine
from .task_store import TaskStore


class StoreRoutines:
    def __init__(self, store: TaskStore) -> None:
        self.store = store

    def save(self, routine: Routine, *, replace: bool = False) -> Routine:
        """Writes it; an existing name is an error unless `replace` (a heal, or the user's
        explicit overwrite)."""
        now = time.time()
        body = routine.model_dump_json()

        def go(c: sqlite3.Connection) -> None:
            if replace:
                c.execute("INSERT INTO routines (name, body, created_at, updated_at) VALUES "
                          "(?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET body = excluded.body, "
                          "updated_at = excluded.updated_at",
                          (routine.name, body, routine.created_at, now))
            else:
                try:
                    c.execute("INSERT INTO routines (name, body, created_at, updated_at) VALUES "
                              "(?, ?, ?, ?)", (routine.name, body, routine.created_at, now))
                except sqlite3.IntegrityError as err:
                    raise ValueError(f"a routine named {routine.name!r} exists already") from err

        self.store.write(go)
        return routine

    def get(self, name: str) -> Routine | None:
        rows = self.store.query("SELECT body FROM routines WHERE name = ?", (name,))
        return Routine.model_validate_json(rows[0]["body"]) if rows else None

    def delete(self, name: str) -> bool:
        """Removes the routine; its runs stay in the task history."""
        return bool(self.store.write(lambda c: c.execute(
            "DELETE FROM routines WHERE name = ?", (name,)).rowcount))

    def start_run(self, name: str, task_id: str) -> None:
        self.store.write(lambda c: c.execute(
            "INSERT OR IGNORE INTO routine_runs (task_id, routine, started_at) VALUES (?, ?, ?)",
            (task_id, name, time.time())))

    def count_run(self, task_id: str, *, heals: int = 0, model_calls: int = 0) -> None:
        """Adds a run's heals and model calls as they happen (kept if the run dies midway)."""
        self.store.write(lambda c: c.execute(
            "UPDATE routine_runs SET heals = heals + ?, model_calls = model_calls + ? "
            "WHERE task_id = ?", (heals, model_calls, task_id)))

    def routine_of(self, task_id: str) -> str | None:
        rows = self.store.query("SELECT routine FROM routine_runs WHERE task_id = ?", (task_id,))
        return str(rows[0]["routine"]) if rows else None

    def listing(self) -> list[RoutineSummary]:
        out = []
        for row in self.store.query("SELECT body, updated_at FROM routines ORDER BY name"):
            r = Routine.model_validate_json(row["body"])
            runs = self.store.query(
                "SELECT r.task_id, r.started_at, r.heals, r.model_calls, t.status, t.updated_at "
                "FROM routine_runs r LEFT JOIN tasks t ON t.id = r.task_id WHERE r.routine = ? "
                "ORDER BY r.started_at DESC", (r.name,))
            last = runs[0] if runs else None
            out.append(RoutineSummary(
                name=r.name, goal=r.goal, steps=len(r.steps),
                parameters={p.name: p.default for p in r.parameters}, heals=r.heals,
                created_at=r.created_at, updated_at=float(row["updated_at"]), runs=len(runs),
                last_task=last["task_id"] if last else None,
                last_status=last["status"] if last else None,
                last_run_at=last["started_at"] if last else None,
                last_seconds=(max(0.0, last["updated_at"] - last["started_at"])
                              if last and last["updated_at"] is not None else None),
                last_heals=last["heals"] if last else None,
                last_model_calls=last["model_calls"] if last else None))
        return out
