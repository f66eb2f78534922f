"""A scripted model for healing: asked to do ONE step of a routine, it reads the recorded step from
its assignment and finds the control on the page map in its prompt the way a model would — by the
recorded name, or by the reworded name a redesign gave it — then reports. Asked anything else
(the model taking over a whole task), it answers as `fallback` does."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .mutated_pages import TEXT_TWEAKS
from .scripted_llm import call, find_ids, user_text

RECORDED = re.compile(r'the step was: (\w+)(?: on ([\w-]+) "([^"]*)")?(?: \((.*?)\))?\. '
                      r'Replaying', re.S)
# The kinds of control a redesign may turn one into (a link styled as a button, and back).
KINDS = {"link": ("link", "button"), "button": ("button", "link")}


def assignment(body: dict[str, Any]) -> str:
    return user_text(body).split("OVERALL GOAL", 1)[0]


@dataclass
class HealPolicy:
    fallback: dict[str, Callable[[dict[str, Any]], Any]]
    can_heal: bool = True  # False: the model cannot find the control either (a heal that fails)
    heals: list[str] = field(default_factory=list)

    def worker(self, body: dict[str, Any]) -> Any:
        said = assignment(body)
        if "Do ONE step of the saved routine" not in said:
            return self.fallback["worker"](body)
        if "DONE IN THIS ASSIGNMENT" in user_text(body):
            return call("mark_done", summary="Did the step")
        m = RECORDED.search(said)
        assert m, said
        tool, kind, name, shown = m.group(1), m.group(2), m.group(3) or "", m.group(4) or ""
        self.heals.append(f"{tool} {name}")
        ids: list[str] = []
        for label in dict.fromkeys((name, TEXT_TWEAKS.get(name, name))) if self.can_heal else ():
            for k in KINDS.get(kind or "", (kind,)):
                ids = ids or find_ids(body, f'{k} "{label}"' if k else label)
        if not ids:
            return call("mark_done", summary=f"There is no {name!r} on this page")
        params: dict[str, Any] = {"element_id": ids[0]}
        value = re.search(r"value='([^']*)'", shown)
        if value:
            params["value"] = value.group(1)
        return call(tool, **params)

    def defaults(self) -> dict[str, Any]:
        return {**self.fallback, "worker": self.worker}
