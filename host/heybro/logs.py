"""Structured logs as JSON lines in a rotated file. Never stdout: that is the native channel."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

import structlog

from . import paths

_configured: Path | None = None


def setup(filename: str = "host.log", level: int = logging.INFO) -> Path:
    """Send structlog and stdlib logging to `<log_dir>/<filename>`; returns the file path."""
    global _configured
    log_file = paths.log_dir() / filename
    if _configured == log_file:
        return log_file
    log_file.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(log_file, maxBytes=5 * 1024 * 1024,
                                                   backupCount=3, encoding="utf-8")
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
    _configured = log_file
    return log_file


def get(name: str) -> structlog.stdlib.BoundLogger:
    return structlog.get_logger(name)
