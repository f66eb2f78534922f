"""The settings file (`<config_dir>/config.json`) as both `heybro config` and the options page edit it.

Written whole, atomically (a temp file beside it, then rename) and readable only by its owner
(0600 from the first byte: it may hold an API key). A change is checked by the Settings model
before it is written, so a bad value is refused with the field named and the file stays as it was.
A file that is not valid JSON is never overwritten: the person may have edited it by hand.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import config, paths

FileData = dict[str, Any]


class InvalidSettings(config.ConfigError):
    """A change with values out of range: `fields` maps each field (dotted) to its problem."""

    def __init__(self, fields: dict[str, str]) -> None:
        super().__init__("Not saved: " + "; ".join(f"{k}: {v}" for k, v in fields.items()))
        self.fields = fields


def read(file: Path | None = None) -> FileData:
    file = file or config.config_file()
    if not file.exists():
        return {}
    try:
        data = json.loads(file.read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise config.ConfigError(f"{file} is not valid JSON ({err}); fix or remove it first.") \
            from err
    if not isinstance(data, dict):
        raise config.ConfigError(f"{file} does not hold a JSON object; fix or remove it first.")
    return data


def check(data: FileData) -> config.Settings:
    """The file's content as Settings (without the environment), or InvalidSettings."""
    try:
        return config.Settings.model_validate(data)
    except ValidationError as err:
        raise InvalidSettings({".".join(map(str, e["loc"])) or "settings": e["msg"]
                               for e in err.errors()}) from None


def write(data: FileData, file: Path | None = None) -> None:
    file = file or config.config_file()
    paths.private_dir(file.parent)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".json", dir=file.parent)  # 0600
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
        os.replace(tmp, file)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    os.chmod(file, 0o600)


def update(change: Callable[[FileData], FileData], file: Path | None = None) -> FileData:
    """Reads the file, applies `change`, checks the result and writes it. Returns what was saved."""
    data = change(read(file))
    check(data)
    write(data, file)
    return data


def overridden(env: dict[str, str] | None = None) -> list[str]:
    """The settings this process's environment overrides (they win over the file)."""
    env = dict(os.environ if env is None else env)
    names = [field for var, field in config.ENV_FIELDS.items() if env.get(var)]
    names += [f"limits.{field}" for var, field in config.ENV_LIMITS.items() if env.get(var)]
    names += [f"models.{role}" for role in config.ROLES if env.get(f"HEYBRO_MODEL_{role.upper()}")]
    if env.get("HEYBRO_LLM_API_KEY") or env.get("OPENAI_API_KEY"):
        names.append("api_key")
    if env.get("HEYBRO_VISION"):
        names.append("vision")
    return names
