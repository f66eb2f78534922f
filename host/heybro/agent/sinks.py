"""What may leave, decided by heybro — never by the model — at the places things leave: an address
a browser call opens, text it types and a file it drops into a page (marked `opens`/`gives` on the
tools' arguments, shared_schema/reach.py), a press whose effect sends a form or follows a link
(judged by the page's agent at the moment of the press, content/act_gate.js), and the arguments of
a host tool that leave this machine (`Effects.sends`).

At each, the task's ledger (heybro/flow) says what of the value is not the destination's own: the
user's data, another site's, or what heybro cannot read. Going to a site the user named or chose,
or let it go to in this task, it goes; anywhere else heybro asks, saying what would go where, and a
yes holds for that site for the rest of the task. A secret is the user's for the site it was given
on: it is typed there only, into a field for it, and never put in an address or a tool's
arguments. A press the user approved is bound to its effect: changed, it is asked about again.

Every browser call of every run (the worker, a desk role, a routine's replay, an outside agent)
passes through calls.BrowserCalls.call, which calls `admit` before a call leaves and `resolve` when the
page's agent stops it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from shared_schema.effects import SECRET_VALUE, ActGate, address_risk
from shared_schema.reach import reach_fields
from shared_schema.sites import matches, pattern_of, site_of
from shared_schema.tools import TOOLS

from ..flow.ledger import Outgoing, forwards
from .browser_tools import effects_of
from .errors import ToolFailed
from .experience import origin_of
from .gate import Approval, Asker, ask
from .run_state import RunParts, task_ledger

if TYPE_CHECKING:
    from ..flow.ledger import Ledger


class GateEnv(RunParts, Protocol):
    """What the sinks use of the run (calls.BrowserCalls and host_calls.HostCalls provide it): the
    parts every phase shares — the task, its services (the settings), its state (the page, the
    user's secrets and yeses, the ledger) — and the user, whom gate.ask asks through."""

    @property
    def user(self) -> Asker: ...


def _ledger(env: GateEnv) -> Ledger:
    return task_ledger(env.task, env.state)


def _confirm_off(env: GateEnv) -> set[str]:
    """Sites where the user turned the ask-first for risky actions off."""
    return {s.strip().lower() for s in env.services.settings.confirm_off_sites}


SECRET_REF = re.compile(r"\{\{secret:([^{}]+)\}\}")
FRAME_ID = re.compile(r"^f(\d+)e\d+$")


def host_of(url: str) -> str:
    """The host name a per-site setting names (`shop.example`), from a page address."""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


@dataclass
class Admitted:
    """A call cleared to leave: its arguments (secrets filled in), what the user decided on the
    way (for the record), and what it gives whom (counted once it went)."""
    args: dict[str, Any]
    decided: list[str] = field(default_factory=list)
    gives: list[tuple[str, str]] = field(default_factory=list)  # (value, destination address)


@dataclass(frozen=True)
class SecretUse:
    name: str
    site: str  # the site it was given for
    kind: str  # "password", "code" or "any": the field it goes into


async def admit(env: GateEnv, tool: str, args: dict[str, Any]) -> Admitted:
    """Weighs what the call gives and where (asks the user, or refuses, as the module says), adds
    the gate the page's agent checks right before acting, and fills in the secrets."""
    spec = TOOLS.get(tool)
    done = Admitted(args=dict(args))
    if spec is None:
        return done
    marks = reach_fields(spec.args)
    dest = element_address(env, args.get("element_id"))
    secrets: list[SecretUse] = []
    for name, kind in marks.items():
        value = args.get(name)
        if kind == "opens" and isinstance(value, str):
            if SECRET_REF.search(value):
                raise ToolFailed("not_allowed", "A secret never goes into an address: heybro types "
                                 "{{secret:NAME}} into a field for it, on the site it was given for.")
            await _may_send(env, value, value, f"open {_short(value)}", done.decided)
            await _may_open(env, value, done.decided)
            done.gives.append((value, value))
        elif kind == "gives" and isinstance(value, str):
            secrets += _secrets_in(env, value, dest)
            plain = SECRET_REF.sub(" ", value)
            await _may_send(env, plain, dest, f"type into {_target(env, args)} on {site_of(dest) or dest}",
                            done.decided)
            done.gives.append((plain, dest))
            done.args[name] = env.state.secrets.fill(value)
        elif kind == "keys" and isinstance(value, str) and (typed := key_text(value)):
            await _may_send(env, typed, dest, f"type into {_target(env, args)} on {site_of(dest) or dest}",
                            done.decided)
            done.gives.append((typed, dest))
        elif kind == "gives" and isinstance(value, dict):  # a file
            await _may_send_file(env, str(value.get("name") or "a file"), dest, done.decided)
    if "gate" in spec.args.model_fields and not effects_of(tool).read_only:  # (a look needs none)
        done.args["gate"] = gate(env, dest, secrets).model_dump(exclude_none=True)
    return done


def gate(env: GateEnv, dest: str, secrets: list[SecretUse] | None = None) -> ActGate:
    """What the page's agent checks right before it acts (shared_schema/effects.py)."""
    kinds = {s.kind for s in secrets or []}
    return ActGate(origin=origin_of(dest) or None,
                   confirm=env.services.settings.confirm and host_of(dest) not in _confirm_off(env),
                   approved=sorted(env.state.approved_effects),
                   named=[*_ledger(env).named_patterns(), *sorted(pattern_of(s) for s in _ledger(env).approved)],
                   secret=None if not kinds else kinds.pop() if len(kinds) == 1 else "any")


def element_address(env: GateEnv, element_id: Any) -> str:
    """The address of the document an element is in: its cross-origin frame's when the page map
    gave the frame's address, else the page's. (The page's agent checks the origin again before
    acting: a guess here refuses, never lets through.)"""
    snap = env.state.snapshot
    url = (snap.url if snap is not None else "") or env.task.last_url or env.task.url or ""
    m = FRAME_ID.match(element_id) if isinstance(element_id, str) else None
    frames = (snap.model_extra or {}).get("frame_urls") if m and snap is not None else None
    if m and isinstance(frames, dict) and isinstance(frames.get(f"f{m.group(1)}"), str):
        return str(frames[f"f{m.group(1)}"])
    return url


def key_text(keys: str) -> str:
    """The text a key press types: its character ("4", "Shift+A" → "A"); nothing for a named key
    or a shortcut ("Enter", "Control+A")."""
    *mods, key = keys.split("+") if len(keys) > 1 else [keys]
    if len(key) != 1 or any(m.lower() not in ("shift",) for m in mods):
        return ""
    return key


def _secret_may_go(env: GateEnv, target: str) -> None:
    """A form holding a password or code, sent to another site: only to a site one of the user's
    secrets was given for (a secret is the user's for its site: typed there, sent there)."""
    site = site_of(target)
    if not any(matches(given, site) or matches(site, given) for given in env.state.secrets.sites()):
        raise ToolFailed("not_allowed", f"This press would send the password or code in its form to "
                         f"{site or 'another site'}, which no secret of the user's was given for: heybro "
                         "does not send it. Tell the user if the task needs it.")


def _secrets_in(env: GateEnv, value: str, dest: str) -> list[SecretUse]:
    """The secrets a typed value names, each checked against where it goes: typed on the site it
    was given for only."""
    uses = []
    for name in SECRET_REF.findall(value):
        held = env.state.secrets.get(name)
        given = held.site if held is not None else None
        if held is None or given is None:
            continue
        site = site_of(dest)
        if not site or not (matches(given, site) or matches(site, given)):
            raise ToolFailed("not_allowed", f"{{{{secret:{name}}}}} is the user's secret for {given}: "
                             f"heybro types it there only, never on {site or 'this page'}. Do not "
                             "try to send it another way; tell the user if the task needs it here.")
        uses.append(SecretUse(name, given, held.kind))
    return uses


async def _may_send(env: GateEnv, value: str, dest: str, how: str, decided: list[str]) -> None:
    """Asks the user when `value` going to `dest` carries what is not that site's — and to every
    site an address it holds forwards to (`shop.test/go?to=https://evil.test/…`: a redirect hands
    on what it was given)."""
    for to in [dest, *forwards(value)]:
        out = _ledger(env).outgoing(value, to)
        if not _ledger(env).may_go(out):
            await _ask_to_send(env, out, how, decided)


async def _may_open(env: GateEnv, url: str, decided: list[str]) -> None:
    """An address whose own words say it deletes or pays (`/account/delete?confirm=1`) is a press,
    whoever typed it — but the user, whose start address it may be: asked first as a link to it
    would be (a yes holds for that address)."""
    risk = address_risk(url)
    key = f"open {url}"
    if risk is None or url == env.task.url or not env.services.settings.confirm or host_of(url) in _confirm_off(env) \
            or key in env.state.approved_effects:
        return
    what, why = risk
    decided.append(await ask(env.user, Approval(
        "open", f"About to open {_short(url)} — this may {what} ({why}). Go ahead?",
        f"opening {_short(url)} ({what})", f"heybro asked first ({what})")))
    env.state.approved_effects.add(key)


async def _may_send_file(env: GateEnv, name: str, dest: str, decided: list[str]) -> None:
    """A file of the user's (a resource of the task) dropped into a page: theirs, like their words."""
    site = site_of(dest)
    if site and (_ledger(env).is_named(site) or site in _ledger(env).approved):
        return
    out = Outgoing(site=site or dest[:80], named=False)
    await _ask_to_send(env, out, f"upload it on {site or dest}", decided, what=f'your file "{name}"')


async def _ask_to_send(env: GateEnv, out: Outgoing, how: str, decided: list[str],
                       what: str | None = None) -> None:
    what = what or out.words()
    decided.append(await ask(env.user, Approval(
        "send", f"Send {what} to {out.site}? heybro is about to {how}, and your request never "
        f"named {out.site}.", f"sending {what} to {out.site}",
        f"heybro asked before sending {what} to {out.site}")))
    _ledger(env).approve(out.site)


async def resolve(env: GateEnv, err: ToolFailed, args: dict[str, Any],
                  decided: list[str]) -> dict[str, Any]:
    """The page's agent stopped the call at its last look (`needs_approval`): weighs what the press
    would send and asks the user what needs their yes; returns the arguments to send again, with
    the effect approved. Raises ToolFailed when the user says no (or for any other refusal)."""
    detail = err.detail if isinstance(err.detail, dict) else {}
    effect: dict[str, Any] = detail["effect"] if isinstance(detail.get("effect"), dict) else {}
    digest = detail.get("digest")
    if err.code != "needs_approval" or not isinstance(digest, str):
        raise err
    reasons = [r for r in detail.get("reasons") or [] if isinstance(r, dict)]
    target = str(effect.get("target") or "")
    act = _act_words(env, args, effect)
    for r in reasons:
        if r.get("kind") == "leaves":
            fields = [f for f in effect.get("fields") or [] if isinstance(f, dict) and f.get("type") != "hidden"]
            if any(f.get("value") == SECRET_VALUE for f in fields):
                _secret_may_go(env, target)
            for v in [target] + [str(f.get("value") or "") for f in fields if f.get("value") != SECRET_VALUE]:
                await _may_send(env, v, target, f"{act}, which sends it to {_short(target)}", decided)
    risks: dict[str, list[str]] = {}
    for r in reasons:
        if r.get("kind") == "risk":
            risks.setdefault(str(r.get("what")), []).append(" ".join(str(r.get("said") or "").split())[:200])
    if risks:
        page = site_of(env.state.snapshot.url) if env.state.snapshot else ""
        why = "; and ".join(f"{what} ({'; '.join(dict.fromkeys(said))})" for what, said in risks.items())
        then = " — the page then sends a request that" if effect.get("kind") == "request" else " — this"
        again = ("It changed since heybro last looked; now: " if any(r.get("kind") == "changed"
                                                                   for r in reasons) else "")
        whats = ", ".join(risks)
        decided.append(await ask(env.user, Approval(
            "press", f"{again}About to {act}{' on ' + page if page else ''}{then} may {why}. "
            "Go ahead?", f"{act} ({whats})", f"heybro asked first ({whats})")))
    env.state.approved_effects.add(digest)
    out = dict(args)
    g = dict(out.get("gate") or {})
    g["approved"] = sorted({*g.get("approved", []), digest})
    g["covers"] = g.get("covers", False) or bool(risks)  # (the yes covers what the press sets off)
    out["gate"] = g
    return out


def _act_words(env: GateEnv, args: dict[str, Any], effect: dict[str, Any]) -> str:
    """The press in the page's words: the control as the page names it and the item it is in
    (`click button "Unsubscribe" in "Cooking feed"`), as the page's agent read them at the press."""
    words = " ".join(str(effect.get("words") or "").split())[:80] or "this control"
    named = _target(env, args) if args.get("element_id") else None
    place = " ".join(str(effect.get("place") or "").split())[:80]
    keys, chosen = args.get("keys"), args.get("value")  # (keys pressed, an option chosen, or a click)
    act = (f"press {keys} on {named or 'the focused field'}" if keys else
           f"choose {repr_words(chosen)} in {named or repr_words(words)}" if isinstance(chosen, str) else
           f"click {named or repr_words(words)}")
    if place and place.casefold() not in act.casefold():
        act += f" in {repr_words(place)}"
    return act


def repr_words(words: str) -> str:
    """Words the page shows, quoted as the user reads them."""
    return f'"{words}"'


def sent(env: GateEnv, done: Admitted) -> None:
    """What the call gave went where it was going: counted with what goes there next."""
    for value, dest in done.gives:
        _ledger(env).sent(value, dest)


async def host_tool_may_send(env: GateEnv, name: str, sends: str | None,
                             params: dict[str, Any]) -> list[str]:
    """A host tool's arguments leaving this machine: to the address in its `url` (fetch), or to
    the place it sends everything (an MCP server, a shell command). Returns what the user decided."""
    if not sends:
        return []
    decided: list[str] = []
    values = _leaves(params)
    text = " ".join(values + _files_named(env, values))  # (a file it is told to read goes with it)
    if SECRET_REF.search(text):
        raise ToolFailed("not_allowed", "A secret never goes to a tool: heybro types "
                         "{{secret:NAME}} only into a field for it, on the site it was given for.")
    if sends == "url":
        url = str(params.get("url") or "")
        await _may_send(env, url, url, f"fetch {_short(url)}", decided)
        _ledger(env).sent(url, url)
        return decided
    place = sends.split(":", 1)[-1]
    out = _ledger(env).outgoing(text, f"tool://{place}")
    out.site = f"the tool {name}" + (f" (MCP server {place})" if sends.startswith("mcp:") else "")
    out.named = _ledger(env).tool_named(place, name)
    if not _ledger(env).may_go(out):
        await _ask_to_send(env, out, f"run {name}", decided)
    return decided


FILE_READ = 200_000  # characters of a named workspace file weighed with a tool's arguments


def _files_named(env: GateEnv, values: list[str]) -> list[str]:
    """The text of the task's workspace files the arguments name (`notes_import_file(path=
    "order.txt")`): what a tool reads from them leaves with it."""
    workspace = env.services.tool_ctx.workspace if env.services.tool_ctx is not None else None
    if workspace is None:
        return []
    out = []
    for v in values:
        if not v or len(v) > 500 or "\n" in v:
            continue
        try:
            path = (workspace / v).resolve()
            if path.is_relative_to(workspace.resolve()) and path.is_file():
                out.append(path.read_text(errors="replace")[:FILE_READ])
        except (OSError, ValueError):
            continue
    return out


def _leaves(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [str(value)] if value is not None else []


def _short(url: str) -> str:
    return url if len(url) <= 120 else url[:119] + "…"


def _target(env: GateEnv, args: dict[str, Any]) -> str:
    snap = env.state.snapshot
    return (snap.describe(args.get("element_id")) if snap is not None else None) or "a field"
