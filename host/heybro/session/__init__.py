"""The host's agent session, in rooms:

- `core.py` — `Session`: one task at a time; start, pause, resume, stop, a message; who follows.
- `commands.py` — THE command table, served on native messaging and the websocket endpoint alike
  (a new command is one entry there).
- `launch.py` — starting a run: recorders, the browser (an injectable `BrowserFactory`), the
  model client, and holding the task while the store cannot write.
- `queries.py` — the task list and one task's history, as the panel and the terminal read them.
- `experiences.py` — what was learned about sites, listed and forgotten (the panel's "Learned").
- `resume_notes.py` — why a restored task goes on (`agent.models.ResumeNote`).
- `install.py` — wiring all this into the native host.
"""

from __future__ import annotations

from .commands import COMMANDS
from .core import HOW_TO_END, RUNNER_DIED, Session
from .install import LEASE_CHECK_S, install
from .launch import BrowserFactory, native_browser
from .running import Listener, Running

__all__ = ["COMMANDS", "HOW_TO_END", "LEASE_CHECK_S", "RUNNER_DIED",
           "BrowserFactory", "Listener", "Running", "Session", "install", "native_browser"]
