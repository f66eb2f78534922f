"""The host's durable record of every task (SQLite, WAL, append-only history)."""

from .task_store import EventRow, TaskRow, TaskStore, default_path

__all__ = ["EventRow", "TaskRow", "TaskStore", "default_path"]
