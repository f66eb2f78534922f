"""Recognising the user's data in a value, whatever the model did to it.

heybro cannot see inside the model, so it cannot trust the model's word about where a value came
from. It recognises values by what they are instead: the pieces of the user's words that identify
them or their business — emails, phone numbers, numbers and codes (an order number, a postcode, a
date), street addresses, names, quoted values — and the same kinds of pieces of what each site
showed. Each piece is an `Atom`: the words as the user reads them, and a normalised key (letters
and digits only, case folded) that is searched for in the normalised readings of a value going out.

A value is read the ways a model could have dressed it (`readings`): as written, percent- and
HTML-decoded, each base64 or hex token decoded, reversed, rot13, digits spelt as words. What the
readings cannot explain — a long, dense token no page showed — is `opaque`: heybro cannot tell what
it carries, and a doubt is treated as data.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import math
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote_plus

Kind = Literal["email", "phone", "number", "address", "name", "quoted", "value", "secret"]

# What each kind is called in a question to the user ("your email address …").
KIND_WORDS: dict[str, str] = {
    "email": "email address", "phone": "phone number", "number": "number", "address": "address",
    "name": "name", "quoted": "words", "value": "value", "secret": "secret",
}

MIN_KEY = 4  # shorter keys match by chance (a 3-digit number is in every second address)


@dataclass(frozen=True)
class Atom:
    kind: Kind
    shown: str  # as a person reads it: "12 Elm Street"
    key: str  # normalised: "12elmstreet"


def normal(text: str) -> str:
    """Letters and digits only, case folded, compatibility forms folded (fullwidth digits …)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if ch.isalnum())


def _atom(kind: Kind, shown: str) -> Atom | None:
    shown = " ".join(shown.split())
    key = normal(shown)
    return Atom(kind, shown[:80], key) if len(key) >= MIN_KEY else None


EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
URL = re.compile(r"\b(?:[a-z][a-z0-9+.-]*://|www\.)\S+", re.I)
DOMAIN = re.compile(r"\b(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d{1,5})?(?:/\S*)?", re.I)
HOST_ADDRESS = re.compile(r"\b(?:\d{1,3}(?:\.\d{1,3}){3}|localhost)(?::\d{1,5})?(?:/\S*)?", re.I)
PHONE = re.compile(r"(?<![\w])\+?\d[\d\s().-]{5,}\d(?![\w])")
TOKEN = re.compile(r"[^\s,;:!?()\[\]{}<>\"']+")
CURRENCY = re.compile(r"^[$€£¥₹]|^(?:usd|eur|gbp)\b|(?:usd|eur|gbp|dollars?|euros?)$", re.I)
YEAR = re.compile(r"^(?:19|20)\d\d$")
STREET = re.compile(
    r"\b\d{1,6}[a-z]?,?\s+(?:[A-Za-zÀ-ÿ][\w'.-]*\s+){0,4}?(?:street|st|road|rd|avenue|ave|boulevard|"
    r"blvd|lane|ln|drive|dr|way|court|ct|place|pl|square|sq|terrace|parkway|pkwy|highway|hwy|close|"
    r"crescent|alley|row)\b\.?", re.I)
STREET_AFTER = re.compile(  # "Elm Street 12", "Hauptstraße 5", "rue de la Paix 8"
    r"\b(?:[A-Za-zÀ-ÿ][\w'.-]*\s+){0,3}?(?:strasse|straße|str\.|weg|gasse|platz|allee|rue|via|calle|"
    r"avenida|laan|straat)\s*\d{1,6}[a-z]?\b", re.I)
NAME = re.compile(r"\b[A-Z][a-zà-ÿ'’-]+(?:\s+(?:[A-Z]\.|[A-Z][a-zà-ÿ'’-]+)){1,3}\b")
QUOTED = re.compile(r"[\"“”«»]([^\"“”«»\n]{3,120})[\"“”«»]|(?<![\w])'([^'\n]{3,120})'(?![\w])")
# Capitalised words that start a request or name a place in it, not a person: a sequence of them
# is no name ("Go To Settings").
NOT_NAMES = frozenset("""a an the my our your his her their this that these those and or but if
please find buy book order track ship send show tell open go get add create make set change update
delete remove edit log sign check search look use put move copy pay type fill click then next new
what which who where when how why is are was were be i we you it on in at to for from of with by
settings account home page menu site shop store cart checkout""".split())


def _is_name(words: str) -> bool:
    parts = [w.strip(".").casefold() for w in words.split()]
    return sum(p not in NOT_NAMES for p in parts) >= 2


def user_atoms(text: str) -> list[Atom]:
    """The pieces of the user's own words (a goal, a message, an answer) that are their data."""
    found: list[Atom | None] = []
    rest = text
    for m in EMAIL.finditer(text):
        found.append(_atom("email", m.group(0)))
    rest = EMAIL.sub(" ", rest)
    rest = URL.sub(" ", rest)  # a site the user names is where data may go, not data itself
    rest = HOST_ADDRESS.sub(" ", DOMAIN.sub(" ", rest))
    for m in QUOTED.finditer(rest):
        found.append(_atom("quoted", m.group(1) or m.group(2)))
    for pattern in (STREET, STREET_AFTER):
        for m in pattern.finditer(rest):
            found.append(_atom("address", m.group(0).strip(" ,")))
    for m in PHONE.finditer(rest):
        if sum(ch.isdigit() for ch in m.group(0)) >= 7:
            found.append(_atom("phone", m.group(0)))
    found += [_atom("number", t) for t in _numbers(rest)]
    for m in NAME.finditer(rest):
        if _is_name(m.group(0)):
            found.append(_atom("name", m.group(0)))
    return _unique(found)


def _numbers(text: str) -> Iterator[str]:
    """Numbers and codes that identify something: 4 digits or more (an order number, a postcode,
    a card), or 3 with letters (`A48-X`); not an amount of money or a year on its own."""
    for t in TOKEN.findall(text):
        t = t.strip(".-#/")
        digits = sum(ch.isdigit() for ch in t)
        letters = sum(ch.isalpha() for ch in t)
        if CURRENCY.search(t) or YEAR.match(t):
            continue
        if digits >= 4 or (digits >= 3 and letters >= 1):
            yield t


# Account and card numbers as pages print them, in groups: "DE89 3704 0044 0532 0130 00",
# "4242 4242 4242 4242".
GROUPED = re.compile(r"\b(?:[A-Z]{2}\d{2}|\d{2,6})(?:[ -][A-Z0-9]{2,6}){2,8}\b")


def page_atoms(text: str, limit: int = 400) -> list[Atom]:
    """What a page showed that identifies something of someone's: emails, phone numbers, numbers
    and codes of five digits or more (an account, an IBAN, an order), whole or in groups. Names and
    short numbers are everywhere on pages and say nothing of whose they are."""
    found: list[Atom | None] = [_atom("email", m.group(0)) for m in EMAIL.finditer(text)]
    # (an address a page shows is where a link goes, not someone's data)
    text = HOST_ADDRESS.sub(" ", DOMAIN.sub(" ", URL.sub(" ", EMAIL.sub(" ", text))))
    found += [_atom("number", m.group(0)) for m in GROUPED.finditer(text)
              if sum(ch.isdigit() for ch in m.group(0)) >= 8]
    for t in re.split(r"[\s,;:!?()\[\]{}<>\"'/|=]+", text):
        t = t.strip(".-#/")
        if sum(ch.isdigit() for ch in t) >= 5 and not CURRENCY.search(t):
            found.append(_atom("number", t))
        if len(found) >= limit:
            break
    return _unique(found)


def value_atoms(text: str) -> list[Atom]:
    """A value kept in the task's memory: its pieces, and the value itself when it is short."""
    found = user_atoms(text) + page_atoms(text)
    whole = _atom("value", text) if len(text) <= 80 else None
    return _unique([*found, whole])


def _unique(atoms: list[Atom | None]) -> list[Atom]:
    seen: dict[str, Atom] = {}
    for a in atoms:
        if a is not None and a.key not in seen:
            seen[a.key] = a
    return list(seen.values())


# --- reading a value the ways a model could have dressed it -------------------------------------
B64 = re.compile(r"[A-Za-z0-9+/_-]{8,}={0,2}")
HEX = re.compile(r"\b(?:[0-9a-fA-F]{2}){4,}\b")
DIGIT_WORDS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4",
               "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_DIGIT_WORD = re.compile(r"\b(" + "|".join(DIGIT_WORDS) + r")\b", re.I)


def _printable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    shown = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    return text if text and shown / len(text) > 0.9 else None


def _decoded_tokens(text: str) -> Iterator[str]:
    for m in B64.finditer(text):
        token = m.group(0)
        for alphabet in (token, token.replace("-", "+").replace("_", "/")):
            try:
                raw = base64.b64decode(alphabet + "=" * (-len(alphabet) % 4), validate=True)
            except (binascii.Error, ValueError):
                continue
            if (got := _printable(raw)) is not None:
                yield got
                break
    for m in HEX.finditer(text):
        if (got := _printable(bytes.fromhex(m.group(0)))) is not None:
            yield got


def readings(value: str, depth: int = 2) -> list[str]:
    """The value as written and as decoded the usual ways, each normalised (see the module's doc)."""
    out: list[str] = []
    seen: set[str] = set()

    def add(text: str, level: int) -> None:
        if text in seen or len(seen) > 64:
            return
        seen.add(text)
        out.append(normal(text))
        if level >= depth:
            return
        for variant in (unquote_plus(text), html.unescape(text)):
            if variant != text:
                add(variant, level)
        for decoded in _decoded_tokens(text):
            add(decoded, level + 1)

    add(value, 0)
    base = list(out)
    for r in base:
        out.append(r[::-1])
        out.append(codecs.encode(r, "rot13"))
    spelt = _DIGIT_WORD.sub(lambda m: DIGIT_WORDS[m.group(0).lower()], value)
    if spelt != value:
        out.append(normal(spelt))
    return out


def carried(value: str, atoms: list[Atom]) -> list[Atom]:
    """The atoms a value carries, however it was dressed."""
    texts = readings(value)
    return [a for a in atoms if any(a.key in t for t in texts)]


def opaque(parts: list[str]) -> list[str]:
    """Tokens of a value's parts (an address's path segments and query values, a typed text)
    heybro cannot read: long and dense (an encoding, an encryption), which none of the readings
    explained. (A caller drops those a page showed: a link's own token.)"""
    out = []
    for part in parts:
        for t in part.split():
            if len(t) >= 20 and _entropy(t) >= 3.6 and sum(ch.isdigit() for ch in t) >= 2 \
                    and sum(ch.isalpha() for ch in t) >= 4:
                out.append(t)
    return out


def _entropy(token: str) -> float:
    counts: dict[str, int] = {}
    for ch in token:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(token)
    return -sum(c / n * math.log2(c / n) for c in counts.values())
