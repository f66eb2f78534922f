"""LLM and agent settings: a config file (`<config_dir>/config.json`) overlaid by env vars.

Environment (all optional, they win over the file):
  HEYBRO_LLM_BASE_URL   OpenAI-compatible base URL (default OpenAI; Ollama: http://localhost:11434/v1)
  HEYBRO_LLM_API_KEY    API key (falls back to OPENAI_API_KEY)
  HEYBRO_MODEL          model for every role; HEYBRO_MODEL_SCHEDULER / _WORKER / _VERIFIER per role
  HEYBRO_TOOL_MODE      auto | native | json   (json = JSON-mode fallback for models without tools)
  HEYBRO_VISION         1/0: send screenshots to the worker and verifier
  HEYBRO_LLM_TIMEOUT    seconds per LLM call;  HEYBRO_LLM_RETRIES  retries on 5xx/timeouts
  HEYBRO_LLM_RATE_LIMIT_RETRIES  retries on 429 (each after the server's Retry-After, capped by
                        HEYBRO_LLM_RETRY_AFTER_MAX seconds)
  HEYBRO_CONFIDENCE     verifier confidence threshold (0-1)
  HEYBRO_CONFIRM        1/0: ask before risky actions (spend, send, delete, personal data)
  HEYBRO_MAX_STEPS, HEYBRO_MAX_LLM_CALLS, HEYBRO_MAX_RETRIES, HEYBRO_MAX_FAILURES,
  HEYBRO_MAX_REPAIRS, HEYBRO_MAX_REPLANS, HEYBRO_TASK_TIMEOUT   guardrail limits
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shared_schema.sites import SiteRules

from . import paths
from .tools.settings import ToolSettings, overlay_env

ROLES = ("scheduler", "worker", "verifier", "analyst", "technician")


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_steps: int = Field(40, ge=1, description="Browser actions per task.")
    max_llm_calls: int = Field(12, ge=1, description="LLM calls per role run.")
    max_retries: int = Field(3, ge=1, description="Worker attempts per subtask before a replan.")
    max_replans: int = Field(6, ge=0, description="Forced replans per task before failing.")
    max_failures: int = Field(3, ge=1, description="Consecutive failed actions.")
    max_repairs: int = Field(2, ge=0, description="Repair turns for an invalid model reply.")
    max_batch: int = Field(3, ge=1, le=3, description="Actions per worker reply.")
    task_timeout_s: float = Field(900.0, gt=0, description="Wall clock per task.")
    loop_warn: int = Field(2, ge=1, description="Times one action is done on a page it leaves "
                           "unchanged before the model is warned (2: at the first repeat).")
    loop_fail: int = Field(3, ge=2, description="… before the task fails (3: at the second repeat).")


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base_url: str | None = None
    api_key: str | None = None
    model: str | None = None
    models: dict[str, str] = Field(default_factory=dict, description="Per-role model overrides.")
    tool_mode: Literal["auto", "native", "json"] = "auto"
    vision: bool = False
    timeout_s: float = Field(60.0, gt=0)
    retries: int = Field(4, ge=0, description="Retries on 5xx, timeouts, connection errors.")
    rate_limit_retries: int = Field(8, ge=0, description="Retries on 429 (rate limited): servers "
                                    "ask to wait longer than they take to recover from an error.")
    retry_base_s: float = Field(0.5, ge=0)
    retry_max_s: float = Field(8.0, ge=0)
    retry_after_max_s: float = Field(30.0, ge=0, description="Longest wait a 429's Retry-After "
                                     "(or retry-after-ms) header is honoured for.")
    confidence_threshold: float = Field(0.7, ge=0, le=1)
    prices: dict[str, list[float]] = Field(
        default_factory=dict, description="USD per million tokens [input, output] by model.")
    temperature: float | None = 0.0
    observe_tokens: int = Field(1000, ge=200, description="Page-map budget per observe.")
    confirm: bool = Field(True, description="Ask before an action that spends money, sends or "
                          "publishes, deletes or submits personal data.")
    confirm_off_sites: list[str] = Field(default_factory=list, description="Sites (host names, "
                                         "e.g. shop.example) where heybro does not ask first.")
    sites: SiteRules = Field(default_factory=SiteRules, description="Where heybro may work: sites "
                             "it never touches, asks first about, or may always use "
                             "(shared_schema/sites.py).")
    window_size: str = Field("1280x800", pattern=r"^[1-9][0-9]{2,4}x[1-9][0-9]{2,4}$",
                             description="The viewport (width x height) of the browser heybro "
                             "starts for itself (`heybro run`, routines, `heybro mcp`), headless "
                             "or not: pages are laid out as a person at a desktop sees them.")
    limits: Limits = Field(default_factory=Limits)
    tools: ToolSettings = Field(default_factory=ToolSettings, description="Host tools: see "
                                "heybro.tools.settings.")

    def model_for(self, role: str) -> str:
        return self.models.get(role) or self.model or ""

    @property
    def configured(self) -> bool:
        return bool(self.model_for("worker")) and bool(self.api_key or self.base_url)

    def redacted(self) -> dict[str, Any]:
        d = self.model_dump()
        if d.get("api_key"):
            d["api_key"] = "***"
        return d


class ConfigError(Exception):
    pass


NOT_CONFIGURED = """No LLM is configured. Point heybro at any OpenAI-compatible server, once:
  OpenAI:     heybro config --model gpt-4o-mini --api-key
  Ollama:     heybro config --base-url http://localhost:11434/v1 --model qwen2.5:7b
  vLLM / LM Studio / OpenRouter: heybro config --base-url <its /v1 URL> --model <name> --api-key
(saved in {path}, readable only by you). `heybro run` also reads HEYBRO_LLM_BASE_URL, HEYBRO_MODEL
and HEYBRO_LLM_API_KEY from its terminal, over that file, and hands them to the browser's heybro
with its task (a browser started elsewhere does not see the terminal's environment)."""


def from_dict(data: dict[str, Any]) -> Settings:
    """Settings handed over whole (`heybro run` passes the ones its terminal resolved). Errors name
    the field and the problem, never the value (it may be an API key)."""
    try:
        return Settings.model_validate(data)
    except ValidationError as err:
        raise ConfigError("Invalid heybro settings: " + "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())) from None


# Which setting each environment variable overrides (besides the key, vision and per-role models).
ENV_FIELDS = {"HEYBRO_LLM_BASE_URL": "base_url", "HEYBRO_MODEL": "model",
              "HEYBRO_TOOL_MODE": "tool_mode", "HEYBRO_LLM_TIMEOUT": "timeout_s",
              "HEYBRO_LLM_RETRIES": "retries", "HEYBRO_CONFIDENCE": "confidence_threshold",
              "HEYBRO_RETRY_BASE": "retry_base_s",
              "HEYBRO_LLM_RATE_LIMIT_RETRIES": "rate_limit_retries",
              "HEYBRO_LLM_RETRY_AFTER_MAX": "retry_after_max_s",
              "HEYBRO_WINDOW_SIZE": "window_size"}
ENV_LIMITS = {"HEYBRO_MAX_STEPS": "max_steps", "HEYBRO_MAX_LLM_CALLS": "max_llm_calls",
              "HEYBRO_MAX_RETRIES": "max_retries", "HEYBRO_MAX_FAILURES": "max_failures",
              "HEYBRO_MAX_REPAIRS": "max_repairs", "HEYBRO_MAX_REPLANS": "max_replans",
              "HEYBRO_TASK_TIMEOUT": "task_timeout_s"}


def config_file() -> Path:
    return paths.config_dir() / "config.json"


def _env_bool(v: str) -> bool:
    return v.strip().lower() in ("1", "true", "yes", "on")


def load(env: dict[str, str] | None = None, file: Path | None = None) -> Settings:
    env = dict(os.environ if env is None else env)
    file = file or config_file()
    data: dict[str, Any] = {}
    if file.exists():
        try:
            data = json.loads(file.read_text())
        except (OSError, json.JSONDecodeError) as err:
            raise ConfigError(f"{file} is not valid JSON: {err}") from err
    limits = dict(data.pop("limits", {}) or {})
    models = dict(data.pop("models", {}) or {})
    for var, key in ENV_FIELDS.items():
        if env.get(var):
            data[key] = env[var]
    data["tools"] = overlay_env(data.get("tools"), env)
    api_key = env.get("HEYBRO_LLM_API_KEY") or env.get("OPENAI_API_KEY")
    if api_key:
        data["api_key"] = api_key
    if env.get("HEYBRO_VISION"):
        data["vision"] = _env_bool(env["HEYBRO_VISION"])
    if env.get("HEYBRO_CONFIRM"):
        data["confirm"] = _env_bool(env["HEYBRO_CONFIRM"])
    for role in ROLES:
        if env.get(f"HEYBRO_MODEL_{role.upper()}"):
            models[role] = env[f"HEYBRO_MODEL_{role.upper()}"]
    for var, name in ENV_LIMITS.items():
        if env.get(var):
            limits[name] = env[var]
    try:
        return Settings(**data, models=models, limits=Limits(**limits))
    except ValidationError as err:
        raise ConfigError(f"Invalid heybro settings: {err}") from err
