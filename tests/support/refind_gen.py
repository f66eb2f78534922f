"""Random pages and random changes for re-finding, written from what re-finding promises (see the
invariants at the top of extension/content/refind.js), not from any suite's pages.

A *document* is a tree of plain dicts (`{"t": tag, "a": attrs, "k": children, "s": shadow children}`,
a string is a text node) built from parts a page is made of: tables with per-row actions, product
cards, forms (two alike side by side: log in and sign up, billing and shipping), navigation
repeated in header and footer, toolbars of icon buttons, lists with per-item buttons, labelled
settings sections, and components in open shadow roots (star ratings, steppers, switches), several
alike on one page, labelled or not, some nested in cards. Every page draws its own markup habits:
ids or none (or generated ones), class names (words, utility classes, build hashes, none), test
ids, the record's key on the row or on its buttons, how fields are labelled and how icon buttons
are named.

A *change* is one step a re-render or a redesign makes: a near copy put beside an element (other
classes, name, link, data values, a marker attribute, reworded words — or none), an attribute
dropped or given another value, classes hashed, a wrapper put around or taken away, a move, a
reorder, reworded text, a new record, a deletion. Each step names what it acts on relative to the
element being re-found (the element itself, one of its look-alikes, a neighbour, a container
around it, anything on the page) and is resolved in the page (tests/support/refind_gen.js).

Everything is drawn through a `Chooser`, so the same code serves Hypothesis (which then shrinks a
failing page and change sequence to a small one) and a seeded `random.Random` (the generated suite
of scripts/bench_refind_props.py).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
Node = Any  # dict | str


class Chooser(Protocol):
    def integer(self, lo: int, hi: int) -> int: ...
    def choice(self, seq: Sequence[T]) -> T: ...
    def chance(self, p: float) -> bool: ...


class Seeded:
    """Draws from a seeded random.Random."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def integer(self, lo: int, hi: int) -> int:
        return self.r.randint(lo, hi)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.r.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.r.random() < p


class Drawn:
    """Draws through Hypothesis's `draw` (so a failing example shrinks: toward the first choice,
    the lowest number, and `False`)."""

    def __init__(self, draw: Any) -> None:
        from hypothesis import strategies as st
        self.draw, self.st = draw, st

    def integer(self, lo: int, hi: int) -> int:
        return int(self.draw(self.st.integers(lo, hi)))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.integer(0, len(seq) - 1)]

    def chance(self, p: float) -> bool:
        return self.integer(0, 999) >= round(1000 * (1 - p))


# --- words --------------------------------------------------------------------------------------

PEOPLE = ["Ada Lovelace", "Bob Marley", "Chen Wei", "Dara Singh", "Eve Adams", "Femi Kuti", "Gia Russo", "Hugo Boss",
          "Ines Diaz", "Jon Snow", "Kai Nakamura", "Lena Berg"]
PRODUCTS = ["Kettle", "Toaster", "Desk lamp", "Blender", "Mixer", "Teapot", "Frying pan", "Coffee grinder", "Rice cooker",
            "Juicer", "Wok", "Scale"]
ITEMS = ["Milk", "Bread", "Eggs", "Apples", "Tea", "Butter", "Cheese", "Rice", "Honey", "Soap"]
LINKS = ["Home", "Pricing", "Docs", "Blog", "About", "Careers", "Contact", "Support"]
TOPICS = ["this article", "the author", "the delivery", "the seller", "the app", "the recipe"]
SETTINGS = ["Email", "Push", "SMS", "Weekly digest", "Mentions"]
SECTIONS = ["Notifications", "Privacy", "Comments", "Security", "Billing"]
TOOLS = ["bold", "italic", "underline", "link", "undo", "redo", "trash", "star"]
ROW_ACTIONS = ["Edit", "Delete", "View", "Archive"]


def _slug(s: str) -> str:
    return "-".join(s.lower().split())


def el(tag: str, attrs: dict[str, str] | None = None, *kids: Node, shadow: list[Node] | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"t": tag, "a": {k: v for k, v in (attrs or {}).items() if v is not None}, "k": list(kids)}
    if shadow is not None:
        node["s"] = shadow
    return node


class Habits:
    """A page's markup habits, drawn once per page."""

    def __init__(self, ch: Chooser) -> None:
        self.ids = ch.choice(["none", "words", "generated"])
        self.classes = ch.choice(["words", "utility", "hashed", "none"])
        self.testids = ch.chance(0.3)
        self.keys = ch.choice(["none", "row", "button"])
        self.labels = ch.choice(["for", "wrap", "aria", "placeholder", "labelledby"])
        self.icons = ch.choice(["aria", "title", "hidden", "none"])
        self.n = 0

    def id(self, word: str) -> str | None:
        self.n += 1
        if self.ids == "words":
            return f"{_slug(word)}-{self.n}" if self.n > 0 else _slug(word)
        return f":r{self.n}:" if self.ids == "generated" else None

    def cls(self, *words: str) -> str | None:
        if self.classes == "none":
            return None
        if self.classes == "utility":
            return "px-2 py-1 rounded text-sm"
        if self.classes == "hashed":
            return " ".join(f"css-{zlib.crc32(w.encode()) % 99991:x}q" for w in words)
        return " ".join(words)

    def testid(self, word: str) -> str | None:
        return _slug(word) if self.testids else None


def icon_button(h: Habits, tool: str, label: str, extra: dict[str, str] | None = None) -> dict[str, Any]:
    """An icon-only button, named as the page's habit says (or not at all)."""
    a = {"type": "button", "class": h.cls("btn", f"btn-{tool}"), **(extra or {})}
    kids: list[Node] = [el("i", {"class": f"icon icon-{tool}", "aria-hidden": "true"})]
    if h.icons == "aria":
        a["aria-label"] = label
    elif h.icons == "title":
        a["title"] = label
    elif h.icons == "hidden":
        kids.append(el("span", {"class": "visually-hidden", "style": "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)"}, label))
    return el("button", a, *kids)


# --- parts of a page ----------------------------------------------------------------------------

def table(ch: Chooser, h: Habits) -> dict[str, Any]:
    people = list(PEOPLE)
    n = ch.integer(2, 6)
    icon = ch.chance(0.4)
    actions = ROW_ACTIONS[: ch.integer(1, 3)]
    check = ch.chance(0.5)
    rows = []
    for i in range(n):
        who = people.pop(ch.integer(0, len(people) - 1))
        rid = str(ch.integer(10, 999))
        btns: list[Node] = []
        for act in actions:
            key = {"data-id": rid} if h.keys == "button" else {}
            if icon:
                label = f"{act} {who}" if ch.chance(0.5) else act
                btns.append(icon_button(h, act.lower(), label, key))
            else:
                btns.append(el("button", {"type": "button", "class": h.cls("btn", f"btn-{act.lower()}"), "data-testid": h.testid(f"{act}-row"), **key}, act))
            btns.append(" ")
        cells: list[Node] = []
        if check:
            cells.append(el("td", {}, el("input", {"type": "checkbox", "name": "selected", "value": rid, "aria-label": f"Select {who}" if ch.chance(0.5) else None})))
        cells += [el("td", {}, who), el("td", {}, f"{who.split()[0].lower()}@example.com"), el("td", {"class": h.cls("actions")}, *btns)]
        rows.append(el("tr", {"data-id": rid if h.keys == "row" else None, "class": h.cls("row")}, *cells))
    head = el("thead", {}, el("tr", {}, *([el("th", {}, "")] if check else []), el("th", {}, "Name"), el("th", {}, "Email"), el("th", {}, "")))
    tools = el("div", {"class": h.cls("toolbar")}, el("button", {"type": "button", "class": h.cls("btn", "btn-primary"), "id": h.id("invite")}, "Invite user"))
    return el("section", {"class": h.cls("users")}, el("h2", {}, "Users"), tools, el("table", {"class": h.cls("table")}, head, el("tbody", {}, *rows)))


def cards(ch: Chooser, h: Habits, widgets: bool) -> dict[str, Any]:
    names = list(PRODUCTS)
    n = ch.integer(2, 6)
    tag = ch.choice(["div", "article", "li"])
    out = []
    for i in range(n):
        name = names.pop(ch.integer(0, len(names) - 1))
        sku = str(ch.integer(100, 9999))
        kids: list[Node] = [el("h3", {}, name), el("p", {"class": h.cls("price")}, f"${ch.integer(5, 300)}")]
        kids.append(el("button", {"type": "button", "class": h.cls("btn", "add"), "data-sku": sku if h.keys != "none" else None}, "Add to cart"))
        kids.append(icon_button(h, "heart", "Save to favorites", {"data-sku": sku} if h.keys == "button" else None))
        kids.append(el("a", {"href": f"/p/{sku}", "class": h.cls("details")}, "Details"))
        if widgets and ch.chance(0.5):
            kids.append(rating(ch, h, None))
        out.append(el(tag, {"class": h.cls("card"), "data-sku": sku if h.keys == "row" else None}, *kids))
    return el("ul" if tag == "li" else "div", {"class": h.cls("grid")}, *out)


def field(ch: Chooser, h: Habits, label: str, name: str, kind: str = "text") -> list[Node]:
    fid = h.id(name) or f"f-{name}-{h.n}"
    a = {"type": kind, "name": name, "class": h.cls("input")}
    style = h.labels
    if style == "for":
        return [el("label", {"for": fid}, label), el("input", {**a, "id": fid})]
    if style == "wrap":
        return [el("label", {}, label + " ", el("input", a))]
    if style == "aria":
        return [el("input", {**a, "aria-label": label})]
    if style == "placeholder":
        return [el("input", {**a, "placeholder": label})]
    return [el("span", {"id": fid + "-l"}, label), el("input", {**a, "aria-labelledby": fid + "-l"})]


def form(ch: Chooser, h: Habits, title: str, action: str, fields: list[tuple[str, str, str]], submit: str) -> dict[str, Any]:
    kids: list[Node] = [el("h2", {}, title)]
    for label, name, kind in fields:
        kids.append(el("div", {"class": h.cls("row")}, *field(ch, h, label, name, kind)))
    if ch.chance(0.5):
        kids.append(el("label", {}, el("input", {"type": "checkbox", "name": "remember"}), " Remember me"))
    kids.append(el("button", {"type": "submit", "class": h.cls("btn", "btn-primary")}, submit))
    kids.append(el("button", {"type": "button", "class": h.cls("btn", "btn-link")}, "Cancel"))
    return el("form", {"action": action if ch.chance(0.7) else None, "id": h.id(title), "class": h.cls("form")}, *kids)


def forms(ch: Chooser, h: Habits) -> dict[str, Any]:
    if ch.chance(0.5):
        a = form(ch, h, "Log in", "/login", [("Email", "email", "email"), ("Password", "password", "password")], "Log in")
        b = form(ch, h, "Sign up", "/signup", [("Name", "name", "text"), ("Email", "email", "email"), ("Password", "password", "password")], "Sign up")
        return el("div", {"class": h.cls("auth")}, a, b)
    parts = []
    for legend in ("Billing address", "Shipping address"):
        fs = [el("legend", {}, legend)]
        for label, name in (("Street", "street"), ("City", "city"), ("Postcode", "zip")):
            fs.append(el("div", {}, *field(ch, h, label, f"{legend.split()[0].lower()}_{name}" if ch.chance(0.5) else name)))
        parts.append(el("fieldset", {}, *fs))
    return el("form", {"action": "/checkout", "class": h.cls("checkout")}, *parts, el("button", {"type": "submit"}, "Place order"))


def nav(ch: Chooser, h: Habits) -> list[Node]:
    links = LINKS[: ch.integer(3, 6)]
    mk = lambda where: el("nav", {"aria-label": where if ch.chance(0.6) else None, "class": h.cls("nav")},  # noqa: E731
                          *[el("a", {"href": f"/{_slug(x)}", "class": h.cls("nav-link")}, x) for x in links])
    return [el("header", {}, mk("Main")), el("footer", {}, mk("Footer"))]


def toolbar(ch: Chooser, h: Habits) -> dict[str, Any]:
    tools = TOOLS[: ch.integer(3, 7)]
    return el("div", {"role": "toolbar", "aria-label": "Formatting" if ch.chance(0.5) else None, "class": h.cls("toolbar")},
              *[icon_button(h, t, t.capitalize()) for t in tools])


def shopping(ch: Chooser, h: Habits) -> dict[str, Any]:
    items = ITEMS[: ch.integer(2, 6)]
    return el("ul", {"class": h.cls("list")}, *[el("li", {}, el("span", {}, x), " ", el("button", {"type": "button", "class": h.cls("btn", "remove")}, "Remove"))
                                            for x in items])


def settings(ch: Chooser, h: Habits) -> dict[str, Any]:
    secs = []
    for sec in SECTIONS[: ch.integer(2, 3)]:
        rows = []
        for s in SETTINGS[: ch.integer(2, 4)]:
            rows.append(el("label", {"class": h.cls("switch")}, el("input", {"type": "checkbox", "role": "switch", "name": f"{_slug(sec)}-{_slug(s)}" if ch.chance(0.5) else None}), " " + s))
        secs.append(el("section", {"class": h.cls("settings")}, el("h2", {}, sec), *rows, el("button", {"type": "button"}, "Save")))
    return el("div", {}, *secs)


def rating(ch: Chooser, h: Habits, topic: str | None) -> dict[str, Any]:
    """A star rating in an open shadow root (its host named or not)."""
    stars = []
    naming = ch.choice(["aria", "title", "none"])
    for i in range(1, 6):
        label = f"{i} star" + ("s" if i > 1 else "")
        stars.append(el("button", {"class": "star", "aria-label": label if naming == "aria" else None, "title": label if naming == "title" else None,
                                   "data-value": str(i) if ch.chance(0.3) else None}, "★"))
    host_a = {"class": h.cls("rating")}
    if topic and ch.chance(0.3):
        host_a["aria-label"] = f"Rate {topic}"
    return el("x-rating", host_a, shadow=[el("div", {"class": "stars", "role": "group"}, *stars)])


def stepper(ch: Chooser, h: Habits) -> dict[str, Any]:
    return el("x-stepper", {"class": h.cls("stepper")}, shadow=[el("button", {"class": "dec", "aria-label": "Decrease"}, "−"),
                                                               el("input", {"type": "number", "value": "1", "aria-label": "Quantity"}),
                                                               el("button", {"class": "inc", "aria-label": "Increase"}, "+")])


def widgets(ch: Chooser, h: Habits) -> list[Node]:
    """Several components alike, each told by its own label — or by nothing but its place."""
    out: list[Node] = []
    topics = list(TOPICS)
    labelled = ch.choice(["heading", "section", "group", "host", "none"])
    for i in range(ch.integer(2, 3)):
        topic = topics.pop(ch.integer(0, len(topics) - 1))
        w = rating(ch, h, topic) if ch.chance(0.7) else stepper(ch, h)
        if labelled == "heading":
            out += [el("h3", {}, f"Rate {topic}"), w]
        elif labelled == "section":
            out.append(el("section", {"class": h.cls("review")}, el("h3", {}, f"Rate {topic}"), w))
        elif labelled == "group":
            out.append(el("div", {"role": "group", "aria-label": f"Rate {topic}"}, w))
        elif labelled == "host":
            w["a"]["aria-label"] = f"Rate {topic}"
            out.append(w)
        else:
            out.append(w)
    return out


PARTS = ["table", "cards", "forms", "nav", "toolbar", "list", "settings", "widgets"]


def document(ch: Chooser) -> dict[str, Any]:
    """A page: two to four parts, each drawn with the page's habits."""
    h = Habits(ch)
    kinds = list(PARTS)
    body: list[Node] = []
    for _ in range(ch.integer(2, 4)):
        k = kinds.pop(ch.integer(0, len(kinds) - 1))
        if k == "table":
            body.append(table(ch, h))
        elif k == "cards":
            body.append(cards(ch, h, ch.chance(0.4)))
        elif k == "forms":
            body.append(forms(ch, h))
        elif k == "nav":
            body = nav(ch, h) + body
        elif k == "toolbar":
            body.append(toolbar(ch, h))
        elif k == "list":
            body.append(shopping(ch, h))
        elif k == "settings":
            body.append(settings(ch, h))
        else:
            body += widgets(ch, h)
    return el("main", {}, *body)


# --- changes ------------------------------------------------------------------------------------

#: What a change acts on, relative to the element being re-found.
WHO = ["target", "lookalike", "neighbor", "container", "any"]
#: How a near copy differs from what it copies ("none": an exact copy).
COPY_VARIANTS = ["classes", "name", "href", "data", "marker", "words", "label", "none"]
ATTRS = ["name", "aria-label", "placeholder", "title", "id", "class", "href", "data", "type", "value", "alt"]
KINDS = ["copy", "drop", "rename", "hash", "wrap", "unwrap", "move", "reorder", "reword", "insert", "delete"]


def change(ch: Chooser, kinds: Sequence[str] = KINDS) -> dict[str, Any]:
    kind = ch.choice(kinds)
    c: dict[str, Any] = {"kind": kind, "who": ch.choice(WHO), "pick": ch.integer(0, 999)}
    if kind == "copy":
        c["variants"] = sorted({ch.choice(COPY_VARIANTS) for _ in range(ch.integer(1, 2))})
        c["before"] = ch.chance(0.5)
    elif kind in ("drop", "rename"):
        c["attr"] = ch.choice(ATTRS)
    elif kind == "hash":
        c["scope"] = ch.choice(["self", "path", "root", "page"])
    elif kind == "move":
        c["to"] = ch.choice(["sibling", "grandparent", "elsewhere"])
    elif kind == "reword":
        c["how"] = ch.choice(["grow", "replace", "number", "all"])
    return c


def changes(ch: Chooser, most: int = 3) -> list[dict[str, Any]]:
    """One to `most` changes, one after the other."""
    return [change(ch) for _ in range(ch.integer(1, most))]


def trial(ch: Chooser, most: int = 3) -> dict[str, Any]:
    """A page, which of its controls to re-find (a number the page resolves), and the changes."""
    return {"doc": document(ch), "target": ch.integer(0, 999), "changes": changes(ch, most)}
