"""Learning messages: what heybro learned about sites (kept per site origin in the host's task store,
heybro.agent.experience), listed and forgotten — the panel's "Learned" list and `heybro
experiences`. A learning is a model's note of what pages said: whoever shows one shows it as plain
text, never as markup."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, model_validator

from .payload import Payload


class ExperienceSummary(Payload):
    """One learning as listed."""

    id: int = Field(ge=1)
    site: str = Field(description="What it is kept under: the origin of the page it was learned "
                      "on (a bare host name when an older heybro kept it).")
    text: str = Field(description="The note itself, as the model wrote it (untrusted).")
    page: str | None = Field(None, description="The address of the page it was learned on (none "
                             "when an older heybro kept it).")
    task_id: str | None = Field(None, description="The task that kept it (in the history).")
    created_at: float = Field(description="When it was kept, or last kept again (Unix seconds).")


class ExperienceList(Payload):
    site: str | None = Field(None, max_length=8000, description=(
        "Only these: for an address, the learnings a page there is given (its origin's, and on a "
        "default port those kept under its bare host name); for an origin, host:port or host "
        "name, those kept about it. None: all."))


class ExperienceListResult(Payload):
    experiences: list[ExperienceSummary] = Field(description="By site, oldest first in each.")


def _one_of_id_or_site(schema: dict[str, Any]) -> None:
    schema["oneOf"] = [{"required": ["id"]}, {"required": ["site"]}]


class ExperienceForget(Payload):
    """Forget one learning, or every learning of a site: exactly one of `id` and `site`."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_one_of_id_or_site)

    id: int | None = Field(None, ge=1, description="The learning (its id as listed).")
    site: str | None = Field(None, min_length=1, max_length=300,
                             description="Every learning kept under this site, exactly as listed.")

    @model_validator(mode="after")
    def _one(self) -> ExperienceForget:
        if (self.id is None) == (self.site is None):
            raise ValueError("give either the learning's id or its site, not both")
        return self


class ExperienceForgotten(Payload):
    ids: list[int] = Field(description="The learnings forgotten (none: there was no such "
                           "learning any more).")
