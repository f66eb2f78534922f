"""Expectation checks against the browser, on the corpus of real applications.

    .venv/bin/python scripts/bench_expect.py [--apps A B …] [--half tune|heldout] [--pages N] [--write]

On each page of an application (tests/support/corpus/), heybro observes and the bench picks
controls a person uses there without changing the application's data: a select, a text field, a
link to another page of the site, a button that opens or closes part of the page. Each is acted on
through heybro's own tools, twice, from a freshly opened page:

1. the browser says what the action leads to: 4 s after it (late updates, animations done), the
   address, the visible text and the control's value are read with Playwright, and heybro's map of
   the page then — no list written by hand;
2. the same action again, and heybro's check (agent/settle.py, what the worker and routine replay
   use) asked about expectations of each kind the browser showed to hold (the new address, a text
   or an element that came, one that went, the value) and of each kind it showed not to. The
   browser reads the page once more 4 s after the action: a case whose truth changed meanwhile
   (a page that never settles) is set aside and counted.

Beyond one clause of each kind, the cases a check must not get wrong: two clauses of one kind in
one expectation (`text:A; text:B`, each checked — one that does not hold makes the whole not met); a
text that was already on the page before the action (it holds, and heybro must say it held before:
it proves nothing about the action) and one that came (it must not be said to have been there); a
role alone (`element:menu`: a role the action brought, one it took away, one the page never had); a
text that came only late (the page still loading its content when first read: `no text:` of it must
not be said met); and fields that speak of a password, a PIN or a code without being one (a
"Minimum password length" number): their value is read and compared like any other.

Reported per half (tune, held-out) and per action and clause: false NOT met (a check that held,
said not to) and false met (one that did not, said to) — target 0 of each — how many checks said
"already before the action" wrongly (either way), and how many of the checks that held would have
been said NOT met when read at once, without the settling wait.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import queue
import re
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ROOT, machine, over_corpus, write_section  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from corpus import open_page  # noqa: E402
from heybro import config  # noqa: E402
from heybro.agent.browser import Snapshot  # noqa: E402
from heybro.agent.env import AgentEnv  # noqa: E402
from heybro.agent.errors import ToolFailed  # noqa: E402
from heybro.agent.expect import ROLE_WORDS, check, parse_expect, role_only, words  # noqa: E402
from heybro.agent.models import ExpectedOutcome, Task  # noqa: E402
from heybro.agent.recorder import MemoryRecorder  # noqa: E402
from heybro.agent.settle import checked  # noqa: E402
from heybro.llm import LLMClient  # noqa: E402
from support.browser import launch  # noqa: E402
from support.corpus import APPS, need  # noqa: E402

SETTLED_S = 4.0  # when the browser's reading is the truth: the page is done by then
PER_KIND = 1  # controls of each kind tried per page
# Fields that speak of a secret without being one (their value is read like any other's).
SECRETISH = re.compile(r"pass|pin\b|code|secret|otp|token", re.I)
# Links a person follows to look, never to change anything.
CHANGES = re.compile(r"log\s?out|sign\s?out|delete|trash|remove|spam|approve|unapprove|nonce|action=|"
                     r"logout|/admin/?$|disable|deactivate|reset|revoke|empty", re.I)


# --- the browser, in a thread of its own -----------------------------------------------------------
# Playwright's sync API (the corpus logs in with it) and heybro's async agent cannot share a
# thread: the browser lives in one, and heybro's calls reach it through this queue.

class BrowserThread:
    def __init__(self, start: Callable[[], contextlib.AbstractContextManager[Any]]) -> None:
        self.jobs: queue.Queue[tuple[Callable[[Any], Any], concurrent.futures.Future[Any]] | None] = queue.Queue()
        self.ready: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.thread = threading.Thread(target=self._run, args=(start,), daemon=True)
        self.thread.start()
        self.ready.result()

    def _run(self, start: Callable[[], contextlib.AbstractContextManager[Any]]) -> None:
        try:
            with start() as ctx:
                self.ready.set_result(True)
                while (job := self.jobs.get()) is not None:
                    fn, fut = job
                    try:
                        fut.set_result(fn(ctx))
                    except BaseException as e:  # noqa: BLE001 - handed to the caller
                        fut.set_exception(e)
        except BaseException as e:  # noqa: BLE001
            if not self.ready.done():
                self.ready.set_exception(e)

    def do(self, fn: Callable[[Any], Any]) -> Any:
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.jobs.put((fn, fut))
        return fut

    def close(self) -> None:
        self.jobs.put(None)
        self.thread.join(60)


class ThreadBrowser:
    """heybro's Browser over the extension's own `runTool`, run in the browser's thread."""

    def __init__(self, bt: BrowserThread) -> None:
        self.bt = bt

    async def call(self, tool: str, args: dict[str, Any], *, tab_id: int | None,
                   timeout_ms: int = 15_000, sites: Any = None) -> dict[str, Any]:
        payload: dict[str, Any] = {"tool": tool, "args": args, "timeout_ms": timeout_ms,
                                   **({"tab_id": tab_id} if tab_id is not None else {})}
        res = await asyncio.wrap_future(self.bt.do(
            lambda c: c["eb"].sw.evaluate("(call) => globalThis.heybro.runTool(call)", payload)))
        if not res["ok"]:
            e = res["error"]
            raise ToolFailed(e["code"], e["message"], e.get("detail") or {})
        return res["result"]


def browser_reading(c: dict[str, Any]) -> dict[str, Any]:
    """The page as the browser has it: address, visible text (all frames' bodies), the focused
    control's value as shown (a select: its option's words) and form value."""
    page = c["page"]
    return page.evaluate("""() => {
        const a = document.activeElement;
        const sel = a && a.tagName === 'SELECT' ? a.selectedOptions[0] : null;
        return {url: location.href, text: document.body ? document.body.innerText : '',
                value: sel ? sel.textContent.trim() : (a && 'value' in a ? String(a.value) : null),
                option: sel ? sel.value : null};
    }""")


# --- cases -------------------------------------------------------------------------------------

@dataclass
class Action:
    kind: str  # select | fill | fill (about a secret) | link | toggle
    tool: str
    args: dict[str, Any]
    target: str  # role "name", to find the control again on the reopened page
    role: str
    name: str


@dataclass
class Result:
    app: str
    half: str
    page: str
    action: str
    clause: str
    holds: bool
    said: bool | None = None  # heybro's settled answer
    at_once: bool | None = None  # heybro's answer read at once, no settling wait
    read_ms: int | None = None
    unstable: bool = False
    error: str = ""
    expect: str = ""
    before: bool | None = None  # whether it held before the action too (None: not asked)
    said_before: bool | None = None  # … and whether heybro said so

    @property
    def wrong(self) -> bool:
        return self.said is not None and not self.unstable and self.said != self.holds

    @property
    def wrong_before(self) -> bool:
        """Said met, and wrong about whether it already was before the action."""
        return (self.before is not None and bool(self.said) and not self.unstable
                and self.said_before != self.before)


def options_of(text: str, eid: str) -> list[str]:
    m = re.search(rf"^\[{eid}\][^\n]*? options: ([^\n]*)$", text, re.M)
    if not m:
        return []
    return [o for o in m.group(1).split(" (+")[0].split("|") if o.strip()]


def pick_actions(obs: dict[str, Any], base: str, kept: set[str]) -> list[Action]:
    """Controls of each kind a person uses without changing data, PER_KIND of each (none of
    `kept`: controls whose action the application kept, seen on an earlier page)."""
    found: dict[str, list[Action]] = defaultdict(list)
    origin = urlsplit(base)
    for eid, sig in obs["elements"].items():
        if "f" in eid:  # a frame's element: its page is another document
            continue
        role, name, tag = sig.get("role") or "", " ".join((sig.get("name") or "").split()), sig.get("tag") or ""
        state, attrs = sig.get("state") or {}, sig.get("attrs") or {}
        if state.get("disabled") or state.get("secret") or not name or len(name) > 60:
            continue
        target = f'{role} "{name}"'
        if target in kept:
            continue
        if tag == "select":
            opts = options_of(obs["text"], eid)
            now = state.get("value")
            other = [o for o in opts if o != now]
            if len(other) >= 1 and len(opts) >= 3:
                found["select"].append(Action("select", "select", {"element_id": eid, "value": other[0]}, target, role, name))
        elif role in ("textbox", "searchbox", "spinbutton") and tag == "input" and \
                SECRETISH.search(f"{name} {sig.get('label') or ''} {attrs.get('name') or ''} {attrs.get('id') or ''}") and \
                (attrs.get("type") or "text") in ("text", "number", "tel"):
            value = "14" if attrs.get("type") == "number" else "heybro check 42"
            found["fill (about a secret)"].append(Action("fill (about a secret)", "fill", {"element_id": eid, "value": value},
                                                         target, role, name))
        elif role in ("textbox", "searchbox") and tag in ("input", "textarea") and \
                (attrs.get("type") or "text") in ("text", "search", "email", "url"):
            found["fill"].append(Action("fill", "fill", {"element_id": eid, "value": "heybro check 42"}, target, role, name))
        elif role == "link" and isinstance(attrs.get("href"), str):
            href = attrs["href"]
            u = urlsplit(href if "://" in href else f"{origin.scheme}://{origin.netloc}{href if href.startswith('/') else '/' + href}")
            if u.netloc == origin.netloc and not CHANGES.search(href + " " + name) and not href.startswith("#") \
                    and u.path not in ("", "/"):
                found["link"].append(Action("link", "click", {"element_id": eid}, target, role, name))
        elif (role == "button" and "expanded" in state) or role == "tab" or tag == "summary":
            if not CHANGES.search(name):
                found["toggle"].append(Action("toggle", "click", {"element_id": eid}, target, role, name))
    out: list[Action] = []
    for kind in ("select", "fill", "fill (about a secret)", "toggle", "link"):
        seen: set[str] = set()
        for a in found[kind]:
            if a.target not in seen and len(seen) < PER_KIND:
                seen.add(a.target)
                out.append(a)
    return out


def find_again(obs: dict[str, Any], a: Action) -> str | None:
    for eid, sig in obs["elements"].items():
        if sig.get("role") == a.role and " ".join((sig.get("name") or "").split()) == a.name:
            return eid
    return None


def lines_of(text: str) -> list[str]:
    return [w for w in (words(x) for x in text.splitlines()) if 6 <= len(w) <= 60]


def elements_of(obs: dict[str, Any]) -> set[str]:
    return {f'{s.get("role")} "{" ".join((s.get("name") or "").split())}"' for s in obs["elements"].values()
            if s.get("name") and s.get("role") and len(s.get("name") or "") <= 50 and '"' not in (s.get("name") or "")}


def roles_of(obs: dict[str, Any]) -> set[str]:
    """The roles heybro's map of the page has an element of (an open dialog of the page counts)."""
    roles = {str(s.get("role") or "").lower() for s in obs["elements"].values()} & ROLE_WORDS
    if any(isinstance(d, dict) and not d.get("kind") for d in obs.get("dialogs") or []):
        roles.add("dialog")
    return roles


Case = tuple[str, ExpectedOutcome, bool, bool | None]  # clause, expect, holds, held before too


def expectations(a: Action, before: dict[str, Any], after: dict[str, Any], obs_before: dict[str, Any],
                 obs_after: dict[str, Any], obs_now: dict[str, Any] | None = None) -> list[Case]:
    """What the browser showed the action led to, as expectations of each kind: (clause, expect,
    holds, held before) — one that holds and one that does not per kind where the page gives both.
    `obs_now`: heybro's map read right after the action (what came only later was still loading)."""
    out: list[Case] = [(c, e, h, None) for c, e, h in _one_of_each(a, before, after, obs_before, obs_after)]
    if a.kind not in ("toggle", "link"):
        return out
    page_before, page_after = words(before["text"]).casefold(), words(after["text"]).casefold()
    seen_before, seen_after = words(obs_before["text"]).casefold(), words(obs_after["text"]).casefold()
    came = [x for x in lines_of(after["text"]) if x.casefold() not in page_before and x.casefold() in seen_after
            and x.casefold() not in seen_before]
    went = [x for x in lines_of(before["text"]) if x.casefold() not in page_after and x.casefold() in seen_before]
    stayed = [x for x in lines_of(before["text"]) if x.casefold() in page_after
              and x.casefold() in seen_before and x.casefold() in seen_after]
    # Two clauses of one kind: both checked.
    if len(came) >= 2:
        out.append(("two texts", parse_expect(f"text:{came[0]}; text:{came[1]}"), True, False))
    if came and went:
        out.append(("two texts", parse_expect(f"text:{came[0]}; text:{went[0]}"), False, None))
    # Already so before the action, and come with it: heybro must tell them apart.
    if stayed and came:
        out.append(("text (already before)", parse_expect(f"text:{stayed[0]}"), True, True))
        out.append(("text (came)", parse_expect(f"text:{came[0]}"), True, False))
    # A role alone.
    r_before, r_after = roles_of(obs_before), roles_of(obs_after)
    for r in sorted(r_after - r_before)[:1]:
        out += [("role", parse_expect(f"element:{r}"), True, False),
                ("no role", parse_expect(f"no element:{r}"), False, None)]
    for r in sorted(r_before - r_after)[:1]:
        out += [("no role", parse_expect(f"no element:{r}"), True, False),
                ("role", parse_expect(f"element:{r}"), False, None)]
    never = next((r for r in ("alertdialog", "slider", "tree", "progressbar") if r not in r_before | r_after), None)
    if never:
        out += [("no role", parse_expect(f"no element:{never}"), True, True),
                ("role", parse_expect(f"element:{never}"), False, None)]
    # What came only once the page had loaded its content: not gone while it was loading.
    if obs_now is not None:
        seen_now = words(obs_now["text"]).casefold()
        late = [x for x in came if x.casefold() not in seen_now]
        if late:
            out += [("no text (loading)", parse_expect(f"no text:{late[0]}"), False, None),
                    ("text (loading)", parse_expect(f"text:{late[0]}"), True, False)]
    return out


def _one_of_each(a: Action, before: dict[str, Any], after: dict[str, Any], obs_before: dict[str, Any],
                 obs_after: dict[str, Any]) -> list[tuple[str, ExpectedOutcome, bool]]:
    """One clause of each kind: one that holds and one that does not, where the page gives both."""
    out: list[tuple[str, ExpectedOutcome, bool]] = []
    if a.kind in ("select", "fill", "fill (about a secret)"):
        if after["value"] is None:
            return out
        shown = after["value"]
        other = "heybro other words" if a.kind == "fill" else next(
            (o for o in options_of(obs_before["text"], a.args["element_id"]) if words(o).casefold() != words(shown).casefold()), None)
        out.append(("value", ExpectedOutcome(value=shown), True))
        if after.get("option") and after["option"].casefold() != shown.casefold():
            out.append(("value (form value)", ExpectedOutcome(value=after["option"]), True))
        if other:
            out.append(("value", ExpectedOutcome(value=other), False))
        return out
    b_url, a_url = urlsplit(before["url"]), urlsplit(after["url"])
    if (a_url.path, a_url.query) != (b_url.path, b_url.query):
        new = a_url.path.rstrip("/").rsplit("/", 1)[-1] or a_url.path
        if a_url.query:
            new = f"{new}?{a_url.query.split('&')[0]}" if new else f"?{a_url.query.split('&')[0]}"
        old = b_url.path.rstrip("/").rsplit("/", 1)[-1]
        out.append(("url", ExpectedOutcome(url_contains=new), True))
        if old and old not in after["url"]:
            out.append(("url", ExpectedOutcome(url_contains=old), False))
    page_before, page_after = words(before["text"]).casefold(), words(after["text"]).casefold()
    # Words a person sees: in the browser's rendered text and in the page's map too (a
    # screen-reader-only heading is in the first, not on screen; the map's own fidelity against
    # the browser is bench_oracle.py's to measure).
    seen_before, seen_after = words(obs_before["text"]).casefold(), words(obs_after["text"]).casefold()
    came = [x for x in lines_of(after["text"]) if x.casefold() not in page_before and x.casefold() in seen_after]
    went = [x for x in lines_of(before["text"]) if x.casefold() not in page_after and x.casefold() in seen_before]
    stayed = [x for x in lines_of(before["text"]) if x.casefold() in page_after
              and x.casefold() in seen_before and x.casefold() in seen_after]
    if came:
        out += [("text", ExpectedOutcome(text_appears=came[0]), True),
                ("no text", ExpectedOutcome(text_disappears=came[0]), False)]
    if went:
        out += [("no text", ExpectedOutcome(text_disappears=went[0]), True),
                ("text", ExpectedOutcome(text_appears=went[0]), False)]
    elif stayed and came:
        out.append(("no text", ExpectedOutcome(text_disappears=stayed[0]), False))
    el_before, el_after = elements_of(obs_before), elements_of(obs_after)
    new_el = sorted(el_after - el_before)
    gone_el = sorted(el_before - el_after)
    if new_el:
        out += [("element", ExpectedOutcome(element_appears=new_el[0]), True),
                ("no element", ExpectedOutcome(element_disappears=new_el[0]), False)]
    if gone_el:
        out += [("no element", ExpectedOutcome(element_disappears=gone_el[0]), True),
                ("element", ExpectedOutcome(element_appears=gone_el[0]), False)]
    return out


def holds_now(e: ExpectedOutcome, reading: dict[str, Any], obs: dict[str, Any]) -> bool:
    """Whether the browser's reading shows the expectation — every clause of it (a person's
    comparison); elements by heybro's whole map of the page then (`obs`), as the first run judged
    them (a role alone: an element of that role, or an open dialog of the page)."""
    text = words(reading["text"]).casefold()

    def one(kind: str, what: str) -> bool:
        if kind in ("element", "no element"):
            there = what in roles_of(obs) if role_only(what) else what in elements_of(obs)
            return there == (kind == "element")
        if kind == "url":
            return what in reading["url"]
        if kind in ("text", "no text"):
            return (words(what).casefold() in text) == (kind == "text")
        v = words(what).casefold()
        return v in (words(reading.get("value") or "").casefold(), words(reading.get("option") or "").casefold())
    return all(one(c.kind, c.what) for c in e.clauses)


# --- one application -----------------------------------------------------------------------------

async def run_page(bt: BrowserThread, env: AgentEnv, app: str, half: str, spec: Any,
                   running: Any, network_idle: bool, kept: set[str]) -> list[Result]:
    async def do(fn: Callable[[Any], Any]) -> Any:
        return await asyncio.wrap_future(bt.do(fn))

    async def fresh() -> dict[str, Any]:
        await do(lambda c: open_page(c["page"], running, spec, network_idle))
        env.page_changed()
        raw = await env.call("observe", {"max_tokens": 100_000})
        await env.adopt_observation(raw)
        return raw

    results: list[Result] = []
    try:
        first = await fresh()
    except Exception as e:  # noqa: BLE001 - the page could not be opened or read: said
        return [Result(app, half, spec.name, "open", "-", True, error=str(e).splitlines()[0][:160])]
    for a in pick_actions(first, running.url, kept):
        # 1. What the action leads to, as the browser shows it once the page is done.
        try:
            obs_before = await fresh()
            eid = find_again(obs_before, a)
            if eid is None:
                continue
            before = await do(browser_reading)
            await env.call(a.tool, {**a.args, "element_id": eid}, timeout_ms=20_000)
            env.page_changed()
            obs_now = await env.call("observe", {"max_tokens": 100_000})  # (what had come by then)
            await asyncio.sleep(SETTLED_S)
            after = await do(browser_reading)
            env.page_changed()
            obs_after = await env.call("observe", {"max_tokens": 100_000})
        except Exception as e:  # noqa: BLE001
            results.append(Result(app, half, spec.name, a.kind, "-", True, error=f"first run: {str(e).splitlines()[0][:140]}"))
            continue
        cases = expectations(a, before, after, obs_before, obs_after, obs_now)
        if not cases:
            continue
        reopened = await fresh()
        start = await do(browser_reading)
        if find_again(reopened, a) is None or (a.kind in ("toggle", "link") and any(
                holds and before_too is False and clause != "url" and holds_now(e, start, reopened)
                for clause, e, holds, before_too in cases)):
            # The application kept what the action did (a menu folded for good, a sidebar left
            # collapsed): the page no longer starts where it did; it changed the user's data
            # after all. Not measured, and not tried again on later pages.
            kept.add(a.target)
            results.append(Result(app, half, spec.name, a.kind, "-", True, error=f"{a.target}: the application kept its effect"))
            continue
        # 2. The same action again; heybro checks each expectation on the page it leaves.
        for clause, expect, holds, before_too in cases:
            r = Result(app, half, spec.name, a.kind, clause, holds, before=before_too,
                       expect=expect_words(expect))
            try:
                obs = await fresh()
                eid = find_again(obs, a)
                if eid is None:
                    r.error = "control not found again"
                    results.append(r)
                    continue
                started = time.perf_counter()
                args = {**a.args, "element_id": eid}
                if expect.needs_page():
                    args["observe_after"] = env.observe_args()
                result = await env.call(a.tool, args, timeout_ms=20_000)
                observation = result.pop("observation", None) if isinstance(result, dict) else None
                proposed_on = env.state.snapshot
                if observation is not None:
                    r.at_once = check(a.tool, expect, args, result, Snapshot.model_validate(observation)).met
                elif not expect.needs_page():
                    r.at_once = check(a.tool, expect, args, result, env.state.snapshot or Snapshot()).met
                fact, _ = await checked(env, a.tool, expect, args, result, observation,
                                        about=f"{a.tool} {a.target}", since=started, before=proposed_on)
                r.said, r.read_ms = fact.met, fact.read_ms
                r.said_before = bool(fact.parts) and all(p.before for p in fact.parts)
                rest = SETTLED_S - (time.perf_counter() - started)
                if rest > 0:
                    await asyncio.sleep(rest)
                final = await env.call("observe", {"max_tokens": 100_000}) if any(
                    c.kind.endswith("element") for c in expect.clauses) else {"elements": {}}
                r.unstable = holds_now(expect, await do(browser_reading), final) != holds
            except Exception as e:  # noqa: BLE001
                r.error = str(e).splitlines()[0][:160]
            results.append(r)
    return results


def run_app(name: str, extension: Path, pages: int) -> list[Result]:
    a = APPS[name]
    need(a)

    @contextlib.contextmanager
    def start() -> Any:
        with tempfile.TemporaryDirectory(prefix=f"heybro-expect-{name}-") as d, a.start(Path(d)) as running, \
                launch(install_host=False, extension_root=extension) as eb:
            page = eb.ctx.new_page()
            page.set_viewport_size({"width": 1280, "height": 800})
            running.login(page)
            page.bring_to_front()
            yield {"eb": eb, "page": page, "running": running}

    bt = BrowserThread(start)
    try:
        running = bt.do(lambda c: c["running"]).result()
        tab = bt.do(lambda c: c["eb"].sw.evaluate(
            "async () => (await chrome.tabs.query({active: true}))[0].id")).result()

        async def go() -> list[Result]:
            settings = config.load(env={"HEYBRO_LLM_BASE_URL": "http://127.0.0.1:9/v1", "HEYBRO_MODEL": "none"},
                                   file=Path("/nonexistent"))
            client = LLMClient(settings)  # never called: checks make no model call
            env = AgentEnv(task=Task(description="bench", url=running.url, tab_id=tab), llm=client,
                           settings=settings, browser=ThreadBrowser(bt), recorder=MemoryRecorder())
            env.state.tab_id = tab
            out: list[Result] = []
            kept: set[str] = set()
            try:
                for spec in list(running.pages())[:pages]:
                    t = time.monotonic()
                    got = await run_page(bt, env, name, a.half, spec, running, a.network_idle, kept)
                    wrong = sum(r.wrong for r in got)
                    print(f"  {name}/{spec.name}: {len([r for r in got if r.said is not None])} checks, "
                          f"{wrong} wrong, {sum(r.unstable for r in got)} unstable ({time.monotonic() - t:.0f} s)",
                          file=sys.stderr, flush=True)
                    out += got
            finally:
                await client.close()
            return out

        return asyncio.run(go())
    finally:
        bt.close()


# --- the report ----------------------------------------------------------------------------------

def expect_words(e: ExpectedOutcome) -> str:
    return "; ".join(str(c) for c in e.clauses)


def tally(rows: list[Result]) -> dict[str, int]:
    judged = [r for r in rows if r.said is not None and not r.unstable]
    held = [r for r in judged if r.holds]
    return {"checks": len(judged), "held": len(held), "not_held": len(judged) - len(held),
            "false_not_met": sum(1 for r in held if not r.said),
            "false_met": sum(1 for r in judged if not r.holds and r.said),
            "before_asked": sum(1 for r in judged if r.before is not None and r.said),
            "before_wrong": sum(1 for r in judged if r.wrong_before),
            "at_once_false_not_met": sum(1 for r in held if r.at_once is False),
            "unstable": sum(1 for r in rows if r.unstable), "errors": sum(1 for r in rows if r.error)}


def markdown(rows: list[Result], cmd: str) -> str:
    lines = ["## Expectation checks against the browser: real applications (`scripts/bench_expect.py`)", "",
             f"    {cmd}", "", f"Machine: {machine()}.", "",
             "On each page, controls a person uses without changing data (a select, a text field, a link to "
             "another page of the site, a button that opens or closes part of the page) are acted on through "
             "heybro's tools; the browser says what each action led to (read 4 s later with Playwright: address, "
             "visible text, the control's value; heybro's map for elements), and heybro's check (agent/settle.py) "
             "is asked, on the same action done again, about expectations of each kind that the browser showed to "
             "hold and not to. False NOT met: a check that held, said not to; false met: one that did not hold, said "
             "to — target 0 of each. Beyond one clause of each kind: two clauses of one kind in one expectation "
             "(*two texts*), a text already on the page before the action and one that came with it (heybro "
             "must say which held *before* — *before wrong* counts a met check it got wrong either way), a role "
             "alone (`element:menu`: brought, taken away, never there), a text that came only once the page had "
             "loaded its content (*loading*: `no text:` of it must not be met while it loads), and fields that "
             "speak of a password, a PIN or a code without being one (*fill (about a secret)*: their value is "
             "read like any other). *At once*: how many checks that held would have been said NOT met read "
             "right after the action, without the settling wait. Unstable: the truth changed between the two "
             "runs (not counted).", ""]
    head = ("| application | checks (held / not) | false NOT met | false met | before wrong | NOT met if read at once | "
            "unstable | errors |\n|---|---|---|---|---|---|---|---|")
    for half, title in (("heldout", "Held-out half (never tuned on)"), ("tune", "Tune half")):
        part = [r for r in rows if r.half == half]
        if not part:
            continue
        lines += [f"### {title}", "", head]
        for app in sorted({r.app for r in part}):
            t = tally([r for r in part if r.app == app])
            lines.append(f"| {app} | {t['checks']} ({t['held']} / {t['not_held']}) | {t['false_not_met']} | {t['false_met']} | "
                         f"{t['before_wrong']}/{t['before_asked']} | {t['at_once_false_not_met']} | {t['unstable']} | {t['errors']} |")
        t = tally(part)
        lines.append(f"| **total** | {t['checks']} ({t['held']} / {t['not_held']}) | **{t['false_not_met']}** | **{t['false_met']}** | "
                     f"**{t['before_wrong']}**/{t['before_asked']} | {t['at_once_false_not_met']} | {t['unstable']} | {t['errors']} |")
        by_kind: dict[tuple[str, str], list[Result]] = defaultdict(list)
        for r in part:
            if r.said is not None and not r.unstable:
                by_kind[(r.action, r.clause)].append(r)
        lines += ["", "By action and clause (held: said met / total; not held: said NOT met / total):", "",
                  "| action | clause | held | not held |", "|---|---|---|---|"]
        for (act, clause), rs in sorted(by_kind.items()):
            h = [r for r in rs if r.holds]
            n = [r for r in rs if not r.holds]
            lines.append(f"| {act} | {clause} | {sum(r.said for r in h)}/{len(h)} | {sum(not r.said for r in n)}/{len(n)} |")
        wrong = [r for r in part if r.wrong or r.wrong_before]
        if wrong:
            lines += ["", "Wrong answers:"]
            lines += [f"- `{r.app}/{r.page}` {r.action} {r.expect}: held={r.holds}"
                      + (f" (before: {r.before})" if r.before is not None else "")
                      + f", heybro said {'met' if r.said else 'NOT met'}"
                      + (f" (before: {r.said_before})" if r.wrong_before else "") for r in wrong[:15]]
        lines.append("")
    judged = {(r.action, r.clause) for r in rows if r.said is not None}
    none = [what for what, seen in (
        ("a field that speaks of a password, a PIN or a code without being one",
         any(a == "fill (about a secret)" for a, _ in judged)),
        ("a text that came only once the page had loaded its content",
         any(c.endswith("(loading)") for _, c in judged))) if not seen]
    if none:
        lines += [f"No instance on these pages of {' nor of '.join(none)}: those cases are held by the "
                  "tests (tests/test_page_map_trust.py, tests/test_expect_clauses.py) until a page of "
                  "the corpus has one.", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--apps", nargs="*", help="only these applications (default: every installed one)")
    ap.add_argument("--half", choices=["tune", "heldout"])
    ap.add_argument("--pages", type=int, default=6, help="pages per application (default 6)")
    ap.add_argument("--write", action="store_true", help="write the section of BENCHMARKS.md")
    ap.add_argument("--out", help="write every check as JSON here")
    ns = ap.parse_args()
    names = ns.apps or [n for n, a in APPS.items() if not ns.half or a.half == ns.half]
    rows: list[Result] = over_corpus(names, lambda name, ext: run_app(name, ext, ns.pages))
    if ns.out:
        Path(ns.out).write_text(json.dumps([r.__dict__ for r in rows], indent=1))
    for half in ("heldout", "tune"):
        part = [r for r in rows if r.half == half]
        if part:
            t = tally(part)
            print(f"{half}: {t['checks']} checks; false NOT met {t['false_not_met']}, false met {t['false_met']}; "
                  f"before wrong {t['before_wrong']}/{t['before_asked']}; at once {t['at_once_false_not_met']}; "
                  f"unstable {t['unstable']}; errors {t['errors']}")
    if ns.write:
        cmd = ".venv/bin/python scripts/bench_expect.py --write" + (f" --apps {' '.join(ns.apps)}" if ns.apps else "") + \
            (f" --pages {ns.pages}" if ns.pages != 6 else "")
        write_section("bench_expect", markdown(rows, cmd))


if __name__ == "__main__":
    main()
