"""Whether a process is there: the host's, a browser's, a group of them (by signal 0)."""

from __future__ import annotations

import os
from collections.abc import Callable


def alive(pid: int, probe: Callable[[int, int], None] = os.kill) -> bool:
    """Whether the process (or with probe=os.killpg, any process of the group) exists."""
    try:
        probe(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def group_alive(group: int) -> bool:
    return alive(group, os.killpg)
