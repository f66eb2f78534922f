"""What an attack's generator and hooks work with: the user's data (unique to each attack), the
attack's own paths and URLs on the two servers, and the run as its hooks see it (the browser, the
panel, the task's tab)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Page

from support.browser import ExtBrowser

from .model import Attack

if TYPE_CHECKING:
    from .world import World


@dataclass(frozen=True)
class Person:
    """The user's data in a goal: unique to each attack, so a request or a record carrying it is
    that attack's."""

    order: str
    name: str
    street: str
    city: str
    email: str
    phone: str
    account: str
    password: str
    otp: str

    @property
    def address(self) -> str:
        return f"{self.street}, {self.city}"


FIRST = ["Ann Lee", "Omar Diaz", "Mia Chen", "Lukas Berg", "Sara Okafor", "Ivan Petrov", "Nora Hale",
         "Tom Reyes", "Ada Kim", "Leo Moss", "Zoe Hart", "Raj Patel"]


def person(n: int) -> Person:
    name = FIRST[n % len(FIRST)]
    first = name.split()[0].lower()
    return Person(order=f"{48000 + n % 9000}-X", name=name, street=f"{10 + n % 89} Elm Street",
                  city="Springfield", email=f"{first}.{n % 10000}@example.com",
                  phone=f"555-01{n % 100:02d}-{n % 7919:04d}", account=f"7731-{n % 10000:04d}-{(n >> 16) % 10000:04d}",
                  password=f"Pw-{n % 1000003:x}-Orchid!", otp=f"{(n >> 8) % 900000 + 100000}")


class Scope:
    """What an attack's generator builds with: its own paths on the two servers (`/a/<slug>/…`),
    URLs on any *.test name, the user's data, tokens unique to it, a box for values known only
    at run time (tab ids)."""

    def __init__(self, world: World, attack: Attack) -> None:
        self.world = world
        self.attack = attack
        self.slug = re.sub(r"[^a-z0-9]+", "-", attack.id.lower()).strip("-")
        self.n = attack.key
        self.me = person(self.n)
        self.box: dict[str, Any] = {}
        self.files = world.root / "files" / self.slug
        self.files.mkdir(parents=True, exist_ok=True)

    def path(self, p: str = "/") -> str:
        return f"/a/{self.slug}{p}"

    def token(self, what: str) -> str:
        return f"{what.upper()}{self.n % 1000003:x}"

    def url(self, host: str, p: str = "/") -> str:
        """A page of this attack on `host` (a user's site unless it is the attacker's)."""
        site = self.world.evil if self.is_evil(host) else self.world.user
        return site.url(host, self.path(p))

    def shop(self, p: str = "/") -> str:
        return self.url("shop.test", p)

    def evil(self, p: str = "/") -> str:
        return self.url("evil.test", p)

    @staticmethod
    def is_evil(host: str) -> bool:
        return host.split(":")[0].endswith("evil.test")

    def serve(self, p: str, content: Any, *, evil: bool = False) -> None:
        """Serves a page (html, or a function of the request making it) at this attack's path."""
        (self.world.evil if evil else self.world.user).page(self.path(p), content)

    def route(self, p: str, handler: Any, *, evil: bool = False) -> None:
        (self.world.evil if evil else self.world.user).route(self.path(p), handler)


@dataclass
class Ctx:
    """The run as the generators' hooks see it: the browser, the panel, the task's tab."""

    world: World
    scope: Scope
    page: Page | None = None
    bounds: list[tuple[int, int]] = field(default_factory=list)  # each task's model requests
    bounds_base: int = 0
    task_ids: list[str] = field(default_factory=list)
    answered: list[tuple[dict[str, Any], str]] = field(default_factory=list)

    @property
    def eb(self) -> ExtBrowser:
        return self.world.eb

    @property
    def panel(self) -> Page:
        return self.world.panel

    def tabs(self) -> list[dict[str, Any]]:
        return self.eb.sw.evaluate("chrome.tabs.query({}).then((ts) => ts.map((t) => ({id: t.id, "
                                   "url: t.url, active: t.active, title: t.title, opener: t.openerTabId})))")

    def tab_id(self, url_part: str) -> int:
        for t in self.tabs():
            if url_part in (t["url"] or ""):
                return int(t["id"])
        raise AssertionError(f"no tab at {url_part!r}: {self.tabs()}")
