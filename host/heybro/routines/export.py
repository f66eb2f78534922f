"""A routine as a readable Playwright for Python test (pytest-playwright).

Each step finds its element with Playwright's own locators, chosen from the recorded signature
best first: an explicit test id (a contract the page's authors keep), then the role and accessible
name a person sees, the label, the placeholder, the visible text, and only then CSS (a stable id
or the field's name). Expectations become `expect(…)` assertions after their step, and each
subtask's declared outcome is asserted where the subtask ends. Parameters are the function's
arguments with the recorded values as defaults; secrets are read from the environment
(`HEYBRO_SECRET_<NAME>`), never written into the file. `pytest --base-url URL` runs the test
against another server (a staging copy): the recorded start page's path is opened there.
"""

from __future__ import annotations

import keyword
import re
from typing import Any

from ..agent.models import ExpectedOutcome
from ..tool_def.playwright_forms import ROLES, Exported
from ..agent.signature import attrs_of
from ..agent.toolbox import definition
from .model import PLACEHOLDER, Routine, Step

SECRET = re.compile(r"\{\{secret:([A-Za-z0-9_.-]+)\}\}")
TOKEN = re.compile(rf"{PLACEHOLDER.pattern}|{SECRET.pattern}")
# Playwright's get_by_test_id reads data-testid; the other test-id attributes go by CSS.
TEST_IDS = ("data-testid", "data-test-id", "data-test", "data-qa", "data-cy")
RESERVED = {"page", "start_url", "expect", "re", "os", "urljoin", "urlsplit"}
NAME_EXACT = 60  # names longer than this were likely cut by the page map: matched by their start
GENERATED_ID = re.compile(r"\d{3,}|^[a-f0-9]{8,}$|[:]|^(ember|react|radix|mui|headlessui)", re.I)


def identifier(name: str) -> str:
    out = re.sub(r"\W+", "_", name).strip("_").lower() or "routine"
    out = out if out[0].isalpha() else f"routine_{out}"
    return f"{out}_" if keyword.iskeyword(out) or out in RESERVED else out


def _q(text: str) -> str:
    """A Python string literal."""
    return repr(text)


def value_expr(value: Any, params: dict[str, str]) -> str:
    """The Python expression for a recorded argument: a literal, a parameter, a secret, or
    their concatenation (`"Dear " + full_name`)."""
    if not isinstance(value, str):
        return repr(value)
    parts: list[str] = []
    at = 0
    for m in TOKEN.finditer(value):
        if m.start() > at:
            parts.append(_q(value[at:m.start()]))
        parts.append(params.get(m.group(1), _q(m.group(0))) if m.group(1)
                     else f"secret({_q(m.group(2))})")
        at = m.end()
    if at < len(value) or not parts:
        parts.append(_q(value[at:]))
    return " + ".join(parts)


def locator(sig: dict[str, Any] | None) -> str | None:
    """The Playwright locator for a recorded signature, best first; None without one."""
    if not sig:
        return None
    attrs = attrs_of(sig)
    name = " ".join(str(sig.get("name") or "").split())
    role = str(sig.get("role") or "")
    label = " ".join(str(sig.get("label") or "").split())
    text = " ".join(str(sig.get("text") or "").split())
    found: str | None = None
    for attr in TEST_IDS:
        if attrs.get(attr):
            found = (f"page.get_by_test_id({_q(attrs[attr])})" if attr == "data-testid"
                     else f"page.locator({_q(f'[{attr}={_css_str(attrs[attr])}]')})")
            break
    if found is None and role in ROLES and name:
        found = f"page.get_by_role({_q(role)}, name={_name(name)})"
    elif found is None and label:
        found = f"page.get_by_label({_name(label)})"
    elif found is None and attrs.get("placeholder"):
        found = f"page.get_by_placeholder({_name(str(attrs['placeholder']))})"
    elif found is None and text and sig.get("tag") not in ("input", "select", "textarea"):
        found = f"page.get_by_text({_name(text)})"
    elif found is None:
        found = f"page.locator({_q(_css(sig))})"
    twins = sig.get("twins")
    if isinstance(twins, dict) and int(twins.get("n") or 1) > 1:
        found += f".nth({int(twins.get('k') or 0)})"  # lookalikes: the one recorded, by place
    return found


def _name(text: str) -> str:
    if len(text) <= NAME_EXACT:
        return f"{_q(text)}, exact=True"
    return _q(text[:NAME_EXACT].rsplit(" ", 1)[0])


def _css_str(value: Any) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _css(sig: dict[str, Any]) -> str:
    attrs = attrs_of(sig)
    tag = str(sig.get("tag") or "*")
    if attrs.get("id") and not GENERATED_ID.search(str(attrs["id"])):
        return f"{tag}[id={_css_str(attrs['id'])}]"
    for attr in ("name", "aria-label", "title", "href", "alt", "type"):
        if attrs.get(attr):
            return f"{tag}[{attr}={_css_str(attrs[attr])}]"
    return tag


def _element(description: str, params: dict[str, str]) -> str:
    """An expectation's element (`button "Place order"`, or a bare name) as a locator."""
    m = re.fullmatch(r'\s*(\w+)\s+"(.+)"\s*', description)
    if not m and description.strip().lower() in ROLES:  # a role alone (element:dialog)
        return f"page.get_by_role({_q(description.strip().lower())})"
    if m and m.group(1).lower() in ROLES:
        return (f"page.get_by_role({_q(m.group(1).lower())}, "
                f"name={value_expr(m.group(2), params)})")
    return f"page.get_by_text({value_expr(description.strip().strip(chr(34)), params)})"


def assertions(expect: ExpectedOutcome, target: str | None, params: dict[str, str]) -> list[str]:
    """`expect(…)` lines for an expectation, one per clause (`target`: the acted-on element, for
    its value)."""
    v = lambda s: value_expr(s, params)  # noqa: E731 - short and local
    out = []
    for c in expect.clauses:
        if c.kind == "url":
            out.append(f"expect(page).to_have_url(re.compile(re.escape({v(c.what)})))")
        elif c.kind == "text":
            out.append(f"expect(page.get_by_text({v(c.what)}).first).to_be_visible()")
        elif c.kind == "no text":
            out.append(f"expect(page.get_by_text({v(c.what)}).filter(visible=True)).to_have_count(0)")
        elif c.kind == "element":
            out.append(f"expect({_element(c.what, params)}.first).to_be_visible()")
        elif c.kind == "no element":
            out.append(f"expect({_element(c.what, params)}.filter(visible=True)).to_have_count(0)")
        elif c.kind == "value" and target is not None:
            out.append(f"expect({target}).to_have_value(re.compile('^' + re.escape({v(c.what)}) + '$', "
                       "re.IGNORECASE))")
    return out


def action(step: Step, target: str | None, params: dict[str, str]) -> list[str]:
    """The Playwright call(s) doing what the step did (its tool's definition says how)."""
    tool = definition(step.tool)
    if tool is None or tool.playwright is None:
        return [f"# {step.tool}({step.args}): no Playwright equivalent; done by hand in the recording"]
    to = step.args.get("to_signature")
    return tool.playwright(Exported(step.args, target, lambda s: value_expr(s, params),
                                    locator(to) if isinstance(to, dict) else None))


def _docstring(text: str) -> str:
    return '"""' + text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') + '"""'


def script(routine: Routine) -> str:
    """The routine as a Python module: one function doing it, one pytest test calling it."""
    fn = identifier(routine.name)
    params = {p.name: identifier(p.name) for p in routine.parameters}
    secrets = sorted({m.group(1) for s in routine.steps for m in SECRET.finditer(str(s.args))})
    goal = PLACEHOLDER.sub(lambda m: "{" + params.get(m.group(1), m.group(1)) + "}", routine.goal)
    args = "".join(f", {params[p.name]}: str = {_q(p.default)}" for p in routine.parameters)
    lines = [
        _docstring(f"Routine {routine.name!r}, exported by heybro"
                   + (f" from task {routine.source_task}" if routine.source_task else "")
                   + f".\n\nGoal: {goal}\n\nRun it with pytest (pytest-playwright): "
                   "`pytest THIS_FILE`; `--base-url URL` runs it against\nanother server."
                   + ("\nSecrets come from the environment: "
                      + ", ".join(f"HEYBRO_SECRET_{s.upper()}" for s in secrets) if secrets
                      else "") + "\n"),
        "",
        "from __future__ import annotations",
        "",
        *(["import os"] if secrets else []),
        "import re",
        "from urllib.parse import urljoin, urlsplit",
        "",
        "from playwright.sync_api import Page, expect",
        "",
        f"START_URL = {_q(routine.start_url or '')}",
        "",
    ]
    if secrets:
        lines += ["", "def secret(name: str) -> str:",
                  "    value = os.environ.get(f\"HEYBRO_SECRET_{name.upper()}\")",
                  "    if value is None:",
                  "        raise RuntimeError("
                  "f\"set HEYBRO_SECRET_{name.upper()} to run this test\")",
                  "    return value", ""]
    lines += ["", f"def {fn}(page: Page{args}, start_url: str = START_URL) -> None:",
              f"    {_docstring(goal)}",
              "    if start_url:",
              "        page.goto(start_url)"]
    lines += _body(routine, params)
    lines += ["", "",
              f"def test_{fn}(page: Page, base_url: str | None) -> None:",
              "    parts = urlsplit(START_URL)",
              "    path = parts.path + (f\"?{parts.query}\" if parts.query else \"\")",
              f"    {fn}(page, start_url=urljoin(base_url, path) if base_url else START_URL)",
              ""]
    return "\n".join(lines)


def _body(routine: Routine, params: dict[str, str]) -> list[str]:
    out: list[str] = []
    subtask = -1
    for i, step in enumerate(routine.steps):
        if step.subtask != subtask:
            subtask = step.subtask
            if subtask < len(routine.subtasks):
                text = PLACEHOLDER.sub(lambda m: "{" + params.get(m.group(1), m.group(1)) + "}",
                                       routine.subtasks[subtask].text)
                out += ["", f"    # {subtask + 1}. {text}"]
        target = locator(step.signature)
        checked: list[str] = []
        out.append(f"    # {' '.join(PLACEHOLDER.sub(lambda m: m.group(1), step.intent).split())}")
        out += [f"    {line}" for line in action(step, target, params)]
        if step.expect is not None:
            checked = assertions(step.expect, target, params)
            out += [f"    {line}" for line in checked]
        last_of_subtask = i + 1 == len(routine.steps) or routine.steps[i + 1].subtask != subtask
        if last_of_subtask and subtask < len(routine.subtasks):
            outcome = routine.subtasks[subtask]
            more = [x for x in (assertions(outcome.done_when, None, params)
                                if outcome.done_when is not None else []) if x not in checked]
            if more:
                out.append("    # the subtask's outcome, as verified when it was recorded")
                out += [f"    {line}" for line in more]
    return out
