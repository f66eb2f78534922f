"""The one envelope every message between the extension and the host travels in.

`{v, id, type, payload}`; a reply names the request it answers in `re`. The payload's shape is
chosen by `type` (see `messages.MESSAGES`). `v`, `id` and `payload` are required: a message without
an id cannot be answered, and one without a version cannot be judged.
"""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

PROTOCOL_VERSION = 1


def new_id() -> str:
    return uuid.uuid4().hex[:16]


class Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid")

    v: int = Field(ge=1, description="Protocol version of the sender.")
    id: str = Field(min_length=1, max_length=64)
    type: str = Field(min_length=1, max_length=64)
    re: str | None = Field(None, max_length=64, description="Id of the request this answers.")
    payload: dict[str, Any]
