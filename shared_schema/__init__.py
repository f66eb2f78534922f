"""The message protocol between the heybro extension and host (the single source of truth)."""

from .codec import ProtocolError, build, parse
from .envelope import PROTOCOL_VERSION, Envelope, new_id
from .events import EventKind
from .messages import MESSAGES, ErrorCode, ErrorInfo

__all__ = ["MESSAGES", "PROTOCOL_VERSION", "Envelope", "ErrorCode", "ErrorInfo", "EventKind",
           "ProtocolError", "build", "new_id", "parse"]
