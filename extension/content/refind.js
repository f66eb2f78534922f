// @ts-check
/**
 * Element signatures and re-finding by signature.
 *
 * A pure ES module with no imports and no extension APIs, so the content script, the tests, the
 * benchmarks and any outside evaluation can load the very same matcher in a plain page
 * (`<script type="module">` or `import()`).
 *
 *   captureSignature(element) → a JSON-serialisable description of the element;
 *   refind(signature, root = document) → {status: "found" | "ambiguous" | "not_found", element,
 *                                          confidence, candidates}.
 *
 * Matching is a weighted similarity over the signature's fields (in the spirit of the Similo
 * locators: many weak attributes together beat any single brittle one). Each field's weight is
 * scaled down when many elements on the page share the signature's value (a "Delete" label shared by
 * twenty rows says little), so what identified the element when it was captured carries the match.
 * **Context decides.** A signature records where the element stands: the zones around it (landmarks,
 * sections, forms, groups, with their names), the item it belongs to (its row's first cell, its
 * card's title, or — for one of a run of containers of the same kind, a feed's posts written as
 * plain `div`s — the item's own words: its author and handle), its shadow hosts. A candidate in another part of the page — the footer's "Blog"
 * for the header's, the sign-up e-mail field for the login one, Bob's "Edit" for Ada's, a star in
 * another product's rating — is another element however well it matches, as is one whose name
 * says something else ("Delete Ada" for "Edit Ada", "2 stars" for "1 star"), whose link leads to
 * another place, or whose form name differs; those are set aside before anything is decided.
 * An element found to the letter in its place (nothing changed) is taken at once. What is left is
 * scored among itself: a field that singles a candidate out in its part of the page singles it out
 * (the footer's "About" does not make the header's less itself). What a candidate no longer has —
 * a dropped attribute, rehashed classes, a label whose `for` a renamed id broke, the name that came
 * from them — is gone, not different.
 *
 * The matcher **abstains** instead of guessing. It acts on a candidate only when (1) the whole
 * signature picks it clearly (score ≥ THRESHOLD, a lead of MARGIN, and a field that singles it out),
 * (2) it alone carries the captured id / test id (an anchor), or (3) exactly one thing about it
 * changed — its tolerant score (the worst field left out) is high and far ahead of everyone else's,
 * and what changed is neither its place (a twin slides into a deleted element's place) nor an
 * identity that now has another value, (4–5) its place among look-alikes (in its own document or
 * shadow root, its hosts in theirs) or among its tag says so — or it stands in its own spot, the
 * k-th of the same n, its words reworded —, (6) it is the one left in its part of the page that
 * the form knows by the captured name, or whose own features match, or (7) it alone still says
 * every word of it, beside copies that differ from it by words only — (6) and (7) only for a
 * candidate with something of its own beyond its tag (a nameless icon whose classes are gone has
 * nothing left that says it is the element).
 * Otherwise it answers "not_found" (nothing close) or
 * "ambiguous" — clicking the wrong element is worse than asking again. The constants, the weights
 * and the text similarity were tuned on the "tune" halves of scripts/bench_refind.py (MiniWoB++ and
 * large pages) and scripts/bench_refind_wide.py (twins in other parts of the page, shadow roots,
 * combined mutations); BENCHMARKS.md has both halves of each.
 *
 * **Big pages.** What a re-find costs is what it touches: the first touch of a node from script
 * makes an object for it, about a microsecond and a half, so walking a catalogue of 20,000 elements
 * costs more than the whole re-find may. Where each candidate stands is read before its full
 * signature, and one in another item or landmark gets none; a run of a thousand look-alikes keeps
 * the few nearest its old place; on a page of more than BIG_PAGE elements the candidates are asked
 * of the selector engine (see gatherBig); and a candidate's place among look-alikes is worked out
 * only for those that look like the element.
 */
import { norm } from "./norm.js";
import { rowLabel } from "./dom_tables.js";
import { isSecretField, SECRET_SHOWN } from "./dom_secret.js";
import { leftOut } from "./dom_frames.js";
import { attr, attrNamesOf, attrsOf, byTagOf, checkVisibilityOf, childCountOf, childrenOf, innerTextOf, isHtml, clientLeftOf, clientTopOf, closestOf, comparePositionOf, containsOf, docOf, firstChildOf, firstElOf, hasAttr, hasAttrs, idOf, isConnectedOf, matchesOf, nextElOf, nextSiblingOf, nodeTypeOf, nodeValueOf, parentElOf, parentNodeOf, prevElOf, previousSiblingOf, qs, qsa, rectOf, rootOf, shadowOf, tagOf, textOf } from "./dom_native.js";

export const SIGNATURE_VERSION = 3;
/** Best score needed to act on a match. */
export const THRESHOLD = 0.63;
/** The best must lead the runner-up by this much. */
export const MARGIN = 0.1;

/**
 * @typedef {{x: number, y: number, w: number, h: number}} Box
 * @typedef {{value?: string, option?: string, checked?: boolean, selected?: boolean, disabled?: boolean,
 *   expanded?: boolean, focused?: boolean, secret?: boolean}} ElementState  secret: a field whose
 *   value is a secret (dom_secret.js): its value is only ever shown as filled or empty. A select's
 *   value is the chosen option's words, as a person (and the page map) reads it; `option` its
 *   form value where that differs ("editor" behind "Editor")
 * @typedef {{v: number, tag: string, role: string, name: string, text: string,
 *   attrs: Record<string, string>, classes: string[], label: string, neighbor: string,
 *   path: string[], frame: string[], shadow: string[], box: Box, state: ElementState,
 *   order?: Twins, twins?: Twins, hosts?: string[], context?: Context, icon?: string, row?: string, shows?: string,
 *   alone?: string[]}} Signature
 * @typedef {{zones: string[], item: string}} Context the parts of the page the element was captured
 *   in, innermost first: landmarks, sections, forms and groups as "kind:label" (`nav:Footer`,
 *   `form:/login`, `fieldset:Billing address`), and the item it belongs to (its table row's or
 *   card's title)
 * @typedef {{context?: Context, path?: string[]}} Placed where an element stands, as much of a
 *   signature as tells whether it stands in another part of the page (contextClash)
 * @typedef {{k: number, n: number}} Twins where an element stands in its document or shadow root:
 *   the k-th (from 0, in document order) of n elements (with its tag, or that look the same)
 * @typedef {{element: Element, score: number, signature: Signature, distinctive?: boolean, loo?: number, looField?: string, looSim?: number, looAbsent?: boolean, anchor?: boolean,
 *   idAnchor?: boolean, tagOk?: boolean}} Scored
 * @typedef {{status: "found" | "ambiguous" | "not_found", element: Element | null,
 *   confidence: number, candidates: Array<{element: Element, score: number, tag: string,
 *   name: string, text: string}>, why?: string}} RefindResult
 */

/** Attributes that tend to survive re-renders and identify an element. */
export const STABLE_ATTRS = ["id", "name", "type", "href", "alt", "aria-label", "placeholder", "title",
  "data-testid", "data-test-id", "data-test", "data-qa", "data-cy", "for", "action", "src", "value"];
const STABLE_SET = new Set(STABLE_ATTRS);
const TEST_ID_ATTRS = ["data-testid", "data-test-id", "data-test", "data-qa", "data-cy"];

/** Tags that are interactive by themselves (see isInteractiveCheap for the exceptions). */
export const INTERACTIVE_TAGS = new Set(["a", "button", "input", "select", "textarea", "summary", "option",
  "details", "label", "video", "audio"]);
export const INTERACTIVE_ROLES = new Set(["button", "link", "checkbox", "radio", "tab", "menuitem",
  "menuitemcheckbox", "menuitemradio", "option", "switch", "textbox", "combobox", "searchbox",
  "slider", "spinbutton", "treeitem", "listbox", "gridcell", "scrollbar"]);

/** Class names that flip with UI state, not identity. */
const TRANSIENT_CLASS = /^(is-|has-)?(active|hover(ed)?|focus(ed|-visible|-within)?|selected|open(ed)?|closed|disabled|visible|hidden|show(n)?|loading|current|checked|expanded|collapsed|animat\w*|transition\w*|fade\w*|ng-\w+)$/i;
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

export { norm }; // defined in norm.js (dom_tables.js needs it too, and refind.js needs dom_tables.js)
/** @param {string} s @param {number} n */
function cut(s, n) { return s.length > n ? s.slice(0, n) : s; }

/** The element's ARIA role: explicit, or implied by its tag. @param {Element} el */
export function roleOf(el) {
  const explicit = attr(el, "role");
  if (explicit) return explicit.split(/\s+/)[0].toLowerCase();
  return implicitRole(el);
}

/** The role the element's tag gives it. @param {Element} el */
export function implicitRole(el) {
  const tag = tagOf(el);
  switch (tag) {
    case "a": case "area": return hasAttr(el, "href") ? "link" : "";
    case "button": return "button";
    case "select": return /** @type {HTMLSelectElement} */ (el).multiple || /** @type {HTMLSelectElement} */ (el).size > 1 ? "listbox" : "combobox";
    case "textarea": return "textbox";
    case "option": return "option";
    case "summary": return "button";
    case "dialog": return "dialog";
    case "img": return "img";
    case "input": {
      const t = (attr(el, "type") || "text").toLowerCase();
      if (["button", "submit", "reset", "image"].includes(t)) return "button";
      if (t === "checkbox") return "checkbox";
      if (t === "radio") return "radio";
      if (t === "range") return "slider";
      if (t === "number") return "spinbutton";
      if (t === "search") return "searchbox";
      if (t === "file") return "button";
      if (t === "hidden") return "";
      return hasAttr(el, "list") ? "combobox" : "textbox";
    }
    default: return /^h[1-6]$/.test(tag) ? "heading" : "";
  }
}

/** Whether the element is interactive by markup alone (no style lookups). @param {Element} el */
export function isInteractiveCheap(el) {
  const tag = tagOf(el);
  if (INTERACTIVE_TAGS.has(tag)) {
    // A link without a target is a control only by what else says so (a role, a tabindex, a handler).
    if (tag === "a" && hasAttr(el, "href")) return true;
    if (tag === "input") return /** @type {HTMLInputElement} */ (el).type !== "hidden";
    if (tag === "label") return false; // its control is the target; a label alone is context
    if (tag === "option" || tag === "details") return false; // rendered with their select / summary
    if (tag === "video" || tag === "audio") return hasAttr(el, "controls");
    if (tag !== "a") return true;
  }
  const role = attr(el, "role");
  const first = role ? role.split(/\s+/)[0].toLowerCase() : "";
  // A grid's cell is data unless it can be chosen or edited: grids make every cell focusable (a
  // roving tabindex, for their arrow keys), which makes none of them a control a person operates.
  if (first === "gridcell") return hasAttr(el, "aria-selected") || attr(el, "aria-readonly") === "false" || hasAttr(el, "onclick");
  if (first && INTERACTIVE_ROLES.has(first)) return true;
  if (hasAttr(el, "onclick")) return true;
  const ce = attr(el, "contenteditable");
  if (ce !== null && ce !== "false") return true;
  const ti = attr(el, "tabindex");
  if (ti !== null && Number(ti) >= 0 && tag !== "body" && tag !== "html") return !(first ? READ_ROLES.has(first) : READ_TAGS.has(tag));
  return isDropZone(el);
}

/** What names a drop zone in a class or an id (`drop-zone`, `dropzone`, `file-drop`, `drop_area`). */
const DROP_ZONE_NAMES = /(^|[\s_-])(drop[-_]?(zone|area|target|box)|file[-_]?drop)([\s_-]|$)/i;

/**
 * A drop zone by its markup: an element files are dragged onto (no file input of its own need be
 * there): its class or id names it one, its label says to drop there, or `aria-dropeffect`.
 * The page's drop listeners cannot be seen from here; what the page calls it can.
 * @param {Element} el
 */
export function isDropZone(el) {
  const effect = attr(el, "aria-dropeffect");
  if (effect && effect !== "none") return true;
  const label = attr(el, "aria-label") || "";
  if (/\b(drop|drag)\b/i.test(label) && /\b(files?|here)\b/i.test(label)) return true;
  return DROP_ZONE_NAMES.test(`${attr(el, "class") || ""} ${attr(el, "id") || ""}`);
}

/**
 * What a person reads, not operates, when it takes the keyboard focus (a table focusable to scroll
 * it with the arrow keys, a code block, a region): its tabindex makes it no control. A grid stays
 * out too: its cells and rows are what is chosen, never the grid as one.
 */
const READ_ROLES = new Set(["table", "grid", "treegrid", "rowgroup", "list", "region", "article", "document", "feed", "log",
  "tabpanel", "main", "navigation", "complementary", "banner", "contentinfo", "figure", "img", "status", "note", "math"]);
const READ_TAGS = new Set(["table", "tbody", "ul", "ol", "dl", "pre", "section", "article", "main", "nav", "aside", "figure", "blockquote"]);

/** Text of the elements an aria-labelledby/-describedby names. @param {Element} el @param {string} name the attribute */
function referencedText(el, name) {
  const ids = attr(el, name);
  if (!ids) return "";
  const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
  return norm(ids.split(/\s+/).map((id) => {
    const t = "getElementById" in root ? root.getElementById(id) : null;
    return t ? wordsOf(t) : "";
  }).join(" "));
}

const NOT_WORDS = new Set(["script", "style", "template", "noscript"]);

/**
 * An element's text without what is no words (a script or style inside it: a page's inline
 * `<script>` beside a label is code, not part of its name).
 * @param {Element} el
 */
export function wordsOf(el) {
  const raw = textOf(el) || "";
  if (!qs(el, "script, style, template, noscript")) return raw;
  let out = "";
  const walker = docOf(el).createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => nodeTypeOf(n) === 1 && NOT_WORDS.has(tagOf(/** @type {Element} */ (n))) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (nodeTypeOf(n) === 3) out += nodeValueOf(n);
  return out;
}

/**
 * The text of the label(s) that describe a form control.
 * @param {Element} el @param {Map<any, any>} [pass] see captureSignature: the page's labels are indexed once
 */
export function labelText(el, pass) {
  if (!pass) return readLabelText(el);
  // (Read once in a pass: the rendering names a field by it, and its signature keeps it.)
  /** @type {Map<Element, string>} */
  let memo = pass.get(labelText);
  if (!memo) { memo = new Map(); pass.set(labelText, memo); }
  let t = memo.get(el);
  if (t === undefined) { t = readLabelText(el, pass); memo.set(el, t); }
  return t;
}

/** @param {Element} el @param {Map<any, any>} [pass] */
function readLabelText(el, pass) {
  const byRef = referencedText(el, "aria-labelledby");
  if (byRef) return cut(byRef, 120);
  const labels = labelsOf(el, pass);
  if (labels && labels.length) {
    // The label's own words, without the value of a control nested in it (e.g. a select's options).
    return cut(norm(Array.from(labels).map((l) => ownText(l, el)).join(" ")), 120);
  }
  return "";
}

/**
 * The labels of a form control, as `el.labels` lists them (in document order). `labels` searches
 * the whole document on every call (a quarter of a millisecond on a page of 20,000 elements), and
 * a re-find reads the labels of hundreds of candidates: within a pass they come from an index of
 * the labels that name an element by its id (built once per document or shadow root) and the
 * labels around it — the only ones whose control it can be.
 * @param {Element} el @param {Map<any, any>} [pass]
 * @returns {ArrayLike<HTMLLabelElement> | null | undefined}
 */
function labelsOf(el, pass) {
  if (!pass || !("labels" in el) || !isConnectedOf(el)) return /** @type {HTMLInputElement} */ (el).labels;
  const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
  /** @type {Map<Node, Map<string, HTMLLabelElement[]>>} */
  let byRoot = pass.get(labelsOf);
  if (!byRoot) { byRoot = new Map(); pass.set(labelsOf, byRoot); }
  let byFor = byRoot.get(root);
  if (!byFor) {
    byFor = new Map();
    for (const l of Array.from(/** @type {NodeListOf<HTMLLabelElement>} */ (qsa(root, "label[for]")))) {
      const f = l.getAttribute("for") || "";
      const g = byFor.get(f);
      if (g) g.push(l); else byFor.set(f, [l]);
    }
    byRoot.set(root, byFor);
  }
  /** @type {HTMLLabelElement[]} */
  const out = [];
  const control = /** @type {HTMLElement} */ (/** @type {unknown} */ (el)); // a form control: it has `labels`
  for (let p = parentElOf(el); p; p = parentElOf(p)) if (tagOf(p) === "label" && /** @type {HTMLLabelElement} */ (p).control === control) out.push(/** @type {HTMLLabelElement} */ (p));
  if (idOf(el)) for (const l of byFor.get(idOf(el)) || []) if (l.control === control && !out.includes(l)) out.push(l);
  return out.length > 1 ? out.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1)) : out;
}

/**
 * Text of `root` leaving out the subtree of `skip` and of other form controls — and, with
 * `alike`, of elements that look like `skip` (its tag or another control, with similar words or the
 * same label): a copy of a control put beside it is not what names the row or card it stands in.
 * @param {Element} root @param {Element} skip @param {boolean} [alike]
 */
function ownText(root, skip, alike = false) {
  let out = "";
  const words = alike ? norm(textOf(skip)) : "";
  // A copy beside it with a word tweaked still carries its label ("Remove" on "×" and on "×s").
  const label = alike ? attr(skip, "aria-label") || attr(skip, "title") : "";
  // Of its tag, or another control (a copy kept as a button while it became a link).
  const kind = (/** @type {Element} */ e) => tagOf(e) === tagOf(skip) || (isInteractiveCheap(e) && isInteractiveCheap(skip));
  const looksLike = (/** @type {Element} */ e) => alike && kind(e) && ((textSim(norm(textOf(e)), words) ?? 1) >= 0.6
    || (!!label && (attr(e, "aria-label") || attr(e, "title")) === label));
  const walker = (docOf(root) || document).createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n === skip || (nodeTypeOf(n) === 1 && (["select", "textarea", "script", "style"].includes(tagOf(/** @type {Element} */ (n))) || looksLike(/** @type {Element} */ (n))))
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (nodeTypeOf(n) === 3) out += nodeValueOf(n) + " ";
  return out;
}

/**
 * The element's visible words (textContent is used: innerText would force a layout per element).
 * @param {Element} el @param {Map<any, any>} [pass] see captureSignature: each element's are read once
 */
export function visibleText(el, pass) {
  if (!pass) return readVisibleText(el);
  /** @type {Map<Element, string>} */
  let memo = pass.get(visibleText);
  if (!memo) { memo = new Map(); pass.set(visibleText, memo); }
  let t = memo.get(el);
  if (t === undefined) { t = readVisibleText(el); memo.set(el, t); }
  return t;
}

/** @param {Element} el */
function readVisibleText(el) {
  const tag = tagOf(el);
  if (tag === "input" || tag === "textarea") return "";
  if (tag === "select") {
    const sel = /** @type {HTMLSelectElement} */ (el);
    return cut(norm(sel.selectedOptions[0]?.textContent), 80);
  }
  const raw = textOf(el) || "";
  // A container's words can run to the whole page's: the first hundred, once normalised, are those
  // of a slice whose normalised form is longer than that.
  if (raw.length > 400) { const head = norm(raw.slice(0, 400)); if (head.length > 100) return head.slice(0, 100); }
  return cut(norm(childCountOf(el) && raw.length <= 400 ? laidOutText(el, raw) : raw), 100);
}

/** A control's subtree past this size keeps its textContent (walking it would cost more than it says). */
const LAID_OUT_MAX = 40;

/** Parts of a control that are other things, not its words: a tree item's nested group of items, a
 * menu's submenu (Chrome's accessible name leaves them out too). */
const NOT_NAME = new Set(["group", "tree", "list", "listbox", "menu", "menubar", "grid", "table", "tablist", "toolbar", "dialog"]);

/**
 * An element's words as the browser lays them out and a person reads them: a part that stands
 * apart (a block, an inline-block badge, a float, a positioned one) is a word of its own ("Inbox 7",
 * not "Inbox7"; "Comments 2 Comments in moderation"); words hidden from everyone (display: none,
 * visibility: hidden, aria-hidden) and a nested group of other items say nothing, as in Chrome's
 * accessible name; a line break (`New<br>messages`) and an inline svg's title part words too;
 * inline formatting inside a word ("Ket<b>tle</b>") stays one word.
 * @param {Element} el @param {string} raw its textContent
 */
function laidOutText(el, raw) {
  const view = docOf(el).defaultView;
  if (!view || byTagOf(el, "*").length > LAID_OUT_MAX) return raw;
  let out = "";
  /** @param {Node} p @param {boolean} shown whether p's own words show (visibility) */
  const walk = (p, shown) => {
    for (let c = firstChildOf(p); c; c = nextSiblingOf(c)) {
      const t = nodeTypeOf(c);
      if (t === 3) { if (shown) out += nodeValueOf(c) || ""; continue; }
      if (t !== 1) continue;
      const e = /** @type {Element} */ (c), tag = tagOf(e);
      if (tag === "script" || tag === "style" || tag === "template" || attr(e, "aria-hidden") === "true") continue;
      if (tag === "br") { out += " "; continue; } // a line break parts words as a space does
      const role = attr(e, "role");
      if (role && NOT_NAME.has(role)) continue;
      const st = view.getComputedStyle(e);
      if (st.display === "none") continue;
      // (An inline picture, an svg, is a thing of its own beside the words: its title is a word apart.)
      const apart = (st.display !== "inline" && st.display !== "contents") || tag === "svg" || st.float !== "none" || st.position === "absolute" || st.position === "fixed";
      if (apart) out += " ";
      walk(e, st.visibility === own || st.visibility === "visible");
      if (apart) out += " ";
    }
  };
  // Hidden words are those hidden inside the element: a control hidden as a whole (a menu's entry
  // shown on hover) still has its own.
  const own = view.getComputedStyle(el).visibility;
  walk(el, true);
  return out;
}

/**
 * A simplified accessible name (ARIA name computation, main branches).
 * @param {Element} el @param {Map<any, any>} [pass] see captureSignature
 */
export function accessibleName(el, pass) {
  const byRef = referencedText(el, "aria-labelledby");
  if (byRef) return cut(byRef, 120);
  const aria = norm(attr(el, "aria-label"));
  if (aria) return cut(aria, 120);
  const tag = tagOf(el);
  if (tag === "input" || tag === "textarea" || tag === "select") {
    const t = (attr(el, "type") || "").toLowerCase();
    if (tag === "input" && ["submit", "button", "reset"].includes(t)) return norm(/** @type {HTMLInputElement} */ (el).value) || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : "");
    if (tag === "input" && t === "image") return norm(attr(el, "alt"));
    const label = labelText(el, pass);
    if (label) return label;
    return cut(norm(attr(el, "placeholder") || attr(el, "title")), 120);
  }
  if (tag === "img") return cut(norm(attr(el, "alt") || attr(el, "title")), 120);
  // What is typed into an editable region is its value, not its name (a rich-text body is named
  // by its label, never by the letter being written in it).
  if (isTextRegion(el)) return cut(norm(attr(el, "aria-placeholder") || attr(el, "placeholder") || attr(el, "data-placeholder") || attr(el, "title")), 120);
  const text = visibleText(el, pass);
  if (text) return text;
  // An icon button: the name often sits on the image inside it.
  const img = qs(el, "img[alt], svg title, [aria-label]");
  if (img) return cut(norm(attr(img, "alt") || attr(img, "aria-label") || textOf(img)), 120);
  return cut(norm(attr(el, "title")), 120);
}

/**
 * The words a control shows where its accessible name says something else (`<button
 * aria-label="Keep my account">Delete my account</button>`): a person reads one, a screen reader
 * the other, and either may be the page's trap — so both are shown. "" where they agree (one holds
 * the other), where the control shows no words (an icon), or for a field (its words are its value).
 * @param {Element} el @param {string} name its accessible name
 */
export function shownWords(el, name) {
  if (!name || !(hasAttr(el, "aria-label") || hasAttr(el, "aria-labelledby"))) return "";
  const tag = tagOf(el);
  if (tag === "input" || tag === "textarea" || tag === "select" || isTextRegion(el)) return "";
  const shown = norm(isHtml(el) ? innerTextOf(/** @type {HTMLElement} */ (el)) : textOf(el)).slice(0, 80);
  if (!/[\p{L}\p{N}]/u.test(shown)) return "";
  const a = shown.toLowerCase(), b = name.toLowerCase();
  return a.includes(b) || b.includes(a) ? "" : shown;
}

/** An editable region or a text box the page draws itself (not a form field). @param {Element} el */
export function isTextRegion(el) {
  const ce = attr(el, "contenteditable");
  return (ce !== null && ce !== "false") || /^(textbox|searchbox)$/.test(attr(el, "role") || "");
}

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

/** @param {Element} el */
function ancestorPath(el) {
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

/** The document of a same-origin frame element, else null (a cross-origin frame's own agent reads it). @param {Element} el */
export function frameDocument(el) {
  const tag = tagOf(el);
  if (tag !== "iframe" && tag !== "frame") return null;
  try {
    const d = /** @type {HTMLIFrameElement} */ (el).contentDocument;
    // (A frame the user's site rules keep heybro off is no part of the page it reads: dom_frames.js.)
    return d && d.documentElement && !leftOut(d) ? d : null;
  } catch { return null; }
}

/**
 * The element that really has focus: through shadow roots and into same-origin frames (a
 * document's `activeElement` is the shadow host, or the <iframe>, that contains it).
 * @param {Document} doc
 * @returns {Element | null}
 */
export function deepActiveElement(doc) {
  /** @type {Element | null} */ let a = doc.activeElement;
  while (a) {
    const sr = shadowOf(a);
    if (sr && sr.activeElement) { a = sr.activeElement; continue; }
    const d = frameDocument(a);
    if (d && d.activeElement) { a = d.activeElement; continue; }
    break;
  }
  return a;
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
  const exp = attr(el, "aria-expanded");
  if (exp !== null) s.expanded = exp === "true";
  if (tag === "details" || (tag === "summary" && (parentElOf(el) ? tagOf(parentElOf(el)) : undefined) === "details")) s.expanded = !!(/** @type {HTMLDetailsElement} */ (tag === "details" ? el : parentElOf(el))).open;
  if (docOf(el) && deepActiveElement(docOf(el)) === el) s.focused = true;
  return s;
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
function valueIsIdentity(tag) { return tag === "input" || tag === "button" || tag === "option"; }

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
function lookKeyOf(el, pass) {
  return attrKeyOf(el) + "\u0001" + lookText(el, pass);
}

/** The words of a look key (a select's are its options, which say nothing of how it looks). @param {Element} el @param {Map<any, any>} [pass] */
function lookText(el, pass) { return tagOf(el) === "select" ? "" : visibleText(el, pass); }

/** @param {Signature} sig */
function lookKeyOfSignature(sig) {
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
function tagQuery(root, tag, pass) {
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
  const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
  if (!("querySelectorAll" in root)) return {};
  /** @type {Map<string, TagOrder> | undefined} */
  let byTag = pass?.get(root);
  if (!byTag) { byTag = new Map(); if (pass) pass.set(root, byTag); }
  let t = byTag.get(tagOf(el));
  if (!t) { t = tagOrder(root, tagOf(el), pass); byTag.set(tagOf(el), t); }
  const k = t.at.get(el);
  if (k === undefined) return {};
  const key = t.keys[k], g = key === null ? null : t.groups.get(key);
  return { order: { k, n: t.all.length }, ...(g && g.length > 1 ? { twins: { k: g.indexOf(el), n: g.length } } : {}) };
}

/**
 * The place of a re-find's candidates (see placeOf), asking no more of the page than the rules use:
 * the k-th of n with the element's tag (a binary search of the root's list in document order), and
 * among look-alikes only for those that look like the element (the rules compare no one else's),
 * whose look-alikes are asked of the selector engine by the attributes of the look. Candidates of
 * another tag get none: where they stand among their own tag says nothing of the element.
 * @param {Signature} sig @param {Array<{element: Element, signature: Signature}>} cands @param {Map<any, any>} pass
 */
function placeCandidates(sig, cands, pass) {
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
 * Where the element was captured: the zones around it (innermost first, across shadow roots) and
 * the title of the item it belongs to. What a zone or item says is read once per container in a
 * pass.
 * @param {Element} el @param {Map<any, any>} [pass]
 * @returns {Context}
 */
export function contextOf(el, pass) {
  /** @type {Map<Element, {zone: string, title?: Element | null}>} */
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
      else if (t === p) key = (item = cut(norm(ownText(p, el, true)), 40)) && `l:${item}`;
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
  return { zones: zones.slice(0, 6), item };
}

/**
 * Whether what a candidate is says it is another element, whatever else matches: it stands in
 * another part of the page (contextClash), its words are gone where the element had some (the
 * image link beside a card's title link), its link leads to another numbered place (/p/12, not
 * /p/13), or it is a nameless control showing another icon.
 * @param {Signature} sig @param {Signature} c @param {Set<string>} [standing] see standingZones
 */
export function anotherElement(sig, c, standing) {
  if (contextClash(sig, c, standing)) return true;
  // Its name says something else: a word replaced by another, or other numbers ("Edit Ada" for
  // "Delete Ada", "2 stars" for "1 star"); an editable region's name is its text, which changes.
  if (sig.name && c.name && sig.name !== c.name && sig.state?.value === undefined && /^(input|select|textarea)$/.test(sig.tag) === /^(input|select|textarea)$/.test(c.tag) && !nameGone(sig, c)) {
    const a = norm(sig.name).toLowerCase(), b = norm(c.name).toLowerCase();
    if (numbers(a) !== numbers(b) || replacedWord(a, b)) return true;
  }
  // A form control's name attribute is what the form submits it as.
  const na = sig.attrs?.name, nb = c.attrs?.name;
  if (na && nb && na !== nb && !GENERATED_ID.test(na) && !extendsId(nb, na)) return true;
  if (otherRecord(sig, c)) return true;
  if (heldIt(sig, c)) return true;
  // Words where it had none, or none where it had some: the title link beside a card's image link.
  if (!!sig.text !== !!c.text && sig.tag === c.tag && sig.tag !== "select" && sig.state?.value === undefined) return true;
  // Inside other components, or none.
  if ((sig.shadow || []).map((x) => x.split(/[.#]/)[0]).join(">") !== (c.shadow || []).map((x) => x.split(/[.#]/)[0]).join(">")) return true;
  if (otherLink(sig.attrs?.href, c.attrs?.href)) return true;
  if (sig.icon && c.icon && !c.name) {
    const a = sig.icon.split(" "), b = c.icon.split(" ");
    if (a.some((w) => !b.includes(w)) && b.some((w) => !a.includes(w))) return true;
  }
  return false;
}

/** A signature's own step, written as its ancestors' are (see step). @param {Signature} s */
function ownStep(s) {
  const id = s.attrs?.id;
  return s.tag + (id && !GENERATED_ID.test(id) ? `#${id}` : s.classes?.[0] ? `.${s.classes[0]}` : "");
}

/**
 * Whether the candidate is the container the element stood in: written as its parent was (tag and
 * class) and standing where that parent stood — an icon's wrapper, with the icon gone from it. Not
 * when the element was written as its parent (a span in a span): then it may be the element with
 * its wrapper taken away.
 * @param {Signature} sig @param {Signature} c
 */
function heldIt(sig, c) {
  const p = sig.path || [], q = c.path || [];
  if (!p.length || ownStep(c) !== p[0] || ownStep(sig) === p[0]) return false;
  return q.slice(0, p.length - 1).join(">") === p.slice(1).join(">") && (p.length >= 6 || q.length === p.length - 1);
}

/**
 * The keys the page's author gave the element, which a re-render keeps and no other element has:
 * an id the page did not generate, a test id, a link's target (not a fragment or a script), a form
 * control's name and a checkbox's or radio's value.
 * @param {Signature} sig @returns {Array<[string, string]>}
 */
function identityKeys(sig) {
  const A = sig.attrs || {};
  /** @type {Array<[string, string]>} */ const out = [];
  const alone = new Set(sig.alone || []);
  if (!alone.size) return out; // (a signature from before this was kept, or nothing of its own)
  if (A.id && alone.has("id") && !GENERATED_ID.test(A.id)) out.push(["id", A.id]);
  for (const k of TEST_ID_ATTRS) if (A[k] && alone.has(k)) out.push([k, A[k]]);
  if (A.href && alone.has("href") && !A.href.startsWith("#") && !/^javascript:/i.test(A.href)) out.push(["href", hrefKey(A.href)]);
  if (A.name && alone.has("name") && !GENERATED_ID.test(A.name) && /^(input|select|textarea|button)$/.test(sig.tag)) {
    out.push(["name", A.name]);
    if (A.value !== undefined && /^(checkbox|radio)$/i.test(A.type || "")) out.push(["value", A.value]);
  }
  return out;
}

/** @param {Signature} sig @param {Array<[string, string]>} keys */
function carries(sig, keys) {
  const B = sig.attrs || {};
  return keys.every(([k, v]) => (k === "href" ? B.href !== undefined && hrefKey(B.href) === v : B[k] === v));
}

/** The same as `carries`, read off the element. @param {Element} el @param {Array<[string, string]>} keys */
function carriesAttrs(el, keys) {
  return keys.every(([k, v]) => { const a = attr(el, k); return a !== null && a !== undefined && (k === "href" ? hrefKey(a) === v : a === v); });
}

/** @param {Array<[string, string]>} keys */
function identityText(keys) {
  return keys.map(([k, v]) => `${k}=${cut(v, 60)}`).join(", ");
}

/** Whether two signatures stand inside the same components (shadow hosts), or in none. @param {Signature} a @param {Signature} b */
function sameComponent(a, b) {
  const chain = (/** @type {Signature} */ s) => (s.shadow || []).map((x) => x.split(/[.#]/)[0]).join(">");
  return chain(a) === chain(b) && (a.hosts || []).join(" ") === (b.hosts || []).join(" ");
}

/** Whether a candidate stands in another row, card or post than the element did (both named). @param {Signature} sig @param {Signature} c */
function otherItem(sig, c) {
  return !!sig.context?.item && !!c.context?.item && !sameItem(sig, c);
}

/**
 * Whether a candidate carries another record's key than the element's own: a checkbox's, radio's
 * or option's value (what the form submits for it: post 2, not post 5), an id of the same shape
 * with other numbers (cb-select-2, not cb-select-5), or, for a link, other words leading to another
 * query (a search's "Kettle" to create, not its "Kettles lid"). An element whose own key went away
 * is not found in a neighbour that has one of its own.
 * @param {Signature} sig @param {Signature} c
 */
function otherRecord(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  const type = (A.type || "").toLowerCase();
  if ((type === "checkbox" || type === "radio" || sig.tag === "option") && A.value !== undefined
    && B.value !== undefined && A.value !== B.value) return true;
  if (A.id && B.id && A.id !== B.id && /\d/.test(A.id) && A.id.replace(/\d+/g, "0") === B.id.replace(/\d+/g, "0")) return true;
  if (sig.tag !== "a" || !A.href || !B.href || !sig.name || !c.name) return false;
  if (norm(sig.name).toLowerCase() === norm(c.name).toLowerCase()) return false;
  try { return new URL(A.href, "http://x/").search !== new URL(B.href, "http://x/").search; } catch { return false; }
}

/**
 * Whether two link targets are other places: another path (/docs/community/tokens is not
 * /docs/guides/tokens), or the same path with other numbers (?p=2 is not ?p=3). What follows a
 * "#" alone, and a query's words, may change with the page's state.
 * @param {string | undefined} a @param {string | undefined} b
 */
function otherLink(a, b) {
  if (!a || !b || a === b) return false;
  let pa, pb;
  try { pa = new URL(a, "http://x/"); pb = new URL(b, "http://x/"); } catch { return false; }
  if (pa.host !== pb.host || pa.pathname.replace(/\/$/, "") !== pb.pathname.replace(/\/$/, "")) return true;
  return numbers(pa.search) !== numbers(pb.search);
}

/**
 * Whether two titles say the same: nearly the same text, or mostly the same words in another
 * order (a row's cells or a card's parts rearranged), with the same numbers.
 * @param {string} a @param {string} b
 */
function sameWords(a, b) {
  if ((textSim(a, b) ?? 1) >= 0.7) return true;
  const wa = new Set(a.toLowerCase().match(/[\p{L}\d]+/gu) || []), wb = new Set(b.toLowerCase().match(/[\p{L}\d]+/gu) || []);
  if (numbers(a) !== numbers(b) && [...wa].some((w) => /\d/.test(w)) && [...wb].some((w) => /\d/.test(w))
    && [...wa].filter((w) => /\d/.test(w)).sort().join() !== [...wb].filter((w) => /\d/.test(w)).sort().join()) return false;
  const inter = [...wa].filter((w) => wb.has(w)).length;
  return inter / Math.max(1, wa.size + wb.size - inter) >= 0.6;
}

/** Whether a candidate stands in the item (post, row, card) the element was captured in. @param {Placed} sig @param {Placed} c */
function sameItem(sig, c) {
  const a = sig.context?.item || "", b = c.context?.item || "";
  return !!a && !!b && sameWords(a.slice(2), b.slice(2));
}

/** Whether two zones ("kind:label") are the same part of the page: same kind, and labels that agree or are unknown. @param {string} a @param {string} b */
function sameZone(a, b) {
  const i = a.indexOf(":"), j = b.indexOf(":");
  if (a.slice(0, i) !== b.slice(0, j)) return false;
  const la = a.slice(i + 1), lb = b.slice(j + 1);
  return !la || !lb || (textSim(la, lb) ?? 1) >= 0.7;
}

/**
 * Whether a candidate stands in another part of the page than the one the element was captured in:
 * outside one of the zones the element was in (the footer's nav, not the header's; the sign-up
 * form, not the login form; a copy of a form's button put outside the form), inside a landmark or
 * form it was not in (a paragraph's link copied into the sidebar), or in an item with another title
 * (Bob's row, not Alice's), or in a table's row when it stood in none (a copy of a table's toolbar
 * button put in a row). A section or group it gained (a new wrapper) and an item title that is
 * gone say nothing. An element that had look-alikes (told apart by the part it stood in) is not one
 * found outside that part while the part still stands (`standing`, see standingZones).
 * @param {Signature} sig @param {Placed} c @param {Set<string>} [standing]
 */
export function contextClash(sig, c, standing) {
  const A = sig.context, B = c.context;
  if (!A || !B) return false;
  if (A.item && B.item && A.item.slice(0, 2) === B.item.slice(0, 2) && !sameItem(sig, c)) return true;
  // Into a table's row when it stood in none: a table's "Invite user" is not a copy of it put in
  // Kai's row. (Not any item: one read from a run of look-alike containers can come and go with a
  // wrapper.)
  if (!A.item && B.item.startsWith("r:")) return true;
  // A part without a name agrees with a named one of its kind (a redesign may name it) — not while
  // one like it, nameless, within the same parts, still stands: then the named one is another (a
  // copy of the pagination's link in the labelled table of contents).
  const agree = (/** @type {string} */ a, /** @type {number} */ i, /** @type {string} */ b) => sameZone(a, b)
    && !(standing && a.endsWith(":") && !b.endsWith(":") && standing.has(A.zones.slice(i).join(ZONE_SEP)));
  const gained = B.zones.filter((b) => !A.zones.some((a, i) => agree(a, i, b)));
  // Into a landmark or form it was not in (a paragraph's link is not the sidebar's): elsewhere.
  if (gained.some((b) => LANDMARKS.has(b.slice(0, b.indexOf(":"))))) return true;
  const lost = A.zones.filter((a, i) => !B.zones.some((b) => agree(a, i, b)));
  if (!lost.length) return false;
  // Out of a zone and into another: elsewhere. Out of a zone only because the zone's element went
  // away (its ancestors are the old ones less a step): the same element, unwrapped — unless the
  // zone is still there and was what told the element from its look-alikes (the Push switch of the
  // Mentions group, a copy of it standing outside any group).
  if (gained.length > 0 || !unwrapped(sig.path || [], c.path || [])) return true;
  return !!sig.twins && !!standing && A.zones.some((a, i) => lost.includes(a) && standing.has(A.zones.slice(i).join(ZONE_SEP)));
}

const ZONE_SEP = "\u0001";

/**
 * The parts of the page the candidates stand in, each with those around it ("fieldset:Mentions",
 * "section:Notifications", "main:"): whether a zone an element left still stands.
 * @param {Placed[]} cands
 */
function standingZones(cands) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const c of cands) {
    const z = c.context?.zones || [];
    for (let i = 0; i < z.length; i++) out.add(z.slice(i).join(ZONE_SEP));
  }
  return out;
}

/** Zones that an element does not enter and stay itself (a new wrapping section or group may come). */
const LANDMARKS = new Set(["header", "footer", "nav", "aside", "form", "dialog"]);

/**
 * Whether ancestor path b is path a with one step taken out and none put in (tags only: classes
 * may have been rehashed). Paths keep six steps, so a full one may show one more step at its far end.
 * @param {string[]} a @param {string[]} b
 */
function unwrapped(a, b) {
  const ta = a.map((x) => x.split(/[.#]/)[0]), tb = b.map((x) => x.split(/[.#]/)[0]);
  const dp = Array.from({ length: ta.length + 1 }, () => new Array(tb.length + 1).fill(0));
  for (let i = 1; i <= ta.length; i++) for (let j = 1; j <= tb.length; j++) dp[i][j] = ta[i - 1] === tb[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
  const spare = ta.length >= 6 ? 1 : 0, lcs = dp[ta.length][tb.length];
  return tb.length < ta.length + spare && lcs >= tb.length - spare && ta.length - lcs <= 1;
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
  /** @type {Record<string, string>} */
  const attrs = {};
  // Walk the element's own (few) attributes rather than asking for each stable one by name. A
  // secret field's value attribute and data attributes are not kept (a page may keep the password
  // it generated there).
  const state = known.state ?? elementState(el, pass);
  const secret = !!state.secret;
  const valueOk = valueIsIdentity(tagOf(el)) && !secret;
  let data = secret ? 4 : 0;
  const list = attrsOf(el);
  for (let i = 0; i < list.length; i++) {
    const a = list[i];
    if (a.value === "" || (a.name === "value" && !valueOk)) continue;
    if (STABLE_SET.has(a.name)) attrs[a.name] = cut(a.value, 200);
    // Apps often key their rows by a data attribute (data-id, data-sku…): a few short ones.
    else if (a.name.startsWith("data-") && a.value.length <= 40 && data < 4) { attrs[a.name] = a.value; data++; }
  }
  const role = attr(el, "role");
  if (role) attrs.role = role;
  const { frames, dx, dy, topWin } = frameChain(el);
  const r = known.box || (() => { const b = rectOf(el); return { x: b.left + dx, y: b.top + dy, w: b.width, h: b.height }; })();
  let scroll = topWin && pass?.get(topWin);
  if (!scroll) {
    scroll = topWin ? { x: topWin.scrollX, y: topWin.scrollY } : { x: 0, y: 0 };
    if (topWin && pass) pass.set(topWin, scroll);
  }
  const sx = scroll.x, sy = scroll.y;
  const place = known.place === false ? {} : placeOf(el, pass);
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
  "only", "small", "large", "default", "primary", "secondary", "rounded", "sprite", "sprites", "png", "jpg", "gif", "webp"]);

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

/** Bigram counts of texts seen lately: a page repeats its words ("Add to cart" × 200), and a
 * re-find compares the same captured words with thousands of candidates. @type {Map<string, Map<string, number>>} */
const BIGRAMS = new Map();

/** @param {string} s */
function bigrams(s) {
  let m = BIGRAMS.get(s);
  if (m) return m;
  m = new Map();
  for (let i = 0; i < s.length - 1; i++) { const g = s.slice(i, i + 2); m.set(g, (m.get(g) || 0) + 1); }
  if (BIGRAMS.size > 20000) BIGRAMS.clear();
  BIGRAMS.set(s, m);
  return m;
}

/** @param {string} s */
function numbers(s) { return (s.match(/\d+/g) || []).join(" "); }

/**
 * Similarity of two texts, 0..1 (null when neither side has one): Dice coefficient on character
 * bigrams, but a near match is worth clearly less than an exact one (a look-alike differs by a
 * word), and texts whose numbers differ ("Tab #2" / "Tab #3", "Book for $485" / "$1579") are
 * different things however many letters they share.
 * @param {string} a @param {string} b
 */
export function textSim(a, b) {
  a = norm(a).toLowerCase(); b = norm(b).toLowerCase();
  if (!a && !b) return null;
  if (!a || !b) return 0;
  if (a === b) return 1;
  // One character: only "3" → "3s" (the same thing, extended) keeps something in common.
  if (a.length < 2 || b.length < 2) return a[0] === b[0] ? NEAR * 0.5 : 0;
  const ga = bigrams(a), gb = bigrams(b);
  let inter = 0;
  for (const [g, n] of ga) inter += Math.min(n, gb.get(g) || 0);
  const dice = (2 * inter) / (a.length - 1 + b.length - 1);
  return NEAR * dice * (numbers(a) === numbers(b) && !replacedWord(a, b) ? 1 : OTHER_NUMBER);
}

/**
 * Whether one text has a word the other replaced with an unrelated word ("Edit Ada" / "Delete
 * Ada", "Continue with Apple" / "Continue with GitHub"): another thing, not the same one reworded.
 * A word that grew or shrank ("cart" / "carts", "Sign in" / "Sign in now") is the same thing.
 * @param {string} a @param {string} b lower case
 */
function replacedWord(a, b) {
  const wa = a.split(/[^\p{L}]+/u).filter(Boolean), wb = b.split(/[^\p{L}]+/u).filter(Boolean);
  const onlyA = wa.filter((w) => !wb.includes(w)), onlyB = wb.filter((w) => !wa.includes(w));
  if (!onlyA.length || !onlyB.length) return false;
  const related = (/** @type {string} */ x, /** @type {string} */ y) => x.startsWith(y) || y.startsWith(x);
  return onlyA.some((x) => !onlyB.some((y) => related(x, y))) && onlyB.some((y) => !onlyA.some((x) => related(x, y)));
}

/** What a near (not exact) text match is worth, and how much of that is left when the numbers differ. */
export const NEAR = 0.85, OTHER_NUMBER = 0.3;

/**
 * The words before and after an element, from its neighbour text ("before | after", normalised:
 * "| after" when nothing is before it, "before |" when nothing is after).
 * @param {string} s @returns {[string, string]}
 */
function aroundParts(s) {
  s = s || "";
  if (s === "|") return ["", ""];
  if (s.startsWith("| ")) return ["", s.slice(2)];
  if (s.endsWith(" |")) return [s.slice(0, -2), ""];
  const i = s.indexOf(" | ");
  return i < 0 ? [s, ""] : [s.slice(0, i), s.slice(i + 3)];
}

/**
 * Neighbour text is "before | after"; the words before a control usually name it (a row's title
 * before its button), so they count three times as much as the words after.
 * @param {string} a @param {string} b
 */
function neighborSim(a, b) {
  const [pa, na] = aroundParts(a), [pb, nb] = aroundParts(b);
  const p = textSim(pa, pb), n = textSim(na, nb);
  if (p === null && n === null) return null;
  return 0.75 * (p ?? 1) + 0.25 * (n ?? 1);
}

/** @param {string[]} a @param {string[]} b */
function setSim(a, b) {
  if (!a.length && !b.length) return null;
  if (!a.length || !b.length) return 0;
  const sb = new Set(b);
  const inter = a.filter((x) => sb.has(x)).length;
  return inter / (a.length + b.length - inter);
}

/** Similarity of two ancestor paths: longest common subsequence over the longer length. @param {string[]} a @param {string[]} b */
function pathSim(a, b) {
  if (!a.length && !b.length) return null;
  if (!a.length || !b.length) return 0;
  const dp = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) {
    dp[i][j] = a[i - 1] === b[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
  }
  return dp[a.length][b.length] / Math.max(a.length, b.length);
}

/** @param {Box} a @param {Box} b */
function boxSim(a, b) {
  if (!a || !b) return null;
  const d = Math.hypot(a.x + a.w / 2 - (b.x + b.w / 2), a.y + a.h / 2 - (b.y + b.h / 2));
  const size = Math.min(a.w * a.h, b.w * b.h) / Math.max(a.w * a.h, b.w * b.h, 1);
  return 0.7 * Math.exp(-d / 250) + 0.3 * size;
}

/**
 * Whether a box starts (or ends: right-aligned words) where another did, on the same line: the
 * element stayed put, though its words grew or shrank.
 * @param {Box} a @param {Box} b
 */
function sameSpot(a, b) {
  if (!a || !b || Math.abs(a.y - b.y) > 4) return false;
  return Math.abs(a.x - b.x) <= 4 || Math.abs(a.x + a.w - (b.x + b.w)) <= 4;
}

/** The roles that stand in for each other when a tag is swapped (button ↔ link ↔ div role=button). */
const ACTION_ROLES = new Set(["button", "link", "menuitem", "tab", "option"]);

/** @param {string} a @param {string} b */
function roleSim(a, b) {
  if (!a && !b) return null;
  if (a === b) return 1;
  return ACTION_ROLES.has(a) && ACTION_ROLES.has(b) ? 0.6 : 0;
}

/** @param {string} href */
function hrefKey(href) {
  try { const u = new URL(href, "http://x/"); return u.pathname + u.search + u.hash; } catch { return href; }
}

/**
 * Field weights. Tuned on scripts/bench_refind.py's mutation suite: names and labels carry most,
 * positions little (after a deletion the next sibling slides into the old place).
 * @type {Record<string, number>}
 */
export const WEIGHTS = {
  tag: 1, role: 1, name: 3, text: 2, id: 5, nameAttr: 3, type: 1, href: 2, placeholder: 2,
  alt: 1, title: 1, testid: 4, data: 2, label: 2, classes: 1, neighbor: 2.5, path: 1.5, box: 1, frame: 0.5,
  value: 2,
};

/**
 * Per-field similarities between a captured signature and a candidate's.
 * @param {Signature} sig @param {Signature} c
 * @returns {Record<string, number | null>}
 */
export function fieldSims(sig, c) {
  const memo = simsMemo?.get(c);
  if (memo && memo.sig === sig) return memo.sims;
  const sims = readFieldSims(sig, c);
  simsMemo?.set(c, { sig, sims });
  return sims;
}

/**
 * Within one refind call nothing changes on the page nor in the signatures it compares, and the
 * rules ask for the same candidate's similarities several times: they are worked out once.
 * @type {WeakMap<Signature, {sig: Signature, sims: Record<string, number | null>}> | null}
 */
let simsMemo = null;

/** @param {Signature} sig @param {Signature} c @returns {Record<string, number | null>} */
function readFieldSims(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  const testA = TEST_ID_ATTRS.map((k) => A[k]).find(Boolean) || "";
  const testB = TEST_ID_ATTRS.map((k) => B[k]).find(Boolean) || "";
  const eq = (/** @type {string | undefined} */ x, /** @type {string | undefined} */ y) => (!x && !y ? null : x === y ? 1 : 0);
  return {
    tag: sig.tag === c.tag ? 1 : 0,
    role: roleSim(sig.role, c.role),
    name: textSim(sig.name, c.name),
    text: textSim(sig.text, c.text),
    id: A.id ? (A.id === B.id ? 1 : 0) : null,
    nameAttr: A.name ? (A.name === B.name ? 1 : 0) : null,
    type: eq(A.type, B.type),
    href: A.href ? (B.href ? (hrefKey(A.href) === hrefKey(B.href) ? 1 : 0.5 * (textSim(A.href, B.href) || 0)) : 0) : null,
    placeholder: A.placeholder ? textSim(A.placeholder, B.placeholder || "") : null,
    alt: A.alt ? textSim(A.alt, B.alt || "") : null,
    title: A.title ? textSim(A.title, B.title || "") : null,
    testid: testA ? (testA === testB ? 1 : 0) : null,
    data: dataSim(A, B),
    label: sig.label ? textSim(sig.label, c.label) : null,
    classes: setSim(sig.classes || [], c.classes || []),
    neighbor: neighborSim(sig.neighbor, c.neighbor),
    path: pathSim(sig.path || [], c.path || []),
    box: boxSim(sig.box, c.box),
    frame: (sig.frame || []).join(">") === (c.frame || []).join(">") ? 1 : 0,
    // A radio's or checkbox's value attribute is what it stands for ("1", "2", "yes").
    value: A.value && valueIsIdentity(sig.tag) ? (A.value === B.value ? 1 : 0) : null,
  };
}

/** Share of the signature's other data-* attributes the candidate has with the same value. @param {Record<string, string>} A @param {Record<string, string>} B */
function dataSim(A, B) {
  const keys = Object.keys(A).filter((k) => k.startsWith("data-") && !TEST_ID_ATTRS.includes(k));
  if (!keys.length) return null;
  return keys.filter((k) => B[k] === A[k]).length / keys.length;
}

/** @param {string} id */
function idWeight(id) { return GENERATED_ID.test(id) ? 0.3 : 1; }

/** Fields that can single an element out (tag, role, type, position and frame only narrow it down). */
const DISTINCTIVE = ["name", "text", "id", "nameAttr", "href", "placeholder", "alt", "title", "testid", "data", "label", "neighbor", "value", "classes"];

/**
 * Scores every candidate against the signature. A field's weight shrinks with the number of
 * candidates that match it well (rarity), so shared words do not outvote the distinctive ones.
 * @param {Signature} sig @param {Array<{element: Element, signature: Signature}>} cands
 * @returns {Scored[]}
 */
export function scoreCandidates(sig, cands) {
  const sims = cands.map((c) => fieldSims(sig, c.signature));
  const A = sig.attrs || {};
  const numberedData = Object.keys(A).some((k) => k.startsWith("data-") && !TEST_ID_ATTRS.includes(k) && /\d/.test(A[k]));
  /** @type {Record<string, number>} */
  const shared = {};
  for (const f of Object.keys(WEIGHTS)) shared[f] = sims.reduce((n, s) => n + ((s[f] ?? 0) >= 0.9 ? 1 : 0), 0);
  return cands.map((c, i) => {
    const si = sims[i];
    // Evidence that singles this candidate out: a field it matches that at most one other does.
    let distinctive = false;
    for (const f of DISTINCTIVE) if ((si[f] ?? 0) >= 0.8 && shared[f] <= 2) distinctive = true;
    // An anchor: a stable identifier (id, test id, form name, data keys, link target) that this
    // candidate alone on the page carries with the very value captured.
    let anchor = false;
    let idAnchor = false;
    for (const f of ANCHORS) if ((si[f] ?? 0) >= 0.999 && shared[f] === 1 && !(f === "id" && GENERATED_ID.test(sig.attrs.id || ""))) { anchor = true; if (f === "id") idAnchor = true; }
    // A numbered key (data-sku="650", href="/p/500") names one record; a word (data-type="radio",
    // href="#") names a kind, which may be unique only because its twin was deleted.
    if ((si.data ?? 0) >= 0.999 && shared.data === 1 && numberedData) anchor = true;
    if ((si.href ?? 0) >= 0.999 && shared.href === 1 && /\d/.test(sig.attrs.href || "") && (si.name ?? 0) >= 0.8) anchor = true;
    let num = 0, den = 0;
    /** @type {Array<[string, number, number]>} */
    const parts = [];
    for (const [f, base] of Object.entries(WEIGHTS)) {
      const s = si[f];
      if (s === null || s === undefined) continue;
      let w = base * (f === "id" ? idWeight(sig.attrs.id) : 1);
      // Rarity: a value matched by many candidates identifies little (position is never "shared").
      if (f !== "box" && shared[f] > 1) w /= 1 + Math.log(shared[f]);
      num += w * s; den += w;
      parts.push([f, w, s]);
    }
    // Tolerant score: the same with the one field that lost most left out. A mutation usually
    // changes one thing about an element (its id, its text, its wrapper); another element differs
    // in several, so this keeps the target high and look-alikes low.
    // An input's role follows from its type: a dropped or changed type is one change, not two.
    const implicitRole = !(sig.attrs || {}).role;
    const roleSimW = parts.find((p) => p[0] === "role");
    let loo = den ? num / den : 0, looField = "", looSim = 1;
    for (const [f, w, s] of parts) {
      let wn = w * s, wd = w;
      if (f === "type" && implicitRole && roleSimW) { wn += roleSimW[1] * roleSimW[2]; wd += roleSimW[1]; }
      const without = den - wd > 0 ? (num - wn) / (den - wd) : 0;
      if (without > loo) { loo = without; looField = f; looSim = s; }
    }
    // Whether the field left out is an attribute the candidate no longer has (dropped) rather than
    // one it has with another value (another element's identity).
    const key = ATTR_OF[looField];
    const looAbsent = !!key && !(key === "testid" ? TEST_ID_ATTRS.some((k) => c.signature.attrs[k]) : c.signature.attrs[key]);
    return { element: c.element, signature: c.signature, score: den ? num / den : 0, loo, looField, looSim, looAbsent, distinctive, anchor, idAnchor,
      tagOk: c.signature.tag === sig.tag || (roleSim(sig.role, c.signature.role) ?? 0) >= 0.6 };
  }).sort((a, b) => b.score - a.score);
}

/** The attribute behind each attribute field. @type {Record<string, string>} */
const ATTR_OF = { id: "id", nameAttr: "name", type: "type", href: "href", placeholder: "placeholder", alt: "alt", title: "title", testid: "testid", value: "value" };

/** Fields whose exact, unique match names one element (see scoreCandidates). */
const ANCHORS = ["id", "testid"];

/** Whether the element takes up space on screen. @param {Element} el */
export function isRendered(el) {
  if (!isConnectedOf(el)) return false;
  return checkVisibilityOf(el, { checkVisibilityCSS: true });
}

/**
 * Every element under root, through open shadow roots and same-origin iframes.
 * @param {Document | Element | ShadowRoot} root @param {(el: Element) => void} visit
 */
export function walkDeep(root, visit) {
  /** @type {Array<Document | Element | ShadowRoot>} */
  const stack = [root];
  while (stack.length) {
    const r = /** @type {Document | Element | ShadowRoot} */ (stack.pop());
    const all = qsa(r, "*");
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      visit(el);
      if (shadowOf(el)) stack.push(shadowOf(el));
      const tag = tagOf(el);
      if (tag === "iframe" || tag === "frame") { const d = frameDocument(el); if (d) stack.push(d); }
    }
  }
}

const NOT_SPACE = /\S/;

/**
 * Whether the element's own (direct child) text, normalised and lower case, is `text` (not
 * empty). Most elements' own text is only the whitespace between their children: that is told
 * without normalising it.
 * @param {Element} el @param {string} text
 */
function sameDirectText(el, text) {
  // Normalising only shortens: own text shorter than `text` (the whitespace between children, as
  // on most elements) cannot be it, and is told without building a string.
  let len = 0, one = null, many = false;
  for (let n = firstChildOf(el); n; n = nextSiblingOf(n)) {
    if (nodeTypeOf(n) !== 3) continue;
    len += /** @type {Text} */ (n).length;
    if (one) many = true; else one = n;
  }
  if (len < text.length || !one) return false;
  let t = "";
  if (!many) t = nodeValueOf(one) || "";
  else for (let n = firstChildOf(el); n; n = nextSiblingOf(n)) if (nodeTypeOf(n) === 3) t += nodeValueOf(n);
  return NOT_SPACE.test(t) && norm(t).toLowerCase() === text;
}

/**
 * Elements that could be the one a signature describes: interactive ones, those with the same tag,
 * and any element that carries the signature's test id, id, name or own text (a swapped tag).
 * Only rendered ones unless `rendered` is false (refind checks that for its shortlist alone: asking
 * thousands of elements whether they are visible is most of a big page's re-find).
 * A page of more than BIG_PAGE elements is not walked element by element: see gatherBig.
 * @param {Signature} sig @param {Document | Element | ShadowRoot} root @param {boolean} [rendered]
 * @param {Map<any, any>} [pass] see captureSignature
 */
export function collectCandidates(sig, root, rendered = true, pass) {
  const A = sig.attrs || {};
  const text = norm(sig.text).toLowerCase();
  /** @type {Element[]} */
  const out = [];
  const testIds = TEST_ID_ATTRS.filter((k) => A[k]);
  /** @param {Element} el */
  const visit = (el) => {
    const tag = tagOf(el);
    let maybe = tag === sig.tag;
    // An element without attributes is interactive by its tag alone, and carries no id, name or
    // test id: most of a page's elements are told with one question.
    if (!maybe && (INTERACTIVE_TAGS.has(tag) || hasAttrs(el))) {
      maybe = isInteractiveCheap(el) || (!!A.id && idOf(el) === A.id) || (!!A.name && attr(el, "name") === A.name)
        || testIds.some((k) => attr(el, k) === A[k]);
    }
    if (!maybe && text && firstChildOf(el) && sameDirectText(el, text)) maybe = true;
    if (maybe && tag !== "html" && tag !== "body" && (!rendered || isRendered(el))) out.push(el);
  };
  // Whether there is a BIG_PAGE-th element is asked of a live list, which walks no further than it.
  const big = "getElementsByTagName" in root ? !!byTagOf(root, "*").item(BIG_PAGE) : qsa(root, "*").length > BIG_PAGE;
  if (big) gatherBig(sig, root, visit, pass);
  else walkDeep(root, visit);
  return out;
}

/**
 * Elements past which a page's candidates are asked of the selector engine (see gatherBig). Below
 * it a walk over every element costs a few milliseconds; at 20,000 it costs more than a whole
 * re-find may (the first touch of each node from script makes an object for it).
 */
export const BIG_PAGE = 3000;

/** On a big page, the elements of the element's tag this many on either side of its old place in
 * the page's order are candidates (see gatherBig). */
export const AROUND = 100;
/** The same for the controls of another tag that a person uses alike, when the element's own tag is
 * not a control's (see gatherBig). */
export const AROUND_OTHER = 60;
/** At most this many nodes are walked between the element's neighbours of its tag (see gatherBig). */
const BETWEEN_NODES = 400;

/** Attributes whose captured value, carried by an element of another kind, brings it in on a big page. */
const CARRIED = ["id", "name", ...TEST_ID_ATTRS, "aria-label", "title", "placeholder", "href", "alt"];

/** The tags of controls, with the roles their markup can give them. @type {Array<[string, string[]]>} */
const ROLE_TAGS = [["a", ["link"]], ["area", ["link"]], ["button", ["button"]], ["summary", ["button"]],
  ["select", ["combobox", "listbox"]], ["textarea", ["textbox"]],
  ["input", ["textbox", "searchbox", "combobox", "button", "checkbox", "radio", "slider", "spinbutton"]]];

/**
 * The candidates of a big page, asked of the selector engine rather than walked: for an element of a
 * control's tag (a button, a link, a field), the elements of its tag around its old place in the
 * page's order (AROUND on either side: the k-th of n then is near the same share of the way through
 * the page now) and the controls of any other tag standing between its neighbours of its tag there
 * (the element redone as a link, or as a div with a role); for an element of a box's tag (a div, a
 * span), every box a role, a tab stop, a handler or editability marks as a control, and the controls
 * of other tags a person uses alike around the same share of the page; for either, every element
 * carrying one of its captured values (its id, form name, test id, data keys, label, link target) —
 * each then put to the same test as on any page (`visit`). Left out: an element far from its old
 * place in the page's order that carries none of its values, and one that kept its words but lost
 * every mark of a control. Either is refused rather than guessed at: re-finding abstains. Shadow
 * roots are entered along the element's own chain of hosts (a candidate in other components is
 * another element, see anotherElement), same-origin frames all.
 * @param {Signature} sig @param {Document | Element | ShadowRoot} root @param {(el: Element) => void} visit
 * @param {Map<any, any>} [pass] see captureSignature: the elements of the tag are asked for once
 */
function gatherBig(sig, root, visit, pass) {
  const A = sig.attrs || {};
  const tag = sig.tag.replace(/[^\w-]/g, "");
  const ofTag = !!tag && INTERACTIVE_TAGS.has(tag);
  // One query a kind: the engine answers a lone tag, or a short list of attributes, far faster than
  // a long list mixing both. Asking it for every marked box on a big page is a fifth of a re-find:
  // for an element of a control's tag, only those standing where it stood are walked (below).
  const carried = Object.keys(A).filter((k) => CARRIED.includes(k) || (k.startsWith("data-") && A[k].length <= 40))
    .map((k) => `,[${k}="${CSS.escape(A[k])}"]`).join("");
  const marked = ofTag ? carried.slice(1) : `[role],[tabindex],[onclick],[contenteditable]${carried}`;
  // The tags of other controls a person uses alike (a link for a button).
  const otherTags = ROLE_TAGS.filter(([t, roles]) => t !== tag && roles.some((x) => (roleSim(sig.role, x) ?? 0) > 0)).map(([t]) => t);
  const alike = (/** @type {Element} */ el) => otherTags.includes(tagOf(el)) && (roleSim(sig.role, roleOf(el)) ?? 0) > 0;
  const control = (/** @type {Element} */ el) => tagOf(el) !== tag && isInteractiveCheap(el);
  const share = sig.order ? sig.order.k / Math.max(1, sig.order.n) : 0;
  const hosts = (sig.shadow || []).map((x) => x.split(/[.#]/)[0]).reverse();
  const doc = "defaultView" in root ? root : docOf(root);
  // A window counts its frames: a document without any is not searched for them.
  const framed = !!(/** @type {Document | null} */ (doc)?.defaultView?.length);
  /** @type {Set<Element>} */
  const seen = new Set();
  /** @param {Element} el @param {(el: Element) => boolean} [keep] */
  const take = (el, keep) => { if (!seen.has(el) && (!keep || keep(el))) { seen.add(el); visit(el); } };
  /** @param {ArrayLike<Element>} list @param {number} at @param {number} w @param {(el: Element) => boolean} [keep] */
  const around = (list, at, w, keep) => {
    const from = list.length <= 2 * w ? 0 : Math.max(0, Math.min(at, list.length - w) - w);
    const to = list.length <= 2 * w ? list.length : Math.min(list.length, Math.max(at, w) + w);
    for (let i = from; i < to; i++) take(list[i], keep);
  };
  /**
   * The elements after `from` and before `to` in document order (the root's start and end when
   * null) that `keep` accepts, BETWEEN_NODES at most.
   * @param {Document | Element | ShadowRoot} r @param {Element | null} from @param {Element | null} to @param {(el: Element) => boolean} keep
   */
  const between = (r, from, to, keep) => {
    const w = (/** @type {Document} */ (docOf(r) || r)).createTreeWalker(r, NodeFilter.SHOW_ELEMENT);
    if (from) w.currentNode = from;
    for (let n = w.nextNode(), i = 0; n && n !== to && i < BETWEEN_NODES; n = w.nextNode(), i++) take(/** @type {Element} */ (n), keep);
  };
  /** @param {Document | Element | ShadowRoot} r @param {number} depth */
  const inRoot = (r, depth) => {
    if (depth === hosts.length) {
      if (ofTag) {
        const all = "tagName" in r ? qsa(r, tag) : tagQuery(/** @type {Document | ShadowRoot} */ (r), tag, pass);
        const at = Math.round(share * all.length);
        around(all, at, AROUND);
        between(r, all[at - 2] || null, all[at + 1] || null, control);
      } else if (otherTags.length) {
        const list = qsa(r, otherTags.join(","));
        around(list, Math.round(share * list.length), AROUND_OTHER, alike);
      }
      if (marked) for (const el of Array.from(qsa(r, marked))) take(el);
    } else {
      for (const h of Array.from(qsa(r, hosts[depth] || "*"))) if (shadowOf(h)) inRoot(shadowOf(h), depth + 1);
    }
    if (framed) for (const t of ["iframe", "frame"]) for (const f of Array.from(qsa(r, t))) { const d = frameDocument(f); if (d) inRoot(d, 0); }
  };
  inRoot(root, 0);
}

/** Full signatures (neighbour text, label, path, box) cost ~50 µs each: on big pages only the
 * candidates that resemble the target by their cheap fields get one. */
const SHORTLIST = 80;
/** Of the look-alikes tied with the last of the shortlist, the nearest this many stay with it: a
 * thousand "Add to cart" buttons are as common a look as a hundred and sixty, and those far off in
 * other cards are set aside by where they stand. */
const TIES = 40;
/** Of a longer run of look-alikes, this many on either side of its old place in the page's order
 * have their box read (see shortlist). */
const NEAR_RUN = 80;

/**
 * The candidates worth a full signature: the best SHORTLIST by tag, role, text and stable
 * attributes, plus every candidate tied with the last of them (twenty identical "Buy" links stay
 * together, so the full scoring still sees how common the target's look is).
 * @param {Signature} sig @param {Element[]} pool @param {boolean} [checkRendered] @param {Map<any, any>} [pass] see captureSignature
 */
export function shortlist(sig, pool, checkRendered = false, pass = new Map()) {
  if (pool.length <= SHORTLIST) return checkRendered ? pool.filter(isRendered) : pool;
  const A = sig.attrs || {};
  const text = sig.text || sig.name;
  const dataKeys = Object.keys(A).filter((k) => k.startsWith("data-") && !TEST_ID_ATTRS.includes(k));
  const keys = ["id", "name", "href", "placeholder", "aria-label", "title", "type", ...TEST_ID_ATTRS].filter((k) => A[k]);
  const box = sig.box && (sig.frame || []).length === 0 ? sig.box : null;
  const view = pool[0] ? docOf(pool[0]).defaultView : undefined;
  const sx = view ? view.scrollX : 0, sy = view ? view.scrollY : 0;
  // The score is summed in this order: tag, role, text, attributes, then label and box. The label
  // and the box (a layout read) are the dear parts: they are read only for the candidates that
  // could still reach the list — the rest, scored without them, fall short even with the most
  // they could add. The list (and its order) is the one scoring every candidate fully would give.
  const withLabel = !!sig.label;
  // A page repeats its words ("Add to cart" × 1,000): each is compared with the target's once.
  /** @type {Map<string, number>} */
  const textSims = new Map(), labelSims = new Map();
  /** @param {Map<string, number>} memo @param {string} a @param {string} b */
  const simOf = (memo, a, b) => { let v = memo.get(b); if (v === undefined) { v = textSim(a, b) || 0; memo.set(b, v); } return v; };
  /** @param {Element} el */
  const partial = (el) => {
    const tag = tagOf(el);
    let sc = (tag === sig.tag ? 1 : 0) + (roleSim(sig.role, roleOf(el)) || 0);
    sc += 2 * simOf(textSims, text, tag === "input" || tag === "textarea" ? (attr(el, "placeholder") || "") : visibleText(el, pass));
    for (const k of keys) if (attr(el, k) === A[k]) sc += k === "type" ? 0.5 : 2;
    for (const k of dataKeys) if (attr(el, k) === A[k]) sc += 2;
    return sc;
  };
  /** @type {Set<Element>} */
  const far = new Set();
  /** @param {Element} el @param {number} sc */
  const finish = (el, sc) => {
    if (withLabel && LABELABLE.has(tagOf(el))) sc += 2 * simOf(labelSims, sig.label, labelText(el, pass));
    // Where it was: a look-alike far away should not push the target itself off the list.
    if (box && !far.has(el)) { const r = rectOf(el); sc += 1.5 * Math.exp(-Math.hypot(r.left + sx - box.x, r.top + sy - box.y) / 150); }
    return sc;
  };
  /** @param {Element} el @param {number} sc */
  const most = (el, sc) => sc + (withLabel && LABELABLE.has(tagOf(el)) ? 2 : 0) + (box ? 1.5 : 0) + 1e-6;
  const bounded = pool.map((el, i) => { const p = partial(el); return { el, i, p, up: most(el, p), sc: NaN }; })
    .sort((a, b) => b.up - a.up || a.i - b.i);
  // A run of look-alikes longer than the list can hold (a thousand "Add to cart" buttons) keeps
  // only the ones nearest the element, and reading a thousand boxes to find them is most of a big
  // page's re-find: those nearest it in the page's order are measured — around the place among
  // its look-alikes (or its tag) it held — and the rest count as far off.
  if (box) {
    for (let a = 0; a < bounded.length;) {
      let b = a + 1;
      while (b < bounded.length && Math.abs(bounded[b].p - bounded[a].p) < 1e-9) b++;
      if (b - a > SHORTLIST + TIES) {
        const run = bounded.slice(a, b).map((q) => q.i).sort((x, y) => x - y);
        const at = sig.twins || sig.order;
        const mid = at ? Math.round((at.k / Math.max(1, at.n)) * run.length) : 0;
        const near = new Set(run.slice(Math.max(0, mid - NEAR_RUN), mid + NEAR_RUN));
        for (let j = a; j < b; j++) if (!near.has(bounded[j].i)) far.add(bounded[j].el);
      }
      a = b;
    }
  }
  /** @type {Map<Element, boolean>} */
  const shown = new Map();
  /** @param {Element} el */
  const rendered = (el) => { let v = shown.get(el); if (v === undefined) { v = isRendered(el); shown.set(el, v); } return v; };
  // The list from the candidates scored so far: every one scored fully, in score order (ties in
  // pool order, as a stable sort of the whole pool leaves them), cut after SHORTLIST.
  const pick = (/** @type {number} */ n) => {
    const done = bounded.slice(0, n).sort((a, b) => b.sc - a.sc || a.i - b.i);
    /** @type {Element[]} */
    const out = [];
    let last = -Infinity;
    for (const q of done) {
      if (out.length >= SHORTLIST && (q.sc < last - 1e-9 || out.length >= SHORTLIST + TIES)) break;
      if (checkRendered && !rendered(q.el)) continue;
      out.push(q.el);
      if (out.length === SHORTLIST) last = q.sc;
    }
    return { out, last: out.length >= SHORTLIST ? last : -Infinity };
  };
  let n = 0;
  const scoreUpTo = (/** @type {number} */ m) => { for (; n < Math.min(m, bounded.length); n++) bounded[n].sc = finish(bounded[n].el, bounded[n].p); };
  let size = SHORTLIST * 2;
  for (;;) {
    scoreUpTo(size);
    const { last } = pick(n);
    if (last > -Infinity || n === bounded.length) {
      // Those not scored yet cannot reach the cut even with the most the label and box could add.
      while (n < bounded.length && bounded[n].up >= last - 1e-9) scoreUpTo(n + 1);
      break;
    }
    size *= 2;
  }
  // Scoring more can only raise the cut, so what is left out stays out.
  return pick(n).out;
}

/** Candidates set aside by where they stand that still get a full signature, to be reported. */
const REPORTED = 5;

/** Elements a <label> can name (others have no `labels`). */
const LABELABLE = new Set(["input", "select", "textarea", "button", "meter", "output", "progress"]);

/**
 * Finds the element a signature describes, or abstains.
 * @param {Signature} signature
 * @param {Document | Element | ShadowRoot} [root]
 * @param {{threshold?: number, margin?: number, candidates?: Element[], features?: boolean}} [opts]
 * @returns {RefindResult}
 */
export function refind(signature, root = document, opts = {}) {
  const outer = simsMemo;
  simsMemo = new WeakMap();
  try { return decide(signature, root, opts); } finally { simsMemo = outer; }
}

/** @param {Signature} signature @param {Document | Element | ShadowRoot} root @param {{threshold?: number, margin?: number, candidates?: Element[], features?: boolean}} opts @returns {RefindResult} */
function decide(signature, root, opts) {
  const threshold = opts.threshold ?? THRESHOLD, margin = opts.margin ?? MARGIN;
  // One pass: nothing changes on the page while refind runs.
  const pass = new Map();
  const pool = opts.candidates ? shortlist(signature, opts.candidates, false, pass) : shortlist(signature, collectCandidates(signature, root, false, pass), true, pass);
  // Where each candidate stands comes first (a few container reads, shared by a pass): one in
  // another item or landmark is another element whatever the rest of it says, and a full signature
  // of each of a thousand look-alikes in other cards is most of a big page's re-find. Such a one
  // takes no part in what is decided below (it is set aside, and only where the others stand is
  // read of it); the first few still get a full signature, to be reported among the candidates.
  // A candidate that cannot be read (a read throws) is left out — and then nothing but the element
  // unchanged to the letter is taken: the one left out might have been it (a doubt abstains).
  let unreadable = 0;
  /** @template T @param {() => T} read @returns {T | null} */
  const guarded = (read) => { try { return read(); } catch { unreadable++; return null; } };
  const placed = pool.map((element) => guarded(() => ({ element, context: contextOf(element, pass), path: ancestorPath(element) })));
  let reported = 0;
  const signed = /** @type {{element: Element, context: Context, path: string[]}[]} */ (placed.filter(Boolean))
    .filter((c) => !signature.context || !contextClash(signature, c) || reported++ < REPORTED);
  /** @param {{element: Element, context: Context, path: string[]}[]} list */
  const signOf = (list) => /** @type {{element: Element, signature: Signature}[]} */ (list.map(({ element, context, path }) =>
    guarded(() => ({ element, signature: captureSignature(element, { place: false, context, path }, pass) }))).filter(Boolean));
  const all = signOf(signed);
  placeCandidates(signature, all, pass);
  const every = scoreCandidates(signature, all);
  // What carries the element's whole identity is read wherever it stands, for rule 0b alone.
  const identity = identityKeys(signature);
  const elsewhere = identity.length ? /** @type {{element: Element, context: Context, path: string[]}[]} */ (placed)
    .filter((c) => c !== null && !signed.includes(c) && carriesAttrs(c.element, identity)) : [];
  const carriersFrom = elsewhere.length ? (() => { const more = [...all, ...signOf(elsewhere)]; placeCandidates(signature, more, pass); return scoreCandidates(signature, more); })() : every;
  const top = every.slice(0, 5).map((s) => ({ element: s.element, score: Math.round(s.score * 1000) / 1000,
    tag: s.signature.tag, name: s.signature.name, text: s.signature.text }));
  if (opts.features) {
    /** @type {any} */ (opts).out = every.slice(0, 8).map((x) => ({ element: x.element, score: x.score, loo: x.loo,
      looField: x.looField, looSim: x.looSim, looAbsent: x.looAbsent, distinctive: x.distinctive, anchor: x.anchor, tagOk: x.tagOk }));
  }
  /** @param {Scored} s @param {number} confidence @param {string} why @returns {RefindResult} */
  const found = (s, confidence, why) => unreadable && confidence < 1
    ? { status: "ambiguous", element: null, confidence, candidates: top, why: `${why}, but a candidate could not be read` }
    : { status: "found", element: s.element, confidence, candidates: top, why };
  // 0. Nothing changed: one candidate is the captured element to the letter, in the same place.
  const same = every.filter((s) => unchanged(signature, s.signature));
  if (same.length === 1) return found(same[0], 1, "unchanged, in its place");
  // 0b. Its own identity, whole (every key the page's author gave it: id, test id, link target,
  //     form name and a checkbox's value) on exactly one candidate, in the same component and the
  //     same row or card: that one is it, whatever its words or place now say (the page's
  //     language switched, a copy of it was put beside it). When its words say something else
  //     and another candidate still says them, the two disagree: abstain.
  // The parts of the page the candidates stand in (the unreadable ones left out).
  const standing = standingZones(/** @type {Placed[]} */ (placed.filter((p) => p !== null)));
  const carriers = identity.length ? carriersFrom.filter((s) => carries(s.signature, identity)) : [];
  if (carriers.length === 1) {
    const c = carriers[0];
    const was = norm(signature.name || "").toLowerCase(), now = norm(c.signature.name || "").toLowerCase();
    // (a rival is one that could be the element: not another record, part of the page or target)
    const nearNow = textSim(signature.name || "", c.signature.name || "") ?? 0;
    const could = (/** @type {Scored} */ s) => s !== c && s.tagOk && !anotherElement(signature, s.signature, standing);
    const rival = was !== now && !!was && carriersFrom.some((s) => could(s) && norm(s.signature.name || "").toLowerCase() === was);
    // The element itself may have lost that attribute (it still says its words at least as well):
    // then identity decides nothing, and the rules below do.
    const lost = was !== now && carriersFrom.some((s) => could(s) && identity.some(([k]) => (s.signature.attrs || {})[k] === undefined)
      && (textSim(signature.name || "", s.signature.name || "") ?? 0) >= nearNow);
    // Standing in another row or card than it was captured in is another record's control while
    // its own row still stands elsewhere, or when all it has is an id with a number (a place in a
    // list, which a re-render may give to the next record); with its row's words gone everywhere
    // (translated, reworded) a target or a name keeps naming it.
    const itemStands = !!signature.context?.item && placed.some((p) => p !== null && p.element !== c.element && sameItem(signature, p));
    const strong = identity.some(([k, v]) => k !== "id" || !/\d/.test(v));
    const intoRow = !signature.context?.item && !!c.signature.context?.item?.startsWith("r:"); // (a copy put in a row)
    const itemOk = !intoRow && (!otherItem(signature, c.signature) || (!itemStands && strong));
    // Likewise out of the parts of the page it stood in (the header's nav, a named section) while
    // they still stand: the footer's link to the same page is another link.
    const zones = signature.context?.zones || [];
    const zonesStand = zones.some((_, i) => standing.has(zones.slice(i).join(ZONE_SEP)));
    const bare = (/** @type {Signature} */ x) => ({ ...x, context: x.context ? { zones: x.context.zones, item: "" } : undefined });
    // Nor into a kind of part it was never in (a copy put in another section once it was gone):
    // a page redone in another language keeps the kinds of its parts, only their names change.
    const kindsOf = (/** @type {string[]} */ z) => z.map((x) => x.slice(0, x.indexOf(":")));
    const wasIn = kindsOf(zones);
    const newKind = kindsOf(c.signature.context?.zones || []).some((k) => !wasIn.includes(k));
    const zoneOk = !newKind && (!zonesStand || !contextClash(bare(signature), bare(c.signature), standing));
    if (sameComponent(signature, c.signature) && (c.tagOk || c.signature.role === signature.role)
      && itemOk && zoneOk && numbers(was) === numbers(now)) {
      if (rival) return { status: "ambiguous", element: null, confidence: c.score, candidates: top,
        why: `its identity (${identityText(identity)}) and its words ("${cut(signature.name, 40)}") point to different elements` };
      if (!lost) return found(c, Math.max(c.score, /** @type {number} */ (c.loo ?? 0)), `the only element with its identity (${identityText(identity)})`);
    }
  }
  // Context decides: a candidate in another part of the page (the footer's "Blog" for the
  // header's, the sign-up e-mail field for the login one, Bob's row for Alice's) is another
  // element, however well it matches; it stays among the candidates reported.
  // How rare a field's value is, and so what singles a candidate out, is judged among what is
  // left in its part of the page: the footer's "About" does not make the header's less itself.
  const aside = all.map((c) => anotherElement(signature, c.signature, standing));
  let scored = scoreCandidates(signature, all.filter((c, i) => !aside[i]));
  // Set aside only for leaving the group that told it from its look-alikes, a candidate may still be
  // the element moved out: it keeps a reworded copy from being taken in its stead.
  const movedOut = signature.twins ? all.filter((c, i) => aside[i] && !anotherElement(signature, c.signature))
    .map((c) => ({ signature: c.signature, tagOk: c.signature.tag === signature.tag })) : [];
  const best = scored[0], second = scored[1];
  if (!best) return { status: "not_found", element: null, confidence: 0, candidates: top,
    why: every.length ? "every candidate is another element (another part of the page, record, name or target)" : "nothing like it on the page" };
  // The one look-alike left in the item it was captured in (its copies in the other posts or rows
  // set aside) is not refused for its size: no look-alike of that item can have slid into its place,
  // and moving it about its item may resize it.
  const lookKeyWas = lookKeyOfSignature(signature);
  const alikeLeft = signature.context?.item ? scored.filter((s) => lookKeyOfSignature(s.signature) === lookKeyWas && sameItem(signature, s.signature)) : [];
  const soleInItem = alikeLeft.length === 1 ? alikeLeft[0] : null;
  const resized = (/** @type {Scored} */ s) => s !== soleInItem && otherTwin(signature, s);
  // A candidate whose words were tweaked is not taken while another one still says exactly what
  // the element said (a copy with a word tweaked put beside it, the element itself moved).
  // Words that are gone (a dropped aria-label leaves "×") are no such tweak.
  // Those that keep the exact name are no rival when they are the element's own look-alikes, all
  // still there but one (five stars, one reworded: that one is it).
  const exactName = signature.name ? [...scored, ...movedOut].filter((s) => s.signature.name === signature.name && s.tagOk) : [];
  /** Whether those are exactly the element's look-alikes, all there, among themselves. @param {Array<{signature: Signature}>} list */
  const areItsTwins = (list) => !!signature.twins && list.length === signature.twins.n - 1
    && list.every((s) => lookKeyOfSignature(s.signature) === lookKeyWas && s.signature.twins?.n === list.length && (s.signature.hosts || []).join(" ") === (signature.hosts || []).join(" "));
  const exactAreTwins = areItsTwins(exactName);
  // The same for its words: a copy beside it with a word tweaked keeps the name it took from an
  // attribute the element lost.
  const exactText = signature.text ? [...scored, ...movedOut].filter((s) => s.signature.text === signature.text && s.tagOk) : [];
  const exactTextAreTwins = areItsTwins(exactText);
  const tweaked = (/** @type {string} */ now, /** @type {string} */ was) => now !== was && (textSim(now, was) ?? 0) > NEAR * OTHER_NUMBER;
  // Such a candidate is not taken (null), and the rules below may still name another.
  /** @param {Scored} s @param {number} confidence @param {string} why @returns {RefindResult | null} */
  const foundUnlessExact = (s, confidence, why) => ((tweaked(s.signature.name, signature.name) && exactName.length && !exactAreTwins)
    || (tweaked(s.signature.text, signature.text) && exactText.length && !exactTextAreTwins)
    ? null : found(s, confidence, why));
  // 1. The whole signature: a clear best that something singles out. Look-alikes that only their
  //    place tells apart (twenty "Add to cart" buttons) are refused: the target may be gone and a
  //    neighbour slid into its place. A best that is singled out over a runner-up that is not needs
  //    a smaller lead.
  const lead = best.distinctive && second && !second.distinctive ? LEAD_MARGIN : margin;
  if (best.score >= threshold && (!second || (best.score - second.score >= lead && best.distinctive)) && !resized(best) && !fewerTwins(signature, best)) { const r = foundUnlessExact(best, best.score, `its whole description matches best (${best.score.toFixed(2)}, next ${second ? second.score.toFixed(2) : "none"})`); if (r) return r; }
  // 2. An anchor: the only element on the page with the captured id / test id (or numbered data
  //    key, or numbered link with the same name), of a compatible kind.
  //    A unique id the page's author gave it names it even when it changed kind (a select redone
  //    as a custom dropdown); an id that now extends the captured one ("email" → "email-x7a9") is
  //    taken when nothing but the id changed.
  const oldId = signature.attrs?.id || "";
  const anchors = scored.filter((s) => s.anchor && (s.tagOk || (s.idAnchor && isInteractiveCheap(s.element))));
  if (anchors.length === 1 && anchors[0].score >= ANCHOR_FLOOR) { const r = foundUnlessExact(anchors[0], Math.max(anchors[0].score, /** @type {number} */ (anchors[0].loo)), "the only element with its id, test id or numbered key"); if (r) return r; }
  if (oldId && !GENERATED_ID.test(oldId)) {
    const ext = scored.filter((s) => extendsId(s.signature.attrs?.id || "", oldId));
    const e = ext[0];
    if (ext.length === 1 && e.tagOk && e.looField === "id" && /** @type {number} */ (e.loo) >= LOO_THRESHOLD) { const r = foundUnlessExact(e, /** @type {number} */ (e.loo), "its id now extends the one it had, nothing else changed"); if (r) return r; }
  }
  // 3. One thing changed: the tolerant score (the field that lost most left out) of the best is high
  //    and well ahead of everyone else's. Not when what changed is its place (box, neighbours, path:
  //    a twin slides into a deleted element's place), nor when an identifying attribute now has
  //    another value (another element) rather than being gone; a dropped attribute is trusted
  //    with a smaller lead.
  const byLoo = scored.slice().sort((a, b) => /** @type {number} */ (b.loo) - /** @type {number} */ (a.loo));
  const b = byLoo[0], s2 = byLoo[1];
  const loo = /** @type {number} */ (b.loo), loo2 = s2 ? /** @type {number} */ (s2.loo) : 0;
  const field = b.looField || "";
  // What changed must still look like a change of the same thing: a tweaked text shares something
  // with the old one ("Submit" → "Submits", "3" → "3s"; not "1" → ">"), a renamed id keeps its stem
  // or was a generated one ("datepicker" → "datepicker-x7a9"; not "password" → "verify").
  const newId = b.signature.attrs?.id || "";
  // A form name, test id or value that now has another value names another element; a link that
  //  now points elsewhere is the same one only if its numbers did not change (/buy/1750 is not /buy/1753).
  const oldHref = signature.attrs?.href || "", newHref = b.signature.attrs?.href || "";
  const sameThing = ATTR_FIELDS.has(field) && b.looAbsent ? true : TEXT_FIELDS.has(field) ? (b.looSim ?? 0) > NEAR * OTHER_NUMBER
    : field === "id" ? !newId || GENERATED_ID.test(oldId) || extendsId(newId, oldId) || (textSim(oldId, newId) ?? 0) >= 0.5
    : field === "href" ? numbers(hrefKey(oldHref)) === numbers(hrefKey(newHref))
    : !IDENTITY_FIELDS.has(field);
  if (b.tagOk && sameThing && loo >= LOO_THRESHOLD && b.score >= LOO_FLOOR && !PLACE_FIELDS.has(field)) {
    if (ATTR_FIELDS.has(field) && b.looAbsent ? loo - loo2 >= LOO_MARGIN_DROPPED : loo - loo2 >= LOO_MARGIN) { const r = foundUnlessExact(b, loo, `one thing changed (${field}), the rest matches (${loo.toFixed(2)}, next ${loo2.toFixed(2)})`); if (r) return r; }
  }
  // 4. Its place among look-alikes (a grid of bare checkboxes, a "Send review" button per form):
  //    the element that looks the same and stands k-th of the same n as the target did. Only when
  //    the count is unchanged (a deleted look-alike makes it drop, and the next one slides into the
  //    place), when nothing it has contradicts the target, when no other candidate matches the
  //    target's own features (all but its place) better, when the words around it do not say
  //    something else, when no other look-alike alone still has the words around the target, and
  //    when no other look-alike stands clearly nearer its spot.
  const t = signature.twins;
  if (t) {
    const key = lookKeyOfSignature(signature);
    const hostsKey = (signature.hosts || []).join(" ");
    const alike = scored.filter((s) => s.signature.twins?.n === t.n && lookKeyOfSignature(s.signature) === key && (s.signature.hosts || []).join(" ") === hostsKey);
    const at = alike.filter((s) => s.signature.twins?.k === t.k);
    if (at.length === 1) {
      const e = at[0];
      // Words around it that only one look-alike still has name that one (a row's title).
      // Words around it that are only its look-alikes' own (a row of stars) name nothing.
      const sameWords = aroundTells(signature) ? alike.filter((s) => (neighborSim(signature.neighbor, s.signature.neighbor) ?? 0) >= 0.9) : [];
      const closest = Math.max(...alike.map((s) => boxSim(signature.box, s.signature.box) ?? 0));
      const moved = (boxSim(signature.box, e.signature.box) ?? 0) < STILL;
      // Counted inside its component's shadow root, the look-alikes are its component's alone: a
      // copy put elsewhere on the page does not keep their number while one is gone, so which of
      // them stands nearer the old spot (a wrapper moved it to the next line) says nothing.
      const inComponent = !!signature.hosts?.length;
      // What it no longer has (a dropped attribute, rehashed classes) does not count against it.
      const gone = goneFields(signature, e.signature);
      if (!clashes(signature, e.signature) && !resized(e) && wordsAroundClash(signature.neighbor, e.signature.neighbor) < (moved ? 1 : 2) && ownScore(signature, e, gone) >= bestOwnScore(signature, scored, gone) - TWIN_OWN_SLACK
        && !(sameWords.length === 1 && sameWords[0] !== e) && (inComponent || (boxSim(signature.box, e.signature.box) ?? 0) >= closest - TWIN_BOX_SLACK)) {
        { const r = foundUnlessExact(e, Math.max(e.score, /** @type {number} */ (e.loo)), "its place among its look-alikes, nothing contradicting it"); if (r) return r; }
      }
    }
  }
  // 4b. In its own spot, its words tweaked: the k-th of the same n elements with its tag in its
  //     document or shadow root (its hosts in the same places), standing where it stood, saying a
  //     reworded form of what it said ("★" → "★s": it has left its look-alikes, which all stay).
  //     A neighbour that slid into a deleted element's spot makes the count drop, and says
  //     something else or exactly the same.
  const ord = signature.order;
  if (ord && signature.name) {
    const spot = scored.filter((s) => s.tagOk && s.signature.order?.k === ord.k && s.signature.order?.n === ord.n
      && (s.signature.hosts || []).join(" ") === (signature.hosts || []).join(" ") && sameSpot(signature.box, s.signature.box));
    const e = spot[0];
    if (spot.length === 1 && e.signature.name !== signature.name && !clashes(signature, e.signature)
      && (textSim(e.signature.name, signature.name) ?? 0) > NEAR * OTHER_NUMBER) { const r = foundUnlessExact(e, Math.max(e.score, /** @type {number} */ (e.loo)), "its place among its look-alikes, its words reworded"); if (r) return r; }
  }
  // 5. Its place among the elements with its tag, when the one thing about it that changed is gone
  //    (an attribute dropped — a checkbox that lost its type): the k-th of the same n, with nothing
  //    else matching the target's own features better.
  const o = signature.order;
  if (o) {
    const at = scored.filter((s) => s.signature.tag === signature.tag && s.signature.order?.n === o.n && s.signature.order?.k === o.k);
    const e = at[0];
    const changed = e ? [e.looField || "", ...(e.looField === "type" ? ["role"] : [])] : [];
    // What changed must be gone (a dropped attribute, classes no longer readable), not another value.
    const gone = e && (e.looAbsent || (e.looField === "classes" && !e.signature.classes.length));
    if (at.length === 1 && gone && /** @type {number} */ (e.loo) >= LOO_THRESHOLD && !clashes(signature, e.signature)
      && ownScore(signature, e, changed) >= bestOwnScore(signature, scored, changed) - TWIN_OWN_SLACK) { const r = foundUnlessExact(e, /** @type {number} */ (e.loo), "its place among the elements of its kind, the one change gone"); if (r) return r; }
  }
  // 6. The one left in its place of the page: among the candidates that nothing says are another
  //    element, the only one the form knows by the captured name (and value: a radio of its
  //    group), or the only one whose own features (all but where it is) match — a checkbox moved
  //    out of its label, a logo out of its header.
  // A container whose words are those of a candidate inside it that matches the element better (a
  // wrapper around it, the box it stands in) is not the element: the words are that one's.
  /** @type {Map<Scored, number>} */ const owns = new Map();
  const ownOf = (/** @type {Scored} */ s) => owns.get(s) ?? owns.set(s, ownScore(signature, s, goneFields(signature, s.signature))).get(s) ?? 0;
  const holdsBetter = (/** @type {Scored} */ s) => scored.some((d) => d !== s && d.tagOk && d.element !== s.element && containsOf(s.element, d.element) && ownOf(d) > ownOf(s));
  const left = scored.filter((s) => s.tagOk && !clashes(signature, s.signature) && !fewerTwins(signature, s) && !resized(s) && !holdsBetter(s));
  const A = signature.attrs || {};
  if (A.name) {
    const named = left.filter((s) => { const f = fieldSims(signature, s.signature); return f.nameAttr === 1 && f.value !== 0 && f.type !== 0; });
    if (named.length === 1 && /** @type {number} */ (named[0].loo) >= LOO_FLOOR) { const r = foundUnlessExact(named[0], /** @type {number} */ (named[0].loo), "the one its form knows by its name"); if (r) return r; }
  }
  // Only one that has features of its own to match: a nameless, wordless icon whose classes are
  // gone has nothing left that says it is the element.
  const own = left.map((s) => ({ s, own: ownOf(s) })).sort((a, b) => b.own - a.own);
  if (own[0] && ownEvidence(signature, own[0].s, goneFields(signature, own[0].s.signature)) && own[0].own >= SOLE_OWN && (!own[1] || own[0].own - own[1].own >= SOLE_MARGIN) && own[0].s.score >= LOO_FLOOR) { const r = foundUnlessExact(own[0].s, own[0].s.score, "its own features match and lead"); if (r) return r; }
  // 7. The one that still says every word of it, beside copies that differ from it by words alone (a
  //    reworded copy put next to it, while it moved): what it is outweighs where it is.
  const WORDS = ["name", "text", "label", "placeholder", "title", "alt"];
  if (own[0] && own[0].own >= 1 - 1e-9 && ownEvidence(signature, own[0].s, goneFields(signature, own[0].s.signature)) && own[0].s.score >= LOO_FLOOR && own.slice(1).every((o) => o.own < 1 - 1e-9
    && ownScore(signature, o.s, [...goneFields(signature, o.s.signature), ...WORDS]) >= 1 - 1e-9)) { const r = foundUnlessExact(own[0].s, own[0].s.score, "the one that still says every word of it"); if (r) return r; }
  if (best.score < threshold) return { status: "not_found", element: null, confidence: best.score, candidates: top,
    why: `nothing matches well enough (best ${best.score.toFixed(2)} < ${threshold})` };
  return { status: "ambiguous", element: null, confidence: best.score, candidates: top,
    why: second ? `no candidate clearly beats the others (${best.score.toFixed(2)} and ${second.score.toFixed(2)})` : "its one candidate is not told apart by anything of its own" };
}

/**
 * Whether a candidate is the captured element with nothing changed: every field the same (its
 * state and focus aside), in the same place — and not one whose look-alikes became fewer (a twin
 * that slid into the place of a deleted one can look the same to the letter).
 * @param {Signature} sig @param {Signature} c
 */
function unchanged(sig, c) {
  if (sig.v !== c.v || sig.tag !== c.tag || sig.name !== c.name || sig.text !== c.text || sig.label !== c.label || sig.neighbor !== c.neighbor) return false;
  if (sig.twins && (!c.twins || c.twins.n < sig.twins.n)) return false;
  if (sig.order && c.order && c.order.n < sig.order.n) return false;
  const a = sig.box, b = c.box;
  if (!a || !b || a.x !== b.x || a.y !== b.y || a.w !== b.w || a.h !== b.h) return false;
  return JSON.stringify([sig.attrs, sig.classes, sig.path, sig.frame, sig.shadow, sig.hosts || [], sig.context || null])
    === JSON.stringify([c.attrs, c.classes, c.path, c.frame, c.shadow, c.hosts || [], c.context || null]);
}

/**
 * Whether a candidate has an identifying value that contradicts the signature's: another id (not a
 * generated one), label, test id or data key. A value that is gone is not a contradiction.
 * @param {Signature} sig @param {Signature} c
 */
function clashes(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  if (A.id && B.id && A.id !== B.id && !GENERATED_ID.test(A.id) && !extendsId(B.id, A.id)) return true;
  if (sig.label && c.label && !reworded(sig.label, c.label)) return true;
  for (const k of Object.keys(A)) if (k.startsWith("data-") && B[k] && B[k] !== A[k]) return true;
  return false;
}

/**
 * Whether two texts say the same thing, perhaps reworded: nearly the same, or a word grown or
 * shrunk ("Email" → "Emails"), with the same numbers and no word replaced by another.
 * @param {string} a @param {string} b
 */
function reworded(a, b) {
  const sim = textSim(a, b) ?? 0;
  if (sim >= 0.9) return true;
  const x = norm(a).toLowerCase(), y = norm(b).toLowerCase();
  return sim >= 0.7 && numbers(x) === numbers(y) && !replacedWord(x, y);
}

/**
 * Whether a candidate that looks just like the target (a look-alike of it) has another size: inputs
 * of different widths in a column, where one slides into the place of another that went away.
 * Re-rendering the same element seldom resizes it.
 * @param {Signature} sig @param {Scored} s
 */
function otherTwin(sig, s) {
  if (!sig.twins || !sig.box || !s.signature.box || lookKeyOfSignature(s.signature) !== lookKeyOfSignature(sig)) return false;
  const a = sig.box, b = s.signature.box;
  const off = (/** @type {number} */ x, /** @type {number} */ y) => Math.abs(x - y) > Math.max(4, 0.15 * Math.max(x, y));
  return off(a.w, b.w) || off(a.h, b.h);
}

/**
 * Whether a candidate is a look-alike of the target and there are fewer of them now: one was
 * removed, and the one in the target's old place may be its neighbour slid over.
 * @param {Signature} sig @param {Scored} s
 */
function fewerTwins(sig, s) {
  const t = sig.twins, c = s.signature.twins;
  return !!t && (!c || c.n < t.n) && lookKeyOfSignature(s.signature) === lookKeyOfSignature(sig);
}

/**
 * The attribute fields a candidate no longer has, or has with the captured id extended ("email" →
 * "email-x7a9"): gone rather than saying something else, so they do not count against it.
 * @param {Signature} sig @param {Signature} c
 */
function goneFields(sig, c) {
  const B = c.attrs || {};
  const out = Object.entries(ATTR_OF).filter(([, a]) => a !== "type" && (a === "testid" ? !TEST_ID_ATTRS.some((k) => B[k]) : !B[a])).map(([f]) => f);
  if (sig.attrs?.id && extendsId(B.id || "", sig.attrs.id)) out.push("id");
  if (nameGone(sig, c)) out.push("name");
  if (sig.label && !c.label) out.push("label");
  // Classes no longer readable (rehashed by a build) are gone, not other ones.
  if (sig.classes?.length && !c.classes?.length) out.push("classes");
  return out;
}

/**
 * Whether the captured name came from something the candidate no longer has: an attribute
 * (aria-label, title, alt, placeholder: "1 star" dropped leaves "★"), or its label (a renamed id
 * no longer matches the label's `for`) — gone, not another name.
 * @param {Signature} sig @param {Signature} c
 */
function nameGone(sig, c) {
  const B = c.attrs || {};
  if (c.name === sig.name) return false;
  if (sig.label && !c.label && norm(sig.label) === sig.name) return true;
  return ["aria-label", "title", "alt", "placeholder"].some((a) => sig.attrs?.[a] && !B[a] && norm(sig.attrs[a]) === sig.name);
}

/**
 * Whether something the element is, beyond its tag and where it is, matches in the candidate: a
 * name, words, a role, a type, another attribute, a label or classes, leaving out the fields in
 * `skip`.
 * @param {Signature} sig @param {Scored} s @param {string[]} skip
 */
function ownEvidence(sig, s, skip) {
  const f = fieldSims(sig, s.signature);
  return Object.keys(WEIGHTS).some((k) => k !== "tag" && k !== "frame" && !PLACE_FIELDS.has(k) && !skip.includes(k) && (f[k] ?? 0) >= 0.8);
}

/** The best own score (see ownScore) among the candidates. @param {Signature} sig @param {Scored[]} scored @param {string[]} [skip] */
function bestOwnScore(sig, scored, skip = []) { return Math.max(...scored.map((s) => ownScore(sig, s, skip))); }

/**
 * Whether the words around the element say something other than its own words (a row of stars
 * has only stars around each): only then can they tell it from its look-alikes.
 * @param {Signature} sig
 */
function aroundTells(sig) {
  const own = sig.text || sig.name;
  return aroundParts(sig.neighbor).some((p) => p && (textSim(p, own) ?? 0) < 0.9 && !p.split(/\s+/).every((w) => w === own));
}

/**
 * On how many sides (0, 1, 2) the words before and after an element now say something else — not
 * merely gone (a wrapper can put them out of reach). One side changes when something is put next to
 * an element that stayed where it was.
 * @param {string} a @param {string} b
 */
function wordsAroundClash(a, b) {
  const [pa, na] = aroundParts(a), [pb, nb] = aroundParts(b);
  const differ = (/** @type {string} */ x, /** @type {string} */ y) => (!!x && !!y && (textSim(x, y) ?? 0) < 0.5 ? 1 : 0);
  return differ(pa, pb) + differ(na, nb);
}

/**
 * The candidate's score on what the element is, leaving out where it is (box, neighbours, path) and
 * the fields in `skip`.
 * @param {Signature} sig @param {Scored} s @param {string[]} [skip]
 */
function ownScore(sig, s, skip = []) {
  const f = fieldSims(sig, s.signature);
  let num = 0, den = 0;
  for (const [k, w] of Object.entries(WEIGHTS)) {
    const v = f[k];
    if (v === null || v === undefined || PLACE_FIELDS.has(k) || skip.includes(k)) continue;
    num += w * v; den += w;
  }
  return den ? num / den : 1;
}

/** Whether an id extends another with a suffix ("email" → "email-x7a9", "q_3" → "q_3:r1"), or drops one. @param {string} id @param {string} old */
function extendsId(id, old) {
  if (!id || id === old) return false;
  const [long, short] = id.length > old.length ? [id, old] : [old, id];
  return long.startsWith(short) && /^[-_:.]/.test(long.slice(short.length));
}

/** Calibrated on the tune half of scripts/bench_refind.py (see refind()). */
export const TWIN_BOX_SLACK = 0.05, TWIN_OWN_SLACK = 0.02, STILL = 0.95;
/** Rule 6: how well the one left must match the element's own features, and by how much it leads. */
export const SOLE_OWN = 0.8, SOLE_MARGIN = 0.25;
export const LEAD_MARGIN = 0.07, ANCHOR_FLOOR = 0.3, LOO_THRESHOLD = 0.75, LOO_FLOOR = 0.3, LOO_MARGIN = 0.2, LOO_MARGIN_DROPPED = 0.02;
const PLACE_FIELDS = new Set(["box", "neighbor", "path"]);
const TEXT_FIELDS = new Set(["name", "text", "label", "placeholder", "alt", "title"]);
const ATTR_FIELDS = new Set(["nameAttr", "href", "testid", "placeholder", "alt", "title", "type", "value"]);
/** Attributes whose other value means another element. */
const IDENTITY_FIELDS = new Set(["nameAttr", "testid", "value", "data"]);

