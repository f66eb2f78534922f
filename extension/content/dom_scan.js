// @ts-check
/**
 * The element map: every visible, interactive element of a document (through open shadow roots and
 * same-origin iframes), each under an id that stays the same for the same live element across scans.
 *
 * Ids live in a registry keyed by the element itself (WeakMap element → id, id → WeakRef), so a
 * re-render that keeps the node keeps the id, a node the page dropped can be garbage collected, and a
 * new node gets a fresh id — never a recycled one, so a stale id can never point at the wrong thing.
 */
import { INTERACTIVE_TAGS, INTERACTIVE_ROLES, isInteractiveCheap, isRendered, isRovingItem } from "./controls.js";
import { norm } from "./norm.js";
import { accessibleName, wordsOf } from "./accessible_name.js";
import { HAND_CURSORS, scopeStyles } from "./dom_pointer.js";
import { scrollInfo } from "./dom_scroll.js";
import { dialogName, openModal, textIn } from "./dom_inert.js";
import { dropUnreachable, scrollsIntoView } from "./dom_covered.js";
import { drawnField, editorSurfaces } from "./dom_editors.js";
import { columnHeads, isFormRow, isHeaderRow, isSpanningRow, newTablesPass, partsCells, passHeads, rowCells, rowParts, rowsAlike, tableOf } from "./dom_tables.js";
import { framePath, leftOut } from "./dom_frames.js";
import { clippedAway, clipsToNothing, fixedOutOfView, within } from "./dom_unseen.js";
import { attr, checkVisibilityOf, composedParentOf, childCountOf, childrenOf, clientLeftOf, clientTopOf, containsOf, docOf, firstChildOf, firstElOf, hasAttr, hasAttrs, idOf, innerTextOf, isSvg, matchesOf, nextElOf, nextSiblingOf, nodeTypeOf, nodeValueOf, parentElOf, qs, qsa, rectOf, scrollLeftOf, scrollTopOf, shadowOf, tagOf, textOf } from "./dom_native.js";

/**
 * @typedef {import("./signature.js").Signature} Signature
 * @typedef {{id: string, el: Element, isNew: boolean, group: string, order: number,
 *   where: "in" | "above" | "below", dist: number, box: {x: number, y: number, w: number, h: number}, name?: string,
 *   state?: import("./signature.js").ElementState, inline?: boolean, byCursor?: boolean, covered?: boolean, coveredBy?: Element,
 *   shown?: import("./dom_render.js").Shown, noPointer?: boolean, onHover?: boolean, hoverAt?: Element, surface?: Element}} Entry
 *   box: in the top frame's viewport at scan time; name, state: set by the rendering, reused by the signature;
 *   inline: it stands inside a sentence and is shown there (its text block's parts hold it);
 *   byCursor: clickable by its pointer cursor only (no markup says it is a control);
 *   covered: something is drawn over it (dom_covered.js), coveredBy: that layer; shown: set by the rendering;
 *   noPointer: the page turned the pointer off for it (shown as disabled); onHover: hidden now, shown
 *   when a pointer is over what holds it (a table row's actions; the action hovers there first);
 *   surface: a code editor's box, when el is the hidden field its keys go to (dom_editors.js)
 * @typedef {{order: number, text: string, group: string, where: "in" | "above" | "below", dist: number, mark?: string,
 *   el?: Element, dy?: number, parts?: Part[]}} TextBlock  mark: what the line starts with — a heading's
 *   level (`# `, `## `…), a list item's `- ` — or "" (none); el: the element to ask whether the text is visible (asked only when it is
 *   rendered); dy: the offset of el's frame in the top page; parts: a run of text and inline controls, in reading order
 * @typedef {{s: string, el: Element, hover?: boolean} | Entry | string} Part  words (el: the element they are in, asked whether it
 *   is visible when they are shown; hover: shown with controls a pointer over their row shows), an
 *   inline control, or a separator
 * @typedef {{order: number, parts: Part[], text: boolean, after: boolean, entries: number, mute: number}} Flow  a run being read:
 *   text: it has words of its own; after: an element just ended (a next one is a new word)
 * @typedef {{url: string, name: string, box: {x: number, y: number, w: number, h: number}}} RemoteFrame
 * @typedef {{name: string, text: string, id?: string, kind?: string, answer?: string}} DialogInfo
 *   kind/answer: a browser alert/confirm/prompt answered for the agent (dom_dialogs.js)
 * @typedef {{x: number, y: number, viewport_w: number, viewport_h: number, page_w: number,
 *   page_h: number, above_px: number, below_px: number}} ScrollInfo
 * @typedef {{entries: Entry[], texts: TextBlock[], remoteFrames: RemoteFrame[], framesRead: Array<{path: number[] | null, url: string}>, dialogs: DialogInfo[],
 *   scroll: ScrollInfo, url: string, title: string, newCount: number, covered: import("./dom_covered.js").Covered | null,
 *   hidden: number, skipped: Skipped, unseenWords: Set<Element>, coveredWords: Set<Element>}} Scan
 *   covered: controls left out because something is drawn over them; hidden: how many were left out
 *   because the page itself hides them from a pointer (clipped, drawn under another part);
 *   unseenWords: elements whose style may keep their words (and those under them) unseen, over every
 *   scope met (the rendering confirms, dom_unseen.js); coveredWords: elements with a box of theirs
 *   that may lie over the words in them (the rendering confirms by hit testing)
 * @typedef {{count: number, first: string}} Skipped  elements left out because reading them failed (the first error's words)
 */

export class Registry {
  /** @param {string} prefix put before every id (e.g. "f12" for a frame), "" in the top frame */
  constructor(prefix = "") {
    this.prefix = prefix;
    this.next = 1;
    /** @type {WeakMap<Element, string>} */
    this.ids = new WeakMap();
    /** @type {Map<string, WeakRef<Element>>} */
    this.refs = new Map();
    /** The map's size after its last pruning (see prune). */
    this.pruned = 0;
    /** Ids seen in the last scan (to mark what is new). @type {Set<string> | null} */
    this.lastSeen = null;
    /** A control shown on hover → where a pointer shows it (inside the row or menu whose :hover does). @type {WeakMap<Element, Element>} */
    this.hovers = new WeakMap();
    /** A code editor's hidden field → the box a person sees and clicks (dom_editors.js). @type {WeakMap<Element, Element>} */
    this.surfaces = new WeakMap();
  }

  /** @param {Element} el */
  idFor(el) {
    let id = this.ids.get(el);
    if (!id) {
      id = `${this.prefix}e${this.next++}`;
      this.ids.set(el, id);
      this.refs.set(id, new WeakRef(el));
    }
    return id;
  }

  /** The live element behind an id, or null when it is gone or detached. @param {string} id */
  get(id) {
    const el = this.refs.get(id)?.deref();
    if (!el) { this.refs.delete(id); return null; }
    return el;
  }

  /**
   * Forget ids whose elements were collected (keeps the map small on long sessions): asked once the
   * map has grown by half since it was last pruned, not at every scan of a page that keeps its ids.
   */
  prune() {
    if (this.refs.size < this.pruned * 1.5 + 64) return;
    for (const [id, ref] of this.refs) if (!ref.deref()) this.refs.delete(id);
    this.pruned = this.refs.size;
  }
}

const SKIP_TAGS = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "svg", "math"]);
// Tables are content, not landmarks: their rows read as text lines (a group header per table would
// cost two lines each time for nothing the header row does not already say).
const LANDMARKS = new Set(["form", "nav", "header", "footer", "main", "aside", "dialog", "fieldset"]);
const LANDMARK_ROLES = new Set(["form", "navigation", "banner", "contentinfo", "main", "complementary", "dialog", "alertdialog", "search", "region", "tablist", "menu", "menubar", "toolbar", "grid"]);
// Phrasing content: read in the line of text it stands in (CSS may make one a block; the tag is what
// can be known without reading every element's style).
const INLINE_TAGS = new Set("a abbr b bdi bdo br button cite code data dfn em i img input kbd label mark q s samp select small span strong sub sup textarea time u var wbr font big tt".split(" "));
const BLOCK_INSIDE = "div,p,ul,ol,li,table,section,article,header,footer,nav,aside,main,form,fieldset,h1,h2,h3,h4,h5,h6,dl,pre,blockquote,figure,hr,iframe,video,details";

/** Whether an element reads as part of the line around it. @param {Element} el */
function isInline(el) {
  if (!INLINE_TAGS.has(tagOf(el)) || shadowOf(el)) return false;
  return childCountOf(el) === 0 || !qs(el, BLOCK_INSIDE);
}

/**
 * A container made clickable (by a listener, a cursor or a tabindex), not a control by its tag or
 * role: what it holds may be controls of their own.
 * @param {Element} el
 */
function isContainer(el) {
  if (INTERACTIVE_TAGS.has(tagOf(el))) return false;
  const role = attr(el, "role");
  return !role || !INTERACTIVE_ROLES.has(role.split(/\s+/)[0].toLowerCase());
}

/** @param {number} order @returns {Flow} */
function newFlow(order) { return { order, parts: [], text: false, after: false, entries: 0, mute: 0 }; }

/** Whether el's own text nodes say something. @param {Element} el */
function ownWords(el) {
  for (let n = firstChildOf(el); n; n = nextSiblingOf(n)) if (nodeTypeOf(n) === 3 && NON_SPACE.test(/** @type {string} */ (nodeValueOf(n)))) return true;
  return false;
}

/**
 * The parts of an SVG drawing a person operates, each named by its own words: for each shape drawn
 * with a hand cursor, the nearest group around it (three levels at most) that holds words — unless
 * it holds another such part (the drawing's layer of all its nodes). A shape without words of its
 * own nearby (a node's port, its button) goes with the part around it.
 * @param {Element} svg @param {((e: Element) => boolean) | null} ptr @returns {Element[]}
 */
function svgParts(svg, ptr) {
  if (!ptr) return [];
  /** @type {Set<Element>} */ const found = new Set();
  for (const shape of Array.from(qsa(svg, "rect, path, circle, ellipse, polygon, image"))) {
    if (!ptr(shape)) continue;
    let at = parentElOf(shape);
    for (let i = 0; at && at !== svg && i < 3; i++, at = parentElOf(at)) {
      if (tagOf(at) === "g" && NON_SPACE.test(textOf(at) || "")) { found.add(at); break; }
    }
  }
  const all = Array.from(found);
  return all.filter((p) => !all.some((q) => q !== p && containsOf(p, q)));
}

/**
 * A container clickable by its cursor that is really a bar of separately labelled parts (Reply |
 * Forward, a menu's items): two or more look-alike children (same tag), each a short label (up to
 * five words, no figures unless beside an icon) — and nothing else. Its parts are listed instead of it (a click on its middle
 * would hit the gap or either one). Rows and cards (cells, a title and a price) are not bars.
 * @param {Element} el @returns {Element[] | null}
 */
function splitParts(el) {
  let box = el;
  while (childCountOf(box) === 1 && !ownWords(box)) box = /** @type {Element} */ (firstElOf(box));
  if (ownWords(box) || childCountOf(box) < 2 || childCountOf(box) > 8) return null;
  const kids = Array.from(childrenOf(box)), tag = tagOf(kids[0]);
  if (tag === "td" || tag === "th" || tag === "tr") return null;
  const names = new Set();
  for (const k of kids) {
    const t = norm(textOf(k));
    if (tagOf(k) !== tag || !t || t.split(" ").length > 5 || names.has(t)) return null;
    if (childCountOf(k) === 0 && /\d/.test(t)) return null; // a price, a count, a date: a card's facts, not actions
    names.add(t);
  }
  return kids;
}

/**
 * Whether every word a container shows belongs to one of the controls listed inside it (from
 * `first` on in `entries`).
 * @param {Element} el @param {Entry[]} entries @param {number} first
 */
function wordsAllIn(el, entries, first) {
  const words = norm(innerTextOf(/** @type {HTMLElement} */ (el))).toLowerCase().split(" ").filter(Boolean);
  if (!words.length) return false; // shows nothing but icons: the controls are its parts (sameControl)
  const theirs = new Set();
  for (let i = first; i < entries.length; i++) for (const w of norm(innerTextOf(/** @type {HTMLElement} */ (entries[i].el))).toLowerCase().split(" ")) theirs.add(w);
  return words.every((w) => theirs.has(w));
}

/**
 * Whether a control inside another listed one is the same control: a presentational child, one
 * that holds all of its words (the link inside a tab item) or all it shows, or one on the same box.
 * @param {Element} el @param {string | null} role @param {DOMRect} box @param {Entry} outer @param {number} dx @param {number} dy
 */
function sameControl(el, role, box, outer, dx, dy) {
  if (role === "presentation" || role === "none") return true;
  const t = norm(textOf(el));
  if (t && t === norm(textOf(outer.el))) return true;
  // A wrapper made clickable that shows nothing but this control (its menu hidden).
  if (isContainer(outer.el)
    && norm(innerTextOf(/** @type {HTMLElement} */ (outer.el))) === norm(innerTextOf(/** @type {HTMLElement} */ (el)))) return true;
  const b = outer.box;
  return Math.abs(box.left + dx - b.x) <= 4 && Math.abs(box.top + dy - b.y) <= 4 && Math.abs(box.width - b.w) <= 4 && Math.abs(box.height - b.h) <= 4;
}

const NON_SPACE = /\S/;
const HEADING = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const LIST_ITEM = "- ";

/**
 * What a block's lines start with, as a person sees it: a heading's level (`#` for h1, `##` for
 * h2…; role=heading by its aria-level, 2 unless said), a list item's bullet, else "".
 * @param {Element} el @param {string} tag @param {string | null} role
 */
function blockMark(el, tag, role) {
  if (HEADING.has(tag)) return "#".repeat(Number(tag[1])) + " ";
  if (role === "heading") return "#".repeat(Math.min(6, Math.max(1, Number(attr(el, "aria-level")) || 2))) + " ";
  if (role === "listitem" || (tag === "li" && !role)) return LIST_ITEM;
  return "";
}

/**
 * A link inside a tree item is where the page acts; the item only holds it (a namespace tree's
 * page, a feed tree's feed). The item's line moves to the link ("move"), or, for an item that opens
 * and closes, the link is listed beside it ("beside"); the parts of the item's own row are the item
 * ("row"); "" for anything else.
 * @param {Element} el @param {Element} outer
 */
function treeLink(el, outer) {
  if (attr(outer, "role") !== "treeitem") return "";
  if (tagOf(el) !== "a" || !hasAttr(el, "href")) return isContainer(el) && ownRow(el, outer) ? "row" : ""; // (a checkbox in the row is one of its own)
  return hasAttr(outer, "aria-expanded") ? "beside" : "move";
}

/**
 * Whether el is part of a tree item's own row (its expander, icon and label: a toolkit's tree
 * draws them in a row of clickable parts), not of the items nested in its group.
 * @param {Element} el @param {Element} item
 */
function ownRow(el, item) {
  for (let p = parentElOf(el); p && p !== item; p = parentElOf(p)) if (attr(p, "role") === "group") return false;
  return true;
}

/** A text block whose `text` (normalised) is computed on first read (a getter on the prototype keeps
 * the objects cheap to make). */
class LazyText {
  /**
   * @param {string} raw @param {number} order @param {string} group @param {string} mark see TextBlock @param {Element} el
   * @param {number} dy the offset of el's frame in the top page (to place it, see placeTexts)
   */
  constructor(raw, order, group, mark, el, dy) {
    this.raw = raw; this.order = order; this.group = group;
    /** @type {"in" | "above" | "below"} */ this.where = "in";
    this.dist = 0; this.mark = mark; this.el = el; this.dy = dy;
    /** @type {string | null} */ this.normed = null;
  }

  get text() { if (this.normed === null) this.normed = norm(this.raw); return this.normed; }
}

/**
 * A table row of plain cells, read as one line only if the rendering reads it: in a data table each
 * cell with its column's header ("name Red Mug · price 8.50"), in a layout table the cells alone
 * ("a | b | c").
 */
class LazyRow extends LazyText {
  /**
   * @param {number} order @param {string} group @param {Element} el @param {number} dy
   * @param {string[] | null} heads the table's column headers (null: a layout table; [] for its header row)
   */
  constructor(order, group, el, dy, heads) {
    super("", order, group, "", el, dy);
    this.heads = heads;
  }

  get text() {
    if (this.normed === null) {
      const heads = this.heads;
      if (heads) {
        const said = rowCells(this.el).map(({ cell, col }) => [heads[col] || "", norm(innerTextOf(cell))]).filter(([, v]) => v);
        this.normed = said.map(([h, v]) => h ? `${h} ${v}` : v).join(" · ");
      } else {
        const cells = rowCells(this.el).map(({ cell }) => norm(wordsOf(cell)));
        while (cells.length && !cells[cells.length - 1]) cells.pop(); // an empty last column (actions) says nothing
        this.normed = cells.join(" | ");
      }
    }
    return this.normed;
  }
}

/** A run of text and inline controls (see runs): its plain words on read; the rendering shows it with its controls in place. */
class FlowText extends LazyText {
  /** @param {Flow} flow @param {string} group @param {string} mark see TextBlock @param {Element} el @param {number} dy */
  constructor(flow, group, mark, el, dy) {
    super("", flow.order, group, mark, el, dy);
    /** @type {Part[]} */ this.parts = flow.parts;
  }

  get text() {
    if (this.normed === null) this.normed = norm(this.parts.map((p) => typeof p === "string" ? p : "s" in p ? p.s : accessibleName(p.el)).join(""));
    return this.normed;
  }
}

const CONTROLS = "a[href],button,input,select,textarea,[role],[tabindex],[onclick],[contenteditable]";
const CONTROL_TAGS = "a[href],button,input,select,textarea";

/** Whether a frame's document is being written in as a whole (a rich-text editor's frame). @param {Document} doc */
function editableDoc(doc) {
  return doc.designMode === "on" || (!!doc.body && isEditableRegion(doc.body));
}

/** Whether an element is an editable region (contenteditable, not "false"). @param {Element} el */
function isEditableRegion(el) {
  const ce = attr(el, "contenteditable");
  return ce !== null && ce !== "false";
}

/** What a thrown value says, whatever it is (a page's getter may throw anything). @param {unknown} err */
function errorText(err) {
  try { return String(/** @type {any} */ (err)?.message || err).slice(0, 160); } catch { return "an unreadable error"; }
}

/** Whether a table has a row of its body besides `header`. @param {Element} table @param {Element} header */
function hasDataRows(table, header) {
  // (Asked for every header row: read from the children, and the first rows answer.)
  for (let c = firstElOf(table); c; c = nextElOf(c)) {
    if (tagOf(c) !== "tbody") continue;
    for (let r = firstElOf(c); r; r = nextElOf(r)) if (r !== header && tagOf(r) === "tr") return true;
  }
  return false;
}

/** Whether a table row holds a control (tags first: matching them is cheap, and most such rows have one). @param {Element} row */
function hasControls(row) { return !!qs(row, CONTROL_TAGS) || !!qs(row, CONTROLS); }

/** Text the element map already says: a label's words are its control's name, a legend the group's. @param {Element} el */
function isRedundantLabel(el) {
  const tag = tagOf(el);
  if (tag === "legend") return true; // a caption stays: tables are not groups
  return tag === "label" && !!(/** @type {HTMLLabelElement} */ (el).control);
}

/** A short name for a landmark/form that groups elements in the rendering. @param {Element} el */
function groupName(el) {
  const role = attr(el, "role") || tagOf(el);
  const name = norm(attr(el, "aria-label") || attr(el, "name") || attr(el, "title") || idOf(el)
    || (tagOf(el) === "fieldset" ? textIn(el, "legend") : "")
    || (tagOf(el) === "table" ? textIn(el, "caption") : "")
    || (/dialog/.test(role) ? textIn(el, "h1,h2,h3,h4") : ""));
  return name ? `${role} ${name.slice(0, 40)}` : role;
}

const VIS = { checkOpacity: true, checkVisibilityCSS: true };

/**
 * Whether a box above or left of the viewport lies wholly before the document's start, where no
 * scrolling reaches it; a scrolled ancestor (a list scrolled past it) could bring it back, so it counts
 * as reachable. Asked only of the rare boxes above or left of the viewport.
 * @param {Element} el @param {DOMRect} box
 */
function beyondPage(el, box) {
  const w = /** @type {Window} */ (docOf(el).defaultView);
  if (box.bottom + w.scrollY > 0 && box.right + w.scrollX > 0) return false;
  for (let a = parentElOf(el); a && a !== docOf(el).documentElement; a = parentElOf(a)) if (scrollTopOf(a) > 0 || scrollLeftOf(a) > 0) return false;
  return true;
}

/** @param {DOMRect} r */
const noArea = (r) => r.width < 1 || r.height < 1;

/** A box no person can see or point at: none, or a pixel or two (visually hidden). @param {DOMRect} r */
function tiny(r) { return r.width <= 2 || r.height <= 2; }

/**
 * A native tick box only screen readers are meant to find: a pixel or two, or clipped to nothing
 * by its own style (a button group's toggle, `clip: rect(0, 0, 0, 0)`) — its label takes the clicks.
 * @param {Element} el @param {DOMRect} r
 */
function visuallyHiddenBox(el, r) {
  if (tiny(r)) return true;
  if (tagOf(el) !== "input" || !/^(checkbox|radio)$/i.test(attr(el, "type") || "")) return false;
  const view = docOf(el).defaultView;
  return !!view && clipsToNothing(view.getComputedStyle(el));
}

/**
 * A styled checkbox or radio whose native input the page made transparent (its own opacity 0, its
 * parent shown) and left large enough to take the pointer where the page draws the control (a menu
 * toggle over its label, a custom tick box): a person's click lands on it, so it is the control —
 * with its own role, state and label. A tiny or clipped one leaves the clicks to its label instead.
 * @param {Element} el
 */
function clearOverlay(el) {
  if (tagOf(el) !== "input") return false;
  const t = /** @type {HTMLInputElement} */ (el).type;
  if (t !== "checkbox" && t !== "radio") return false;
  const r = rectOf(el);
  if (r.width < 8 || r.height < 8 || !checkVisibilityOf(el, { checkVisibilityCSS: true })) return false;
  const p = parentElOf(el);
  return !p || checkVisibilityOf(p, VIS);
}

/**
 * Marks the controls the page turned the pointer off for (`pointer-events: none` on them or on
 * what holds them: a pagination's disabled arrow, a greyed-out menu entry): a click does nothing
 * there, and the map says they are disabled. Only controls under an element some rule may turn the
 * pointer off for are asked their computed style.
 * @param {Entry[]} entries @param {Set<Element>} maybe
 */
function markNoPointer(entries, maybe) {
  for (const e of entries) {
    let under = false;
    /** @type {Node | null} */ let n = e.el;
    while (n && !under) {
      if (nodeTypeOf(n) === 1 && maybe.has(/** @type {Element} */ (n))) under = true;
      n = composedParentOf(n); // (style is inherited as drawn: a host's child from its slot)
    }
    if (under && docOf(e.el).defaultView?.getComputedStyle(e.el).pointerEvents === "none") e.noPointer = true;
  }
}

const NATIVE_CONTROLS = new Set(["input", "select", "textarea", "button"]);

/**
 * Takes out (in place) the parts a styled form control is drawn with: an element clickable by its
 * cursor alone, with no words, lying within the box of a native control beside it (a checkbox's
 * tick drawn in a span under the transparent input that takes the clicks). It is that control, which
 * is listed. Returns the ones taken out.
 * @param {Entry[]} entries
 */
function dropPaintedParts(entries) {
  /** @param {Entry} e */
  const native = (e) => NATIVE_CONTROLS.has(tagOf(e.el));
  /** @type {Entry[]} */ const out = [];
  // (Only a part clickable by its cursor alone can be one: the parents of those are asked first,
  // and a page without such parts reads nothing more.)
  /** @type {Map<Element, Entry[]>} */ const natives = new Map();
  for (const e of entries) if (e.byCursor && !native(e)) { const p = parentElOf(e.el); if (p) natives.set(p, []); }
  if (!natives.size) return out;
  for (const e of entries) {
    const p = native(e) ? parentElOf(e.el) : null;
    const list = p && natives.get(p);
    if (list) list.push(e);
  }
  let kept = 0;
  for (const e of entries) {
    const p = e.byCursor && !native(e) ? parentElOf(e.el) : null;
    const near = p && natives.get(p);
    const b = e.box;
    if (near && near.length && !NON_SPACE.test(textOf(e.el) || "") && near.some((n) => n.box.x <= b.x + 2 && n.box.y <= b.y + 2
      && n.box.x + n.box.w >= b.x + b.w - 2 && n.box.y + n.box.h >= b.y + b.h - 2)) { e.covered = true; out.push(e); continue; }
    entries[kept++] = e;
  }
  entries.length = kept;
  return out;
}

/**
 * Gives each text block its place: when the interactive elements just before and after it (in
 * document order) lie on the same side of the viewport, the text between them does too (it is only
 * used to rank what the token budget keeps); otherwise its box is read.
 * @param {TextBlock[]} texts @param {Entry[]} entries @param {number} vh
 */
function placeTexts(texts, entries, vh) {
  let k = 0; // index of the first entry after the current text
  for (const t of texts) {
    if (!t.el) continue; // a frame's title line: stays "in"
    while (k < entries.length && entries[k].order < t.order) k++;
    const prev = k > 0 ? entries[k - 1] : undefined, next = entries[k];
    if (prev && next && prev.where === next.where) {
      t.where = prev.where;
      t.dist = Math.min(prev.dist, next.dist);
    } else {
      const r = rectOf(t.el);
      const top = r.top + /** @type {number} */ (t.dy), bottom = r.bottom + /** @type {number} */ (t.dy);
      t.where = bottom < 0 ? "above" : top > vh ? "below" : "in";
      t.dist = t.where === "in" ? 0 : t.where === "above" ? -bottom : top - vh;
    }
  }
}

/**
 * What the walk needs to know about one tree scope (a document or a shadow root).
 * @typedef {{ptr: ((el: Element) => boolean) | null, ptrOwn?: boolean, hide: Set<Element> | null, modal?: Element | null,
 *   noPointer?: Set<Element>, reveal?: Set<Element>, revealSelf?: Set<Element>, displayed?: Set<Element>, words?: Set<Element>, covers?: Set<Element>}} ScopeInfo
 *   ptr: the pointer-cursor test, null when nothing in the scope can have a pointer cursor;
 *   ptrOwn: ptr says which elements a rule of their own gives the pointer (not those that inherit it);
 *   hide: elements that could be hidden by their own style, null when not known (see dom_pointer.js);
 *   modal: (a document) its open modal dialog, outside which everything is inert
 */

/** @param {Document | ShadowRoot} scope @returns {ScopeInfo & {hostHide: boolean}} */
function scopeInfo(scope) {
  const st = scopeStyles(scope);
  /** @type {((el: Element) => boolean) | null} */ let ptr = null;
  const set = st.pointer;
  if (set) { if (set.size) ptr = (e) => set.has(e); } else {
    // A sheet that cannot be read: each element's computed style.
    const w = /** @type {Window} */ ((scope.ownerDocument || /** @type {Document} */ (scope)).defaultView);
    ptr = (e) => HAND_CURSORS.has(w.getComputedStyle(e).cursor);
  }
  return { ptr, ptrOwn: !!set, hide: st.hide, hostHide: st.hostHide, noPointer: st.noPointer, reveal: st.reveal, revealSelf: st.revealSelf, displayed: st.displayed, words: st.words, covers: st.covers,
    modal: scope.nodeType === 9 ? openModal(/** @type {Document} */ (scope)) : null };
}

/**
 * Hidden from everyone by its markup: `aria-hidden` or `inert`. The browser does not hide what
 * holds the focus (a component library's modal hides the app's root, then renders its dialog
 * inside it and focuses it: Chrome blocks that aria-hidden and a person uses the dialog), nor a
 * dialog itself.
 * @param {Element} el
 */
function hiddenByMarkup(el) {
  if (hasAttr(el, "inert")) return true;
  if (attr(el, "aria-hidden") !== "true" || matchesOf(el, "dialog,[role=dialog]")) return false;
  const focused = docOf(el).activeElement;
  return !(focused && focused !== docOf(el).body && containsOf(el, focused));
}

/**
 * Whether a label is the control a person clicks, given whether it looked like one: a styled
 * checkbox's label is, a label naming a control a person reaches itself is not.
 * @param {Element} el @param {boolean} interactive
 */
function labelTakesClicks(el, interactive) {
  const ctl = /** @type {HTMLInputElement | null} */ (/** @type {HTMLLabelElement} */ (el).control);
  // A styled checkbox: the native input is invisible (or a pixel in size) and its label takes the clicks.
  if (!interactive && ctl && (ctl.type === "checkbox" || ctl.type === "radio" || ctl.type === "file")
    && (!isRendered(ctl) || visuallyHiddenBox(ctl, rectOf(ctl)) || (!ctl.checkVisibility(VIS) && !clearOverlay(ctl)))) return true;
  // A label clickable by its cursor names a control a person sees: its words are that control's
  // name, not a control of their own.
  // So does one wrapping a control a pointer reaches itself (a design system's tick box: its
  // input see-through over the box drawn for it): the control is listed, with its state.
  if (interactive && ctl && isRendered(ctl) && !visuallyHiddenBox(ctl, rectOf(ctl))
    && (ctl.checkVisibility(VIS) ? !containsOf(el, ctl) : containsOf(el, ctl) && clearOverlay(ctl))) return false;
  return interactive;
}

/**
 * Where a control is for a person (ScanPass.placeOf): "shown" at its box now; "on hover": at its box
 * once a pointer is over what holds it (hidden now); "laid out on hover": likewise, but not rendered
 * now (no box of its own until then); "no size": visible but of no size (nothing to show; what it
 * holds is still its content); "hidden": not shown now, so no control; "gone": not rendered at all,
 * or where no scrolling brings it — and nothing below it is either.
 * @typedef {"shown" | "on hover" | "laid out on hover" | "no size" | "hidden" | "gone"} Place
 */

/**
 * Scans one document (and the same-origin frames and open shadow roots inside it).
 *
 * Cost matters (it runs before every model step, on pages of 20,000 nodes): no computed style is
 * read per node, and one box is read per interactive element. Visibility: an interactive element
 * with a box is visible unless its own style or an ancestor's can hide it (opacity, visibility,
 * content-visibility), which the style sheets tell for the whole page at once (dom_pointer.js); only
 * those are asked (`checkVisibility`), and one that is not rendered at all takes its subtree with it.
 * Text blocks are asked only if the rendering keeps them (dom_render.js); the pointer cursor comes
 * from the style sheets too; a text block takes its place from the interactive elements around it in
 * document order when both lie on the same side of the viewport (it is then measured only where that
 * does not settle it). Signatures are not taken here: the caller takes them only for the elements it
 * shows.
 * @param {Registry} reg
 * @param {{doc?: Document, remember?: boolean}} [opts] remember=false: a re-scan while acting, which
 *   must not change what the next observe marks as new (the model has not seen those elements)
 * @returns {Scan}
 */
export function scanPage(reg, opts = {}) {
  newTablesPass();
  const doc = opts.doc || document;
  const pass = new ScanPass(reg, doc);
  if (doc.body) pass.visit(doc.body, "", 0, 0, false, false, pass.scoped(doc), false, null, null);
  return pass.finish(doc, opts.remember !== false);
}

/**
 * One scan's walk over a document: what it has found so far and what it is inside, shared by its
 * phases. An element is decided in steps (visitOne): is it there for anyone (hidden by its markup,
 * behind a modal dialog), is it a code editor's box, which group it is in (a landmark, a dialog), is
 * it a control of its own (a card, a bar of parts, a label), where a person finds it (now, or on
 * hover), is it the control around it; then what it holds is read by its kind (a frame's document, a
 * shadow tree, a control's content, a sentence, a table's row across its columns, a block's runs of
 * text). The steps hand each other what they decided as arguments and return values, never in an
 * object made per node: the walk runs over every node of pages of 20,000 nodes.
 */
class ScanPass {
  /** @param {Registry} reg @param {Document} doc */
  constructor(reg, doc) {
    this.reg = reg;
    this.vh = /** @type {Window} */ (doc.defaultView).innerHeight;
    /** @type {Map<Element, boolean>} whether what an element is placed in is fixed to the window (fixedOutOfView) */
    this.fixedMemo = new Map();
    /** @type {((el: Element) => boolean) | null} */ this.underWords = null;
    /** @type {Entry[]} */ this.entries = [];
    /** @type {TextBlock[]} */ this.texts = [];
    /** @type {RemoteFrame[]} */ this.remoteFrames = [];
    /** Same-origin frames read, by place and address (the coordinator judges them again). @type {Array<{path: number[] | null, url: string}>} */
    this.framesRead = [];
    /** @type {DialogInfo[]} */ this.dialogs = [];
    /** Ids listed in this scan (the next one's lastSeen). @type {Set<string>} */ this.seen = new Set();
    /** Ids listed in the scan before (to mark what is new). */ this.lastSeen = reg.lastSeen;
    /** Document order of the entries and text blocks. */ this.order = 0;
    /** Entries not listed in the scan before. */ this.newCount = 0;
    /** Parts of a clickable bar listed in its place (see splitParts). @type {Set<Element>} */
    this.parts = new Set();
    /** Roving tabindex items known, by container and look (see isRovingItem). @type {Map<Element, Map<string, boolean>>} */
    this.roving = new Map();
    /** Elements that could not be read (a read threw): left out with what they hold. @type {Skipped} */
    this.skipped = { count: 0, first: "" };
    /** Parts of rows a grid draws in parts, read already with their first part (see rowLine). @type {Set<Element>} */
    this.joined = new Set();
    /** Column headers of the tables met, for this pass (dom_tables.js). @type {Map<Element, {row: Element | null, heads: string[] | null}>} */
    this.tables = passHeads();
    /** Elements whose style may turn the pointer off (with what is under them), over every scope met. @type {Set<Element>} */
    this.noPointer = new Set();
    /** Elements whose style may keep their words unseen (dom_pointer.js), over every scope met. @type {Set<Element>} */
    this.unseenWords = new Set();
    /** Elements a box of theirs may lie over the words of (the parents of dom_pointer.js `covers`). @type {Set<Element>} */
    this.coveredWords = new Set();
    /** Elements a pointer over something around them shows (dom_pointer.js), over every scope met. @type {Set<Element>} */
    this.reveal = new Set();
    /** Elements a pointer over themselves shows (dom_pointer.js), over every scope met. @type {Set<Element>} */
    this.revealSelf = new Set();
    /** Of reveal, those a pointer around them lays out at all (dom_pointer.js). @type {Set<Element>} */
    this.displayed = new Set();
    /** Those the walk is inside, innermost last: a control hidden there now is one a person finds by hovering. @type {Element[]} */
    this.revealing = [];
    /** How many of the parts the walk is in are drawn only while pointed at (pointedShows). */
    this.pointedDepth = 0;
    /** Code editors met (dom_editors.js): each box, with the hidden field its keys go to. @type {Map<Element, HTMLTextAreaElement>} */
    this.editors = new Map();
  }

  /** What the style of a tree scope says, gathered into the pass's sets. @param {Document | ShadowRoot} root */
  scoped(root) {
    for (const [box, field] of editorSurfaces(root)) this.editors.set(box, field);
    const info = scopeInfo(root);
    if (info.noPointer) for (const e of info.noPointer) this.noPointer.add(e);
    if (info.words) for (const e of info.words) this.unseenWords.add(e);
    if (info.covers) for (const e of info.covers) { const p = parentElOf(e); if (p) this.coveredWords.add(p); }
    if (info.reveal) for (const e of info.reveal) this.reveal.add(e);
    if (info.revealSelf) for (const e of info.revealSelf) this.revealSelf.add(e);
    if (info.displayed) for (const e of info.displayed) this.displayed.add(e);
    return info;
  }

  /**
   * Lists a control at its box.
   * @param {Element} el @param {DOMRect} box @param {string} g @param {number} dx @param {number} dy
   * @param {boolean} byCursor @param {Flow | null} flow the sentence it stands in, if any
   * @returns {Entry}
   */
  addEntry(el, box, g, dx, dy, byCursor, flow) {
    const id = this.reg.idFor(el);
    this.seen.add(id);
    const isNew = !!this.lastSeen && !this.lastSeen.has(id);
    if (isNew) this.newCount++;
    // Each field of a DOMRect is a call into the browser: read once.
    const top = box.top + dy, bottom = box.bottom + dy, vh = this.vh;
    /** @type {"in" | "above" | "below"} */
    const where = bottom < 0 ? "above" : top > vh ? "below" : "in";
    /** @type {Entry} */
    const entry = { id, el, isNew, group: g, order: this.order++, where, dist: where === "in" ? 0 : where === "above" ? -bottom : top - vh,
      box: { x: box.left + dx, y: top, w: box.width, h: box.height }, byCursor };
    this.entries.push(entry);
    if (flow) {
      if (flow.after) flow.parts.push(" ");
      entry.inline = true; flow.parts.push(entry); flow.entries++; flow.after = true;
    }
    return entry;
  }

  /**
   * One element and what it holds, isolated: a read that throws (a page's odd element, a property
   * the page redefined) costs that element and its subtree — what they had added is taken back —
   * and is counted, never the page.
   * @param {Element} el @param {string} group @param {number} dx @param {number} dy
   * @param {boolean} insideInteractive @param {boolean} parentPointer @param {ScopeInfo} scope
   * @param {boolean} mayHide @param {Entry | null} outer @param {Flow | null} flow
   */
  visit(el, group, dx, dy, insideInteractive, parentPointer, scope, mayHide, outer, flow) {
    const entries = this.entries, texts = this.texts;
    const e0 = entries.length, t0 = texts.length, f0 = flow ? flow.parts.length : 0, m0 = flow ? flow.mute : 0, n0 = this.newCount;
    const shows = this.reveal.size > 0 && this.reveal.has(el);
    if (shows) this.revealing.push(el);
    const drawnPointed = this.revealSelf.size > 0 && this.revealSelf.has(el);
    if (drawnPointed) this.pointedDepth++;
    try {
      this.visitOne(el, group, dx, dy, insideInteractive, parentPointer, scope, mayHide, outer, flow);
    } catch (err) {
      for (let i = e0; i < entries.length; i++) this.seen.delete(entries[i].id);
      entries.length = e0; texts.length = t0; this.newCount = n0;
      if (flow) { flow.parts.length = f0; flow.mute = m0; }
      if (!this.skipped.count++) this.skipped.first = errorText(err);
    }
    if (shows) this.revealing.pop();
    if (drawnPointed) this.pointedDepth--;
  }

  /**
   * One element, decided in steps (see the class), then what it holds by its kind.
   * @param {Element} el @param {string} group @param {number} dx @param {number} dy offsets of the frame in the top page
   * @param {boolean} insideInteractive text under an interactive element is its name, not context
   * @param {boolean} parentPointer the parent shows a pointer cursor (its children inherit it)
   * @param {ScopeInfo} scope what the style of el's tree scope says
   * @param {boolean} mayHide an ancestor's style could hide el (so it is asked whether it is visible)
   * @param {Entry | null} outer the nearest listed control around el
   * @param {Flow | null} flow the run of inline content el stands in (its words and controls go there)
   */
  visitOne(el, group, dx, dy, insideInteractive, parentPointer, scope, mayHide, outer, flow) {
    const tag = tagOf(el);
    if (SKIP_TAGS.has(tag) && tag !== "svg") return;
    // Most nodes carry no attribute at all: one call then answers every attribute question below.
    const attrs = hasAttrs(el);
    if (attrs && hiddenByMarkup(el)) return;
    // Behind a modal dialog nothing takes clicks, focus or keys: only the way to the dialog is walked.
    if (scope.modal) { if (el === scope.modal) scope = { ...scope, modal: null }; else if (!containsOf(el, scope.modal)) return; }
    const ptrTest = scope.ptr;
    // Inside a container clickable by its cursor, a part the style sheets give a pointer of its own
    // (the trash icon in an inbox row) is a control of its own; inside a real control it is not.
    // (A drawing's part, a flow editor's node, is one control: the shapes it is drawn with are not.)
    const ownRule = !!ptrTest && scope.ptrOwn && !!outer && isContainer(outer.el) && !isSvg(outer.el); // (no pointer rule in the scope: none of its own)
    const pointer = (!insideInteractive || ownRule) && !!ptrTest && ptrTest(el);
    const hide = mayHide || !scope.hide || scope.hide.has(el);
    // (A code editor inside a container one can focus or click — a notebook's cell — is still a
    // field of its own; inside a real control, a button, it is part of that control.)
    if (this.editors.size && (!insideInteractive || (!!outer && isContainer(outer.el))) && this.editorBox(el, group, dx, dy)) return;
    const role = attrs ? attr(el, "role") : null;
    const g = LANDMARKS.has(tag) || (role && LANDMARK_ROLES.has(role)) ? this.landmark(el, tag, role) : group;
    if (g === null) return; // a dialog not rendered at all: nor is anything under it
    if (tag === "svg") {
      // A drawing: its shapes are no controls, but a link in it (a chart's) is one.
      for (const a of Array.from(qsa(el, "a"))) this.visit(a, g, dx, dy, insideInteractive, parentPointer, scope, hide, outer, null);
      // So is a part a person operates with the pointer, named by its own words (a flow editor's
      // node: a group whose shape is drawn with a move cursor, holding its label).
      for (const part of svgParts(el, ptrTest)) { this.parts.add(part); this.visit(part, g, dx, dy, insideInteractive, false, scope, hide, outer, null); }
      return;
    }
    let interactive = this.isControl(el, tag, attrs, pointer, parentPointer, ownRule);
    /** @type {DOMRect | null} */ let box = null;
    let onHover = false; // hidden now, shown when a pointer is over what holds it
    if (interactive) {
      const r = rectOf(el);
      const place = this.placeOf(el, r, hide);
      if (place === "gone") return;
      if (place === "hidden") interactive = false;
      // (Not laid out, it has no box of its own: it is found where the pointer goes to show it.)
      else if (place === "laid out on hover") { box = rectOf(/** @type {Element} */ (parentElOf(this.revealing[this.revealing.length - 1]))); onHover = true; }
      else if (place !== "no size") { box = r; onHover = place === "on hover"; }
    }
    // An empty part a pointer over its row draws (a flag toggle's icon in its ::before) is there for
    // a person only on hover too — and so is the control it is all of.
    if (this.revealing.length && this.drawnOnHover(el)) {
      if (box) onHover = true;
      else if (outer && !outer.onHover && !NON_SPACE.test(innerTextOf(outer.el))) this.markOnHover(outer, el);
    }
    /** @type {Entry | null} */ let entry = null;
    if (box) entry = this.enter(el, role, box, onHover, g, dx, dy, pointer, insideInteractive, outer, flow);
    else if (!interactive && !insideInteractive && !flow && tag === "tr" && !hasControls(el)) { this.plainRow(el, g, dy); return; }
    if (tag === "iframe" || tag === "frame") { this.frame(el, g, dx, dy); return; }

    const inner = insideInteractive || interactive;
    const ptr = pointer || parentPointer;
    const around = entry || outer;
    const sr = shadowOf(el);
    const childHide = sr ? this.shadowTree(sr, g, dx, dy, inner, ptr, hide, around) || hide : hide;
    if (tag === "select") return; // options are rendered with their select
    /** @type {Element | null} */ let table = null; // the data table el is a row of
    if (inner) this.controlChildren(el, g, dx, dy, ptr, scope, childHide, around, entry, flow);
    else if (flow) this.inlineChildren(el, tag, g, dx, dy, ptr, scope, childHide, around, flow);
    else if ((tag === "tr" || role === "row") && (table = this.dataTable(el))) {
      if (!this.joined.has(el)) this.rowLine(el, table, g, dx, dy, ptr, scope, childHide, around);
    } else this.runs(el, g, dx, dy, ptr, scope, childHide, around, blockMark(el, tag, role));
    // Slotted light-DOM children render through the shadow root's slots, and were visited above
    // as ordinary children: no second pass needed.
  }

  /**
   * A code editor's box is its field: listed as the hidden field its keys go to, its lines the
   * value. Whether el was one. @param {Element} el @param {string} group @param {number} dx @param {number} dy
   */
  editorBox(el, group, dx, dy) {
    const field = this.editors.get(el);
    if (!field) return false;
    this.reg.surfaces.set(field, el);
    this.addEntry(field, rectOf(el), group, dx, dy, false, null).surface = el;
    return true;
  }

  /**
   * The group a landmark starts (its name); an open dialog is noted as one. Null for a dialog that
   * is not rendered at all (display: none, or inside it): nothing below it is either.
   * @param {Element} el @param {string} tag @param {string | null} role @returns {string | null}
   */
  landmark(el, tag, role) {
    const g = groupName(el);
    if ((tag === "dialog" && /** @type {HTMLDialogElement} */ (el).open) || role === "dialog" || role === "alertdialog" || attr(el, "aria-modal") === "true") {
      if (checkVisibilityOf(el, VIS)) this.dialogs.push({ name: dialogName(el) || g, text: norm(textOf(el)).slice(0, 200) });
      else if (!checkVisibilityOf(el)) return null;
    }
    return g;
  }

  /**
   * Whether el is a control of its own. The outermost pointer-cursor element is the target; its
   * children inherit the cursor (unless their own rule gives it, see ownRule in visitOne; or it is a
   * bar of look-alike labelled parts, see splitParts).
   * @param {Element} el @param {string} tag @param {boolean} attrs @param {boolean} pointer
   * @param {boolean} parentPointer @param {boolean | undefined} ownRule
   */
  isControl(el, tag, attrs, pointer, parentPointer, ownRule) {
    const parts = this.parts;
    let interactive = ((attrs || INTERACTIVE_TAGS.has(tag)) && (isInteractiveCheap(el) || isRovingItem(el, this.roving))) || (pointer && (!parentPointer || ownRule)) || parts.has(el)
      || (tag === "body" && docOf(el).designMode === "on");
    // (An editable region is a field whatever it holds: a link in a letter being written is its text.)
    if (interactive && !parts.has(el) && isContainer(el) && !isEditableRegion(el)) {
      // A card made clickable that holds its own links and buttons (title, Add to cart):
      // those are what a person clicks; the card itself would be all of them in one.
      if (qsa(el, CONTROL_TAGS).length >= 2) interactive = false;
      else {
        const p = splitParts(el);
        if (p) { for (const c of p) parts.add(c); interactive = false; }
      }
    }
    return tag === "label" ? labelTakesClicks(el, interactive) : interactive;
  }

  /**
   * Where a person finds a control (see Place), from its box r. A box means rendered: only style
   * can then hide it, and it is asked only where some style could (hide).
   * @param {Element} el @param {DOMRect} r @param {boolean} hide @returns {Place}
   */
  placeOf(el, r, hide) {
    // A control of a pixel or two is one only screen readers are meant to find (visually hidden).
    const sized = !visuallyHiddenBox(el, r);
    /** @type {Place} */ let place = sized ? "shown" : "no size";
    if ((!sized || hide) && !checkVisibilityOf(el, VIS)) {
      // Not rendered at all (display: none, or inside it): nothing below it is either — unless a
      // pointer over what holds it lays it out (a menu's submenu, `li:hover > ul { display: block }`).
      if (!checkVisibilityOf(el)) return this.revealing.length && this.displayedOnHover(el) ? "laid out on hover" : "gone";
      // A see-through native checkbox laid over what the page draws in its place takes the clicks there.
      if (sized && clearOverlay(el)) place = "shown";
      // Hidden now, shown while a pointer is over what holds it (a row's actions), or over itself
      // (a notebook's "add a cell" button, drawn when pointed at).
      // (A pointer over the control itself shows it only if it takes the pointer while hidden: a
      // transparent one does, one hidden by `visibility` lets it through to what is under it.)
      else if (sized && (this.revealing.length || (this.pointedShows() && checkVisibilityOf(el, { checkVisibilityCSS: true })))) place = "on hover";
      else return "hidden";
    }
    // Clipped to nothing inside something a pointer around it reveals (`.row:hover .act { clip: auto }`):
    // laid out full size, drawn only on hover.
    if (place === "shown" && this.revealing.length && this.clippedUntilHover(el)) place = "on hover";
    // Inside a wrapper clipped to nothing (visually hidden: kept for screen readers): nobody sees
    // it, on hover or not. Asked under a style that can clip only (the unseen-words rules).
    else if (place === "shown" && this.underUnseenRule(el) && clippedAway(el, r)) return "hidden";
    // Placed before the page's top or left edge (a flyout kept at top: -1000em until hovered): no
    // scrolling brings it into view, so no person sees or points at it — nor at what it holds;
    // unless a pointer over what holds it brings it (a table row's actions), as a person finds it.
    // So is one in a panel fixed to the window and placed outside it (a console slid below its edge)
    // — not one a box in view scrolls to (the end of a long dialog fixed over the window).
    if (place !== "no size" && (((r.bottom <= 0 || r.right <= 0) && beyondPage(el, r)) || ((r.bottom <= 0 || r.top >= this.vh || r.right <= 0) && this.underUnseenRule(el) && fixedOutOfView(el, r, this.fixedMemo) && !scrollsIntoView(el)))) {
      if (!this.revealing.length) return "gone";
      place = "on hover";
    }
    return place;
  }

  /**
   * Whether el may be kept from a person's eyes by a style around it — placed in a part fixed to
   * the window, clipped — under a rule or an inline style that may do so (the same elements whose
   * words are confirmed seen: dom_pointer.js `words`). Only such controls are asked their
   * ancestors' computed style.
   * @param {Element} el
   */
  underUnseenRule(el) {
    if (!this.unseenWords.size) return false;
    return (this.underWords ??= within(this.unseenWords))(el);
  }

  /**
   * Whether el is an empty part the style sheet shows when a pointer is over it: the innermost
   * element the walk is revealing, with no children and no words (what it shows is drawn by the page,
   * in its ::before). Asked only inside something revealed (an empty stack is asked its length
   * first: reading its element -1 takes a slow path). @param {Element} el
   */
  drawnOnHover(el) {
    const revealing = this.revealing;
    return revealing[revealing.length - 1] === el && childCountOf(el) === 0 && !NON_SPACE.test(textOf(el) || "");
  }

  /**
   * Whether el, not rendered now, is laid out once a pointer is over what holds the element the walk
   * is revealing: that element is what a :hover rule displays and is itself not displayed, nothing
   * between it and el is, and what holds it is rendered (a submenu of a submenu needs two pointings:
   * not this). @param {Element} el
   */
  displayedOnHover(el) {
    const top = this.revealing[this.revealing.length - 1], holder = parentElOf(top);
    const view = docOf(el).defaultView;
    if (!this.displayed.has(top) || !holder || !view || !checkVisibilityOf(holder)) return false;
    for (let n = /** @type {Element | null} */ (el); n && n !== top; n = parentElOf(n)) if (view.getComputedStyle(n).display === "none") return false;
    return view.getComputedStyle(top).display === "none";
  }

  /**
   * Whether el, or what holds it up to the element the walk is revealing, is clipped to nothing by
   * its style (dom_unseen.js clipsToNothing). Asked inside something revealed only. @param {Element} el
   */
  clippedUntilHover(el) {
    const top = this.revealing[this.revealing.length - 1], view = docOf(el).defaultView;
    if (!view) return false;
    for (let n = /** @type {Element | null} */ (el); n; n = parentElOf(n)) {
      if (clipsToNothing(view.getComputedStyle(n))) return true;
      if (n === top) break;
    }
    return false;
  }

  /**
   * Whether a pointer over the element being walked shows it: it, or a part the walk is in, is drawn only while
   * pointed at (dom_pointer.js revealSelf) — a pointer over el is over that part too (a resizer's
   * handle around its collapse button).
   */
  pointedShows() { return this.pointedDepth > 0; }

  /**
   * Marks a control shown only on hover, with where heybro's pointer goes first: inside the row or
   * menu whose :hover shows it (the parent of what the style sheet reveals).
   * @param {Entry} entry @param {Element} el
   */
  markOnHover(entry, el) {
    entry.onHover = true;
    // (What a rule reveals may be the control itself, `.row:hover .act`: the pointer still goes to
    // what holds it, not to a box a hidden control leaves to the row under it.)
    const top = this.revealing[this.revealing.length - 1];
    // (An empty part a pointer over its row draws, inside the control it is all of: the pointer
    // goes to that part.)
    const shown = this.pointedShows() || (top === el && entry.el !== el) ? null : top;
    let at = shown ? parentElOf(shown) || shown : el;
    // (Somewhere drawn: a holder of no size, a toolbar placed in its row's corner with nothing
    // shown in it yet, is no place to point at; the row around it is.)
    if (shown) for (let up = parentElOf(at); up && noArea(rectOf(at)); up = parentElOf(up)) at = up;
    entry.hoverAt = at;
    this.reg.hovers.set(entry.el, entry.hoverAt);
  }

  /**
   * The entry of a control with a box: its own, or the one of the control around it when both are
   * one control (see sameControl) — a presentational child, or a child that is all of it (the link in
   * a tab item) is clicked through its parent (a pointer lands on the child anyway); a wrapper
   * clickable by cursor alone that holds just this control gives way to it.
   * @param {Element} el @param {string | null} role @param {DOMRect} box @param {boolean} onHover
   * @param {string} g @param {number} dx @param {number} dy @param {boolean} pointer
   * @param {boolean} insideInteractive @param {Entry | null} outer @param {Flow | null} flow
   * @returns {Entry}
   */
  enter(el, role, box, onHover, g, dx, dy, pointer, insideInteractive, outer, flow) {
    if (outer && outer.el === el) return outer; // a field listed at the box drawn for it (drawnField)
    const inTree = outer ? treeLink(el, outer.el) : "";
    if (outer && (inTree === "row" || (inTree !== "beside" && sameControl(el, role, box, outer, dx, dy)))) {
      // (A wrapper with a handler of its own stays itself around a part that is no control; around
      // a button or link it gives way too: a click there reaches the wrapper's handler as well.)
      if ((isContainer(outer.el) && (!hasAttr(outer.el, "onclick") || !isContainer(el)) && inTree !== "row") || inTree === "move") {
        this.seen.delete(outer.id);
        outer.id = this.reg.idFor(el); outer.el = el; outer.byCursor = false;
        this.seen.add(outer.id);
        // At the control's own box: the wrapper may be wider (a block around a button, a tree item
        // around its link), and what a pointer finds there beside the control is not the control.
        outer.box = { x: box.left + dx, y: box.top + dy, w: box.width, h: box.height };
      }
      if (onHover) this.markOnHover(outer, el);
      return outer;
    }
    // A box clickable by its cursor, drawn for a field hidden inside it (dom_editors.js): it is that
    // field, at the box.
    const field = pointer && isContainer(el) ? drawnField(el) : null;
    if (field) this.reg.surfaces.set(field, el);
    const entry = this.addEntry(field || el, box, g, dx, dy, !field && (pointer || this.parts.has(el)), insideInteractive ? null : flow);
    if (field) entry.surface = el;
    if (onHover) this.markOnHover(entry, el);
    return entry;
  }

  /**
   * A table row of plain cells reads best as one line (see LazyRow). A header row of words alone
   * says nothing its rows do not (each carries its headers), unless the table has no rows to carry them.
   * @param {Element} el @param {string} g @param {number} dy
   */
  plainRow(el, g, dy) {
    const tables = this.tables;
    const table = tableOf(el), heads = table && columnHeads(table, tables);
    const header = !!heads && !!table && isHeaderRow(el, table, tables);
    if (NON_SPACE.test(textOf(el) || "") && !(header && hasDataRows(/** @type {Element} */ (table), el))) {
      this.texts.push(/** @type {TextBlock} */ (/** @type {unknown} */ (new LazyRow(this.order++, g, el, dy, header || isSpanningRow(el) ? [] : heads))));
    }
  }

  /**
   * A frame: a same-origin one's document is read in its place (a page of its own: its visibility
   * is its own, as checkVisibility sees it), under a line naming it; one the user's site rules keep
   * heybro off is its line alone (dom_frames.js); another origin's is noted for the coordinator.
   * @param {Element} el @param {string} g @param {number} dx @param {number} dy
   */
  frame(el, g, dx, dy) {
    const fr = rectOf(el);
    /** @type {Document | null} */ let sub = null;
    try { sub = /** @type {HTMLIFrameElement} */ (el).contentDocument; } catch { sub = null; }
    const off = sub && sub.documentElement ? leftOut(sub) : null;
    if (off) {
      this.texts.push({ order: this.order++, dist: 0, text: off, group: g, where: "in", mark: "" });
    } else if (sub && sub.documentElement) {
      this.framesRead.push({ path: framePath(sub.defaultView), url: String(sub.location?.href || "") });
      const fx = dx + fr.left + clientLeftOf(el), fy = dy + fr.top + clientTopOf(el);
      this.texts.push({ order: this.order++, dist: 0, text: `frame ${norm(attr(el, "title") || attr(el, "name") || attr(el, "src") || "")}`.trim(), group: g, where: "in", mark: "# " });
      const info = this.scoped(sub);
      if (sub.body && editableDoc(sub)) {
        // A rich-text editor's frame (TinyMCE, CKEditor 4, a designMode document): its whole body is
        // the field a person types in, named by the frame.
        const e0 = this.entries.length, body = sub.body;
        this.visit(body, g, fx, fy, false, false, info, false, null, null);
        const field = this.entries.slice(e0).find((x) => x.el === body);
        if (field) field.name = norm(attr(el, "title") || attr(el, "aria-label") || attr(el, "name") || "") || "Rich text";
      } else for (const c of Array.from(sub.body ? childrenOf(sub.body) : childrenOf(sub.documentElement))) this.visit(c, g, fx, fy, false, false, info, false, null, null);
    } else {
      this.remoteFrames.push({ url: /** @type {HTMLIFrameElement} */ (el).src || "", name: attr(el, "title") || attr(el, "name") || "",
        box: { x: Math.round(fr.left + dx), y: Math.round(fr.top + dy), w: Math.round(fr.width), h: Math.round(fr.height) } });
    }
  }

  /**
   * A shadow root's own elements, read in their scope's style. Whether that style may hide the
   * host's light children (the host, or the slots they show in).
   * @param {ShadowRoot} sr @param {string} g @param {number} dx @param {number} dy @param {boolean} inner
   * @param {boolean} ptr @param {boolean} hide @param {Entry | null} around
   */
  shadowTree(sr, g, dx, dy, inner, ptr, hide, around) {
    const info = this.scoped(sr);
    for (const c of Array.from(sr.children)) this.visit(c, g, dx, dy, inner, ptr, info, hide || info.hostHide, around, null);
    return info.hostHide || /** @type {Set<Element>} */ (info.hide).size > 0;
  }

  /**
   * What a control holds: its words are its name, not context; controls under it are still listed.
   * A clickable wrapper whose words all belong to the controls it holds (a menu button's wrapper with
   * its open menu) is those controls, not one more.
   * @param {Element} el @param {string} g @param {number} dx @param {number} dy @param {boolean} ptr
   * @param {ScopeInfo} scope @param {boolean} hide @param {Entry | null} around
   * @param {Entry | null} entry el's own entry, if listed @param {Flow | null} flow
   */
  controlChildren(el, g, dx, dy, ptr, scope, hide, around, entry, flow) {
    const entries = this.entries, first = entries.length;
    for (let c = firstElOf(el); c; c = nextElOf(c)) this.visit(c, g, dx, dy, true, ptr, scope, hide, around, flow);
    if (entry && entry.el === el && entries.length > first && isContainer(el) && wordsAllIn(el, entries, first)) {
      entries.splice(entries.indexOf(entry), 1);
      this.seen.delete(entry.id);
      if (entry.isNew) this.newCount--;
      if (entry.inline && flow) flow.parts.splice(flow.parts.indexOf(entry), 1);
    }
  }

  /**
   * Inline content inside a run: its words and controls keep their place in the sentence; the words
   * of a label (all of them, in whatever it wraps them) are its control's name.
   * @param {Element} el @param {string} tag @param {string} g @param {number} dx @param {number} dy
   * @param {boolean} ptr @param {ScopeInfo} scope @param {boolean} hide @param {Entry | null} around @param {Flow} flow
   */
  inlineChildren(el, tag, g, dx, dy, ptr, scope, hide, around, flow) {
    const words = !isRedundantLabel(el);
    if (!words) flow.mute++;
    if (flow.after) { flow.parts.push(" "); flow.after = false; } // two elements side by side read as two words
    for (let n = firstChildOf(el); n; n = nextSiblingOf(n)) {
      const type = nodeTypeOf(n);
      if (type === 3) {
        if (flow.mute) continue;
        const s = /** @type {string} */ (nodeValueOf(n));
        flow.parts.push(this.revealing.length ? { s, el, hover: true } : { s, el }); flow.after = false;
        if (!flow.text) flow.text = NON_SPACE.test(s);
      }
      else if (type === 1) this.visit(/** @type {Element} */ (n), g, dx, dy, false, ptr, scope, hide, around, flow);
    }
    if (!words) flow.mute--;
    if (tag === "br") flow.parts.push(" ");
    flow.after = true;
  }

  /**
   * The table a row is read across in (a table with column headers, one of rows alike, or a form
   * laid out as a table), or null. @param {Element} row
   */
  dataTable(row) {
    const table = tableOf(row);
    return table && (columnHeads(table, this.tables) || rowsAlike(table, this.tables) || isFormRow(row)) ? table : null;
  }

  /**
   * A data table's row as one line, as a person reads across it: each cell with its column's header
   * (`name Red Mug · price 8.50 · [e41 link Edit]`), its controls in their place; an empty cell says
   * nothing. The header row reads its headers (and their sort links) in the same way, unprefixed.
   * @param {Element} row @param {Element} table @param {string} g @param {number} dx @param {number} dy
   * @param {boolean} ptr @param {ScopeInfo} scope @param {boolean} hide @param {Entry | null} outer
   */
  rowLine(row, table, g, dx, dy, ptr, scope, hide, outer) {
    const tables = this.tables;
    // A row a grid draws in parts (pinned columns and the rest) is read whole, where its first part is.
    const parts = rowParts(row, table);
    const cells = partsCells(parts);
    let header;
    if (parts.length === 1) header = isHeaderRow(row, table, tables, cells) || isSpanningRow(row, cells);
    else {
      for (const p of parts) this.joined.add(p);
      header = parts.some((p) => isHeaderRow(p, table, tables));
    }
    const heads = header ? [] : columnHeads(table, tables) || [];
    const f = newFlow(this.order++);
    let text = false;
    for (const { cell, col } of cells) {
      const p0 = f.parts.length, e0 = f.entries;
      if (p0) f.parts.push(" · ");
      const h = heads[col] || "";
      if (h) f.parts.push({ s: `${h} `, el: cell });
      f.text = false; f.after = false;
      this.visit(cell, g, dx, dy, false, ptr, scope, hide, outer, f);
      if (!f.text && f.entries === e0) f.parts.length = p0; // an empty cell: no header, no separator
      else {
        // A cell of controls alone under no header (a row's actions) needs no separator: its
        // brackets set it apart.
        if (p0 && !h && !f.text) f.parts[p0] = " ";
        text = text || f.text || !!h;
      }
    }
    f.text = text;
    this.endRun(f, g, "", row, dy);
  }

  /**
   * A block's children, as a person reads them: each run of text and inline elements between
   * block children becomes one text block (a sentence keeps its bold words and links in place);
   * block children are visited on their own.
   * @param {Element} el @param {string} g @param {number} dx @param {number} dy @param {boolean} ptr
   * @param {ScopeInfo} scope @param {boolean} hide @param {Entry | null} outer @param {string} mark see TextBlock:
   * a heading's mark starts each of its lines, a list item's only its first
   */
  runs(el, g, dx, dy, ptr, scope, hide, outer, mark) {
    const words = !isRedundantLabel(el);
    if (childCountOf(el) === 0) {
      // A leaf (most blocks): all its text is one run of its own.
      if (words && firstChildOf(el)) {
        const s = textOf(el) || "";
        if (NON_SPACE.test(s)) {
          const f = newFlow(this.order++);
          f.parts.push({ s, el });
          this.texts.push(/** @type {TextBlock} */ (/** @type {unknown} */ (new FlowText(f, g, mark, el, dy))));
        }
      }
      return;
    }
    /** @type {Flow | null} */ let flow = null;
    for (let n = firstChildOf(el); n; n = nextSiblingOf(n)) {
      const type = nodeTypeOf(n);
      if (type === 3) {
        if (!words) continue;
        const s = /** @type {string} */ (nodeValueOf(n));
        if (!flow) { if (!NON_SPACE.test(s)) continue; flow = newFlow(this.order++); }
        flow.parts.push(this.revealing.length ? { s, el, hover: true } : { s, el }); flow.after = false;
        if (!flow.text) flow.text = NON_SPACE.test(s);
      } else if (type === 1) {
        const c = /** @type {Element} */ (n);
        if (isInline(c)) {
          if (!flow) { flow = newFlow(this.order++); if (!words) flow.mute = 1; }
          this.visit(c, g, dx, dy, false, ptr, scope, hide, outer, flow);
        } else {
          if (flow && this.endRun(flow, g, mark, el, dy) && mark === LIST_ITEM) mark = "";
          flow = null;
          this.visit(c, g, dx, dy, false, ptr, scope, hide, outer, null);
        }
      }
    }
    if (flow) this.endRun(flow, g, mark, el, dy);
  }

  /**
   * A run ends: with words of its own it is a text block (returns true); controls alone keep lines
   * of their own.
   * @param {Flow} flow @param {string} g @param {string} mark @param {Element} el @param {number} dy
   */
  endRun(flow, g, mark, el, dy) {
    if (flow.text) { this.texts.push(/** @type {TextBlock} */ (/** @type {unknown} */ (new FlowText(flow, g, mark, el, dy)))); return true; }
    if (flow.entries) for (const p of flow.parts) if (typeof p === "object" && "id" in p) p.inline = false;
  }

  /**
   * After the walk: text blocks placed, controls the pointer is off for marked, the parts a styled
   * control is drawn with and what nothing reaches taken out (and not seen: what the model was not
   * shown is new when it comes out from under the cover); the registry remembers what was listed.
   * @param {Document} doc @param {boolean} remember @returns {Scan}
   */
  finish(doc, remember) {
    const { entries, seen } = this;
    placeTexts(this.texts, entries, this.vh);
    if (this.noPointer.size) markNoPointer(entries, this.noPointer);
    const painted = dropPaintedParts(entries);
    const { covered, hidden } = dropUnreachable(doc, entries);
    for (const e of [...(covered ? covered.entries : []), ...hidden, ...painted]) { seen.delete(e.id); if (e.isNew) this.newCount--; }
    if (remember) this.reg.lastSeen = seen;
    this.reg.prune();
    return {
      entries, texts: this.texts, remoteFrames: this.remoteFrames, framesRead: this.framesRead, dialogs: this.dialogs, newCount: this.newCount,
      covered, hidden: hidden.length, skipped: this.skipped, unseenWords: this.unseenWords, coveredWords: this.coveredWords,
      url: doc.location ? doc.location.href : "",
      title: doc.title,
      scroll: scrollInfo(doc), // the document's, or the container's that scrolls in its place
    };
  }
}
