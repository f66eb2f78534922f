"""Structured logs as JSON lines in a rotated file. Never stdout: that is the native channel.

When the log folder cannot be used (not writable, a file where the folder should be, a full disk),
logging falls back to stderr rather than stopping the program: a host that cannot log must still
answer Chrome. `heybro doctor` reports the same problem with its fix.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from dataclasses import dataclass
from pathlib import Path

import structlog

from . import paths

MAX_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class LogTarget:
    """Where the logs go: a file, or stderr when the file could not be opened (`problem` says why)."""

    path: Path | None
    problem: str | None = None

    def describe(self) -> str:
        return str(self.path) if self.path else f"stderr (log file unusable: {self.problem})"


_configured: LogTarget | None = None


class _PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """Each log file (the rotated ones too) readable by the user alone: logs hold goals and pages."""

    def _open(self):  # type: ignore[no-untyped-def]
        paths.private_file(Path(self.baseFilename))
        return super()._open()


def file_handler(log_file: Path) -> logging.Handler:
    """The rotating handler for `log_file`, creating its folder; OSError when that cannot be done."""
    paths.private_dir(log_file.parent)
    return _PrivateRotatingFileHandler(log_file, maxBytes=MAX_BYTES, backupCount=3, encoding="utf-8")


def setup(filename: str = "host.log", level: int = logging.INFO) -> LogTarget:
    """Send structlog and stdlib logging to `<log_dir>/<filename>`, or to stderr if it can't be used."""
    global _configured
    log_file = paths.log_dir() / filename
    if _configured is not None and _configured.path == log_file:
        return _configured
    handler: logging.Handler
    try:
        handler = file_handler(log_file)
        target = LogTarget(log_file)
    except OSError as err:
        handler = logging.StreamHandler(sys.stderr)
        target = LogTarget(None, f"{log_file}: {err.strerror or err}")
    handler.setFormatter(logging.Formatter("%(message)s"))
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.stdlib.LoggerFactory(),
        cache_logger_on_first_use=True,
    )
    _configured = target
    if target.problem:
        get("heybro.logs").warning("log_file_unusable", problem=target.problem,
                                   fallback="stderr")
    return target


def get(name: str) -> structlog.stdlib.BoundLogger:
    return structlog.get_logger(name)
