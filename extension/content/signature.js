// @ts-check
/**
 * Element signatures: what heybro records of an element so it can find it again after the page
 * changed (refind.js). A pure ES module with no extension APIs.
 *
 *   captureSignature(element) → a JSON-serialisable description of the element: its tag and role,
 *   accessible name, words, label, the stable attributes its page's author gave it (id, name, link
 *   target, test ids, a few data keys), stable classes, the words beside it, its ancestor path,
 *   frames and shadow hosts, box and state; where it stands among its look-alikes (the k-th of n
 *   that look the same) and how many elements were it to the letter but for their place (`peers`);
 *   and **where it stands**: the zones around it (landmarks, sections, forms, groups and labelled
 *   components, with their names), the item it belongs to (its row's first cell, its card's title,
 *   or — for one of a run of containers of the same kind, a feed's posts written as plain `div`s —
 *   the item's own words: its author and handle).
 *
 * Signatures taken in one synchronous pass (an observe) share a `pass` map: each window's scroll
 * offsets, each root's labels and look-alike groups, each element's words are read once.
 */
import { norm } from "./norm.js";
import { rowLabel } from "./dom_tables.js";
import { isSecretField, SECRET_SHOWN } from "./dom_secret.js";
import { accessibleName, labelText, ownText, referencedText, roleOf, shownWords, visibleText } from "./accessible_name.js";
import { isInteractiveCheap } from "./controls.js";
import { deepActiveElement, walkDeep } from "./dom_roots.js";
import { textSim } from "./text_sim.js";
import { attr, attrNamesOf, attrsOf, childCountOf, childrenOf, clientLeftOf, clientTopOf, closestOf, comparePositionOf, containsOf, docOf, firstElOf, idOf, innerTextOf, isHtml, matchesOf, nextElOf, nextSiblingOf, nodeTypeOf, nodeValueOf, parentElOf, parentNodeOf, prevElOf, previousSiblingOf, qs, qsa, rectOf, rootOf, shadowOf, tagOf, textOf } from "./dom_native.js";

/**
 * @typedef {{x: number, y: number, w: number, h: number}} Box
 * @typedef {{value?: string, option?: string, checked?: boolean, selected?: boolean, disabled?: boolean,
 *   expanded?: boolean, focused?: boolean, secret?: boolean, pressed?: boolean, current?: boolean, on?: boolean,
 *   readonly?: boolean}} ElementState  pressed, current: aria-pressed, aria-current; on: a toggle drawn
 *   on with no markup saying so (drawnOn); readonly: a field that cannot be typed into; secret: a field whose
 *   value is a secret (dom_secret.js): its value is only ever shown as filled or empty. A select's
 *   value is the chosen option's words, as a person (and the page map) reads it; `option` its
 *   form value where that differs ("editor" behind "Editor")
 * @typedef {{v: number, tag: string, role: string, name: string, text: string,
 *   attrs: Record<string, string>, classes: string[], label: string, neighbor: string,
 *   path: string[], frame: string[], shadow: string[], box: Box, state: ElementState,
 *   order?: Twins, twins?: Twins, hosts?: string[], context?: Context, icon?: string, row?: string, shows?: string,
 *   alone?: string[], peers?: number}} Signature  peers: how many elements were it but for their place
 *   when it was captured (peersOf; absent: 1)
 * @typedef {{zones: string[], item: string, components?: string[]}} Context the parts of the page the
 *   element was captured in, innermost first: landmarks, sections, forms and groups as "kind:label"
 *   (`nav:Footer`, `form:/login`, `fieldset:Billing address`), the item it belongs to (its table
 *   row's or card's title), and — inside shadow roots — what names each component around it
 *   (componentLabel: "Rate this article"; "" where nothing does)
 * @typedef {{context?: Context, path?: string[]}} Placed where an element stands, as much of a
 *   signature as tells whether it stands in another part of the page (contextClash)
 * @typedef {{k: number, n: number}} Twins where an element stands in its document or shadow root:
 *   the k-th (from 0, in document order) of n elements (with its tag, or that look the same)
 */

export const SIGNATURE_VERSION = 4;

/** Attributes that tend to survive re-renders and identify an element. */
export const STABLE_ATTRS = ["id", "name", "type", "href", "alt", "aria-label", "placeholder", "title",
  "data-testid", "data-test-id", "data-test", "data-qa", "data-cy", "for", "action", "src", "value"];

const STABLE_SET = new Set(STABLE_ATTRS);

/** How many of an element's data- attributes a signature keeps (the first ones, short values). */
export const DATA_KEPT = 4;

export const TEST_ID_ATTRS = ["data-testid", "data-test-id", "data-test", "data-qa", "data-cy"];

/** The words of a state a page flips as the user works (in a class, or a data- attribute's name). */
export const UI_STATES = "active|hover(ed)?|focus(ed|-visible|-within)?|selected|open(ed)?|closed|disabled|visible|hidden|loading|current|checked|expanded|collapsed|animat\\w*|transition\\w*";

/** Class names that flip with UI state, not identity. */
const TRANSIENT_CLASS = new RegExp(`^(is-|has-)?(show(n)?|fade\\w*|ng-\\w+|${UI_STATES})$`, "i");

/** Class names a CSS-in-JS tool or CSS modules generated (they change from build to build). */
const HASHED_CLASS = /^(css|sc|jsx|emotion|styled|svelte|tw)-[\w-]{4,}$|__[\w-]{4,}$|^_[\w-]{5,}$|[-_](?=[a-z]*\d)[a-z0-9]{5,}$/i;

/** A styled-components style hash ("bZkfAO", "kQsvhW1"): a capital or a digit after one to three
 * small letters. Case matters: with it ignored, every word of six letters ("retweet", "details")
 * would read as a hash. */
const HASHED_CASE = /^[a-z]{1,3}[A-Z0-9][a-zA-Z0-9]{4,}$/;

/** @param {string} c */
function hashedClass(c) { return HASHED_CLASS.test(c) || HASHED_CASE.test(c); }

/** Whether a class name says what an element is (not its state, not a build's hash). @param {string} c */
export function isStableClass(c) { return !!c && !hashedClass(c) && !TRANSIENT_CLASS.test(c); }

/** Whether an id is one a framework generated. @param {string} id */
export function isGeneratedId(id) { return GENERATED_ID.test(id); }

/** Ids that frameworks generate (React useId, counters, uuids). */
const GENERATED_ID = /^:r\w*:$|\d{3,}|[0-9a-f]{8,}|^(ember|ext-gen|react-|radix-|headlessui-|mui-|yui_|uid-)/i;

/** @param {string} s @param {number} n */
function cut(s, n) { return s.length > n ? s.slice(0, n) : s; }

/** Nearest text before and after the element (what a person would read next to it). @param {Element} el */
export function neighborText(el) {
  /** @param {"previous" | "next"} dir */
  const find = (dir) => {
    /** @type {Node | null} */ let node = el;
    for (let depth = 0; node && depth < 4; depth++) {
      for (let s = dir === "previous" ? previousSiblingOf(node) : nextSiblingOf(node); s; s = dir === "previous" ? previousSiblingOf(s) : nextSiblingOf(s)) {
        const raw = nodeTypeOf(s) === 3 ? nodeValueOf(s) || "" : nodeTypeOf(s) === 1 ? textOf(/** @type {Element} */ (s)) || "" : "";
        // Only the 40 characters nearest the element count: normalise a slice, not a whole card.
        let t = norm(raw.length > 400 ? (dir === "previous" ? raw.slice(-400) : raw.slice(0, 400)) : raw);
        if (raw.length > 400 && t.length <= 40) t = norm(raw);
        if (t) return dir === "previous" ? t.slice(-40) : t.slice(0, 40);
      }
      node = parentNodeOf(node);
      if (!node || nodeTypeOf(node) !== 1 || tagOf(/** @type {Element} */ (node)) === "body") break;
    }
    return "";
  };
  return norm(`${find("previous")} | ${find("next")}`);
}

/** @param {Element} el */
function stableClasses(el) {
  /** @type {string[]} */
  const out = [];
  const cls = attr(el, "class");
  if (!cls) return out;
  for (const c of cls.split(/\s+/)) if (isStableClass(c)) out.push(c);
  return out.slice(0, 6);
}

/** Steps already worked out, checked against the id and class they came from (ancestors are shared
 * by many elements, and stay the same from one observe to the next). @type {WeakMap<Element, {id: string, cls: string | null, step: string}>} */
const stepCache = new WeakMap();

/** One step of an ancestor path: tag, plus a stable id or first stable class. @param {Element} el */
function step(el) {
  const cls = attr(el, "class"), rawId = idOf(el);
  const hit = stepCache.get(el);
  if (hit && hit.id === rawId && hit.cls === cls) return hit.step;
  const id = rawId && !GENERATED_ID.test(rawId) ? `#${rawId}` : "";
  let out;
  if (id) out = tagOf(el) + id;
  else { const c = stableClasses(el)[0]; out = tagOf(el) + (c ? `.${c}` : ""); }
  stepCache.set(el, { id: rawId, cls, step: out });
  return out;
}

/** Parent across shadow boundaries. @param {Element} el */
function parentOf(el) {
  if (parentElOf(el)) return parentElOf(el);
  const root = rootOf(el);
  return root instanceof ShadowRoot ? root.host : null;
}

/**
 * The containers around an element that the page's author named with an id (not a generated one),
 * as path steps ("form#log-in"), at any depth, across shadow boundaries.
 * @param {Element} el @returns {Set<string>}
 */
export function idHolders(el) {
  /** @type {Set<string>} */
  const out = new Set();
  for (let p = parentOf(el); p; p = parentOf(p)) {
    const id = idOf(p);
    if (id && !GENERATED_ID.test(id)) out.add(`${tagOf(p)}#${id}`);
  }
  return out;
}

/** @param {Element} el */
export function ancestorPath(el) {
  /** @type {string[]} */
  const path = [];
  for (let p = parentOf(el); p && tagOf(p) !== "body" && tagOf(p) !== "html" && path.length < 6; p = parentOf(p)) path.push(step(p));
  return path;
}

/** Same-origin frame chain (innermost first) and the element's offset in the top page. @param {Element} el */
function frameChain(el) {
  /** @type {string[]} */
  const frames = [];
  let dx = 0, dy = 0;
  let win = docOf(el)?.defaultView;
  try {
    while (win && win.frameElement) {
      const fe = win.frameElement;
      frames.push(idOf(fe) ? `#${idOf(fe)}` : attr(fe, "name") || attr(fe, "src") || tagOf(fe));
      const r = rectOf(fe);
      dx += r.left + clientLeftOf(fe); dy += r.top + clientTopOf(fe);
      win = docOf(fe).defaultView;
    }
  } catch { /* a cross-origin parent ends the chain */ }
  return { frames, dx, dy, topWin: win };
}

/** @param {Element} el */
function shadowChain(el) {
  /** @type {string[]} */
  const hosts = [];
  for (let root = rootOf(el); root instanceof ShadowRoot; root = rootOf(root.host)) hosts.push(step(root.host));
  return hosts;
}

/**
 * Whether a field holds a secret (dom_secret.js), its label read only when nothing else settles it.
 * @param {Element} el @param {Map<any, any>} [pass] see captureSignature
 */
export function secretField(el, pass) { return isSecretField(el, () => labelText(el, pass)); }

/** @param {Element} el @param {Map<any, any>} [pass] see captureSignature: labels read once @returns {ElementState} */
export function elementState(el, pass) {
  /** @type {ElementState} */
  const s = {};
  const tag = tagOf(el);
  if (tag === "input" || tag === "textarea" || tag === "select") {
    const inp = /** @type {HTMLInputElement} */ (el);
    if (inp.type === "checkbox" || inp.type === "radio") s.checked = inp.checked;
    else if (tag === "select") {
      const opt = /** @type {HTMLSelectElement} */ (el).selectedOptions[0];
      s.value = opt ? cut(norm(textOf(opt)), 200) : "";
      if (opt && opt.value !== s.value) s.option = cut(opt.value, 200);
    } else if (secretField(el, pass)) { s.value = inp.value ? SECRET_SHOWN : ""; s.secret = true; }
    else if (inp.type !== "file") s.value = cut(inp.value, 200);
    else s.value = Array.from(inp.files || []).map((f) => f.name).join(", ");
    if (matchesOf(el, ":disabled")) s.disabled = true; // its own attribute, or a disabled fieldset around it
    // (A combobox one cannot type in is chosen from, as a select is: ARIA's select-only combobox.)
    else if (tag !== "select" && inp.readOnly && inp.type !== "checkbox" && inp.type !== "radio" && attr(el, "role") !== "combobox") s.readonly = true;
  } else {
    const ac = attr(el, "aria-checked");
    if (ac !== null) s.checked = ac === "true";
    const ce = attr(el, "contenteditable");
    // An editable region's text is its value, its lines apart as shown.
    if ((ce !== null && ce !== "false") || (tag === "body" && docOf(el).designMode === "on")) s.value = cut(norm(isHtml(el) ? innerTextOf(el) : textOf(el)), 200);
    if (matchesOf(el, ":disabled") || /** @type {HTMLButtonElement} */ (el).disabled === true || attr(el, "aria-disabled") === "true"
      || wrapsDisabled(el)) s.disabled = true;
  }
  const sel = attr(el, "aria-selected");
  if (sel !== null) s.selected = sel === "true";
  const pressed = attr(el, "aria-pressed");
  if (pressed !== null && pressed !== "undefined") s.pressed = pressed === "true" || pressed === "mixed";
  const current = attr(el, "aria-current");
  if (current !== null && current !== "false" && current !== "undefined") s.current = true;
  if (s.value !== undefined && !s.readonly && attr(el, "aria-readonly") === "true") s.readonly = true;
  if (s.value === undefined && s.checked === undefined && s.pressed === undefined && sel === null && current === null
    && tag !== "select" && drawnOn(el)) s.on = true;
  const exp = attr(el, "aria-expanded");
  if (exp !== null) s.expanded = exp === "true";
  if (tag === "details" || (tag === "summary" && (parentElOf(el) ? tagOf(parentElOf(el)) : undefined) === "details")) s.expanded = !!(/** @type {HTMLDetailsElement} */ (tag === "details" ? el : parentElOf(el))).open;
  if (docOf(el) && deepActiveElement(docOf(el)) === el) s.focused = true;
  return s;
}

/**
 * A class that says a toggle is drawn on: a star filled (`starred`, `filled`), a switch lit
 * (`is-on`, `fa-toggle-on`), an item marked (`active`, `selected`, `marked`).
 */
const ON_CLASS = /^(?:is-|has-|state-)?(?:on|active|starred|filled|selected|checked|pressed|toggled|marked|favou?rited|liked|pinned)$|[-_](?:on|active|starred|filled|selected|checked|pressed|toggled)$/i;
const OFF_CLASS = /(?:^|[-_])(?:off|outlined?|empty|border|o)$/i;

/** @param {Element} el */
function classOn(el) {
  const c = attr(el, "class");
  if (!c) return false;
  const words = c.split(/\s+/);
  return words.some((w) => ON_CLASS.test(w)) && !words.some((w) => OFF_CLASS.test(w));
}

/**
 * Whether a control without ARIA state is drawn on, as a person sees it: its class, or an icon's
 * inside it (the first few elements), says so — a star toggle whose class flips to `starred`.
 * @param {Element} el
 */
function drawnOn(el) {
  if (classOn(el)) return true;
  let n = 0;
  for (let c = firstElOf(el); c && n < 4; c = nextElOf(c), n++) if (classOn(c) || (firstElOf(c) && classOn(/** @type {Element} */ (firstElOf(c))))) return true;
  return false;
}

/** Item roles whose element often only wraps the control that acts (a menu entry around its link). */
const WRAPPING_ROLES = /^(menuitem|menuitemcheckbox|menuitemradio|option|tab|treeitem|listitem)$/;

/**
 * An entry that only wraps one control, which is disabled (`<li role=menuitem><a aria-disabled=true>`):
 * clicking the entry clicks that control, so the entry is as disabled as it is.
 * @param {Element} el
 */
function wrapsDisabled(el) {
  if (!WRAPPING_ROLES.test(attr(el, "role") || (tagOf(el) === "li" ? "listitem" : "")) || childCountOf(el) > 3) return false;
  const inner = qsa(el, "a, button, [role=button], [role=link], [role=menuitem]");
  if (inner.length !== 1) return false;
  const c = inner[0];
  return (attr(c, "aria-disabled") === "true" || matchesOf(c, ":disabled")) && norm(textOf(c)) === norm(textOf(el));
}

// --- look-alikes --------------------------------------------------------------------------------
/** Whether the element's value attribute is part of what it is (a radio's value, a button's caption). @param {string} tag */
export function valueIsIdentity(tag) { return tag === "input" || tag === "button" || tag === "option"; }

/** Attributes that make up how an element looks to a person (its id and classes do not). */
const LOOK_ATTRS = ["type", "role", "name", "aria-label", "placeholder", "title", "href", "alt"];

const LOOK_SET = new Set([...LOOK_ATTRS, "value"]);

/**
 * What an element looks like, without its place: elements with the same key are look-alikes (twenty
 * "Add to cart" buttons, a grid of bare checkboxes). Built from the same cut values a signature keeps,
 * so `lookKeyOfSignature` gives the same key for the element the signature was taken from.
 * @param {string} tag @param {(name: string) => string} attr @param {string} text
 */
function lookKey(tag, attr, text) {
  return attrKey(tag, attr) + "\u0001" + text;
}

/**
 * The part of a look key its attributes make (see lookKey): the tag, then each look attribute that
 * has a value, by its place in LOOK_ATTRS (an empty one is as good as none).
 * @param {string} tag @param {(name: string) => string} attr
 */
function attrKey(tag, attr) {
  let k = tag;
  for (let i = 0; i < LOOK_ATTRS.length; i++) { const v = attr(LOOK_ATTRS[i]); if (v) k += "\u0002" + i + cut(v, 200); }
  const v = valueIsIdentity(tag) ? attr("value") : "";
  return v ? k + "\u0002v" + cut(v, 200) : k;
}

/**
 * An element's look attributes, read once (not each by name: a thousand buttons are keyed in an
 * observe); by their names, which cost less to list than the attributes themselves.
 * @param {Element} el
 */
function attrKeyOf(el) {
  const names = attrNamesOf(el);
  if (!names.length) return tagOf(el);
  /** @type {Record<string, string>} */
  const own = {};
  for (let i = 0; i < names.length; i++) { const n = names[i]; if (LOOK_SET.has(n)) own[n] = attr(el, n) || ""; }
  return attrKey(tagOf(el), (a) => own[a] || "");
}

/** @param {Element} el @param {Map<any, any>} [pass] */
export function lookKeyOf(el, pass) {
  return attrKeyOf(el) + "\u0001" + lookText(el, pass);
}

/** The words of a look key (a select's are its options, which say nothing of how it looks). @param {Element} el @param {Map<any, any>} [pass] */
function lookText(el, pass) { return tagOf(el) === "select" ? "" : visibleText(el, pass); }

/** @param {Signature} sig */
export function lookKeyOfSignature(sig) {
  const A = sig.attrs || {};
  return lookKey(sig.tag, (a) => A[a] || "", sig.tag === "select" ? "" : sig.text);
}

/**
 * The elements with `tag` in `root` in document order, and the same grouped by look. A capture pass
 * shares one of these per root and tag (every signature of an observe asks for it).
 * @typedef {{all: Element[], keys: Array<string | null>, groups: Map<string, Element[]>, at: Map<Element, number>}} TagOrder
 * @param {Document | ShadowRoot} root @param {string} tag @param {Map<any, any>} [pass]
 * @returns {TagOrder}
 */
function tagOrder(root, tag, pass) {
  const list = tagQuery(root, tag, pass);
  /** @type {Element[]} */ const all = Array.from(list);
  // Grouped by attributes first (most elements are alone in theirs: no key, no group); words are
  // read only where the attributes leave look-alikes (twenty "Add to cart" buttons).
  /** @type {Map<string, number | number[]>} */ const byAttrs = new Map();
  for (let i = 0; i < all.length; i++) {
    const k = attrKeyOf(all[i]);
    const g = byAttrs.get(k);
    if (g === undefined) byAttrs.set(k, i); else if (typeof g === "number") byAttrs.set(k, [g, i]); else g.push(i);
  }
  /** @type {Array<string | null>} */ const keys = new Array(all.length).fill(null);
  /** @type {Map<string, Element[]>} */ const groups = new Map();
  for (const [ak, idx] of byAttrs) {
    if (typeof idx === "number") continue;
    for (const i of idx) { // (in document order: so is each group)
      const key = ak + "\u0001" + lookText(all[i], pass);
      keys[i] = key;
      const g = groups.get(key);
      if (g) g.push(all[i]); else groups.set(key, [all[i]]);
    }
  }
  // Each element's place, for the hundreds of elements an observe signs (a search each would cost more).
  /** @type {Map<Element, number>} */ const at = new Map();
  for (let i = 0; i < all.length; i++) at.set(all[i], i);
  return { all, keys, groups, at };
}

/**
 * The elements of a tag in a root, as a gathering in this pass asked for them (see gatherBig):
 * `pass.get(tagQuery).get(root).get(tag)`.
 * @param {Document | ShadowRoot} root @param {string} tag @param {Map<any, any>} [pass]
 * @returns {NodeListOf<Element>}
 */
export function tagQuery(root, tag, pass) {
  /** @type {Map<Node, Map<string, NodeListOf<Element>>> | undefined} */
  let byRoot = pass?.get(tagQuery);
  if (!byRoot) { byRoot = new Map(); if (pass) pass.set(tagQuery, byRoot); }
  let byTag = byRoot.get(root);
  if (!byTag) { byTag = new Map(); byRoot.set(root, byTag); }
  let list = byTag.get(tag);
  if (!list) { list = qsa(root, tag); byTag.set(tag, list); }
  return list;
}

/**
 * Where the element stands in its document (or shadow root): the k-th of the n elements with its
 * tag (`order`), and the k-th of the n that look like it (`twins`, when it has look-alikes).
 * @param {Element} el @param {Map<any, any>} [pass]
 * @returns {{order?: Twins, twins?: Twins}}
 */
function placeOf(el, pass) {
  const t = orderOf(el, pass);
  const k = t?.at.get(el);
  if (!t || k === undefined) return {};
  const g = lookAlikes(el, pass);
  return { order: { k, n: t.all.length }, ...(g ? { twins: { k: g.indexOf(el), n: g.length } } : {}) };
}

/** The elements with the element's tag in its document or shadow root (see tagOrder). @param {Element} el @param {Map<any, any>} [pass] */
function orderOf(el, pass) {
  const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
  if (!("querySelectorAll" in root)) return null;
  /** @type {Map<string, TagOrder> | undefined} */
  let byTag = pass?.get(root);
  if (!byTag) { byTag = new Map(); if (pass) pass.set(root, byTag); }
  let t = byTag.get(tagOf(el));
  if (!t) { t = tagOrder(root, tagOf(el), pass); byTag.set(tagOf(el), t); }
  return t;
}

/** The elements of its root that look like it (itself included), in document order; null when it has none. @param {Element} el @param {Map<any, any>} [pass] */
function lookAlikes(el, pass) {
  const t = orderOf(el, pass);
  const k = t?.at.get(el);
  if (!t || k === undefined) return null;
  const key = t.keys[k], g = key === null ? null : t.groups.get(key);
  return g && g.length > 1 ? g : null;
}

/** Look-alike groups past this size are not compared value by value (see peersOf): their elements count as peers. */
const PEERS_MAX = 400;

/**
 * How many elements were the element but for their place when it was captured (itself included):
 * its look-alikes with the same recorded attributes, classes, label and context — and, where a
 * component it stands in has a look-alike told from it by nothing but place and holding such an
 * element too (the same star in the other of two rating widgets alike), at least two. Nothing
 * but place tells such elements apart: an untouched original is taken for the element only when
 * it was the one such element (refind.js).
 * @param {Element} el @param {Map<any, any>} [pass]
 */
function peersOf(el, pass) {
  const g = lookAlikes(el, pass);
  if (g && g.length > PEERS_MAX) return g.length;
  if (!g && !(rootOf(el) instanceof ShadowRoot)) return 1;
  const key = ownKey(el, pass);
  let n = 1;
  if (g) for (const e of g) if (e !== el && ownKey(e, pass) === key) n++;
  for (let root = rootOf(el); root instanceof ShadowRoot; root = rootOf(root.host)) {
    const h = root.host, hg = lookAlikes(h, pass);
    if (!hg) continue;
    if (hg.length > PEERS_MAX || hg.some((x) => x !== h && ownKey(x, pass) === ownKey(h, pass) && holdsPeer(x, el, key, pass))) n = Math.max(n, 2);
  }
  return n;
}

/**
 * Whether a component holds, in its shadow root, an element that is `el` but for its place (its
 * own key is `key`): the same star in the other of two rating widgets alike.
 * @param {Element} host @param {Element} el @param {string} key @param {Map<any, any>} [pass]
 */
function holdsPeer(host, el, key, pass) {
  const r = shadowOf(host), tag = tagOf(el);
  if (!r) return false;
  let found = false;
  walkDeep(r, (x) => { if (!found && tagOf(x) === tag && ownKey(x, pass) === key) found = true; });
  return found;
}

/** What an element is but for its place, as a signature records it (see peersOf). @param {Element} el @param {Map<any, any>} [pass] */
function ownKey(el, pass) {
  /** @type {Map<Element, string>} */
  let memo = pass?.get(ownKey);
  if (!memo) { memo = new Map(); if (pass) pass.set(ownKey, memo); }
  let k = memo.get(el);
  if (k === undefined) {
    k = JSON.stringify([recordedAttrs(el, false), stableClasses(el), labelText(el, pass), contextOf(el, pass), iconWords(el)]);
    memo.set(el, k);
  }
  return k;
}

/**
 * The place of a re-find's candidates (see placeOf), asking no more of the page than the rules use:
 * the k-th of n with the element's tag (a binary search of the root's list in document order), and
 * among look-alikes only for those that look like the element (the rules compare no one else's),
 * whose look-alikes are asked of the selector engine by the attributes of the look. Candidates of
 * another tag get none: where they stand among their own tag says nothing of the element.
 * @param {Signature} sig @param {Array<{element: Element, signature: Signature}>} cands @param {Map<any, any>} pass
 */
export function placeCandidates(sig, cands, pass) {
  const key = lookKeyOfSignature(sig);
  /** @type {Map<Node, Element[]>} */
  const groups = new Map();
  for (const c of cands) {
    const el = c.element;
    if (tagOf(el) !== sig.tag) continue;
    const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
    if (!("querySelectorAll" in root)) continue;
    const all = tagQuery(root, tagOf(el), pass);
    const k = indexIn(all, el);
    if (k < 0) continue;
    c.signature.order = { k, n: all.length };
    if (!sig.twins || lookKeyOf(el, pass) !== key) continue;
    let g = groups.get(root);
    if (!g) {
      let sel = tagOf(el);
      for (const a of LOOK_SET) { const v = attr(el, a); if (v && (a !== "value" || valueIsIdentity(tagOf(el)))) sel += `[${a}="${CSS.escape(v)}"]`; }
      g = Array.from(qsa(root, sel)).filter((x) => lookKeyOf(x, pass) === key);
      groups.set(root, g);
    }
    if (g.length > 1) c.signature.twins = { k: g.indexOf(el), n: g.length };
  }
}

/** How many elements of a list in document order come before an element. @param {ArrayLike<Element>} list @param {Element} el */
function insertionIndex(list, el) {
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comparePositionOf(list[mid], el) & Node.DOCUMENT_POSITION_FOLLOWING) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Where an element is in a list of elements in document order (-1: not there). @param {ArrayLike<Element>} list @param {Element} el */
function indexIn(list, el) {
  const i = insertionIndex(list, el);
  return list[i] === el ? i : -1;
}

// --- context: the part of the page an element belongs to ----------------------------------------
/** Containers that make a part of the page: landmarks, sections, forms and groups. */
const ZONE_TAGS = new Set(["header", "footer", "nav", "aside", "main", "dialog", "form", "fieldset", "section", "search"]);

const ZONE_ROLES = new Set(["banner", "contentinfo", "navigation", "complementary", "main", "dialog", "alertdialog", "form",
  "search", "region", "group", "radiogroup", "tablist", "menu", "menubar", "toolbar", "tabpanel"]);

/** Containers that make an item of a list: a row, a card, a result. */
const ITEM_TAGS = new Set(["tr", "li", "article", "dd"]);

const ITEM_ROLES = new Set(["row", "listitem", "article", "treeitem"]);

const HEADINGS = "h1,h2,h3,h4,h5,h6,[role=heading],legend";

/** Containers that a heading inside names (see containerLabel). */
const NAMED_CONTAINERS = "section, fieldset, dialog, article, [role=region], [role=group], [role=radiogroup], [role=dialog], [role=alertdialog], [role=tabpanel]";

/** The words that name a container: its aria label, its legend or first heading. @param {Element} el */
function containerLabel(el) {
  const aria = referencedText(el, "aria-labelledby") || norm(attr(el, "aria-label"));
  if (aria) return cut(aria, 40);
  // A landmark is named by its label only: a heading inside the page's main part or header is
  // content, not its name. A section, group or dialog is named by its first plain heading (one
  // holding no control: a heading that is a link is something a person clicks, and it changes).
  const tag = tagOf(el), role = attr(el, "role") || "";
  if (!/^(section|fieldset|dialog|article)$/.test(tag) && !/^(region|group|radiogroup|dialog|alertdialog|tabpanel)$/.test(role)) return "";
  // Its own heading: not one of a group or card inside it (the first legend of a section's fieldsets
  // names that fieldset, and a re-ordered section would otherwise take it for its name).
  let seen = 0;
  for (const h of Array.from(qsa(el, HEADINGS))) {
    if ((parentElOf(h) ? closestOf(parentElOf(h), NAMED_CONTAINERS) : undefined) !== el) continue;
    if (!qs(h, "a, button, input, select, textarea, [role=button], [role=link]")) return cut(norm(textOf(h)), 40);
    if (++seen >= 3) break;
  }
  return "";
}

/** A form's name: its label, its id or name, where it posts, its heading, its submit button's words. @param {Element} el */
function formLabel(el) {
  const own = referencedText(el, "aria-labelledby") || norm(attr(el, "aria-label"));
  if (own) return cut(own, 40);
  const id = idOf(el) && !GENERATED_ID.test(idOf(el)) ? idOf(el) : attr(el, "name") || "";
  const action = attr(el, "action");
  if (action && action !== "#") return cut(hrefKey(action), 40);
  if (id) return `#${id}`;
  const h = qs(el, HEADINGS) || qs(el, "button[type=submit], input[type=submit], button:not([type])");
  return h ? cut(norm(textOf(h) || attr(h, "value")), 40) : "";
}

/** The zone an element opens, as "kind:label", or "" when it is none. @param {Element} el */
function zoneOf(el) {
  const tag = tagOf(el), role = (attr(el, "role") || "").split(/\s+/)[0];
  if (role === "presentation" || role === "none") return "";
  if (tag === "form" || role === "form" || role === "search") return `form:${formLabel(el)}`;
  if (ZONE_TAGS.has(tag) || ZONE_ROLES.has(role)) {
    // A section without a name is only a box for layout.
    const label = containerLabel(el);
    if ((tag === "section" || role === "region" || role === "group") && !label) return "";
    return `${ZONE_KIND[role] || tag}:${label}`;
  }
  return "";
}

/** Roles that stand for the same kind of zone as a tag. @type {Record<string, string>} */
const ZONE_KIND = { banner: "header", contentinfo: "footer", navigation: "nav", complementary: "aside", main: "main",
  alertdialog: "dialog", region: "section", group: "fieldset", radiogroup: "fieldset" };

/**
 * What names an item of a list: the first cell of its row that is not the element, or the one
 * heading of its card. Returns the naming element (its words are read later, leaving the target out).
 * @param {Element} el
 * @returns {Element | null}
 */
function itemTitle(el) {
  const tag = tagOf(el), role = attr(el, "role") || "";
  if (tag === "tr" || role === "row") return el;
  const hs = qsa(el, HEADINGS);
  if (hs.length === 1) return hs[0];
  if (hs.length > 1) return null;
  return ITEM_TAGS.has(tag) || ITEM_ROLES.has(role) || repeated(el) ? el : null;
}

/**
 * Whether a container is one of a run of the same kind: a sibling next to it has its tag and its
 * class, or its tag and the same children (a class rehashed by a build), as a feed's posts or a
 * grid's cards written as plain `div`s. Such a container is an item, named by its own words (the
 * post's author and handle come first). Only the next siblings are read: a list of thousands is not
 * walked for each of its items.
 * @param {Element} el
 */
function repeated(el) {
  const cls = attr(el, "class");
  if (!cls || !cls.trim()) return false;
  const kids = childrenOf(el).length >= 2 ? childTags(el) : "";
  const like = (/** @type {Element | null} */ s) => !!s && tagOf(s) === tagOf(el) && !!attr(s, "class")
    && (attr(s, "class") === cls || (!!kids && childTags(s) === kids));
  return like(prevElOf(el)) || like(nextElOf(el));
}

/** The tags of an element's children, in order. @param {Element} el */
function childTags(el) {
  let out = "";
  for (let c = firstElOf(el); c; c = nextElOf(c)) out += tagOf(c) + " ";
  return out;
}

/** The words of a row's first cell that does not hold the element. @param {Element} row @param {Element} el */
function rowKey(row, el) {
  for (const cell of Array.from(childrenOf(row))) {
    if (containsOf(cell, el) || !/^(td|th)$/.test(tagOf(cell)) && !/^(cell|gridcell|rowheader|columnheader)$/.test(attr(cell, "role") || "")) continue;
    const t = norm(textOf(cell));
    if (t) return cut(t, 40);
  }
  return "";
}

/**
 * Elements that look like `skip` — its tag or another control (a copy kept as a button while it
 * became a link), with similar words or the same label ("Remove" on "×" and on "×s"): a copy of a
 * control put beside it is not what names the row or card it stands in.
 * @param {Element} skip @returns {(e: Element) => boolean}
 */
function alikeOf(skip) {
  const words = norm(textOf(skip));
  const label = attr(skip, "aria-label") || attr(skip, "title");
  const kind = (/** @type {Element} */ e) => tagOf(e) === tagOf(skip) || (isInteractiveCheap(e) && isInteractiveCheap(skip));
  return (e) => kind(e) && ((textSim(norm(textOf(e)), words) ?? 1) >= 0.6 || (!!label && (attr(e, "aria-label") || attr(e, "title")) === label));
}

/**
 * Where the element was captured: the zones around it (innermost first, across shadow roots) and
 * the title of the item it belongs to. What a zone or item says is read once per container in a
 * pass.
 * @param {Element} el @param {Map<any, any>} [pass]
 * @returns {Context}
 */
export function contextOf(el, pass) {
  /** @type {Map<Element, {zone: string, title?: Element | null, component?: string}>} */
  let cache = pass?.get(contextOf);
  if (!cache) { cache = new Map(); if (pass) pass.set(contextOf, cache); }
  /** @type {string[]} */
  const zones = [];
  let item = "", itemDone = false;
  for (let p = parentOf(el), depth = 0; p && tagOf(p) !== "body" && tagOf(p) !== "html"; p = parentOf(p), depth++) {
    let c = cache.get(p);
    if (!c) { c = { zone: zoneOf(p) }; cache.set(p, c); }
    if (c.zone) { zones.push(c.zone); itemDone = true; continue; }
    if (itemDone || depth >= 6) continue;
    // (Asked only here: a wrapper far above the element, whose headings are the whole page's, is not searched.)
    if (c.title === undefined) c.title = itemTitle(p);
    if (c.title) {
      const t = c.title;
      // Said by kind: a row's first cell ("r:"), a list item's own words ("l:", the element and its
      // look-alikes left out), a card's title ("h:": its other words, or the element's when it is
      // the title); titles of different kinds are not compared.
      let key = "";
      if (t === p && (tagOf(p) === "tr" || attr(p, "role") === "row")) key = (item = rowKey(p, el)) && `r:${item}`;
      else if (t === p) key = (item = cut(norm(ownText(p, el, alikeOf(el))), 40)) && `l:${item}`;
      else if (!containsOf(t, el)) key = (item = cut(norm(textOf(t)), 40)) && `h:${item}`;
      // A title holding the element is named by its other words (another result's title, when a
      // copy of this one was put in there), or by the element's own when it holds nothing else.
      else key = (item = cut(norm(ownText(t, el)) || visibleText(el), 40)) && `h:${item}`;
      item = key;
      // An item without a title of its own ends the search too: the card or row is found. Not one
      // of a run of containers that says nothing (a button beside another with the same children):
      // the item around it names it.
      itemDone = !!item || (t === p && (ITEM_TAGS.has(tagOf(p)) || ITEM_ROLES.has(attr(p, "role") || "")));
    }
  }
  /** @type {string[]} */
  const components = [];
  for (let root = rootOf(el); root instanceof ShadowRoot; root = rootOf(root.host)) {
    let c = cache.get(root.host);
    if (!c) { c = { zone: zoneOf(root.host) }; cache.set(root.host, c); }
    if (c.component === undefined) c.component = componentLabel(root.host);
    components.push(c.component);
  }
  return { zones: zones.slice(0, 6), item, ...(components.length ? { components } : {}) };
}

/**
 * What names a component (a shadow host) an element stands in: the host's own label
 * (aria-labelledby, aria-label, title), the words put in its light DOM (`<x-rating>Rate this
 * article</x-rating>`), or the first heading or label inside its shadow root that holds no
 * control. "" when nothing names it: then only its place tells it from a look-alike.
 * @param {Element} host
 */
function componentLabel(host) {
  const own = referencedText(host, "aria-labelledby") || norm(attr(host, "aria-label")) || norm(attr(host, "title"));
  if (own) return cut(own, 40);
  const light = norm(textOf(host));
  if (light) return cut(light, 40);
  const sr = shadowOf(host);
  if (!sr) return "";
  for (const h of Array.from(qsa(sr, `${HEADINGS},label,caption`))) {
    if (qs(h, "a, button, input, select, textarea, [role=button], [role=link]")) continue;
    const t = norm(textOf(h));
    if (t) return cut(t, 40);
  }
  return "";
}

/**
 * The attributes a signature keeps: the stable ones, a few short data keys (apps often key their
 * rows by one: data-id, data-sku…) and an explicit role. The element's own (few) attributes are
 * walked rather than each stable one asked for by name. A secret field's value attribute and data
 * attributes are not kept (a page may keep the password it generated there).
 * @param {Element} el @param {boolean} secret
 */
function recordedAttrs(el, secret) {
  /** @type {Record<string, string>} */
  const attrs = {};
  const valueOk = valueIsIdentity(tagOf(el)) && !secret;
  let data = secret ? 4 : 0;
  const list = attrsOf(el);
  for (let i = 0; i < list.length; i++) {
    const a = list[i];
    if (a.value === "" || (a.name === "value" && !valueOk)) continue;
    if (STABLE_SET.has(a.name)) attrs[a.name] = cut(a.value, 200);
    else if (a.name.startsWith("data-") && a.value.length <= 40 && data < DATA_KEPT) { attrs[a.name] = a.value; data++; }
  }
  const role = attr(el, "role");
  if (role) attrs.role = role;
  return attrs;
}

/**
 * Describes an element so it can be found again after the page changed.
 * @param {Element} el
 * @param {{name?: string, state?: ElementState, box?: Box, place?: boolean, context?: Context, path?: string[]}} [known] what the caller already
 *   read in this pass (the scan's box in top-frame viewport coordinates, the rendering's accessible
 *   name and state, a re-find's reading of where the candidate stands): not read twice; `place:
 *   false` leaves out its place among its tag (a re-find's candidate of another tag than the
 *   element's: where it stands among its own tag says nothing of the element, and ranking a page's
 *   thousands of links for one is dear)
 * @param {Map<any, any>} [pass] shared by the signatures taken in one synchronous pass (nothing
 *   scrolls or changes meanwhile): each window's scroll offsets are read once, as reading them costs
 *   a layout check each time (a fifth of a signature's time), and each root's look-alikes are
 *   grouped once
 * @returns {Signature}
 */
export function captureSignature(el, known = {}, pass) {
  const state = known.state ?? elementState(el, pass);
  const attrs = recordedAttrs(el, !!state.secret);
  const { frames, dx, dy, topWin } = frameChain(el);
  const r = known.box || (() => { const b = rectOf(el); return { x: b.left + dx, y: b.top + dy, w: b.width, h: b.height }; })();
  let scroll = topWin && pass?.get(topWin);
  if (!scroll) {
    scroll = topWin ? { x: topWin.scrollX, y: topWin.scrollY } : { x: 0, y: 0 };
    if (topWin && pass) pass.set(topWin, scroll);
  }
  const sx = scroll.x, sy = scroll.y;
  const place = known.place === false ? {} : placeOf(el, pass);
  const peers = place.twins ? peersOf(el, pass) : 1;
  // Which of its identity keys no other element of its document or shadow root had when it was
  // captured (a card's image link and title link share their target: neither is told by it).
  const alone = known.place === false ? [] : aloneKeys(el, attrs, pass);
  const hosts = hostPlaces(el, pass);
  const name = known.name ?? accessibleName(el, pass);
  const shows = shownWords(el, name); // (a record names the control by both, where they disagree)
  return {
    v: SIGNATURE_VERSION,
    tag: tagOf(el),
    role: roleOf(el),
    name,
    text: visibleText(el, pass),
    attrs,
    classes: stableClasses(el),
    label: labelText(el, pass),
    neighbor: neighborText(el),
    path: known.path ?? ancestorPath(el),
    frame: frames,
    shadow: shadowChain(el),
    box: { x: Math.round(r.x + sx), y: Math.round(r.y + sy), w: Math.round(r.w), h: Math.round(r.h) },
    state,
    ...place,
    ...(hosts.length ? { hosts } : {}),
    context: known.context ?? contextOf(el, pass),
    ...(name ? {} : { icon: iconWords(el) }),
    ...(shows ? { shows } : {}),
    ...(alone.length ? { alone } : {}),
    ...(peers > 1 ? { peers } : {}),
  };
}

/** The attribute names that make an identity key (a checkbox's value goes with its name). */
const IDENTITY_ATTRS = ["id", ...TEST_ID_ATTRS, "href", "name"];

/**
 * Per document or shadow root (once a pass): how many of its elements carry each identity value.
 * @param {Document | ShadowRoot} root @param {Map<any, any> | undefined} pass
 * @returns {Map<string, number>}
 */
function identityCounts(root, pass) {
  /** @type {Map<Node, Map<string, number>> | undefined} */
  let byRoot = pass?.get(IDENTITY_PASS);
  let counts = byRoot?.get(root);
  if (counts) return counts;
  counts = new Map();
  for (const e of qsa(root, "[id], [href], [name], [data-testid], [data-test-id], [data-test], [data-qa], [data-cy]")) {
    for (const k of IDENTITY_ATTRS) {
      const v = identityValue(e, k);
      if (v) counts.set(`${k}=${v}`, (counts.get(`${k}=${v}`) || 0) + 1);
    }
  }
  if (pass) {
    if (!byRoot) pass.set(IDENTITY_PASS, byRoot = new Map());
    byRoot.set(root, counts);
  }
  return counts;
}

/** (the pass's key for identityCounts) */
const IDENTITY_PASS = {};

/** An identity attribute's value as keys compare it: a link's target resolved; a checkbox's name with its value. @param {Element} e @param {string} k */
function identityValue(e, k) {
  const v = attr(e, k);
  if (!v) return "";
  if (k === "href") return hrefKey(v);
  if (k !== "name") return v;
  const val = attr(e, "value");
  return val !== null && /^(checkbox|radio)$/i.test(attr(e, "type") || "") ? `${v}\u0000${val}` : v;
}

/**
 * The element's identity keys that were its own alone when captured.
 * @param {Element} el @param {Record<string, string>} attrs @param {Map<any, any> | undefined} pass
 */
function aloneKeys(el, attrs, pass) {
  const keys = IDENTITY_ATTRS.filter((k) => attrs[k]);
  if (!keys.length) return [];
  const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
  if (!root || !("querySelectorAll" in root)) return [];
  const counts = identityCounts(root, pass);
  return keys.filter((k) => counts.get(`${k}=${identityValue(el, k)}`) === 1);
}

/**
 * The element's signature, or — where reading the element fails — one that says only what the page
 * map already knew of it (its tag, name and box): such an element can still be acted on by its id,
 * and re-finding it later abstains rather than guess from so little.
 * @param {Element} el @param {{box?: Box, name?: string, noPointer?: boolean}} [known] @param {Map<any, any>} [pass]
 * @returns {Signature}
 */
export function signatureOf(el, known = {}, pass) {
  try {
    const sig = captureSignature(el, known, pass);
    if (known.noPointer) sig.state = { ...sig.state, disabled: true }; // shown disabled: the page turned the pointer off
    // The row a control stands in, as a person names it (what "Edit" edits): for what heybro says
    // of the element (its history, a confirmation), not for re-finding it.
    const row = closestOf(el, "tr, [role=row]");
    const label = row ? rowLabel(row, closestOf(el, "td, th, [role=gridcell], [role=cell]") || undefined) : "";
    return label ? { ...sig, row: label } : sig;
  } catch {
    const b = known.box || { x: 0, y: 0, w: 0, h: 0 };
    let tag = "";
    try { tag = tagOf(el); } catch { /* none */ }
    return { v: SIGNATURE_VERSION, tag, role: "", name: known.name || "", text: "", attrs: {}, classes: [], label: "",
      neighbor: "", path: [], frame: [], shadow: [], box: { x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.w), h: Math.round(b.h) }, state: {} };
  }
}

/** Words that say nothing about which icon it is. */
export const ICON_NOISE = new Set(["icon", "icons", "btn", "button", "svg", "img", "image", "glyph", "material", "symbols", "outlined",
  "only", "small", "large", "default", "primary", "secondary", "rounded", "sprite", "sprites", "png", "jpg", "gif", "webp",
  // (icon libraries' markers, on every icon they draw: Ant Design's, VS Code's, GitHub's, Bootstrap 3's, WordPress's)
  "anticon", "codicon", "octicon", "glyphicon", "dashicons"]);

/**
 * What a nameless control shows, in words: its own and its icon's class names, image files and
 * sprite references ("btn-trash" + "icon-trash" → "trash"). Two nameless buttons side by side are
 * told apart by them.
 * @param {Element} el
 */
export function iconWords(el) {
  /** @type {Set<string>} */
  const words = new Set();
  /** @param {string | null} s */
  const add = (s) => { for (const w of (s || "").toLowerCase().split(/[^a-z]+/)) if (w.length >= 3 && !ICON_NOISE.has(w)) words.add(w); };
  const nodes = [el, ...Array.from(qsa(el, "svg, i, span, img, use")).slice(0, 6)];
  for (const n of nodes) {
    for (const c of (attr(n, "class") || "").split(/\s+/)) if (isStableClass(c)) add(c);
    const src = attr(n, "src") || attr(n, "href") || attr(n, "xlink:href");
    if (src && tagOf(n) !== "a") add(src.replace(/^.*[/#]/, "").replace(/\.\w+$/, ""));
  }
  return Array.from(words).slice(0, 8).join(" ");
}

/**
 * The place of each shadow host around the element among the hosts that look like it ("2/3": the
 * third of three star ratings), innermost first: look-alikes in two shadow roots that look the
 * same are told apart by their hosts' places.
 * @param {Element} el @param {Map<any, any>} [pass]
 */
function hostPlaces(el, pass) {
  /** @type {string[]} */
  const out = [];
  for (let root = rootOf(el); root instanceof ShadowRoot; root = rootOf(root.host)) {
    const p = placeOf(root.host, pass);
    out.push(p.twins ? `${p.twins.k}/${p.twins.n}` : "");
  }
  return out;
}

// --- similarity ---------------------------------------------------------------------------------
/** @param {string} href */
export function hrefKey(href) {
  try { const u = new URL(href, "http://x/"); return u.pathname + u.search + u.hash; } catch { return href; }
}
