// @ts-check
/**
 * The element map: every visible, interactive element of a document (through open shadow roots and
 * same-origin iframes), each under an id that stays the same for the same live element across scans.
 *
 * Ids live in a registry keyed by the element itself (WeakMap element → id, id → WeakRef), so a
 * re-render that keeps the node keeps the id, a node the page dropped can be garbage collected, and a
 * new node gets a fresh id — never a recycled one, so a stale id can never point at the wrong thing.
 */
import { INTERACTIVE_TAGS, isInteractiveCheap, isRendered, isToolUi, norm, accessibleName } from "./refind.js";
import { pointerElements } from "./dom_pointer.js";

/**
 * @typedef {import("./refind.js").Signature} Signature
 * @typedef {{id: string, el: Element, isNew: boolean, group: string, order: number,
 *   where: "in" | "above" | "below", dist: number, box: {x: number, y: number, w: number, h: number}, name?: string}} Entry
 *   box: in the top frame's viewport at scan time; name: set by the rendering, reused by the signature
 * @typedef {{order: number, text: string, group: string, where: "in" | "above" | "below", dist: number, heading: boolean,
 *   el?: Element}} TextBlock  el: the element to ask whether the text is visible (asked only when it is rendered)
 * @typedef {{url: string, name: string, box: {x: number, y: number, w: number, h: number}}} RemoteFrame
 * @typedef {{name: string, text: string, id?: string}} DialogInfo
 * @typedef {{x: number, y: number, viewport_w: number, viewport_h: number, page_w: number,
 *   page_h: number, above_px: number, below_px: number}} ScrollInfo
 * @typedef {{entries: Entry[], texts: TextBlock[], remoteFrames: RemoteFrame[], dialogs: DialogInfo[],
 *   scroll: ScrollInfo, url: string, title: string, newCount: number}} Scan
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
    /** Ids seen in the last scan (to mark what is new). @type {Set<string> | null} */
    this.lastSeen = null;
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

  /** Forget ids whose elements were collected (keeps the map small on long sessions). */
  prune() { for (const [id, ref] of this.refs) if (!ref.deref()) this.refs.delete(id); }
}

const SKIP_TAGS = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "svg", "math"]);
// Tables are content, not landmarks: their rows read as text lines (a group header per table would
// cost two lines each time for nothing the header row does not already say).
const LANDMARKS = new Set(["form", "nav", "header", "footer", "main", "aside", "dialog", "fieldset"]);
const LANDMARK_ROLES = new Set(["form", "navigation", "banner", "contentinfo", "main", "complementary", "dialog", "alertdialog", "search", "region", "tablist", "menu", "menubar", "toolbar", "grid"]);
const TEXT_BLOCK = new Set("h1 h2 h3 h4 h5 h6 p li td th dt dd label legend caption figcaption blockquote pre span div strong em b i small code".split(" "));

const NON_SPACE = /\S/;
const HEADING = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

/** A text block whose `text` (normalised) is computed on first read (a getter on the prototype keeps
 * the objects cheap to make). */
class LazyText {
  /** @param {string} raw @param {number} order @param {string} group @param {boolean} heading @param {Element} el */
  constructor(raw, order, group, heading, el) {
    this.raw = raw; this.order = order; this.group = group;
    /** @type {"in" | "above" | "below"} */ this.where = "in";
    this.dist = 0; this.heading = heading; this.el = el;
    /** @type {string | null} */ this.normed = null;
  }

  get text() { if (this.normed === null) this.normed = norm(this.raw); return this.normed; }
}

const CONTROLS = "a[href],button,input,select,textarea,[role],[tabindex],[onclick],[contenteditable]";

/** Text the element map already says: a label's words are its control's name, a legend the group's. @param {Element} el */
function isRedundantLabel(el) {
  if (el.localName === "legend") return true; // a caption stays: tables are not groups
  return el.localName === "label" && !!(/** @type {HTMLLabelElement} */ (el).control);
}

/** A dialog's name: its label, else its heading, else its first words. @param {Element} el */
export function dialogName(el) {
  const labelled = el.getAttribute("aria-label") || el.getAttribute("aria-labelledby") ? accessibleName(el) : "";
  return norm(labelled || el.querySelector("h1,h2,h3,h4,h5,h6,[role=heading]")?.textContent || el.textContent).slice(0, 80);
}

/** A short name for a landmark/form that groups elements in the rendering. @param {Element} el */
function groupName(el) {
  const role = el.getAttribute("role") || el.localName;
  const name = norm(el.getAttribute("aria-label") || el.getAttribute("name") || el.getAttribute("title") || el.id
    || (el.localName === "fieldset" ? el.querySelector("legend")?.textContent : "")
    || (el.localName === "table" ? el.querySelector("caption")?.textContent : "")
    || (/dialog/.test(role) ? el.querySelector("h1,h2,h3,h4")?.textContent : ""));
  return name ? `${role} ${name.slice(0, 40)}` : role;
}

/** Where a box lies relative to the viewport, and how far from it (0 inside). @param {number} top @param {number} bottom @param {number} vh */
function placeOf(top, bottom, vh) {
  /** @type {"in" | "above" | "below"} */
  const where = bottom < 0 ? "above" : top > vh ? "below" : "in";
  return { where, dist: where === "in" ? 0 : where === "above" ? -bottom : top - vh };
}

const VIS = { checkOpacity: true, checkVisibilityCSS: true };

/**
 * Gives each text block its place: when the interactive elements just before and after it (in
 * document order) lie on the same side of the viewport, the text between them does too (it is only
 * used to rank what the token budget keeps); otherwise its box is read.
 * @param {Array<{t: TextBlock, el: Element, dy: number, prev: Entry | undefined}>} unplaced
 * @param {Entry[]} entries @param {number} vh
 */
function placeTexts(unplaced, entries, vh) {
  let k = 0; // index of the first entry after the current text
  for (const u of unplaced) {
    while (k < entries.length && entries[k].order < u.t.order) k++;
    const prev = u.prev, next = entries[k];
    if (prev && next && prev.where === next.where) {
      u.t.where = prev.where;
      u.t.dist = Math.min(prev.dist, next.dist);
    } else {
      const r = u.el.getBoundingClientRect();
      const p = placeOf(r.top + u.dy, r.bottom + u.dy, vh);
      u.t.where = p.where; u.t.dist = p.dist;
    }
  }
}

/**
 * Scans one document (and the same-origin frames and open shadow roots inside it).
 *
 * Cost matters (it runs before every model step, on pages of 20,000 nodes): no computed style is
 * read per node. Visibility is asked (`checkVisibility`) only of interactive elements, and one
 * that is not rendered at all takes its subtree with it; text blocks are asked only if the
 * rendering keeps them (dom_render.js); the pointer cursor comes from the
 * style sheets (dom_pointer.js); boxes are read only for interactive elements, while a text block
 * takes its place from the interactive elements around it in document order when both lie on the
 * same side of the viewport (it is then measured only where that does not settle it).
 * Signatures are not taken here: the caller takes them only for the elements it shows.
 * @param {Registry} reg
 * @param {{doc?: Document, remember?: boolean}} [opts] remember=false: a re-scan while acting, which
 *   must not change what the next observe marks as new (the model has not seen those elements)
 * @returns {Scan}
 */
export function scanPage(reg, opts = {}) {
  const doc = opts.doc || document;
  const win = /** @type {Window} */ (doc.defaultView);
  const vh = win.innerHeight, vw = win.innerWidth;
  /** @type {Entry[]} */ const entries = [];
  /** @type {TextBlock[]} */ const texts = [];
  /** @type {RemoteFrame[]} */ const remoteFrames = [];
  /** @type {DialogInfo[]} */ const dialogs = [];
  /** Text blocks waiting for a place, with the last entry before them. @type {Array<{t: TextBlock, el: Element, dy: number, prev: Entry | undefined}>} */
  const unplaced = [];
  const seen = new Set();
  let order = 0;
  let newCount = 0;

  /**
   * The pointer-cursor test for the elements of one tree scope (a document or a shadow root): a set
   * from the style sheets, or (when a sheet cannot be read) each element's computed style. Null
   * when nothing in the scope can have a pointer cursor.
   * @param {Document | ShadowRoot} scope
   * @returns {((el: Element) => boolean) | null}
   */
  const pointerTest = (scope) => {
    const set = pointerElements(scope);
    if (set) return set.size ? (e) => set.has(e) : null;
    const w = /** @type {Window} */ ((scope.ownerDocument || /** @type {Document} */ (scope)).defaultView);
    return (e) => w.getComputedStyle(e).cursor === "pointer";
  };

  /**
   * @param {Element} el @param {string} group @param {number} dx @param {number} dy offsets of the frame in the top page
   * @param {boolean} insideInteractive text under an interactive element is its name, not context
   * @param {boolean} parentPointer the parent shows a pointer cursor (its children inherit it)
   * @param {((el: Element) => boolean) | null} ptrTest the pointer test of el's tree scope
   */
  const visit = (el, group, dx, dy, insideInteractive, parentPointer, ptrTest) => {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag) && tag !== "svg") return;
    // Most nodes carry no attribute at all: one call then answers every attribute question below.
    const attrs = el.hasAttributes();
    if (attrs && (isToolUi(el) || (el.getAttribute("aria-hidden") === "true" && !el.matches("dialog,[role=dialog]")))) return;
    const pointer = !insideInteractive && !!ptrTest && ptrTest(el);
    /** @type {boolean | null} */ let vis = null;
    let unrendered = false;
    const isVisible = () => {
      if (vis === null) {
        vis = el.checkVisibility(VIS);
        // Not rendered at all (display: none, or inside it): nothing below it is either.
        if (!vis && !el.checkVisibility()) unrendered = true;
      }
      return vis;
    };

    const role = attrs ? el.getAttribute("role") : null;
    let g = group;
    if (LANDMARKS.has(tag) || (role && LANDMARK_ROLES.has(role))) {
      g = groupName(el);
      if ((tag === "dialog" && /** @type {HTMLDialogElement} */ (el).open) || role === "dialog" || role === "alertdialog" || el.getAttribute("aria-modal") === "true") {
        if (isVisible()) dialogs.push({ name: dialogName(el) || g, text: norm(el.textContent).slice(0, 200) });
      }
    }

    let interactive = false;
    if (tag !== "svg") {
      // The outermost pointer-cursor element is the target; its children inherit the cursor.
      interactive = ((attrs || INTERACTIVE_TAGS.has(tag)) && isInteractiveCheap(el)) || (pointer && !parentPointer);
      // A styled checkbox: the native input is invisible and its label takes the clicks.
      if (!interactive && tag === "label") {
        const ctl = /** @type {HTMLLabelElement} */ (el).control;
        if (ctl && (ctl.type === "checkbox" || ctl.type === "radio" || ctl.type === "file") && !isRendered(ctl)) interactive = true;
      }
      if (interactive && !isVisible()) interactive = false;
    }
    if (unrendered) return;
    if (interactive) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) {
        const id = reg.idFor(el);
        seen.add(id);
        const isNew = !!reg.lastSeen && !reg.lastSeen.has(id);
        if (isNew) newCount++;
        const { where, dist } = placeOf(r.top + dy, r.bottom + dy, vh);
        entries.push({ id, el, isNew, group: g, order: order++, where, dist,
          box: { x: r.left + dx, y: r.top + dy, w: r.width, h: r.height } });
      }
    } else if (!insideInteractive && tag === "tr" && !el.querySelector(CONTROLS)) {
      // A table row of plain cells reads best as one line.
      const cells = Array.from(/** @type {HTMLTableRowElement} */ (el).cells).map((c) => norm(c.textContent));
      while (cells.length && !cells[cells.length - 1]) cells.pop(); // an empty last column (actions) says nothing
      if (cells.some(Boolean)) {
        const t = { order: order++, text: cells.join(" | "), group: g, where: /** @type {"in"} */ ("in"), dist: 0, heading: false, el };
        texts.push(t);
        unplaced.push({ t, el, dy, prev: entries[entries.length - 1] });
      }
      return;
    } else if (!insideInteractive && TEXT_BLOCK.has(tag) && !isRedundantLabel(el)) {
      // Context text: the element's own text nodes (children render their own).
      let s = "";
      if (el.childElementCount === 0) s = el.textContent || ""; // a leaf: all its text is its own
      else for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 3) s += n.nodeValue;
      if (NON_SPACE.test(s)) {
        // Normalised only if the rendering reads it (most blocks of a big page are left out).
        const t = /** @type {TextBlock} */ (/** @type {unknown} */ (new LazyText(s, order++, g, HEADING.has(tag) || role === "heading", el)));
        texts.push(t);
        unplaced.push({ t, el, dy, prev: entries[entries.length - 1] });
      }
    }

    if (tag === "iframe" || tag === "frame") {
      const fr = el.getBoundingClientRect();
      /** @type {Document | null} */ let sub = null;
      try { sub = /** @type {HTMLIFrameElement} */ (el).contentDocument; } catch { sub = null; }
      if (sub && sub.documentElement) {
        const fx = dx + fr.left + el.clientLeft, fy = dy + fr.top + el.clientTop;
        texts.push({ order: order++, dist: 0, text: `frame ${norm(el.getAttribute("title") || el.getAttribute("name") || el.getAttribute("src") || "")}`.trim(), group: g, where: "in", heading: true });
        const test = pointerTest(sub);
        for (const c of Array.from(sub.body ? sub.body.children : sub.documentElement.children)) visit(c, g, fx, fy, false, false, test);
      } else {
        remoteFrames.push({ url: /** @type {HTMLIFrameElement} */ (el).src || "", name: el.getAttribute("title") || el.getAttribute("name") || "",
          box: { x: Math.round(fr.left + dx), y: Math.round(fr.top + dy), w: Math.round(fr.width), h: Math.round(fr.height) } });
      }
      return;
    }
    if (tag === "svg") return;
    const inner = insideInteractive || interactive;
    const ptr = pointer || parentPointer;
    const sr = el.shadowRoot;
    if (sr) { const test = pointerTest(sr); for (const c of Array.from(sr.children)) visit(c, g, dx, dy, inner, ptr, test); }
    if (tag === "select") return; // options are rendered with their select
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) visit(c, g, dx, dy, inner, ptr, ptrTest);
    // Slotted light-DOM children render through the shadow root's slots, and were visited above
    // as ordinary children: no second pass needed.
  };

  if (doc.body) visit(doc.body, "", 0, 0, false, false, pointerTest(doc));
  placeTexts(unplaced, entries, vh);
  if (opts.remember !== false) reg.lastSeen = seen;
  reg.prune();

  const se = doc.scrollingElement || doc.documentElement;
  const pageH = Math.max(se.scrollHeight, doc.body ? doc.body.scrollHeight : 0);
  const pageW = Math.max(se.scrollWidth, doc.body ? doc.body.scrollWidth : 0);
  return {
    entries, texts, remoteFrames, dialogs, newCount,
    url: doc.location ? doc.location.href : "",
    title: doc.title,
    scroll: {
      x: Math.round(win.scrollX), y: Math.round(win.scrollY), viewport_w: vw, viewport_h: vh,
      page_w: pageW, page_h: pageH,
      above_px: Math.round(win.scrollY), below_px: Math.max(0, Math.round(pageH - win.scrollY - vh)),
    },
  };
}
