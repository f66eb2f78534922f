"""The browser as the judge of heybro's page map: no hand-made lists, so it runs on any page.

For one page open in Chromium with the extension loaded, `judge(eb, page)` takes heybro's map as
the model gets it (the real `observe` through the coordinator, every element, no token budget) and
holds it against what Chrome itself says of the page:

- Chrome's accessibility tree (`Accessibility.getFullAXTree`): which nodes are controls (their
  roles), their computed names, which are ignored or disabled;
- hit testing (`DOM.getNodeForLocation`) at the visible points of each control, scrolled into view
  (`DOM.scrollIntoViewIfNeeded`): whether a person's pointer can reach it at all.

What it reports:
- recall: the visible, reachable controls of the tree that the map lists (the control itself, the
  element wrapping only it, the part inside it that heybro lists in its place, or its label);
- false operable: elements the map lists as controls that no pointer can reach (hidden, clipped,
  covered, off-canvas, zero-size) — disabled ones excepted (the map says they are disabled);
- name agreement: where Chrome gives a control a name, whether the map's name is that name;
- wrong covers: controls the map left out as covered that a pointer does reach;
- tables whose headers are lost: a visible table with column headers whose data rows the map shows
  without them.

The content script's own world (which no page can reach) lets the oracle map each element id of
the map to its DOM node (`globalThis.__heybroAgent`, see extension/content/agent.js).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

# Roles Chrome gives to things a person operates (CDP's AX role names).
OPERABLE_ROLES = {
    "button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "option",
    "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "switch", "slider", "spinbutton",
    "treeitem", "DisclosureTriangle", "ToggleButton", "PopUpButton", "ColorWell", "ListBoxOption",
    "date", "InputTime", "DateTime", "textField", "SearchBox",
}
# Sample points within a box (fractions of its width and height): the middle, the quarters, then
# inset corners — every point heybro's own judge tries among them (dom_roots.js SAMPLE_POINTS), so
# "listed, yet no pointer reaches it" is never a point the judge did not try; and none nearer an
# edge than those, so "left out" is never a sliver of a few pixels beside what covers the rest.
POINTS = [(0.5, 0.5), (0.25, 0.5), (0.75, 0.5), (0.5, 0.25), (0.5, 0.75),
          (0.2, 0.2), (0.8, 0.8), (0.2, 0.8), (0.8, 0.2)]
EDGE_INSET_PX = 8  # a strip of a control narrower than this by its edge is a sliver, no control a person sees


def _points(w: float, h: float) -> list[tuple[float, float]]:
    """POINTS, then each edge's middle EDGE_INSET_PX inside it (a label showing a strip beside a
    floating window is reached there) where that is nearer the edge than the corners' points."""
    fx, fy = EDGE_INSET_PX / w, EDGE_INSET_PX / h
    return [*POINTS, *([(fx, 0.5), (1 - fx, 0.5)] if fx < 0.2 else []), *([(0.5, fy), (0.5, 1 - fy)] if fy < 0.2 else [])]
# A node's parent as it is drawn, in the page's scripts: a host's child → the slot it is drawn in.
COMPOSED_PARENT = "(n) => n.assignedSlot || n.parentNode || n.host || null"
WORD = re.compile(r"[\w']+", re.U)


# Icon-font glyphs (Unicode's private use areas): a person sees a picture, not a word.
GLYPHS = re.compile("[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")


def norm(s: str | None) -> str:
    # (A zero-width space is no word: an empty link's name of one is no name.)
    return re.sub(r"[\s\u200b\u2060]+", " ", GLYPHS.sub(" ", s or "")).strip().lower()


def says_words(s: str) -> bool:
    """Whether a name has words a person reads (not only signs: "›", "+", an icon's glyph)."""
    return bool(re.search(r"[^\W_]", norm(s)))


def words(s: str) -> list[str]:
    return WORD.findall(norm(s))


def names_agree(ax: str, ours: str, signs: str = "") -> bool:
    """The map's name is the browser's: the same words (case, spacing and icon glyphs aside), or one
    cut short of the other (the map cuts names at 80 characters). A name of signs only ("›", "+")
    agrees with the same signs shown before a guess (`[e4] link › ~"next"`)."""
    if not says_words(ax) and signs and norm(signs) == norm(ax):
        return True
    a, o = norm(ax), norm(ours)
    if not a:
        return True
    if not o:
        return False
    if a == o or words(a) == words(o):
        return True
    shorter, longer = sorted((" ".join(words(a)), " ".join(words(o))), key=len)
    return len(shorter) >= 30 and longer.startswith(shorter)


@dataclass
class Control:
    """A control of the accessibility tree."""

    backend: int
    role: str
    name: str
    reachable: bool = False
    listed_as: str | None = None  # the map's id that stands for it
    disabled: bool = False


@dataclass
class Verdict:
    """What the oracle found on one page."""

    url: str
    map_ok: bool
    error: str = ""
    tokens: int = 0
    unreadable: int = 0
    controls: int = 0          # visible, reachable controls of the accessibility tree
    found: int = 0             # … that the map lists
    missed: list[str] = field(default_factory=list)
    listed: int = 0            # elements the map lists (disabled ones excepted)
    false_operable: list[str] = field(default_factory=list)
    named: int = 0             # listed controls that Chrome names
    agree: int = 0
    disagree: list[str] = field(default_factory=list)
    covered: int = 0           # controls the map left out as covered
    wrong_covers: list[str] = field(default_factory=list)
    tables: int = 0            # visible tables with column headers and data rows shown
    tables_lost: list[str] = field(default_factory=list)
    cross_origin_ids: int = 0  # ids of other-origin frames (read by their own agents): not judged
    replaced: int = 0          # listed elements the page took out, redrew or hid while they were judged: not judged

    def as_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


class _Dom:
    """The page's DOM as CDP sees it (every shadow root and same-origin frame): parents, names,
    attributes, by backend node id."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.parent: dict[int, int] = {}
        self.tag: dict[int, str] = {}
        self.attrs: dict[int, dict[str, str]] = {}
        self.label_for: dict[str, list[int]] = {}
        self.slot: dict[int, int] = {}  # a shadow host's child → the slot it is drawn in
        stack = [(root, 0)]
        while stack:
            node, parent = stack.pop()
            b = node["backendNodeId"]
            if parent:
                self.parent[b] = parent
            self.tag[b] = (node.get("localName") or node.get("nodeName") or "").lower()
            if node.get("assignedSlot"):
                self.slot[b] = int(node["assignedSlot"]["backendNodeId"])
            a = node.get("attributes") or []
            self.attrs[b] = dict(zip(a[::2], a[1::2], strict=False))
            if self.tag[b] == "label" and self.attrs[b].get("for"):
                self.label_for.setdefault(self.attrs[b]["for"], []).append(b)
            for key in ("children", "shadowRoots", "pseudoElements"):
                for c in node.get(key) or []:
                    stack.append((c, b))
            for key in ("contentDocument", "templateContent"):
                if node.get(key):
                    stack.append((node[key], b))

    def ancestors(self, b: int) -> list[int]:
        out = []
        while b in self.parent:
            b = self.parent[b]
            out.append(b)
        return out

    def inside(self, b: int, container: int) -> bool:
        """Whether b is drawn inside container: up the composed tree, a host's child through the
        slot it is drawn in (an icon given to a toolkit's button sits inside its inner <button>)."""
        for _ in range(200):
            if b == container:
                return True
            nxt = self.slot.get(b) or self.parent.get(b)
            if nxt is None:
                return False
            b = nxt
        return False


class _Session:
    """CDP calls for one page."""

    def __init__(self, eb: Any, page: Any) -> None:
        self.page = page
        self.cdp = eb.ctx.new_cdp_session(page)
        self.contexts: list[dict[str, Any]] = []
        self.cdp.on("Runtime.executionContextCreated", lambda e: self.contexts.append(e["context"]))
        self.cdp.send("Runtime.enable")
        self.cdp.send("DOM.enable")
        self.cdp.send("Accessibility.enable")
        self.main_frame = self.cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]

    def send(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return self.cdp.send(method, params or {})

    def heybro_world(self) -> int:
        for _ in range(20):
            for c in self.contexts:
                aux = c.get("auxData") or {}
                if aux.get("type") == "isolated" and aux.get("frameId") == self.main_frame and c["name"] == "heybro":
                    return int(c["id"])
            self.page.wait_for_timeout(50)
        raise RuntimeError("the content script's world was not found")

    def viewport(self) -> tuple[float, float]:
        m = self.send("Page.getLayoutMetrics")["cssLayoutViewport"]
        return float(m["clientWidth"]), float(m["clientHeight"])

    def scrolled(self) -> tuple[float, float]:
        """How far the page is scrolled: getNodeForLocation takes the document's coordinates."""
        m = self.send("Page.getLayoutMetrics")["cssVisualViewport"]
        return float(m["pageX"]), float(m["pageY"])

    def quads(self, backend: int) -> list[list[float]]:
        """Where the element is drawn: its content's boxes, or its border box where those have no
        size (a link whose only text is a zero-width space, drawn by its padding and background)."""
        try:
            quads = list(self.send("DOM.getContentQuads", {"backendNodeId": backend})["quads"])
        except Exception:  # not rendered
            return []
        if any(_box(q)[2] - _box(q)[0] >= 1 and _box(q)[3] - _box(q)[1] >= 1 for q in quads):
            return quads
        try:
            return [list(self.send("DOM.getBoxModel", {"backendNodeId": backend})["model"]["border"])]
        except Exception:
            return quads

    def hit(self, x: float, y: float) -> int | None:
        """The node a pointer at (x, y) of the document (not the viewport) lands on."""
        try:
            r = self.send("DOM.getNodeForLocation", {"x": int(x), "y": int(y), "includeUserAgentShadowDOM": True,
                                                      "ignorePointerEventsNone": False})
            return int(r["backendNodeId"])
        except Exception:
            return None

    def object_of(self, backend: int, world: int) -> str:
        """The live element of a backend node, in a script world, to call functions on."""
        return str(self.send("DOM.resolveNode", {"backendNodeId": backend, "executionContextId": world})["object"]["objectId"])

    def ask(self, backend: int, world: int, function: str, *args: dict[str, Any]) -> bool:
        """What a function called on the live element answers (false when it cannot be asked)."""
        try:
            r = self.send("Runtime.callFunctionOn", {"objectId": self.object_of(backend, world), "arguments": list(args),
                                                     "returnByValue": True, "functionDeclaration": function})
            return bool(r["result"].get("value"))
        except Exception:
            return False

    def connected(self, backend: int, world: int) -> bool:
        """Whether the element is still in the page."""
        return self.ask(backend, world, "function () { return this.isConnected; }")

    def transparent(self, backend: int, world: int) -> bool:
        """Whether the element is drawn fully transparent (its opacity, times that of everything
        it is drawn in — the composed tree, a slotted child inside its slot's wrappers — is nil): a
        pointer finds it, no eye does."""
        return self.ask(backend, world, """
            function () {
                let o = 1;
                const up = """ + COMPOSED_PARENT + """;
                for (let n = this; n; n = up(n)) {
                    if (n.nodeType === 1) o *= Number(getComputedStyle(n).opacity);
                }
                return o < 0.05;
            }""")

    def live_inside(self, hit: int, targets: set[int], world: int) -> bool:
        """Whether a hit node is (in) one of the targets, asked of the live page (a node the DOM
        snapshot does not know was made after it: a re-render)."""
        try:
            args = [{"objectId": self.object_of(t, world)} for t in targets]
        except Exception:
            return False
        return self.ask(hit, world, f"""
            function (...targets) {{
                const up = {COMPOSED_PARENT};
                for (let n = this; n; n = up(n)) if (targets.includes(n)) return true;
                return false;
            }}""", *args)

    def close(self) -> None:
        try:
            self.cdp.detach()
        except Exception:
            pass


def _inward(v: float, f: float) -> int:
    """A point's whole-pixel coordinate (the browser's hit test takes whole pixels), rounded away
    from the nearer edge: never nearer it than the point a judge tries (a menu's edge half a pixel
    past the 8-px strip of a toolbar button beside it)."""
    return math.ceil(v) if f < 0.5 else math.floor(v) if f > 0.5 else int(v)


def _outward(v: float, f: float) -> int:
    """The other whole pixel of a point: rounded toward the nearer edge."""
    return math.floor(v) if f < 0.5 else math.ceil(v) if f > 0.5 else int(v)


def _box(quad: list[float]) -> tuple[float, float, float, float]:
    xs, ys = quad[0::2], quad[1::2]
    return min(xs), min(ys), max(xs), max(ys)


# Scrolls an element into view as a person can: only boxes a person scrolls move (a box whose
# overflow is hidden or clipped — an application's shell — is put back where it was; the window
# too when its page is cut off), though a script's scrollIntoView moves them all.
SCROLL_AS_A_PERSON = """function (block, inline) {
    const kept = [], up = """ + COMPOSED_PARENT + """;
    // (Each way on its own: a box that cuts off what overflows sideways may scroll up and down.)
    const scrolls = (n, axis) => /(auto|scroll|overlay)/.test(getComputedStyle(n)[axis]);
    for (let n = up(this); n; n = up(n)) {
        if (n.nodeType !== 1 || n === document.documentElement || n === document.body) continue;
        kept.push([n, !scrolls(n, "overflowY"), !scrolls(n, "overflowX"), n.scrollTop, n.scrollLeft]);
    }
    const root = document.scrollingElement || document.documentElement;
    const cut = (axis) => [document.documentElement, document.body].some((n) => n && /(hidden|clip)/.test(getComputedStyle(n)[axis]));
    kept.push([root, cut("overflowY"), cut("overflowX"), root.scrollTop, root.scrollLeft]);
    // (At once: a page's smooth scrolling would leave it where it was for a while.)
    this.scrollIntoView({block, inline, behavior: "instant"});
    for (const [n, y, x, t, l] of kept) if ((y && n.scrollTop !== t) || (x && n.scrollLeft !== l)) n.scrollTo({top: y ? t : n.scrollTop, left: x ? l : n.scrollLeft, behavior: "instant"});
}"""

# Scrolls, as a person does, the box beside a box that cuts off what it holds though it holds more
# than it shows — a box the page's script moves with another (a grid's header row following its
# rows sideways, a frozen column following them up and down): the box of the same extent on that
# axis, near it, that a person scrolls, by as much as the element lies outside the cut box. The
# cut box itself is left to the page. Answers whether such a box was scrolled.
SCROLL_BESIDE = """function () {
    const up = """ + COMPOSED_PARENT + """, r = this.getBoundingClientRect();
    let cut = null, axis = "", by = 0;
    for (let n = up(this); n && !cut; n = up(n)) {
        if (n.nodeType !== 1 || n === document.documentElement || n === document.body) continue;
        const s = getComputedStyle(n), b = n.getBoundingClientRect();
        if (/(hidden|clip)/.test(s.overflowX) && n.scrollWidth > n.clientWidth + 1) {
            const end = b.left + n.clientWidth;
            by = r.right > end ? r.right - end : r.left < b.left ? r.left - b.left : 0;
            if (by) { cut = n; axis = "X"; continue; }
        }
        if (/(hidden|clip)/.test(s.overflowY) && n.scrollHeight > n.clientHeight + 1) {
            const end = b.top + n.clientHeight;
            by = r.bottom > end ? r.bottom - end : r.top < b.top ? r.top - b.top : 0;
            if (by) { cut = n; axis = "Y"; }
        }
    }
    if (!cut) return false;
    const extent = (n) => axis === "X" ? n.scrollWidth : n.scrollHeight;
    const shows = (n) => axis === "X" ? n.clientWidth : n.clientHeight;
    let near = cut;
    for (let i = 0; i < 4 && up(near) && up(near).nodeType === 1; i++) near = up(near);
    for (const n of near.querySelectorAll("*")) {
        if (n === cut || n.contains(cut) || cut.contains(n)) continue;
        if (Math.abs(extent(n) - extent(cut)) > 2 || extent(n) <= shows(n) + 1) continue;
        if (!/(auto|scroll|overlay)/.test(getComputedStyle(n)["overflow" + axis])) continue;
        n.scrollBy({[axis === "X" ? "left" : "top"]: by, behavior: "instant"});
        return true;
    }
    return false;
}"""

# How long a page may take to answer a scroll (heybro's observe waits as long: dom_changes.js).
SCROLL_ANSWER_S = 0.3


class _Reach:
    """Whether a pointer reaches an element: some visible point of its boxes hit-tests to it (or to
    what is inside it, or to its label)."""

    def __init__(self, s: _Session, dom: _Dom, world: int) -> None:
        self.s, self.dom, self.world = s, dom, world
        self.memo: dict[tuple[int, bool, bool], bool] = {}
        self.vw, self.vh = s.viewport()
        self.fell_through = False  # the last hit test's pointer landed on what holds the element
        self.drawn: dict[int, bool] = {}  # whether each element had a box when first judged

    def labels_of(self, b: int) -> set[int]:
        """Label elements of a control: one with for=its id, one around it."""
        out = {a for a in self.dom.ancestors(b) if self.dom.tag.get(a) == "label"}
        el_id = self.dom.attrs.get(b, {}).get("id")
        if el_id:
            out |= set(self.dom.label_for.get(el_id, []))
        return out

    def _hits(self, b: int, lenient: bool = False) -> bool:
        """Whether a point of its boxes reaches it. The judge tries points at fractions of a pixel;
        the browser's hit test here takes whole ones: a point is tried at the pixel away from the
        nearer edge, and when `lenient` at the one toward it as well — a strip at the sliver's
        width is a doubt, counted against the map neither way (lenient where the map listed it,
        strict where it left it out)."""
        quads = self.s.quads(b)
        self.drawn.setdefault(b, bool(quads))
        if not quads:
            return False
        targets = {b} | self.labels_of(b)
        up = self.dom.ancestors(b)
        above, near = set(up), up[1:3]
        self.fell_through = False
        sx, sy = self.s.scrolled()
        for quad in quads[:4]:
            x0, y0, x1, y1 = _box(quad)
            if x1 - x0 < 1 or y1 - y0 < 1:
                continue
            for fx, fy in _points(x1 - x0, y1 - y0):
                x, y = x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy
                if not (0 <= x < self.vw and 0 <= y < self.vh):
                    continue
                at = [(_inward(x + sx, fx), _inward(y + sy, fy))]
                if lenient and (_outward(x + sx, fx), _outward(y + sy, fy)) != at[0]:
                    at.append((_outward(x + sx, fx), _outward(y + sy, fy)))
                for hx, hy in at:
                    h = self.s.hit(hx, hy)
                    if h is None:
                        continue
                    if h in self.dom.tag:
                        if any(self.dom.inside(h, t) for t in targets):
                            return True
                        # (Or a part of the list it is in, near it: a layer a virtual list lays
                        # over its rows while it scrolls.)
                        self.fell_through |= h in above or any(self.dom.inside(h, a) for a in near)
                    elif self.s.live_inside(h, targets, self.world):
                        return True
        return False

    def __call__(self, b: int, scroll: bool = True, lenient: bool = False) -> bool:
        key = (b, scroll, lenient)
        if scroll and (self.memo.get((b, False, False)) or self.memo.get((b, False, lenient))):
            return True  # reached where the page was when the map was made
        if lenient and self.memo.get((b, scroll, False)):
            return True
        if key not in self.memo:
            ok = self._hits(b, lenient)
            if not ok and scroll:
                # As a person does: scroll until it shows at the bottom of what it scrolls in (as
                # it comes into view from below), at the top, or in the middle — wherever nothing
                # over that part of the window (a bar along the edge, a menu over that side) is
                # over it. (Each from wherever the page is: the last control's scroll left it.)
                try:
                    obj = self.s.object_of(b, self.world)
                    for block, inline in (("end", "nearest"), ("start", "nearest"), ("center", "center")):
                        self.s.send("Runtime.callFunctionOn", {"objectId": obj, "functionDeclaration": SCROLL_AS_A_PERSON,
                                                               "arguments": [{"value": block}, {"value": inline}]})
                        ok = self._hits(b, lenient)
                        if not ok and self.fell_through:
                            # The pointer fell through it to what holds it, or landed on a layer
                            # its list lays over the rows: a page may turn pointer events off while
                            # it scrolls and back on a moment after it stops (react-virtualized's
                            # window scroller, pgAdmin's tree). A person points once it rests.
                            time.sleep(SCROLL_ANSWER_S)
                            ok = self._hits(b, lenient)
                        if ok:
                            break
                    if not ok and self.s.ask(b, self.world, SCROLL_BESIDE):
                        time.sleep(SCROLL_ANSWER_S)  # (the page's script follows the scroll)
                        ok = self._hits(b, lenient)
                except Exception:
                    ok = False
            self.memo[key] = ok
        return self.memo[key]


def _hovered(s: _Session, dom: _Dom, reach: _Reach, b: int) -> bool:
    """Whether a pointer over a part around the element that a pointer can be over (its row, its
    menu's label, the editor beside its toolbar: one that hit-tests to itself), nearest first,
    makes the element reachable."""
    for a in dom.ancestors(b)[:8]:
        try:
            s.send("DOM.scrollIntoViewIfNeeded", {"backendNodeId": a})
        except Exception:
            continue
        quads = s.quads(a)
        if not quads:
            continue
        x0, y0, x1, y1 = _box(quads[0])
        if x1 - x0 < 2 or y1 - y0 < 2 or x1 <= 0 or y1 <= 0 or x0 >= reach.vw or y0 >= reach.vh:
            continue
        x, y = (max(x0, 0) + min(x1, reach.vw)) / 2, (max(y0, 0) + min(y1, reach.vh)) / 2
        sx, sy = s.scrolled()
        hit = s.hit(x + sx, y + sy)
        if hit is None or not (dom.inside(hit, a) if hit in dom.tag else s.live_inside(hit, {a}, reach.world)):
            continue  # hidden itself (a closed menu's list): the pointer would be over something else
        s.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        if reach._hits(b, lenient=True):
            return True
    return False


def _observe(eb: Any, page: Any) -> dict[str, Any]:
    page.bring_to_front()
    return dict(eb.sw.evaluate(
        """async () => {
            const [tab] = await chrome.tabs.query({active: true, currentWindow: true});
            return await globalThis.heybro.runTool({tool: "observe", args: {max_tokens: 200000}, tab_id: tab.id, timeout_ms: 60000});
        }"""))


def _backends(s: _Session, world: int, expr: str) -> list[int | None]:
    """Backend node ids of the elements an expression in the content script's world returns (an array)."""
    arr = s.send("Runtime.evaluate", {"expression": expr, "contextId": world})["result"]
    if "objectId" not in arr:
        return []
    props = s.send("Runtime.getProperties", {"objectId": arr["objectId"], "ownProperties": True})["result"]
    items = sorted((p for p in props if p["name"].isdigit()), key=lambda p: int(p["name"]))
    out: list[int | None] = []
    for p in items:
        oid = p.get("value", {}).get("objectId")
        out.append(int(s.send("DOM.describeNode", {"objectId": oid})["node"]["backendNodeId"]) if oid else None)
    return out


def _ax_controls(s: _Session) -> list[Control]:
    nodes: list[dict[str, Any]] = []
    frames = [s.main_frame]
    tree = s.send("Page.getFrameTree")["frameTree"]
    stack = list(tree.get("childFrames") or [])
    while stack:
        f = stack.pop()
        frames.append(f["frame"]["id"])
        stack.extend(f.get("childFrames") or [])
    for fid in frames:
        try:
            nodes += s.send("Accessibility.getFullAXTree", {"frameId": fid})["nodes"]
        except Exception:  # a frame of another process (another origin): its own agent reads it
            continue
    out = []
    for n in nodes:
        role = (n.get("role") or {}).get("value", "")
        if n.get("ignored") or role not in OPERABLE_ROLES or "backendDOMNodeId" not in n:
            continue
        props = {p["name"]: (p.get("value") or {}).get("value") for p in n.get("properties") or []}
        out.append(Control(int(n["backendDOMNodeId"]), role, str((n.get("name") or {}).get("value") or ""),
                           disabled=props.get("disabled") is True))
    return out


def _match(ctl: Control, dom: _Dom, listed: dict[int, str], others: set[int], names: dict[str, str],
           roles: dict[str, str]) -> str | None:
    """The map's id standing for a control: the control itself; the element around it that holds
    no other control (a clickable item wrapping its link), or that the map names by the control's
    words (a tree item listed for its link, beside its switch), or that has its role (a tab nested
    in the tab a dock draws around it is one tab to a person); a listed element inside it (heybro
    lists the part a pointer lands on) — of the control's own role where it holds several (a tab
    holding the tab a pointer grabs and its close button stands for that tab, not the button); or
    a label of it (a styled checkbox's label takes the clicks)."""
    if ctl.backend in listed:
        return listed[ctl.backend]
    for depth, a in enumerate(dom.ancestors(ctl.backend)):
        if depth >= 4:
            break
        if a in listed and (not any(o not in (ctl.backend, a) and dom.inside(o, a) for o in others)
                            or (norm(ctl.name) and names_agree(ctl.name, names.get(listed[a], "")))
                            or roles.get(listed[a]) == ctl.role):
            return listed[a]
        # An option of a list box is read with it (the map lists the box and its options).
        if a in listed and ctl.role in ("option", "ListBoxOption", "MenuListOption") and dom.tag.get(a) in ("select", "datalist"):
            return listed[a]
    within = [eid for b, eid in listed.items() if dom.inside(b, ctl.backend)]
    if within:
        return next((eid for eid in within if roles.get(eid) == ctl.role), within[0])
    for b, eid in listed.items():
        if dom.tag.get(b) == "label" and (ctl.backend in dom.ancestors(b) or dom.inside(ctl.backend, b)
                                          or dom.attrs.get(b, {}).get("for") == dom.attrs.get(ctl.backend, {}).get("id", "\0")):
            return eid
    return None


def _tables(s: _Session, world: int, text: str) -> tuple[int, list[str]]:
    """Visible tables with column headers and data rows: whether the map reads a row with its
    headers (`header value`)."""
    tables = s.send("Runtime.evaluate", {"contextId": world, "returnByValue": True, "expression": """(() => {
        const out = [];
        const visible = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && el.getBoundingClientRect().width > 0;
        const roots = [document];
        for (let i = 0; i < roots.length; i++) for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
        const text = (c) => (c.innerText || '').replace(/\\s+/g, ' ').trim();
        // A header holding a field a person sees (a "select all" box) names no column; one the grid keeps hidden there does not count.
        const field = (c) => [...c.querySelectorAll('input, select')].some((f) => f.checkVisibility());
        for (const root of roots) for (const t of root.querySelectorAll('table, [role=grid], [role=table], [role=treegrid]')) {
            if (!visible(t)) continue;
            let heads = [], rows = [];
            if (t.localName === 'table') {
                // The row that heads the columns: the last row of header cells before the data that
                // names two columns or more (a caption row spanning the table above it names none).
                const isHead = (r) => [...r.cells].some((c) => c.localName === 'th') && [...r.cells].every((c) => c.localName === 'th' || c.querySelector('input'));
                const lead = t.tHead && t.tHead.rows.length ? [...t.tHead.rows] : (() => { const out = []; for (const r of t.rows) { if (!isHead(r)) break; out.push(r); } return out; })();
                const head = lead.filter((r) => r.cells.length >= 2).pop();
                if (!head || !visible(head)) continue; // (headers the page keeps hidden head nothing a person sees)
                for (const c of head.cells) for (let k = 0; k < (c.colSpan || 1); k++) heads.push(field(c) ? '' : text(c));
                rows = [...t.rows].filter((r) => !lead.includes(r) && r.parentElement !== t.tFoot && !isHead(r) && visible(r))
                    .map((r) => { const out = []; for (const c of r.cells) for (let k = 0; k < (c.colSpan || 1); k++) out.push(k ? '' : text(c)); return out; });
            } else {
                // Cells by aria-colindex (else after the cell before), spans by aria-colspan; a header's
                // own words in a columnheader inside it are that header; a row of group headers above
                // is overridden by the columns' own.
                const own = (r, sel) => [...r.querySelectorAll(sel)].filter((c) => c.parentElement.closest('[role=row], [role=gridcell], [role=cell], [role=columnheader], [role=rowheader]') === r);
                const placed = (cells) => { let next = 0; return cells.map((c) => { const ix = +c.getAttribute('aria-colindex'); const col = ix > 0 ? ix - 1 : next; const span = Math.max(1, +c.getAttribute('aria-colspan') || 1); next = col + span; return { c, col, span }; }); };
                const mine = (r) => r.closest('[role=grid], [role=table], [role=treegrid]') === t;
                const headRows = [...t.querySelectorAll('[role=row]')].filter((r) => mine(r) && r.querySelector('[role=columnheader]') && visible(r))
                    .sort((a, b) => (+a.getAttribute('aria-rowindex') || 0) - (+b.getAttribute('aria-rowindex') || 0));
                for (const r of headRows) for (const { c, col, span } of placed(own(r, '[role=gridcell], [role=cell], [role=columnheader], [role=rowheader]'))) {
                    if (c.getAttribute('role') !== 'columnheader') continue;
                    const w = field(c) ? '' : text(c);
                    for (let k = 0; k < span; k++) if (w || heads[col + k] === undefined) heads[col + k] = w;
                }
                heads = Array.from(heads, (h) => h || '');
                rows = [...t.querySelectorAll('[role=row]')].filter((r) => mine(r) && !r.querySelector('[role=columnheader]') && visible(r))
                    .map((r) => { const out = []; for (const { c, col } of placed(own(r, '[role=gridcell], [role=cell], [role=rowheader]'))) out[col] = text(c); return Array.from(out, (x) => x || ''); });
            }
            if (heads.filter(Boolean).length < 2) continue;
            const row = rows.find((cells) => cells.filter((c, i) => c && c.length < 60 && heads[i]).length >= 2);
            if (!row) continue;
            out.push({ heads, row, name: (t.getAttribute('aria-label') || t.id || heads.filter(Boolean).slice(0, 3).join('|')).slice(0, 60) });
        }
        return out;
    })()"""})["result"].get("value") or []
    # A control in a line reads as its words: `Subject [e64 clickable ann]` → "Subject ann".
    inline = re.compile(r'\[\*?[a-z]*\d+ [a-z]+(?: (?:password|email|tel|url|date|time|datetime-local|month|week|color))? ~?"?([^\]"]*?)"?(?: =[^\]]*)?\]')
    text = inline.sub(r"\1", text)
    lines = [norm(ln) for ln in text.splitlines()]
    shown, lost = 0, []
    for t in tables:
        # (A sign after a header's words — a help link's "?", a sort arrow — is no part of its name.)
        pairs = [(re.sub(r"\W+$", "", norm(h)) or norm(h), norm(c)) for h, c in zip(t["heads"], t["row"], strict=False) if h and c and len(c) < 60]
        # The row must be on the map at all (most of its words, on one line or many).
        values = [c for _, c in pairs]
        telling = [c for c in values if len(c) >= 3] or values
        whole = norm(text)
        if not pairs or sum(1 for c in telling if c in whole) * 2 < len(telling):
            continue
        shown += 1
        ok = any(sum(1 for h, c in pairs if f"{h} {c}" in ln) >= max(1, len(pairs) // 2) for ln in lines)
        if not ok:
            lost.append(f"table {t['name']!r}: row {' | '.join(values)[:80]!r} without its headers")
    return shown, lost


def judge(eb: Any, page: Any, url: str | None = None) -> Verdict:
    """Holds heybro's map of `page` (open, active) against the browser's view of it."""
    url = url or page.url
    try:
        res = _observe(eb, page)
    except Exception as e:  # the map could not be produced
        return Verdict(url, False, error=str(e).splitlines()[0][:200])
    if not res.get("ok"):
        err = res.get("error") or {}
        return Verdict(url, False, error=f"{err.get('code')}: {str(err.get('message'))[:200]}")
    obs = res["result"]
    v = Verdict(url, True, tokens=int(obs.get("tokens_estimate", 0)), unreadable=int(obs["counts"].get("unreadable", 0)))
    s = _Session(eb, page)
    try:
        world = s.heybro_world()
        ids = [i for i in obs["elements"] if re.fullmatch(r"e\d+", i)]
        v.cross_origin_ids = len(obs["elements"]) - len(ids)
        backs = _backends(s, world, f"(() => {{ const h = globalThis.__heybroAgent; return {ids!r}.map((id) => h.element(id)); }})()")
        # A code editor's hidden field is listed where its box is drawn: a pointer there reaches it.
        boxes = _backends(s, world, f"(() => {{ const h = globalThis.__heybroAgent; return {ids!r}.map((id) => h.surface(id)); }})()")
        shown = s.send("Runtime.evaluate", {"contextId": world, "returnByValue": True,
                                            "expression": f"(() => {{ const h = globalThis.__heybroAgent; return {ids!r}.map((id) => h.shown(id)); }})()"})["result"]["value"]
        covered = _backends(s, world, "globalThis.__heybroAgent.covered()")
        dom = _Dom(s.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"])
        listed = {b: i for i, b in zip(ids, backs, strict=False) if b is not None}
        drawn_at = {b: box for b, box in zip(backs, boxes, strict=False) if b is not None and box is not None}
        info = {i: sh for i, sh in zip(ids, shown, strict=False)}
        disabled = {i for i in ids if (obs["elements"][i].get("state") or {}).get("disabled")}
        reach = _Reach(s, dom, world)
        # The listed first, where the map saw them, before the accessibility tree is read (seconds
        # on a long page, in which a notice may fade).
        for b in listed:
            reach(drawn_at.get(b, b), scroll=False, lenient=True)
        every = _ax_controls(s)
        controls = [c for c in every if not c.disabled]  # a disabled one is no control a person operates
        # Wrong covers first, before anything scrolls: the map judged them where they were.
        v.covered = len([c for c in covered if c])
        for b in covered:
            if b is not None and reach(b, scroll=False):
                v.wrong_covers.append(f"{dom.tag.get(b)} {dom.attrs.get(b, {}).get('id', '')}".strip())
        # Then every control where it is (the listed were, above), before anything scrolls:
        # scrolling to one control moves others (a notebook's prompt scrolled under a menu) that
        # were in reach where the map saw them.
        for b in [c.backend for c in controls]:
            reach(b, scroll=False)
        s.send("Runtime.evaluate", {"expression": "window.scrollTo(0, 0)"})
        for c in controls:
            c.reachable = reach(c.backend)
        visible = [c for c in controls if c.reachable]
        visible_set = {c.backend for c in visible}
        names = {i: str((sh or {}).get("name") or "") for i, sh in info.items()}
        roles = {i: str((sh or {}).get("role") or "") for i, sh in info.items()}
        for c in visible:
            c.listed_as = _match(c, dom, listed, visible_set - {c.backend}, names, roles)
        # (A control a pointer finds but no eye sees — drawn fully transparent, a search box's
        # clear button while the box is empty — is no control a person sees: asked of the unlisted.)
        visible = [c for c in visible if c.listed_as or not s.transparent(c.backend, world)]
        v.controls, v.found = len(visible), sum(1 for c in visible if c.listed_as)
        v.missed = [f"{c.role} {c.name[:60]!r}" for c in visible if not c.listed_as]
        for b, i in listed.items():
            if i in disabled:
                continue
            v.listed += 1
            at, hover = drawn_at.get(b, b), (info.get(i) or {}).get("hover")
            # A control the map says shows on hover is judged as a person finds it: the pointer
            # over its row first.
            if not reach(at, lenient=True) and not (hover and _hovered(s, dom, reach, b)):
                # (The map lists only what has a box: one that had a box when first judged and has
                # none now — not one laid out on hover — the page hid since: a notice that faded.)
                hid = reach.drawn.get(at) and not hover and not s.quads(at)
                if hid or not s.connected(b, world):
                    # Scrolling it into view made the page draw it anew (a chart drawn when in view):
                    # the element the map listed is gone, its new copy was never the map's.
                    v.replaced += 1
                    v.listed -= 1
                    continue
                sh = info.get(i) or {}
                v.false_operable.append(f"[{i}] {sh.get('role', '?')} {str(sh.get('name', ''))[:60]!r} ({dom.tag.get(b)})")
        for c in visible:
            # Where the browser has a name: words, or signs the map shows (a glyph alone is none).
            # An option is named in its list's line (`options: a|b|c`), not on a line of its own.
            if not c.listed_as or not norm(c.name) or (c.role in ("option", "ListBoxOption", "MenuListOption")
                                                        and c.backend not in listed):
                continue
            sh = info.get(c.listed_as) or {}
            v.named += 1
            # Chrome's name of an item takes in the names of controls inside it (a tree item's
            # switch); the map lists those on their own, so the item's name without them agrees too.
            inner = [o.name for o in every if o.backend != c.backend and o.name and dom.inside(o.backend, c.backend)]
            own = c.name
            for n in inner:
                own = own.replace(n, " ")
            ours, signs = str(sh.get("name") or ""), str(sh.get("signs") or "")
            if names_agree(c.name, ours, signs) or (inner and names_agree(own, ours, signs)):
                v.agree += 1
            else:
                v.disagree.append(f"{c.role}: browser {c.name[:60]!r} / map {str(sh.get('name') or '')[:60]!r}")
        s.send("Runtime.evaluate", {"expression": "window.scrollTo(0, 0)"})
        # The tables are read as the map read them: the pointer the hover checks moved is taken
        # back off the page's parts (a help link's pop-up over a table's header would stay open).
        s.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 0, "y": 0})
        v.tables, v.tables_lost = _tables(s, world, obs["text"])
    except Exception as e:  # the oracle's own failure is said, not counted against the map
        v.error = f"oracle: {str(e).splitlines()[0][:200]}"
    finally:
        s.close()
    return v
