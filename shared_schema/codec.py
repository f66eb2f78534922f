"""Checking and building messages: the Python half of "checked on both sides"."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from .envelope import PROTOCOL_VERSION, Envelope
from .messages import MESSAGES, ErrorCode, Payload


class ProtocolError(Exception):
    """A message that cannot be accepted; carries the typed code for the error reply."""

    def __init__(self, code: ErrorCode, message: str, *, msg_id: str | None = None,
                 detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id
        self.detail = detail


def _short_errors(err: ValidationError) -> list[dict[str, Any]]:
    return [{"loc": ".".join(str(p) for p in e["loc"]), "msg": e["msg"]} for e in err.errors()[:10]]


def parse(raw: Any, *, direction: str | None = None) -> tuple[Envelope, Payload]:
    """Validate a decoded JSON value as an envelope plus the payload its `type` names."""
    if not isinstance(raw, dict):
        raise ProtocolError(ErrorCode.schema_violation, "A message must be a JSON object.")
    msg_id = raw.get("id") if isinstance(raw.get("id"), str) else None
    try:
        env = Envelope.model_validate(raw)
    except ValidationError as err:
        raise ProtocolError(ErrorCode.schema_violation, "The message envelope is invalid.",
                            msg_id=msg_id, detail={"errors": _short_errors(err)}) from None
    if env.v != PROTOCOL_VERSION:
        raise ProtocolError(ErrorCode.version_mismatch,
                            f"Protocol version {env.v} is not supported (this side speaks "
                            f"{PROTOCOL_VERSION}).", msg_id=env.id)
    spec = MESSAGES.get(env.type)
    if spec is None:
        raise ProtocolError(ErrorCode.unknown_type, f"Unknown message type {env.type!r}.",
                            msg_id=env.id)
    if direction and spec.direction not in (direction, "both"):
        raise ProtocolError(ErrorCode.unknown_type,
                            f"Message type {env.type!r} is not accepted in this direction.",
                            msg_id=env.id)
    try:
        payload = spec.payload.model_validate(env.payload)
    except ValidationError as err:
        raise ProtocolError(ErrorCode.schema_violation,
                            f"The payload of {env.type!r} does not match its schema.",
                            msg_id=env.id, detail={"errors": _short_errors(err)}) from None
    return env, payload


def build(type_: str, payload: Payload | dict[str, Any], *, re: str | None = None,
          msg_id: str | None = None) -> dict[str, Any]:
    """A JSON-ready message; the payload is validated against the type's model first."""
    spec = MESSAGES[type_]
    model = payload if isinstance(payload, spec.payload) else spec.payload.model_validate(
        payload if isinstance(payload, dict) else payload.model_dump())
    env = Envelope(type=type_, re=re, payload=model.model_dump(mode="json", exclude_none=True),
                   **({"id": msg_id} if msg_id else {}))
    return env.model_dump(mode="json", exclude_none=True)
