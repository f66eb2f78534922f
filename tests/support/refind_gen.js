// @ts-check
/**
 * The page side of the generated re-finding trials (tests/support/refind_gen.py draws them): builds
 * a drawn document (open shadow roots included), picks the control to re-find, captures its
 * signature (JSON round-tripped, as it travels), applies the drawn changes one after the other,
 * asks `refind`, and checks its answer against re-finding's invariants (extension/content/refind.js):
 *
 *   - never another element: the answer is the element itself or an abstention — unless another
 *     element now carries the captured signature to the letter, its place included (its ancestors
 *     as samePath reads them, or its place as inPlace reads it), or carries every value but its place while the element itself no
 *     longer does (a copy of its card put beside it, then its own words changed), or — where only
 *     its place told it from its look-alikes — stands in that place and is now the element's
 *     equal in all but place (identical stars reordered as their card's title changed, or as
 *     all their classes were rebuilt): no signature can tell those apart, and the invariants
 *     below may take that one — a "twin", counted apart;
 *   - gone is gone: once the element is deleted, nothing is found — but a copy of it put beside it
 *     that differs from it by reworded words alone is what the element reworded would be (a twin);
 *   - an untouched original wins: when the element still carries every value its signature
 *     recorded (attributes, classes, words, label, the parts of the page it stands in) and no other
 *     element does — nor did when it was captured — it is found;
 *   - position never decides alone: what is found has no other element that ties with it on
 *     everything but its place (box, order, ancestor path), unless it stands in the captured
 *     place itself, all of it (the same box, ancestors — a wrapper put in or taken out aside — and
 *     words around it, the k-th of as many), and either only its place told the element from
 *     others like it when it was captured or it still carries all it carried itself;
 *   - a contradiction loses: what is found carries no value that contradicts a recorded one
 *     (another name, label, placeholder, link, value, data key, row) while another element merely
 *     lacks some of them and agrees on the rest.
 *
 * Which element is being re-found is known by reference (a WeakSet), never by a mark a copy could
 * carry: `cloneNode` copies attributes, not that.
 */
import { captureSignature, refind, walkDeep } from "../../extension/content/refind.js";

/** What a person operates (written apart from the scanner's own test). */
const CONTROL = "a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], [role=checkbox], [role=switch], [role=tab]";
/** @param {Element} e */
function isRendered(e) { return e.isConnected && e.checkVisibility({ checkVisibilityCSS: true }); }

/** The element being re-found (by reference). @type {WeakSet<Element>} */
let truth = new WeakSet();
/** Copies of it that record what it records but for their ids (a copy whose drawn differences
 * changed nothing a signature keeps): once it is gone or changes, such a copy is what it was, and no
 * signature can tell them apart. @type {WeakSet<Element>} */
let standIns = new WeakSet();
/** Copies of it that differ from it by reworded words alone: once it is gone, such a copy in its place
 * is what the element reworded would be, and no signature can tell them apart. @type {WeakSet<Element>} */
let reworded = new WeakSet();

/** @typedef {{t: string, a: Record<string, string>, k: Array<Node | string>, s?: Array<Node | string>}} Node */

/** @param {Node | string} n @returns {globalThis.Node} */
function make(n) {
  if (typeof n === "string") return document.createTextNode(n);
  const e = document.createElement(n.t);
  for (const [k, v] of Object.entries(n.a || {})) e.setAttribute(k, v);
  if (n.s) { const r = e.attachShadow({ mode: "open" }); for (const c of n.s) r.appendChild(make(c)); }
  for (const c of n.k || []) e.appendChild(make(c));
  return e;
}

/** Builds the document in the page's body. @param {Node} doc */
export function build(doc) {
  truth = new WeakSet();
  standIns = new WeakSet();
  reworded = new WeakSet();
  document.body.replaceChildren(make(doc));
}

/** Every element of the page, open shadow roots included, in deep order. */
function deep() {
  /** @type {Element[]} */ const out = [];
  walkDeep(document.body, (e) => out.push(e));
  return out;
}

/** A copy with its shadow roots (cloneNode leaves them out). @param {globalThis.Node} n @returns {globalThis.Node} */
function deepClone(n) {
  if (n.nodeType !== 1) return n.cloneNode(false);
  const e = /** @type {Element} */ (n);
  const c = /** @type {Element} */ (e.cloneNode(false));
  if (e.shadowRoot) { const r = c.attachShadow({ mode: "open" }); for (const k of Array.from(e.shadowRoot.childNodes)) r.appendChild(deepClone(k)); }
  for (const k of Array.from(e.childNodes)) c.appendChild(deepClone(k));
  return c;
}

/** Parent across shadow boundaries. @param {Element} e */
function up(e) {
  if (e.parentElement) return e.parentElement;
  const r = e.getRootNode();
  return r instanceof ShadowRoot ? r.host : null;
}

/** @param {string} s */
function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36).slice(0, 6);
}

/** @template T @param {T[]} list @param {number} pick @returns {T | undefined} */
function nth(list, pick) { return list.length ? list[pick % list.length] : undefined; }

const ITEM = "tr, li, article, section, fieldset, form, nav, [role=group], [role=toolbar], .card";

/** The element being re-found, while it is on the page. @returns {Element | null} */
function current() {
  for (const e of deep()) if (truth.has(e)) return e;
  return null;
}

/** What a change acts on. @param {string} who @param {number} pick @param {Element | null} t */
function resolve(who, pick, t) {
  const all = deep().filter((e) => !["main", "body", "html"].includes(e.localName));
  if (who === "any" || !t) return nth(all.filter((e) => e !== t), pick);
  if (who === "target") return t;
  if (who === "lookalike") {
    const words = (/** @type {Element} */ e) => (e.textContent || "").trim() + "\u0001" + (e.getAttribute("aria-label") || e.getAttribute("title") || "");
    const w = words(t);
    return nth(all.filter((e) => e !== t && e.localName === t.localName && words(e) === w), pick);
  }
  if (who === "container") {
    /** @type {Element[]} */ const anc = [];
    for (let p = up(t); p && !["main", "body"].includes(p.localName); p = up(p)) anc.push(p);
    return nth(anc, pick);
  }
  // A neighbour: in the same parent or the one above, not the element nor around it.
  const near = up(t) && up(/** @type {Element} */ (up(t)));
  return nth(all.filter((e) => e !== t && !e.contains(t) && !(e.getRootNode() instanceof ShadowRoot && /** @type {ShadowRoot} */ (e.getRootNode()).host.contains(t))
    && near && (near.contains(e) || near.shadowRoot?.contains(e) || up(e) === up(t))), pick);
}

/** Rewords an element's words (or, with none, its label attribute). @param {Element} x @param {string} how @returns {boolean} */
function reword(x, how) {
  const w = document.createTreeWalker(x, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const t = n.nodeValue || "";
    if (!/[\p{L}\p{N}]/u.test(t)) continue;
    n.nodeValue = rewordText(t, how);
    return true;
  }
  for (const a of ["aria-label", "title", "placeholder", "alt"]) {
    const v = x.getAttribute(a);
    if (v) { x.setAttribute(a, rewordText(v, how)); return true; }
  }
  return false;
}

/** @param {string} t @param {string} how */
function rewordText(t, how) {
  if (how === "grow") return t.replace(/([\p{L}\p{N}]+)(\P{L}*)$/u, "$1s$2");
  if (how === "number") return /\d/.test(t) ? t.replace(/\d+/, (d) => String(Number(d) + 1)) : `${t.trim()} 2`;
  if (how === "all") return t.replace(/[\p{L}]+/gu, (w) => (w.length > 1 ? "Zorb" : w));
  return t.replace(/[\p{L}]{2,}(?=\P{L}*$)/u, "Other");
}

/** The first data attribute's name. @param {Element} x */
function dataName(x) { return Array.from(x.attributes).map((a) => a.name).find((n) => n.startsWith("data-")) || ""; }

/** The attributes a change drops or renames, in the order it tries them from the one it drew. */
const ATTRS = ["name", "aria-label", "placeholder", "title", "id", "class", "href", "data", "type", "value", "alt"];

/**
 * The attribute of `x` a change acts on: the one it drew, or the next in ATTRS that `x` has.
 * @param {Element} x @param {string} drawn
 */
function attrOf(x, drawn) {
  const at = Math.max(0, ATTRS.indexOf(drawn));
  for (let i = 0; i < ATTRS.length; i++) {
    const a = ATTRS[(at + i) % ATTRS.length];
    const name = a === "data" ? dataName(x) : a;
    if (name && x.getAttribute(name)) return name;
  }
  return "";
}

/** Another value for an attribute. @param {string} name @param {string} v @param {number} pick */
function other(name, v, pick) {
  if (name === "id") return pick % 2 ? `${v}-${hash(v)}` : `x${hash(v + pick)}`;
  if (name === "class") return v.split(/\s+/).map((c) => `css-${hash(c + pick)}`).join(" ");
  if (name === "href") return /\d/.test(v) ? v.replace(/\d+/, (d) => String(Number(d) + 1)) : `${v.replace(/\/$/, "")}/other`;
  if (name === "type") return v === "search" ? "text" : "search";
  if (/^(aria-label|title|placeholder|alt)$/.test(name)) return rewordText(v, pick % 2 ? "replace" : "grow");
  return /\d/.test(v) ? v.replace(/\d+/, (d) => String(Number(d) + 7)) : `${v}-2`;
}

/** @param {Element} x */
function unitOf(x) {
  const l = x.parentElement;
  return l && l.localName === "label" && !l.hasAttribute("for") ? l : x;
}

/**
 * Applies one change; whether it applied (a change that does not fit what it drew is skipped).
 * @param {Record<string, any>} c
 */
function applyChange(c) {
  const t = current();
  if (c.who === "target" && !t) return false;
  const x = resolve(c.who, c.pick, t);
  if (!x) return false;
  switch (c.kind) {
    case "copy": {
      const unit = unitOf(x);
      const d = /** @type {Element} */ (deepClone(unit));
      const copyOf = unit === x ? d : /** @type {Element} */ (d.querySelector(x.localName) || d);
      for (const e of [d, ...Array.from(d.querySelectorAll("[id]"))]) if (e.id) e.id = `${e.id}-copy`;
      for (const e of [d, ...Array.from(d.querySelectorAll("[for]"))]) { const f = e.getAttribute("for"); if (f) e.setAttribute("for", `${f}-copy`); }
      for (const v of c.variants) {
        if (v === "classes") copyOf.setAttribute("class", copyOf.getAttribute("class") ? (copyOf.getAttribute("class") || "").split(/\s+/).map((k) => `${k}-alt`).join(" ") : "alt");
        else if (v === "name") copyOf.setAttribute("name", (copyOf.getAttribute("name") || "copy") + "2");
        else if (v === "href") { if (copyOf.hasAttribute("href")) copyOf.setAttribute("href", other("href", copyOf.getAttribute("href") || "", c.pick)); }
        else if (v === "data") { const n = dataName(copyOf); copyOf.setAttribute(n || "data-id", n ? other(n, copyOf.getAttribute(n) || "", c.pick) : "copy"); }
        else if (v === "marker") copyOf.setAttribute(["data-variant", "data-clone", "data-copy"][c.pick % 3], "b");
        else if (v === "words") reword(copyOf, "grow");
        else if (v === "label") { for (const a of ["aria-label", "title", "placeholder"]) if (copyOf.getAttribute(a)) { copyOf.setAttribute(a, `Also ${copyOf.getAttribute(a)}`); break; } }
      }
      if (c.before) unit.before(d); else unit.after(d);
      if (t && (unit === t || unit.contains(t))) {
        const twin = counterpart(unit, d, t);
        if (twin && sameButId(captureSignature(twin), captureSignature(t))) standIns.add(twin);
        else if (twin && c.variants.every((/** @type {string} */ v) => v === "words" || v === "none")) reworded.add(twin);
      }
      return true;
    }
    case "drop": {
      const name = attrOf(x, c.attr);
      if (!name) return false;
      x.removeAttribute(name);
      return true;
    }
    case "rename": {
      const name = attrOf(x, c.attr);
      if (!name) return false;
      x.setAttribute(name, other(name, x.getAttribute(name) || "", c.pick));
      return true;
    }
    case "hash": {
      /** @type {Element[]} */ let scope = [x];
      if (c.scope === "path") for (let p = up(x); p && p !== document.body; p = up(p)) scope.push(p);
      else if (c.scope === "root") { const r = x.getRootNode(); scope = r instanceof ShadowRoot ? Array.from(r.querySelectorAll("*")) : deep(); }
      else if (c.scope === "page") scope = deep();
      let any = false;
      for (const e of scope) { const k = e.getAttribute("class"); if (k) { e.setAttribute("class", other("class", k, 1)); any = true; } }
      return any;
    }
    case "wrap": {
      const unit = unitOf(x);
      const w = document.createElement(c.pick % 2 ? "div" : "span");
      if (c.pick % 3 === 0) w.className = "wrap";
      unit.replaceWith(w); w.appendChild(unit);
      return true;
    }
    case "unwrap": {
      const p = x.parentElement;
      if (!p || !["div", "span"].includes(p.localName) || p.shadowRoot) return false;
      p.replaceWith(...Array.from(p.childNodes));
      return true;
    }
    case "move": {
      const unit = unitOf(x);
      const p = unit.parentNode;
      if (!p) return false;
      if (c.to === "sibling") {
        const kids = Array.from(/** @type {ParentNode} */ (p).children).filter((k) => k !== unit);
        if (!kids.length) return false;
        const at = nth(kids, c.pick);
        if (c.pick % 2) /** @type {Element} */ (at).before(unit); else /** @type {Element} */ (at).after(unit);
        return true;
      }
      const gp = p instanceof Element ? p.parentNode : null;
      if (c.to === "grandparent" || (t && (x === t || x.contains(t)))) {
        if (!gp || gp === document.documentElement || gp === document.body) return false;
        gp.appendChild(unit);
        return true;
      }
      const into = nth(deep().filter((e) => /^(div|section|ul|td|form|fieldset|nav|li)$/.test(e.localName) && !unit.contains(e)), c.pick);
      if (!into) return false;
      into.appendChild(unit);
      return true;
    }
    case "reorder": {
      const box = c.who === "container" && x.children.length >= 2 ? x : x.parentNode;
      if (!box || /** @type {ParentNode} */ (box).children.length < 2) return false;
      const kids = Array.from(/** @type {ParentNode} */ (box).children);
      const n = kids.length, k = 1 + (c.pick % (n - 1));
      const order = c.pick % 2 ? kids.slice().reverse() : [...kids.slice(k), ...kids.slice(0, k)];
      for (const e of order) box.appendChild(e);
      return true;
    }
    case "reword": return reword(x, c.how);
    case "insert": {
      const item = /** @type {Element | null} */ (x.closest(ITEM)) || x;
      if (item === document.body || item.localName === "main") return false;
      const d = /** @type {Element} */ (deepClone(item));
      for (const e of [d, ...Array.from(d.querySelectorAll("*"))]) {
        if (e.id) e.id = `${e.id}-n`;
        for (const a of Array.from(e.attributes)) if (/^(data-|value$|href$|name$)/.test(a.name) && /\d/.test(a.value)) e.setAttribute(a.name, a.value.replace(/\d+/, (v) => String(Number(v) + 1000)));
      }
      const w = document.createTreeWalker(d, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) if (/[\p{L}]{3,}/u.test(n.nodeValue || "")) { n.nodeValue = "Newly added"; break; }
      item.after(d);
      // A record put in whose copy of the element records all the element records (its words,
      // keys and item unchanged by the insertion) is a stand-in for it, as a copy's is (see "copy").
      if (t && item.contains(t)) {
        const twin = counterpart(item, d, t);
        if (twin && sameButId(captureSignature(twin), captureSignature(t))) standIns.add(twin);
      }
      return true;
    }
    case "delete": {
      if (x === document.body) return false;
      x.remove();
      return true;
    }
  }
  return false;
}

/** Where `t` (inside `unit`) stands in `copy`, a copy of `unit`. @param {Element} unit @param {Element} copy @param {Element} t */
function counterpart(unit, copy, t) {
  /** @type {number[]} */ const path = [];
  for (let e = t; e !== unit; e = /** @type {Element} */ (e.parentElement)) {
    if (!e.parentElement) return null;
    path.unshift(Array.prototype.indexOf.call(e.parentElement.children, e));
  }
  let c = copy;
  for (const i of path) { c = c.children[i]; if (!c) return null; }
  return c;
}

/**
 * Whether a copy records what the element records but for what a copy cannot keep: its id (ids are
 * unique), and the label and name its id gave it. @param {any} a @param {any} b
 */
function sameButId(a, b) {
  const strip = (/** @type {any} */ s) => {
    const attrs = { ...s.attrs };
    delete attrs.id;
    return JSON.stringify([s.tag, s.role, s.text, sorted(attrs), s.classes, s.icon || "", s.shadow, s.context || null]);
  };
  return strip(a) === strip(b);
}

/** A change that the page refuses (a node put inside itself through a shadow root) is skipped. @param {Record<string, any>} c */
function tryChange(c) {
  try { return applyChange(c); } catch { return false; }
}

/** The interactive elements a target is drawn from (rendered, not the page's scaffolding). */
function controls() {
  return deep().filter((e) => e.matches(CONTROL) && isRendered(e));
}

// --- the invariants, written apart from the matcher ----------------------------------------------

/** What a signature says the element is, place left out. @param {any} s */
function own(s) {
  return JSON.stringify([s.tag, s.role, s.name, s.text, sorted(s.attrs), s.classes, s.label, s.icon || "", s.shows || "", s.shadow, s.context || null]);
}
/**
 * The containers the element stood in whose author gave them an id (`form#sign-up`), that still
 * stand: one of two look-alikes inside them and the other outside (in a copy of the form) are
 * told apart by that container, not by their place. @param {any} sig @returns {string[]}
 */
function standingHolders(sig) {
  const steps = (sig.path || []).filter((/** @type {string} */ x) => /^[a-z][\w-]*#/.test(x));
  return steps.filter((/** @type {string} */ x) => deep().some((e) => `${e.localName}#${e.id}` === x));
}
/** Whether an element stands inside all of these containers (across shadow roots). @param {Element} el @param {string[]} steps */
function within(el, steps) {
  /** @type {Set<string>} */ const up = new Set();
  for (let p = /** @type {Node | null} */ (el); p; p = p.parentNode instanceof ShadowRoot ? p.parentNode.host : p.parentNode) {
    if (p instanceof Element && p !== el && p.id) up.add(`${p.localName}#${p.id}`);
  }
  return steps.every((x) => up.has(x));
}
/** What a signature says of the element itself (own, less the parts of the page it stands in). @param {any} s */
function itself(s) { return JSON.stringify([s.tag, s.role, s.name, s.text, sorted(s.attrs), s.classes, s.label, s.icon || "", s.shows || "", s.shadow]); }
/** The same with the words around it: all but the place. @param {any} s */
function allButPlace(s) { return own(s) + "\u0001" + s.neighbor; }
/** @param {Record<string, string>} o */
function sorted(o) { return Object.keys(o || {}).sort().map((k) => [k, o[k]]); }
/**
 * The signature to the letter — but for its focus, for how many look-alikes and ids like it the
 * page holds (a copy put before it counts among them), and for its ancestors (see samePath). @param {any} s
 */
function whole(s) {
  return JSON.stringify({ ...s, state: { ...s.state, focused: undefined }, order: undefined, twins: undefined, alone: undefined, peers: undefined, path: undefined });
}

/** Whether a signature is the captured one to the letter (see whole), in the same place in the tree. @param {any} sig @param {any} s */
function toTheLetter(sig, s) { return whole(s) === whole(sig) && samePath(sig.path || [], s.path || []); }

/** Whether a candidate stands in the captured place itself. @param {any} sig @param {any} s */
function inPlace(sig, s) {
  const a = sig.box, b = s.box;
  // (Among no fewer look-alikes: one gone, the next may have slid into its place.)
  const kept = (/** @type {any} */ x, /** @type {any} */ y) => !x || (!!y && y.n >= x.n);
  if (!a || !b || !kept(sig.order, s.order) || !kept(sig.twins, s.twins) || s.neighbor !== sig.neighbor || !samePath(sig.path || [], s.path || [])) return false;
  if (JSON.stringify((sig.path || []).map(tagOfStep)) === JSON.stringify((s.path || []).map(tagOfStep))) {
    return Math.abs(a.x - b.x) <= 1 && Math.abs(a.y - b.y) <= 1 && a.w === b.w && a.h === b.h;
  }
  // A wrapper put in or taken out may move it (a block drops it to the next line): then the k-th of as many.
  const same = (/** @type {any} */ x, /** @type {any} */ y) => !x === !y && (!x || (x.k === y.k && x.n === y.n));
  return same(sig.order, s.order) && same(sig.twins, s.twins);
}

/**
 * Whether two ancestor paths (six steps at most, the farthest cut off) are the same place: the
 * same tags (classes rehashed by a build do not move it), or one of them the other with one step
 * put in (nor does a wrapper put around the element or an ancestor). @param {string[]} a @param {string[]} b
 */
function samePath(a, b) {
  a = a.map(tagOfStep); b = b.map(tagOfStep);
  const less = (/** @type {string[]} */ x, /** @type {string[]} */ y) => x.some((_, i) => {
    const z = [...x.slice(0, i), ...x.slice(i + 1)];
    return (y.length === z.length || (y.length === 6 && z.length === 5)) && JSON.stringify(z) === JSON.stringify(y.slice(0, z.length));
  });
  return JSON.stringify(a) === JSON.stringify(b) || less(a, b) || less(b, a);
}

/** A path step's tag ("div.stars" → "div"). @param {string} x */
function tagOfStep(x) { return x.split(/[.#]/)[0]; }

/** Identifying values: another one of these is another element. */
const IDENTIFYING = /^(name|href|value|aria-label|placeholder|title|alt|data-.*)$/;

/** Attributes that hold words a person reads: an inflection of them is the same value. */
const WORDS = /^(aria-label|placeholder|title|alt)$/;

/**
 * Whether b is a inflected (the same words, one of them grown or cut by at most two letters at its
 * end: "1 star" and "1 stars"): the same value reworded, not another.
 * @param {string} a @param {string} b
 */
function inflected(a, b) {
  const x = a.trim().split(/\s+/), y = b.trim().split(/\s+/);
  if (x.length !== y.length) return false;
  return x.every((w, i) => { const [l, s] = w.length >= y[i].length ? [w, y[i]] : [y[i], w]; return l.startsWith(s) && l.length - s.length <= 2 && /^\p{L}*$/u.test(l.slice(s.length)); });
}

/** Whether a candidate carries another value than a recorded identifying one (or another row). @param {any} sig @param {any} s */
function contradicts(sig, s) {
  for (const [k, v] of Object.entries(sig.attrs || {})) {
    const w = (s.attrs || {})[k];
    if (IDENTIFYING.test(k) && w !== undefined && w !== v && !(WORDS.test(k) && inflected(v, w))) return true;
  }
  if (sig.label && s.label && sig.label !== s.label && !inflected(sig.label, s.label)) return true;
  const a = sig.context?.item || "", b = s.context?.item || "";
  return !!a && !!b && a !== b;
}

/** Whether a candidate agrees with every recorded value it has, and lacks at least one. @param {any} sig @param {any} s */
function merelyLacks(sig, s) {
  let lacks = false;
  for (const [k, v] of Object.entries(sig.attrs || {})) {
    const w = (s.attrs || {})[k];
    if (w === undefined) lacks = true; else if (w !== v) return false;
  }
  for (const k of Object.keys(s.attrs || {})) if (!(k in (sig.attrs || {})) && k !== "role") return false;
  if (s.tag !== sig.tag || s.text !== sig.text || JSON.stringify(s.context || null) !== JSON.stringify(sig.context || null)) return false;
  if ((s.classes || []).length && JSON.stringify(s.classes) !== JSON.stringify(sig.classes)) return false;
  if (sig.label && s.label && s.label !== sig.label) return false;
  if (sig.label && !s.label) lacks = true;
  return lacks;
}

/**
 * Runs trials: each builds its document, draws its target, captures, changes, re-finds and checks.
 * @param {Array<{doc: Node, target: number, changes: Array<Record<string, any>>}>} trials
 * @param {{explain?: boolean}} [opts]
 */
export function runTrials(trials, opts = {}) {
  return trials.map((tr) => runTrial(tr, opts));
}

/** @param {{doc: Node, target: number, changes: Array<Record<string, any>>}} tr @param {{explain?: boolean}} opts */
export function runTrial(tr, opts = {}) {
  build(tr.doc);
  const t0 = nth(controls(), tr.target);
  if (!t0) return { skipped: "no control" };
  truth.add(t0);
  const sig = JSON.parse(JSON.stringify(captureSignature(t0)));
  const ownWas = own(sig);
  const peers = deep().filter((e) => e.localName === sig.tag && isRendered(e) && own(captureSignature(e)) === ownWas).length;
  /** @type {string[]} */ const applied = [];
  let touched = false;
  for (const c of tr.changes) {
    const before = current();
    if (tryChange(c)) { applied.push(`${c.kind}:${c.who}${c.variants ? ":" + c.variants.join("+") : c.attr ? ":" + c.attr : c.how ? ":" + c.how : c.to ? ":" + c.to : c.scope ? ":" + c.scope : ""}`); if (c.who === "target" || c.who === "container" || (before && !current())) touched = true; }
  }
  const t = current();
  const ms0 = performance.now();
  const r = refind(sig, document);
  const ms = performance.now() - ms0;
  // Everything that could be compared with it, read once.
  const els = deep().filter((e) => isRendered(e) && (e.localName === sig.tag || e === r.element));
  const sigs = new Map(els.map((e) => [e, JSON.parse(JSON.stringify(captureSignature(e)))]));
  const exact = els.filter((e) => own(sigs.get(e)) === ownWas);
  const twin = els.some((e) => e !== t && (toTheLetter(sig, sigs.get(e)) || (allButPlace(sigs.get(e)) === allButPlace(sig) && inPlace(sig, sigs.get(e)))))
    || (exact.length === 1 && exact[0] !== t) || (!!r.element && standIns.has(r.element) && r.element !== t)
    || (!t && !!r.element && reworded.has(r.element))
    || (!!t && !!r.element && r.element !== t && peers > 1 && sigs.has(r.element) && sigs.has(t) && inPlace(sig, sigs.get(r.element))
      && own(sigs.get(r.element)) === own(sigs.get(t)));
  const outcome = !t ? (r.status === "found" ? "wrong" : "refused") : r.status !== "found" ? "abstained" : r.element === t ? "correct" : "wrong";
  /** @type {string[]} */ const broken = [];
  // What was found carries the element's id grown a suffix ("zip" → "zip-copy"): what a framework
  // also does to the element itself as it renders again (a known gap of "gone is gone").
  const was = String((sig.attrs || {}).id || ""), now = r.element ? String(r.element.id || "") : "";
  const grownId = !!was && now !== was && now.startsWith(was) && /^[-_:.]/.test(now.slice(was.length));
  if (r.status === "found" && r.element !== t && !twin && !(!t && grownId)) broken.push(t ? "another element" : "gone is gone");
  if (t && exact.length === 1 && exact[0] === t && peers === 1 && outcome !== "correct") broken.push("untouched original");
  if (r.status === "found" && r.element) {
    const s = sigs.get(r.element) || JSON.parse(JSON.stringify(captureSignature(r.element)));
    const tie = allButPlace(s);
    const standing = standingHolders(sig), inside = within(r.element, standing);
    if (!twin && !(inPlace(sig, s) && (peers > 1 || itself(s) === itself(sig))) && els.some((e) => e !== r.element && allButPlace(sigs.get(e)) === tie && within(e, standing) === inside)) broken.push("position alone");
    if (contradicts(sig, s) && els.some((e) => e !== r.element && merelyLacks(sig, sigs.get(e)))) broken.push("contradiction");
  }
  /** @type {Record<string, any>} */
  const out = { outcome, deleted: !t, twin, broken, applied, touched, peers, exact: exact.length, ms: Math.round(ms * 100) / 100, status: r.status, why: r.why || null, grownId };
  if (opts.explain && (broken.length || outcome === "wrong")) {
    out.sig = sig;
    out.got = r.element ? sigs.get(r.element) || null : null;
    out.truth = t ? sigs.get(t) || null : null;
    out.candidates = r.candidates.slice(0, 4).map((c) => `${c.element === t ? "*" : ""}${c.tag} ${JSON.stringify(c.name).slice(0, 40)} ${c.score}`);
  }
  return out;
}
