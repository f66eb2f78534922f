"""Runs the real agent core (TaskExecutor, roles, the `openai` client) against the scripted LLM
server and a browser (the fake one, or the real extension through a bridge)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from heybro import config
from heybro.agent.browser import Browser
from heybro.agent.env import AgentEnv
from heybro.agent.executor import TaskExecutor
from heybro.agent.models import Task
from heybro.agent.recorder import FanOut, MemoryRecorder, Recorder
from heybro.llm import LLMClient

from .scripted_llm import ScriptedLLM, calls


def run_task(llm: ScriptedLLM, browser: Browser, goal: str = "Buy the blue kettle",
             url: str | None = "http://shop/", env_extra: dict[str, str] | None = None,
             resources: dict[str, str] | None = None, env_hook: Any = None,
             config_file: Path | None = None,
             also: Recorder | None = None) -> tuple[Task, MemoryRecorder, Any]:
    """The task run to its end: (task, recorded events, TaskResult). `env_hook(env)` runs before
    the task starts (a person answering questions, another experiences book …); `also` records
    the run too (the task store's recorder, say)."""
    settings = config.load(env=llm.env(**(env_extra or {})),
                           file=config_file or Path("/nonexistent"))
    rec = MemoryRecorder()

    async def main() -> Any:
        client = LLMClient(settings)
        task = Task(description=goal, url=url, resources=resources or {})
        env = AgentEnv(task=task, llm=client, settings=settings, browser=browser,
                       recorder=FanOut(also, rec) if also is not None else rec)
        if env_hook:
            env_hook(env)
        try:
            result = await TaskExecutor(env).execute()
        finally:
            await client.close()
        return task, result

    task, result = asyncio.run(main())
    return task, rec, result


def answering(*answers: str, stop: bool = False) -> Any:
    """An `env_hook`: a person who answers each question as it is asked, in order (then stops the
    task at the next one, with `stop`)."""
    def hook(env: AgentEnv) -> None:
        async def person() -> None:
            for text in answers:
                while not env.services.control.asking:
                    await asyncio.sleep(0.01)
                await asyncio.sleep(0.05)
                env.services.control.answer(text)
                while env.services.control.asking:
                    await asyncio.sleep(0.01)
            if stop:
                while not env.services.control.asking:
                    await asyncio.sleep(0.01)
                env.services.control.stop()
        asyncio.get_running_loop().create_task(person())
    return hook


def plan(*subtasks: str) -> dict[str, Any]:
    """The scheduler's usual first reply: set the subtasks and start work."""
    return calls(("set_subtasks", {"subtasks": list(subtasks)}), ("start_work", {}))


def prompts(llm: ScriptedLLM, role: str) -> list[str]:
    """The user message of every request a role made (the page, history, warnings …)."""
    out = []
    for body in llm.role_requests(role):
        content = body["messages"][1]["content"]
        if isinstance(content, list):
            content = "\n".join(p.get("text", "") for p in content if p.get("type") == "text")
        out.append(content)
    return out


def feedback(llm: ScriptedLLM, role: str) -> list[str]:
    """The repair messages the host sent a role, each once, in order (a request repeats the
    repair turns of the requests before it)."""
    said = [str(m.get("content")) for body in llm.role_requests(role)
            for m in body["messages"][2:] if m["role"] in ("user", "tool")]
    return list(dict.fromkeys(said))
