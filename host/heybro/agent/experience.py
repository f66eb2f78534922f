"""Experiences (seed 002): short learnings about a site the agent collects while working ("search
is in the menu on shop.example"), kept per site, capped and de-duplicated, and handed to the
scheduler and the worker the next time they work there. The user can list and delete them."""

from __future__ import annotations

import re
import time
from typing import Protocol
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

PER_SITE = 20  # the newest (or last used) are kept
MAX_CHARS = 240
SAME = 0.8  # word overlap (Jaccard) at which two learnings say the same thing


class Experience(BaseModel):
    id: int = 0
    site: str
    text: str
    task_id: str | None = None
    created_at: float = Field(default_factory=time.time)
    page: str | None = None  # the page it was learned on


DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str:
    """What learnings are kept by: the page's origin (scheme, host and port), so two applications
    on one host (127.0.0.1:8080 and :8081) never share them. '' for a page without one."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return ""
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return ""
    shown = f":{port}" if port is not None and port != DEFAULT_PORTS[parts.scheme] else ""
    return f"{parts.scheme}://{parts.hostname.lower()}{shown}"


def keys_of(url: str) -> list[str]:
    """The keys to read a page's learnings under: its origin, and on a default port the bare host
    name they were kept under before (an origin on another port is another application)."""
    origin = origin_of(url)
    if not origin:
        return []
    rest = origin.split("://", 1)[1]
    return [origin] + ([] if ":" in rest else [rest])


def about(kept: str, asked: str) -> bool:
    """Whether learnings kept under `kept` (an origin, or a host name kept before origins) are
    about `asked`: for an address, those a page there is given (`keys_of`); for an origin,
    host:port or a host name, those kept about it."""
    asked = asked.strip().lower().rstrip("/")
    where = kept.split("://", 1)[-1]  # host[:port]
    return asked in (kept, where, where.split(":", 1)[0]) or (
        "://" in asked and kept in keys_of(asked))


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def same(a: str, b: str) -> bool:
    """Whether two learnings say the same thing (most of their words shared)."""
    wa, wb = words(a), words(b)
    return bool(wa and wb) and len(wa & wb) / len(wa | wb) >= SAME


def clean(text: str) -> str:
    return " ".join(text.split())[:MAX_CHARS]


class Experiences(Protocol):
    def for_site(self, site: str) -> list[Experience]: ...
    def add(self, site: str, text: str, task_id: str | None = None,
            page: str | None = None) -> Experience | None:
        """Keeps a learning (with the page it was learned on); None when it repeats one already
        kept (that one counts as newer)."""
        ...


class MemoryExperiences:
    """Kept in a list (tests, and a host running without its store)."""

    def __init__(self) -> None:
        self.items: list[Experience] = []

    def for_site(self, site: str) -> list[Experience]:
        return [e for e in self.items if e.site == site]

    def add(self, site: str, text: str, task_id: str | None = None,
            page: str | None = None) -> Experience | None:
        text = clean(text)
        for e in self.for_site(site):
            if same(e.text, text):
                e.created_at = time.time()
                return None
        item = Experience(id=len(self.items) + 1, site=site, text=text, task_id=task_id, page=page)
        self.items.append(item)
        mine = sorted(self.for_site(site), key=lambda e: e.created_at)
        for old in mine[:-PER_SITE]:
            self.items.remove(old)
        return item
