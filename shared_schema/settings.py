"""The settings the extension's options page reads and writes through the host.

The page edits the same file `heybro config` does (the host owns it, mode 0600). The API key
travels one way only: the page may send a new one (`api_key`) or ask to forget it
(`clear_api_key`); nothing the host sends back ever carries it — `SettingsView.api_key_set` says
whether one is saved. Ranges are checked by the host's own settings model (one definition), which
answers a bad value with `invalid_settings` naming the field.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .payload import Payload as _Model
from .sites import SiteRules


class RoleModels(_Model):
    """A model per role; an empty one uses the model for all roles."""

    scheduler: str | None = Field(None, max_length=200)
    worker: str | None = Field(None, max_length=200)
    verifier: str | None = Field(None, max_length=200)


class LimitsForm(_Model):
    """The guardrails a person tunes (the others keep their defaults or the file's values)."""

    max_steps: int
    max_llm_calls: int
    max_retries: int
    max_replans: int
    max_failures: int
    task_timeout_s: float


class SettingsForm(_Model):
    base_url: str | None = Field(None, max_length=2000,
                                 description="OpenAI-compatible address; none = OpenAI.")
    model: str | None = Field(None, max_length=200, description="The model for every role.")
    models: RoleModels = Field(default_factory=RoleModels)
    tool_mode: Literal["auto", "native", "json"] = "auto"
    vision: bool = False
    confidence_threshold: float = 0.7
    limits: LimitsForm
    sites: SiteRules = Field(default_factory=SiteRules, description="Where heybro may work.")


class SettingsGet(_Model):
    """Ask for the saved settings."""


class SettingsView(SettingsForm):
    """The saved settings as the page shows them: never the key itself."""

    api_key_set: bool = Field(description="A key is saved (its value never leaves the host).")
    file: str = Field(description="The settings file (`heybro config` edits the same one).")
    from_environment: list[str] = Field(
        default_factory=list, description="Settings the host's own environment overrides "
        "(HEYBRO_* variables win over the file).")


class SettingsSet(SettingsForm):
    """Save the form. `api_key` replaces the saved key; `clear_api_key` forgets it; with neither
    the saved key stays as it is."""

    api_key: str | None = Field(None, min_length=1, max_length=1000)
    clear_api_key: bool = False


class SettingsTest(SettingsSet):
    """Try the form as it stands (saved or not): the server's model list and a one-token answer
    from each model. Without `api_key` the saved key is used (unless `clear_api_key`)."""


class ProbeStep(_Model):
    name: str = Field(description="What was tried, e.g. 'list models' or 'answer from gpt-4o'.")
    ok: bool
    detail: str = Field(description="What happened, in words a person can act on.")


class SettingsTestResult(_Model):
    ok: bool
    summary: str = Field(description="One sentence: connected, or the first thing that failed.")
    steps: list[ProbeStep]
    models: list[str] = Field(default_factory=list, description="Models the server offers "
                              "(the first 200).")
