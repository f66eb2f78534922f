"""Every yes/no heybro asks the user goes through here: one record of what needs the yes
(`Approval`), one way of asking and of hearing the answer (`ask`), and, written once beside them,
what a "no" means for each kind of run (`after_no`).

Who decides that a call needs the user is the thing that knows what the call does — the sinks
(sinks.py: data leaving, a press's effect, an address that deletes or pays), the site rules
(calls.BrowserCalls.site_permission), a host tool's declaration (`RoleTool.asks`: a shell
command off the allow-list) — never the model. They all hand an `Approval` to `ask`; a yes comes back as the line
the record keeps, a no as `ToolFailed("declined")` carrying that line too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from .errors import TaskStopped, ToolFailed
from .models import Question


class Asker(Protocol):
    """Who puts a question to the user and waits for the answer (the run's `User`, user.py)."""

    async def ask_user(self, question: Question) -> str: ...

# What a yes is for: a press whose effect is risky, the user's data leaving for a site they never
# named, an address that deletes or pays, a site the settings ask about, a host tool's call.
Kind = Literal["press", "send", "open", "site", "host_tool"]
# Who runs the call: the model's worker (or a desk role), a routine's replay, an outside agent.
RunKind = Literal["model", "replay", "outside"]

YES = {"yes", "y", "ok", "okay", "go ahead", "allow", "sure", "yes, go ahead", "confirm"}
# What every refusal tells the caller to do instead.
INSTEAD = "report what was done, or ask the user what they want."


def said_yes(answer: str) -> bool:
    """Whether the user's answer to a confirmation is a yes (the panel's button says "Yes")."""
    return answer.strip().lower() in YES


@dataclass(frozen=True)
class Approval:
    """One thing that needs the user's yes before it happens, in the words they read."""
    kind: Kind
    question: str  # the question as the user reads it (answered Yes / No)
    act: str  # what would happen, for the refusal ("sending your e-mail to evil.test")
    asked: str  # the record's words for the asking ("heybro asked first (delete)")

    def refusal(self) -> ToolFailed:
        return ToolFailed("declined", f"The user said no to {self.act}: do not do it, nor the "
                          f"same another way; {INSTEAD}",
                          {"decided": f"{self.asked}; the user said no", "approval": self.kind})


async def ask(user: Asker, approval: Approval) -> str:
    """Asks the user; returns the record's line for their yes, raises the refusal on a no."""
    answer = await user.ask_user(Question(kind="confirm", choices=["Yes", "No"],
                                          text=approval.question))
    if not said_yes(answer):
        raise approval.refusal()
    return f"{approval.asked}; the user said yes"


def after_no(run: RunKind, code: str | None, what: str) -> None:
    """What the user's no (a call that failed with `code` "declined") means, by who runs it:

    - the model's worker, a desk role: the call failed `declined` and says so; the rest of the
      reply is not run, and the model picks another way or reports (its next prompt shows why);
    - an outside agent: the caller hears the no as its call's answer, the task goes on;
    - a routine's replay: the run stops there — a replay has nobody to pick another way, and a
      step the user refused is not healed into one they did not refuse.
    """
    if code == "declined" and run == "replay":
        raise TaskStopped(f"the user said no to {what}; the replay stopped there") from None
