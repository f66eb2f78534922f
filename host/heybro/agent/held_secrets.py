"""The user's secrets a run holds (passwords, one-time codes): only here, in memory — never in the
record, an event, a log or a prompt. The model names one as {{secret:NAME}}; the browser sink
fills it in once it judged where it goes (sinks.py: a secret is the user's for the site it was
given on, and goes into a field for it). What comes back from the page is scrubbed of every
secret's value before anything keeps or shows it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from shared_schema.sites import site_of

from ..flow.ledger import sites_in
from .models import Task


@dataclass(frozen=True)
class Secret:
    value: str
    site: str | None  # the site it was given for (None: not known yet)
    kind: str  # the field it goes into: "password", "code" or "any"


class HeldSecrets:
    """A run's secrets by name."""

    def __init__(self) -> None:
        self._by_name: dict[str, Secret] = {}

    def keep(self, name: str, value: str, *, site: str | None = None, kind: str = "any") -> None:
        """Keeps a secret (a newer one of the same name replaces it; its site, once known, stays
        unless a new one is given)."""
        old = self._by_name.get(name)
        self._by_name[name] = Secret(value, site or (old.site if old else None), kind)

    def get(self, name: str) -> Secret | None:
        return self._by_name.get(name)

    def sites(self) -> list[str]:
        """The sites the secrets were given for."""
        return [s.site for s in self._by_name.values() if s.site]

    def sited(self, site: str) -> None:
        """Secrets given with no site yet are for `site` (the first page the task works on)."""
        for name, s in self._by_name.items():
            if not s.site and site:
                self._by_name[name] = Secret(s.value, site, s.kind)

    def __bool__(self) -> bool:
        return bool(self._by_name)

    def take_said(self, task: Task) -> None:
        """The passwords the user wrote in the goal or a message (agent/said_secrets.py), kept as
        an asked secret is: for the site the task was started on or the words name (else the
        first page it works on)."""
        said = task.said_secrets
        if not said:
            return
        site = site_of(task.url or task.start_page or "") or next(iter(sites_in(task.description)), "")
        for name, (value, kind) in said.items():
            old = self._by_name.get(name)
            self._by_name[name] = Secret(value, (old.site if old else None) or site or None, kind)
        said.clear()

    def fill(self, text: str) -> str:
        """`text` with each {{secret:NAME}} replaced by the user's secret (for the page only)."""
        for name, s in self._by_name.items():
            text = text.replace(secret_ref(name), s.value)
        return text

    def scrub(self, value: Any) -> Any:
        """`value` (a result, a page's text) with every secret's value replaced by its name."""
        if not self._by_name:
            return value
        if isinstance(value, str):
            for name, s in self._by_name.items():
                if s.value:
                    value = value.replace(s.value, secret_ref(name))
            return value
        if isinstance(value, dict):
            return {k: self.scrub(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.scrub(v) for v in value]
        return value


def secret_ref(name: str) -> str:
    return "{{secret:" + name + "}}"


# A question that asks for one of these asks for a secret, whatever kind the model gave it.
SECRET_QUESTION = re.compile(r"\b(password|passphrase|passcode|pin|one[- ]time (?:code|password)|otp|"
                             r"(?:security|verification|login|sign[- ]in|2fa|mfa|authenticat\w*|sms) code|"
                             r"cvv|cvc|card number|secret)\b", re.I)


def asks_for_secret(question: str) -> bool:
    return bool(SECRET_QUESTION.search(question))


def secret_kind(words: str) -> str:
    """The field a secret goes into, by what it was asked as: a password, a code, or either."""
    w = words.lower()
    if re.search(r"code|otp|pin|token|2fa|mfa|verification|cvv|cvc", w):
        return "code"
    return "password" if re.search(r"pass", w) else "any"


def secret_name(question: str) -> str:
    """A name for a secret the model asked for as plain text: what it asked for."""
    m = SECRET_QUESTION.search(question)
    return re.sub(r"\W+", "_", m.group(0).lower()).strip("_") if m else "secret"
