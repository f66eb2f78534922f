"""The run's words with the user: a question asked and waited for (`ask_user`; the ask_user
tool's `ask`, which keeps a secret answer out of the model's sight), what the task keeps
(`remember`), its answer, and a file it now has (`add_resource`)."""

from __future__ import annotations

from typing import Any

from shared_schema.page_text import neutral
from shared_schema.sites import site_of

from .held_secrets import asks_for_secret, secret_kind, secret_name, secret_ref
from .lifecycle import Lifecycle
from .models import MemoryItem, Question, RoleName, Task, TaskStatus
from .run_state import RunState, Services, task_ledger
from .task_files import described


class User:
    """What the run says to the user and hears back (gate.py asks its yes/no through it)."""

    __slots__ = ("task", "services", "state", "life")

    def __init__(self, task: Task, services: Services, state: RunState, life: Lifecycle) -> None:
        self.task, self.services, self.state, self.life = task, services, state, life

    async def ask_user(self, question: Question) -> str:
        """Asks the user and waits (status `waiting`, the clock stopped) for the answer."""
        task, before = self.task, self.task.status
        task.question = question
        await self.services.recorder.question(task, question)
        await self.life.set_status(TaskStatus.waiting, f"{TaskStatus.waiting.meaning.label}: {question.text}")
        try:
            answer = await self.services.control.ask()
        finally:
            task.question = None
        # The user may have used the page meanwhile (a login, a CAPTCHA): read it again (page.py).
        self.state.snapshot_fresh = False
        await self.life.set_status(before, "answered")
        return answer

    async def ask(self, args: Any) -> dict[str, Any]:
        """The ask_user tool: the user's answer as the model sees it (a secret only by its name).
        A question that asks for a password, a code or a PIN is a secret question whatever kind
        the model gave it (its answer never reaches the model or the record); one asked after
        reading a page is shown with that page, and a secret is bound to its site."""
        kind = "secret" if args.kind == "secret" or asks_for_secret(str(args.question)) else args.kind
        page = self.state.snapshot.url if self.state.snapshot is not None else ""
        site = site_of(page or self.task.url or "")
        question = Question(text=args.question, kind=kind, choices=args.choices or [],
                            page=site or None)
        answer = await self.ask_user(question)
        # (the question is the model's words, which a page may have shaped: shown as data, short)
        asked = neutral(str(args.question))[:200]
        if kind == "secret":
            name = args.name if args.kind == "secret" else secret_name(str(args.question))
            self.state.secrets.keep(name, answer, site=site or None,
                                    kind=secret_kind(f"{name} {args.question}"))
            return {"answered": True, "use_as": secret_ref(name),
                    "decided": f'asked "{asked}"; the user gave it (never recorded)'
                               + (f"; heybro types it only on {site}" if site else "")}
        task_ledger(self.task, self.state).said(answer)
        return {"answer": answer, "decided": f'asked "{asked}"; the user answered "{answer}"'}

    async def remember(self, name: str, value: str, source_url: str | None = None) -> MemoryItem:
        """Keeps a fact in the task's memory (a newer value replaces one of the same name)."""
        item = MemoryItem(name=name, value=value, source_url=source_url)
        self.task.memory = [m for m in self.task.memory if m.name != name] + [item]
        await self.services.recorder.memory(self.task, item)
        return item

    async def give_answer(self, role: RoleName, text: str) -> None:
        """The answer to the user's question: kept with the task, shown first when it ends."""
        self.task.answer = text
        await self.services.recorder.answer(self.task, role, text)

    async def add_resource(self, name: str, path: str, how: str) -> None:
        """A file the task made (or the page gave it) becomes one of its resources, by `name`: the
        roles are given it (upload, read_file) and the user is told."""
        known = self.task.resources.get(name) == path
        self.task.resources[name] = path
        if not known:
            await self.services.recorder.message(self.task, f"The file {described(name, path)} is "
                                                 f"now a resource of the task ({how}): heybro can "
                                                 "read it or upload it by that name.")
