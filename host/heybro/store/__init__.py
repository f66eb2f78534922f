"""The host's durable record of every task (SQLite, WAL, append-only history)."""

from .errors import StoreUnwritable
from .task_store import EventRow, TaskRow, TaskStore, default_path

__all__ = ["EventRow", "StoreUnwritable", "TaskRow", "TaskStore", "default_path"]
