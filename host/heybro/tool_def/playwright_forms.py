"""How each page tool is written as Playwright for Python, for a routine's export: a field of the
tool's definition (`RoleTool.playwright`), so a new tool says its own form — by name in its
declaration (shared_schema PageTool.playwright): a form of this module's own, else the element's
Locator method of that name (`form_of`). A form is given the
step's recorded arguments, the locator of its element (None: the focused one) and a way to write
an argument as a Python expression (a literal, a parameter, a secret)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Roles Playwright's get_by_role takes that say what an element is (not a generic box).
ROLES = {"alert", "button", "checkbox", "columnheader", "combobox", "dialog", "gridcell",
         "heading", "img", "link", "listbox", "listitem", "menuitem", "menuitemcheckbox",
         "menuitemradio", "option", "radio", "row", "rowheader", "searchbox", "slider",
         "spinbutton", "switch", "tab", "textbox", "treeitem"}


@dataclass(frozen=True)
class Exported:
    """One recorded step as an export form reads it."""
    args: dict[str, Any]
    target: str | None  # the element's locator; None: the step acted on the focused element
    value: Callable[[Any], str]  # a recorded argument as a Python expression
    to: str | None = None  # where the step ended (a drag's drop), as a locator

    @property
    def element(self) -> str:
        return self.target or "page.locator(':focus')"


Form = Callable[[Exported], list[str]]


def method(name: str, arg: str | None = None, note: str = "") -> Form:
    """`<element>.<name>(<arg>)`: the element's own Playwright method."""
    def form(s: Exported) -> list[str]:
        return [f"{s.element}.{name}({s.value(s.args.get(arg, '')) if arg else ''}){note}"]
    return form


# The forms written here, by their names (a declaration names one).
OWN: dict[str, Form] = {}


def own(form: Form) -> Form:
    OWN[form.__name__] = form
    return form


def form_of(name: str, arg: str | None = None) -> Form:
    """The form a declaration names: this module's own, else `<element>.<name>(<arg>)`."""
    return OWN.get(name) or method(name, arg)


@own
def press(s: Exported) -> list[str]:
    keys = s.value(s.args.get("keys", ""))
    return [f"{s.target}.press({keys})" if s.target else f"page.keyboard.press({keys})"]


@own
def scroll(s: Exported) -> list[str]:
    a = s.args
    if a.get("direction") is None and s.target:
        return [f"{s.target}.scroll_into_view_if_needed()"]
    dy = {"up": -1, "down": 1, "top": -100, "bottom": 100}.get(a.get("direction", ""), 0)
    dx = {"left": -1, "right": 1}.get(a.get("direction", ""), 0)
    screens = float(a.get("amount") or 0.8)
    return [f"page.mouse.wheel({int(dx * screens * 800)}, {int(dy * screens * 800)})"]


@own
def context_click(s: Exported) -> list[str]:
    return [f"{s.element}.click(button='right'{_at(s)})"]


@own
def double_click_at(s: Exported) -> list[str]:
    return [f"{s.element}.dblclick({_at(s).lstrip(', ')})"]


@own
def drag_to(s: Exported) -> list[str]:
    """The element dragged onto the one it was dropped on (at the point of it the step gave)."""
    if s.to is None:
        return [f"# drag({s.args}): where it was dropped was not recorded; done by hand"]
    x, y = s.args.get("x"), s.args.get("y")
    at = "" if x is None or y is None else (
        f", target_position={{'x': {s.to}.bounding_box()['width'] * {float(x)!r}, "
        f"'y': {s.to}.bounding_box()['height'] * {float(y)!r}}}")
    return [f"{s.element}.drag_to({s.to}{at})"]


# The first place an element's text holds the words, selected (extension: dom_input.selectWords).
SELECT_WORDS = (
    "(el, w) => { const re = new RegExp(w.trim().split(/\\s+/).map((s) => s.replace("
    "/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&')).join('\\\\s+'));"
    " if (typeof el.setSelectionRange === 'function' && typeof el.value === 'string') {"
    " const m = re.exec(el.value); if (!m) throw new Error('not found: ' + w); el.focus();"
    " el.setSelectionRange(m.index, m.index + m[0].length); return m[0]; }"
    " const nodes = [], tw = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);"
    " for (let n = tw.nextNode(); n; n = tw.nextNode()) nodes.push(n);"
    " const m = re.exec(nodes.map((n) => n.nodeValue).join('')); if (!m) throw new Error('not found: ' + w);"
    " const place = (at, end) => { let s = 0; for (const n of nodes) { const l = n.nodeValue.length;"
    " if (end ? at <= s + l : at < s + l) return [n, at - s]; s += l; } };"
    " const ed = el.closest('[contenteditable]'); if (ed) ed.focus();"
    " const r = document.createRange(); r.setStart(...place(m.index, false));"
    " r.setEnd(...place(m.index + m[0].length, true)); const sel = document.getSelection();"
    " sel.removeAllRanges(); sel.addRange(r); return m[0]; }")


@own
def select_text(s: Exported) -> list[str]:
    return [f"{s.element}.evaluate({SELECT_WORDS!r}, {s.value(s.args.get('text', ''))})"]


@own
def click_with(s: Exported) -> list[str]:
    """A click, with the keys held and the point inside the element when the step gave them."""
    mods = s.args.get("modifiers") or []
    return [f"{s.element}.click({', '.join(filter(None, [f'modifiers={mods!r}' if mods else '', _at(s).lstrip(', ')]))})"]


def _at(s: Exported) -> str:
    """A point given as fractions of the element's box, as Playwright's `position` (pixels)."""
    x, y = s.args.get("x"), s.args.get("y")
    if x is None or y is None:
        return ""
    box = f"{s.element}.bounding_box()"
    return f", position={{'x': {box}['width'] * {float(x)!r}, 'y': {box}['height'] * {float(y)!r}}}"


@own
def goto(s: Exported) -> list[str]:
    return [f"page.goto({s.value(s.args.get('url', ''))})"]


@own
def new_tab(s: Exported) -> list[str]:
    return ["page = page.context.new_page()", *goto(s)]


@own
def newest_tab(s: Exported) -> list[str]:
    return ["page = page.context.pages[-1]  # the tab the task switched to (the newest)"]


@own
def close_page(s: Exported) -> list[str]:
    return ["page.close()", "page = page.context.pages[-1]  # the task's tab it works in after"]


@own
def go_back(s: Exported) -> list[str]:
    return ["page.go_back()"]


@own
def wait_for(s: Exported) -> list[str]:
    a, v = s.args, s.value
    state = "to_be_hidden" if a.get("gone") else "to_be_visible"
    ms = int(float(a.get("seconds") or 5) * 1000)
    if a.get("url_contains"):
        return [f"expect(page).to_have_url(re.compile(re.escape({v(a['url_contains'])})), "
                f"timeout={ms})"]
    if s.target:
        what = s.target
    elif a.get("text"):
        what = f"page.get_by_text({v(a['text'])}).first"
    elif a.get("role") in ROLES:
        what = (f"page.get_by_role({a['role']!r}"
                + (f", name={v(a['name'])}" if a.get("name") else "") + ").first")
    else:
        what = f"page.get_by_text({v(a.get('name', ''))}).first"
    return [f"expect({what}).{state}(timeout={ms})"]
