"""`python -m heybro.cli`, and `heybro.cli.main`: the whole `heybro` command as heybro.app puts it
together (what scripts, tests and launchers written before heybro.app call). The command line's
parser and its own subcommands are heybro.command_line."""

from __future__ import annotations

from .app import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
