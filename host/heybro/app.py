"""heybro put together, in one place: the handlers the native host serves, the subcommands of the
`heybro` command, the checks `heybro doctor` runs. Nothing registers itself when imported; a new
capability is a line here.

    heybro       → main()       (pyproject's [project.scripts]; `python -m heybro.cli` too)
    the command line's parser and own subcommands: heybro.command_line
    heybro-host  → host_main()  (the launcher Chrome starts runs `python -m heybro.native`)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from . import command_line
from .install import doctor
from .native import host


def host_installers() -> list[host.Installer]:
    """What the native host serves beyond its handshake: the agent session's one command table
    (tasks, routines, outside agents, the settings page) and the local endpoint for the CLI."""
    from . import session
    from .endpoint.server import start_endpoint

    return [functools.partial(session.install, serve=start_endpoint)]


def doctor_checks() -> list[doctor.ExtraCheck]:
    from .agent.doctor_check import check_llm
    from .install.unpacked import check_folder
    from .store.doctor_check import check_store

    return [check_folder, check_llm, check_store]


def cli_extensions() -> list[command_line.Extend]:
    from . import cli_experiences, cli_mcp, cli_routine_run, cli_routines, cli_run, cli_tasks

    return [cli_run.extend, cli_tasks.extend, cli_experiences.extend,
            functools.partial(cli_routines.extend, more=[cli_routine_run.actions]), cli_mcp.extend]


def main(argv: Sequence[str] | None = None) -> int:
    return command_line.main(list(argv) if argv is not None else None, cli_extensions(),
                             doctor_checks())


def host_main(argv: list[str] | None = None) -> int:
    return host.main(argv, host_installers())
