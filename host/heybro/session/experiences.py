"""The host's answers to experience.list and experience.forget (the panel's "Learned" list), entries
of the session's command table (commands.py): what was learned about sites, read from and
forgotten in the task store — a learning forgotten is given to no task from then on."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from shared_schema.experiences import (ExperienceForget, ExperienceForgotten, ExperienceList,
                                       ExperienceListResult, ExperienceSummary)

from ..agent.experience import Experience
from ..store.experiences import StoreExperiences
from ..store.task_store import TaskStore

if TYPE_CHECKING:
    from .api import Reply, SessionApi
    from .running import Listener


def summary(e: Experience) -> ExperienceSummary:
    return ExperienceSummary(id=e.id, site=e.site, text=e.text, page=e.page, task_id=e.task_id,
                             created_at=e.created_at)


def listing(store: TaskStore, site: str | None) -> ExperienceListResult:
    book = StoreExperiences(store)
    items = book.about(site) if site is not None else book.all()
    return ExperienceListResult(experiences=[summary(e) for e in items])


def forget(store: TaskStore, payload: ExperienceForget) -> ExperienceForgotten:
    book = StoreExperiences(store)
    if payload.site is not None:
        return ExperienceForgotten(ids=book.delete_site(payload.site))
    assert payload.id is not None  # the payload holds one of the two
    return ExperienceForgotten(ids=[payload.id] if book.delete(payload.id) else [])


async def on_list(session: SessionApi, payload: ExperienceList, listener: Listener | None) -> Reply:
    return "experience.list_result", await asyncio.to_thread(listing, session.store, payload.site)


async def on_forget(session: SessionApi, payload: ExperienceForget,
                    listener: Listener | None) -> Reply:
    return "experience.forgotten", await asyncio.to_thread(forget, session.store, payload)
