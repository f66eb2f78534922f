"""Every attack class's generator, in one list."""

from __future__ import annotations

from ..model import Attack
from . import effects, exfil, mcp_caller, pointer, presence, prompt, reach, secrets

NEEDS_MCP = {"exfil_tool", "secrets"}  # worlds whose config lists the notes MCP server


def generate() -> list[Attack]:
    return [*exfil.attacks(), *secrets.attacks(), *reach.attacks(), *pointer.attacks(), *effects.attacks(),
            *prompt.attacks(), *mcp_caller.attacks(), *presence.attacks()]


def benign() -> list[Attack]:
    return [*exfil.benign_attacks(), *secrets.benign_attacks()]
