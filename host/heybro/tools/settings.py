"""The user's host-tool settings: `"tools": {...}` in heybro's config.json, a few env overrides.

Environment (they win over the file):
  HEYBRO_TOOLS_SHELL          1/0: offer the `shell` tool (off unless the user turns it on)
  HEYBRO_TOOLS_ALLOW_PRIVATE  1/0: let `fetch` reach loopback/private/link-local addresses
  HEYBRO_TIMEZONE             IANA name (Europe/Paris) for `now`; default the machine's own
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..agent.models import role_named
from .builtins import BUILTIN_TOOLS, EVERY_ROLE

# The built-ins' names, and which each role is given unless the user says otherwise: read from
# their declarations (builtins.py).
BUILTINS = tuple(t.name for t in BUILTIN_TOOLS)
DEFAULT_ROLES: dict[str, list[str]] = {role: [t.name for t in BUILTIN_TOOLS if role in t.roles]
                                       for role in EVERY_ROLE}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class McpServer(_Strict):
    """One MCP server started over stdio (`command args…`), its tools offered to `roles`."""
    command: str = Field(min_length=1)
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict, description="Added to a minimal environment "
                                "(PATH, HOME…); the host's own variables are not passed on.")
    cwd: str | None = Field(None, description="Working folder (default: the task's workspace).")
    roles: list[str] = Field(default_factory=lambda: ["technician"])

    @field_validator("roles")
    @classmethod
    def _renamed(cls, value: list[str]) -> list[str]:
        return [role_named(r) for r in value]
    start_timeout_s: float = Field(20.0, gt=0, description="Start plus handshake and tool list.")
    timeout_s: float = Field(60.0, gt=0, description="Per tool call.")


class ShellSettings(_Strict):
    enabled: bool = False
    allow: list[str] = Field(default_factory=list, description="Commands that run without asking: "
                             "each entry's words must start the command (`git status` allows `git "
                             "status -s`, not `git push`); a word may be a glob (`ls *`).")
    timeout_s: float = Field(30.0, gt=0)
    max_output: int = Field(20_000, ge=100, description="Characters of stdout+stderr kept.")


_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class ToolSettings(_Strict):
    roles: dict[str, list[str]] = Field(default_factory=lambda: {k: list(v) for k, v in
                                                                  DEFAULT_ROLES.items()},
                                        description="Built-in tools each role is given.")
    timeout_s: float = Field(30.0, gt=0, description="Per call of a built-in tool.")
    timezone: str | None = Field(None, description="IANA name for `now` (default: the machine's).")
    allow_private_addresses: bool = Field(False, description="Let `fetch` reach loopback, private "
                                          "and link-local addresses (your router, localhost apps).")
    allow_private_hosts: list[str] = Field(default_factory=list, description="Host names (or "
                                           "addresses) `fetch` may reach even when they are "
                                           "private, e.g. [\"nas.local\"]; others stay refused.")
    fetch_max_bytes: int = Field(2_000_000, ge=1_000, description="Largest response body read.")
    fetch_max_chars: int = Field(20_000, ge=200, description="Readable text handed to the model.")
    fetch_max_redirects: int = Field(5, ge=0)
    file_max_bytes: int = Field(1_000_000, ge=1, description="Largest file read or written.")
    shell: ShellSettings = Field(default_factory=ShellSettings)
    mcp_servers: dict[str, McpServer] = Field(default_factory=dict)

    @field_validator("roles")
    @classmethod
    def _known_builtins(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        for role, names in value.items():
            unknown = [n for n in names if n not in BUILTINS]
            if unknown:
                raise ValueError(f"role {role!r}: unknown built-in tool(s) {', '.join(unknown)}; "
                                 f"built-ins are {', '.join(BUILTINS)}")
        # A role the user names gets exactly its list; the others keep their defaults.
        return {**{k: list(v) for k, v in DEFAULT_ROLES.items()},
                **{role_named(k): v for k, v in value.items()}}

    @field_validator("mcp_servers")
    @classmethod
    def _server_names(cls, value: dict[str, McpServer]) -> dict[str, McpServer]:
        bad = [n for n in value if not _NAME.match(n)]
        if bad:
            raise ValueError(f"MCP server name(s) {', '.join(map(repr, bad))}: use letters, digits, "
                             "_ or - (at most 32): they prefix the server's tool names")
        return value

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        if value:
            from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
            try:
                ZoneInfo(value)
            except (ZoneInfoNotFoundError, ValueError):
                raise ValueError(f"unknown time zone {value!r} (an IANA name such as "
                                 "Europe/Paris)") from None
        return value

    def redacted(self) -> dict[str, Any]:
        """For display: MCP servers' env values often carry tokens."""
        d = self.model_dump()
        for server in d["mcp_servers"].values():
            server["env"] = {k: "***" for k in server["env"]}
        return d


def _env_bool(v: str) -> bool:
    return v.strip().lower() in ("1", "true", "yes", "on")


def overlay_env(data: dict[str, Any] | None, env: dict[str, str]) -> dict[str, Any]:
    """The file's `tools` section with the environment's overrides applied (still to validate)."""
    out = dict(data or {})
    if env.get("HEYBRO_TOOLS_SHELL"):
        out["shell"] = {**dict(out.get("shell") or {}),
                        "enabled": _env_bool(env["HEYBRO_TOOLS_SHELL"])}
    if env.get("HEYBRO_TOOLS_ALLOW_PRIVATE"):
        out["allow_private_addresses"] = _env_bool(env["HEYBRO_TOOLS_ALLOW_PRIVATE"])
    if env.get("HEYBRO_TIMEZONE"):
        out["timezone"] = env["HEYBRO_TIMEZONE"]
    return out
