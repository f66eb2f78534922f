"""What a press may set off, judged where and when it happens: one rule both sides read.

A control is judged by what it does as much as by its words: its own words ("Pay $499 now"), where
it leads (a link's target, its form's action and method), what its form carries (hidden fields
too: `amount=499`, `plan=yearly`) and the small print beside it ("$499 a year, renews
automatically"). Any of them says it spends money, sends or publishes, or deletes → the user is
asked first. The DOM agent judges it right before the press, on the element it is about to press
(extension/content/act_gate.js reads these patterns from the generated
extension/content/effect_rules.js), so what changed between the look and the press is judged as it
is then; a yes is bound to the effect it was given for (its digest): a control whose words, target
or fields changed since is asked about again, not pressed.

A false alarm costs the user one click; a missed one can cost them money or a message they never
meant to send. So the words are broad; only navigation links are spared the send/publish words (a
"Posts" or "New post" link opens a page; a "Delete" link may delete).

The patterns are written in the syntax Python's `re` and JavaScript's RegExp (with the `i` flag)
read alike: words, `\\b`, groups and alternations.
"""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import unquote, urlsplit

from pydantic import Field

from .tool_spec import ToolArgs

# A control's own words.
SPEND = (r"\b(buy|purchase|pay|payment|place (?:my |your |the |an? )?order|order now|checkout now|"
         r"complete (?:purchase|order|payment|booking)|confirm (?:and pay|purchase|order|payment|"
         r"booking)|subscribe|donate|book now|reserve now|add funds|top up|transfer|send money|"
         r"upgrade now|start (?:my )?subscription|"
         # … in the languages most pages heybro meets are written in
         r"kaufen|jetzt kaufen|bezahlen|zahlungspflichtig bestellen|abonnieren|acheter|payer|"
         r"commander|s'abonner|comprar|pagar|suscribirse|comprare|pagare|abbonati|kopen|betalen)\b")
SEND = (r"\b(send|post|publish|tweet|submit (?:comment|review|post|reply)|post comment|reply now|"
        r"share now|schedule post)\b")
DELETE = (r"\b(delete|remove|erase|destroy|discard|trash|move to trash|empty trash|cancel (?:my |the )?"
          r"(?:subscription|order|account|booking)|close (?:my )?account|deactivate|unsubscribe|"
          r"permanently|löschen|entfernen|supprimer|effacer|eliminar|borrar|elimina|cancella|"
          r"verwijderen)\b")
# Where a press leads (a link's target, a form's action), its path and query read as words.
TARGET_SPEND = (r"\b(pay|payment|payments|purchase|subscribe|subscription|subscriptions|donate|"
                r"transfer|charge|checkout[ _/-](?:confirm|complete|place)|place[ _-]order|"
                r"billing[ _/-](?:confirm|upgrade)|upgrade)\b")
TARGET_DELETE = (r"\b(delete|destroy|remove|erase|trash|unsubscribe|deactivate|close[ _-]account|"
                 r"cancel|cancel[ _-](?:subscription|account|order|booking)|wipe|purge)\b")
# A form's fields. A hidden one is the page's own word on what the press does (`amount=499`,
# `plan=yearly`, `action=delete`); a field the user fills speaks of money only when it is a means of
# payment (a card, an account to debit) — a price typed into a product form spends nothing.
FIELD_SPEND = (r"\b(amount|price|charge|plan|billing|subscription|recurring|renew|payment|"
               r"cost|fee)\b")  # (not "total": a list's form counts its items so)
FIELD_PAYMENT = (r"\b(card ?number|credit ?card|cc ?(?:number|num|csc|cvv|exp)|cvv|cvc|csc|iban|"
                 r"account ?number|routing ?number|sort ?code)\b")
FIELD_DELETE = r"^(?:action|op|cmd|do|task|intent)=(?:delete|remove|destroy|erase|trash|purge)\b"
# Small print beside a control: an amount of money, and words of a charge that recurs or is made.
AMOUNT = (r"(?:[$€£¥₹]\s?\d[\d.,]*|\b\d[\d.,]*\s?(?:usd|eur|gbp|dollars?|euros?|pounds?)\b)")
CHARGE = (r"(?:per (?:year|month|week|day)|a (?:year|month)|/\s?(?:yr|year|mo|month|wk)\b|annual(?:ly)?|"
          r"monthly|yearly|weekly|renews?|recurring|subscription|billed|charged?|trial|auto-?renew|"
          r"will be (?:charged|billed|debited))")
# What a press on them sets off (the others only look or open): weighed by their words.
CLICKERS = ("button", "link", "menuitem", "tab", "option", "submit", "checkbox", "switch", "radio")

RISK_WORDS = {"spend money": SPEND, "send or publish": SEND, "delete": DELETE}
# What an effect says of a secret field's value (a password, a code): that it holds one, never what.
SECRET_VALUE = "(a secret)"


class ActGate(ToolArgs):
    """What the DOM agent checks on the element right before it acts, whatever was decided
    before: the host's judgement holds only for the page, the control and the effect it judged."""

    origin: str | None = Field(None, max_length=300, description="The page origin (scheme, host, "
                               "port) heybro judged the action for: in a document of another "
                               "origin the action is refused (`origin_changed`).")
    confirm: bool = Field(False, description="A risky effect (effects.py) needs the user's yes.")
    approved: list[str] = Field(default_factory=list, max_length=200,
                                description="Digests of the effects the user said yes to.")
    named: list[str] = Field(default_factory=list, max_length=200, description="The sites the "
                             "user named or chose: a press that leads elsewhere carrying data is "
                             "weighed by the host first (`needs_approval`).")
    secret: Literal["password", "code", "any"] | None = Field(
        None, description="The value carries the user's secret: typed only into a field for it.")
    covers: bool = Field(False, description="The user said yes to this action's effect just now: "
                         "the requests its press sets off are covered by that yes.")


def address_risk(url: str) -> tuple[str, str] | None:
    """What opening an address may set off, read from its path and query as a link's target is
    (content/act_gate.js): ("delete", why) for an address that says so, ("spend money", why) for one
    whose query asks to pay or subscribe; None for an address that only opens a page."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    words = re.sub(r"[/?&=.+]", " ", unquote(f"{parts.path} ?{parts.query}")).lower()
    if re.search(TARGET_DELETE, words, re.I):
        return "delete", f"it leads to {url[:100]}"
    if parts.query and re.search(TARGET_SPEND, words, re.I):
        return "spend money", f"it leads to {url[:100]}"
    return None
