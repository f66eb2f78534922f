"""Experiences in the task store: per site, capped at agent.experience.PER_SITE, de-duplicated;
listed and forgotten by the user (the panel's "Learned" list, `heybro experiences`)."""

from __future__ import annotations

import sqlite3
import time

from ..agent.experience import PER_SITE, Experience, about, clean, same
from .task_store import TaskStore


class StoreExperiences:
    def __init__(self, store: TaskStore) -> None:
        self.store = store

    def for_site(self, site: str) -> list[Experience]:
        rows = self.store.query("SELECT * FROM experiences WHERE site = ? ORDER BY created_at",
                                (site,))
        return [Experience(**dict(r)) for r in rows]

    def all(self) -> list[Experience]:
        rows = self.store.query("SELECT * FROM experiences ORDER BY site, created_at")
        return [Experience(**dict(r)) for r in rows]

    def about(self, asked: str) -> list[Experience]:
        """Those about `asked` (an address, an origin, host:port or a host name: agent.experience
        `about`), by site."""
        return [e for e in self.all() if about(e.site, asked)]

    def add(self, site: str, text: str, task_id: str | None = None,
            page: str | None = None) -> Experience | None:
        text, now = clean(text), time.time()

        def go(c: sqlite3.Connection) -> Experience | None:
            for row in c.execute("SELECT id, text FROM experiences WHERE site = ?", (site,)):
                if same(row[1], text):
                    c.execute("UPDATE experiences SET created_at = ? WHERE id = ?", (now, row[0]))
                    return None
            cur = c.execute("INSERT INTO experiences (site, text, task_id, created_at, page) "
                            "VALUES (?, ?, ?, ?, ?)", (site, text, task_id, now, page))
            c.execute("DELETE FROM experiences WHERE site = ? AND id NOT IN (SELECT id FROM "
                      "experiences WHERE site = ? ORDER BY created_at DESC LIMIT ?)",
                      (site, site, PER_SITE))
            return Experience(id=int(cur.lastrowid or 0), site=site, text=text, task_id=task_id,
                              created_at=now, page=page)

        return self.store.write(go)  # type: ignore[no-any-return]

    def delete(self, experience_id: int) -> bool:
        return bool(self.store.write(lambda c: c.execute(
            "DELETE FROM experiences WHERE id = ?", (experience_id,)).rowcount))

    def delete_site(self, site: str) -> list[int]:
        """Forgets every learning kept under `site` (exactly as kept); their ids."""
        def go(c: sqlite3.Connection) -> list[int]:
            ids = [int(r[0]) for r in c.execute("SELECT id FROM experiences WHERE site = ? "
                                                "ORDER BY created_at", (site,))]
            c.execute("DELETE FROM experiences WHERE site = ?", (site,))
            return ids
        return self.store.write(go)  # type: ignore[no-any-return]
