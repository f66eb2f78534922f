"""What `heybro mcp` offers a calling agent: the task tools (heybro's planner, worker and verifier do
the work) and the page tools — heybro's own worker tools, their names, descriptions and argument
schemas taken from their definitions (agent/toolbox.py), plus `observe` for the page map."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from shared_schema.routines import ROUTINE_NAME

from ..tool_def import LOOKS, Args, RoleTool
from ..outside.run import OBSERVE, offered


class RunTask(Args):
    goal: str = Field(min_length=1, max_length=20_000, description="What to do, in plain words.")
    url: str | None = Field(None, description="Open this page first.")


class TaskId(Args):
    task_id: str = Field(min_length=1)


class TaskStatus(TaskId):
    wait: bool = Field(False, description="Follow the task until it ends or asks something.")


class Message(TaskId):
    text: str = Field(min_length=1, max_length=20_000)


class ListTasks(Args):
    limit: int = Field(20, ge=1, le=200)


class RunRoutine(Args):
    name: str = Field(pattern=ROUTINE_NAME)
    params: dict[str, str] = Field(default_factory=dict, description="Parameter name → value.")
    url: str | None = Field(None, description="Start on this page instead of the routine's.")


# The task level, each tool declared once (its handler: HeybroMcp._<name>, server.py).
RUN_TASK = RoleTool("run_task", RunTask, (
    "Have heybro do a whole task in the user's browser: its planner, worker and verifier act "
    "and check their work; progress notifications carry each step. Returns when the task "
    "ends (outcome, answer, task id) or when heybro asks something (answer a plain question "
    "with `message`; a confirmation or a secret only the user gives, in heybro's panel), "
    "then `task_status(wait=true)` follows it on."), "local")
TASK_STATUS = RoleTool("task_status", TaskStatus, "A task's status, plan and pending question; "
                       "with wait, follows it until it ends or asks something.", "local", LOOKS)
PAUSE = RoleTool("pause", TaskId, "Pause a task at its next safe point (between actions).", "local")
RESUME = RoleTool("resume", TaskId, "Resume a paused task.", "local")
STOP = RoleTool("stop", TaskId, "Stop a task.", "local")
MESSAGE = RoleTool("message", Message, "Answer heybro's plain question, or add information for "
                   "the task's planner. Confirmations of risky actions and secrets are the "
                   "user's alone.", "local")
LIST_TASKS = RoleTool("list_tasks", ListTasks, "heybro's recent tasks, newest first (the user's "
                      "own included).", "local", LOOKS)
RUN_ROUTINE = RoleTool("run_routine", RunRoutine, "Replay one of the user's saved routines with "
                       "parameters, as a task (heybro's model only heals a step the page "
                       "changed); returns like run_task.", "local")
TASK_TOOLS: dict[str, RoleTool] = {t.name: t for t in (
    RUN_TASK, TASK_STATUS, PAUSE, RESUME, STOP, MESSAGE, LIST_TASKS, RUN_ROUTINE)}

EXPECT = (" Optional `expect`: what the page should show after it, checked by heybro on the page, "
          "as checks joined by ';' — url:/checkout; text:Order confirmed; no text:Loading; "
          "element:button \"Pay\"; no element:…; value:kettle (the field's value).")
PAGE_NOTE = (" Element ids are those of heybro's page map (observe). Runs in your heybro task, "
             "shown in the user's side panel; heybro asks the user before a risky action.")


def page_tools() -> dict[str, tuple[dict[str, Any], str]]:
    """name → (input schema, description), from heybro's definitions."""
    out: dict[str, tuple[dict[str, Any], str]] = {
        OBSERVE.name: (OBSERVE.schema(), OBSERVE.doc)}
    for name, tool in offered().items():
        schema = tool.schema()
        doc = tool.doc + (EXPECT if "expect" in schema.get("properties", {}) else "") + PAGE_NOTE
        out[name] = (schema, doc)
    return out


def task_tools() -> dict[str, tuple[dict[str, Any], str]]:
    return {name: (tool.schema(), tool.doc) for name, tool in TASK_TOOLS.items()}
