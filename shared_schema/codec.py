"""Checking and building messages: the Python half of "checked on both sides"."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from .envelope import PROTOCOL_VERSION, Envelope, new_id
from .messages import MESSAGES, ErrorCode, Payload


class ProtocolError(Exception):
    """A message that cannot be accepted; carries the typed code for the error reply.

    `sender_v` is set when the message came in another protocol version: the error reply is then
    written in that version, so that the sender (which may accept only its own) can read it.
    """

    def __init__(self, code: ErrorCode, message: str, *, msg_id: str | None = None,
                 detail: dict[str, Any] | None = None, sender_v: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id
        self.detail = detail
        self.sender_v = sender_v


def _short_errors(err: ValidationError) -> list[dict[str, Any]]:
    return [{"loc": ".".join(str(p) for p in e["loc"]), "msg": e["msg"]} for e in err.errors()[:10]]


def _foreign(env: Envelope, why: str) -> ProtocolError:
    return ProtocolError(ErrorCode.version_mismatch,
                         f"A protocol {env.v} {env.type!r} message {why} (this side speaks "
                         f"protocol {PROTOCOL_VERSION}).", msg_id=env.id,
                         detail={"protocol": PROTOCOL_VERSION}, sender_v=env.v)


def parse(raw: Any, *, direction: str | None = None) -> tuple[Envelope, Payload]:
    """Validate a decoded JSON value as an envelope plus the payload its `type` names.

    Only the handshake and errors (`MessageSpec.any_version`) are read whatever their `v`; anything
    else in another protocol version, or a handshake message this side cannot read, is a typed
    `version_mismatch`.
    """
    if not isinstance(raw, dict):
        raise ProtocolError(ErrorCode.schema_violation, "A message must be a JSON object.")
    msg_id = raw.get("id") if isinstance(raw.get("id"), str) else None
    try:
        env = Envelope.model_validate(raw)
    except ValidationError as err:
        raise ProtocolError(ErrorCode.schema_violation, "The message envelope is invalid.",
                            msg_id=msg_id, detail={"errors": _short_errors(err)}) from None
    spec = MESSAGES.get(env.type)
    foreign = env.v != PROTOCOL_VERSION
    if foreign and (spec is None or not spec.any_version):
        raise _foreign(env, "cannot be read")
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
        if foreign:
            raise _foreign(env, "has a payload this side cannot read") from None
        raise ProtocolError(ErrorCode.schema_violation,
                            f"The payload of {env.type!r} does not match its schema.",
                            msg_id=env.id, detail={"errors": _short_errors(err)}) from None
    return env, payload


def build(type_: str, payload: Payload | dict[str, Any], *, re: str | None = None,
          msg_id: str | None = None, v: int = PROTOCOL_VERSION) -> dict[str, Any]:
    """A JSON-ready message; the payload is validated against the type's model first.

    `v` other than this side's protocol is for the messages every version reads (an error answering
    a peer of another version); anything else is refused.
    """
    spec = MESSAGES[type_]
    if v != PROTOCOL_VERSION and not spec.any_version:
        raise ValueError(f"{type_!r} messages are only sent in protocol {PROTOCOL_VERSION}")
    model = payload if isinstance(payload, spec.payload) else spec.payload.model_validate(
        payload if isinstance(payload, dict) else payload.model_dump())
    env = Envelope(v=v, id=msg_id or new_id(), type=type_, re=re,
                   payload=model.model_dump(mode="json", exclude_none=True))
    return env.model_dump(mode="json", exclude_none=True)
