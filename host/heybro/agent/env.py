"""One task's run put together: its task, services and state, and the parts each phase is handed —
its course (`life`: status, safe points), the user (`user`), the browser (`calls`), the page as
read (`page`), the host tools (`host`). A phase takes the part it needs; nothing here runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..config import Settings
from .browser import Browser
from .calls import BrowserCalls
from .control import RunControl
from .experience import Experiences, MemoryExperiences
from .guardrails import LoopDetector
from .host_calls import HostCalls
from .lifecycle import Lifecycle
from .models import Task
from .page import Page
from .recorder import Recorder
from .run_state import RunState, Services, StoppableLLM
from .user import User

if TYPE_CHECKING:
    from ..llm.client import LLMClient


class AgentEnv:
    """What every role of one task shares, as parts that share the task, its services and its
    run state."""

    __slots__ = ("task", "services", "state", "life", "user", "calls", "page", "host")

    def __init__(self, task: Task, llm: LLMClient, settings: Settings, browser: Browser,
                 recorder: Recorder, control: RunControl | None = None,
                 experiences: Experiences | None = None) -> None:
        control = control or RunControl()
        self.task = task
        self.services = svc = Services(
            llm=llm if isinstance(llm, StoppableLLM) else StoppableLLM(llm, control),  # type: ignore[arg-type]
            settings=settings, browser=browser, recorder=recorder, control=control,
            experiences=experiences or MemoryExperiences())
        self.state = state = RunState(loops=LoopDetector(settings.limits), tab_id=task.tab_id)
        state.secrets.take_said(task)
        self.life = Lifecycle(task, svc, state)
        self.user = User(task, svc, state, self.life)
        self.calls = BrowserCalls(task, svc, state, self.user)
        self.page = Page(task, svc, state, self.calls)
        self.host = HostCalls(task, svc, state, self.user)
