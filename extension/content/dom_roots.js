// @ts-check
/**
 * The parts of a page that hang off the top document: open shadow roots and the documents of
 * same-origin frames — the same places the scan walks. A MutationObserver on a document, its
 * `innerText` and its `activeElement` all stop at these boundaries, so whatever watches, searches
 * or reads focus after an action has to go through them too.
 */
import { leftOut } from "./dom_frames.js";
import { attr, checkVisibilityOf, composedParentOf, docOf, innerTextOf, nextSiblingOf, nodeTypeOf, nodeValueOf, qs, qsa, rectOf, shadowOf, tagOf } from "./dom_native.js";

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

/**
 * Every open shadow root and same-origin frame document under `doc`, at any depth (not `doc`).
 * @param {Document} doc
 * @returns {Array<ShadowRoot | Document>}
 */
export function innerRoots(doc) {
  /** @type {Array<ShadowRoot | Document>} */ const out = [];
  /** @type {Array<Document | ShadowRoot>} */ const stack = [doc];
  while (stack.length) {
    const all = qsa(/** @type {Document | ShadowRoot} */ (stack.pop()), "*");
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      const sr = shadowOf(el);
      if (sr) { out.push(sr); stack.push(sr); }
      const d = frameDocument(el);
      if (d) { out.push(d); stack.push(d); }
    }
  }
  return out;
}

/**
 * The documents of same-origin frames under `doc`, at any depth: through the window's child
 * frames, which costs next to nothing (no walk of the page).
 * @param {Document} doc
 * @returns {Document[]}
 */
export function frameDocuments(doc) {
  /** @type {Document[]} */ const out = [];
  const win = doc.defaultView;
  if (!win) return out;
  for (let i = 0; i < win.length; i++) {
    /** @type {Document | null} */ let d = null;
    try { d = win[i].document; } catch { /* cross-origin */ }
    if (d && d.documentElement) out.push(d, ...frameDocuments(d));
  }
  return out;
}

/**
 * The topmost element at a point, through open shadow roots (a root's `elementFromPoint` stops at
 * the shadow host).
 * @param {Document | ShadowRoot} root @param {number} x @param {number} y in root's viewport
 * @returns {Element | null}
 */
export function deepElementFromPoint(root, x, y) {
  let el = root.elementFromPoint(x, y);
  while (el && shadowOf(el)) {
    const inner = shadowOf(el).elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/**
 * Whether `a` contains `b` as drawn: through the shadow roots between them, and through the slot a
 * host's child is drawn in. @param {Element} a @param {Node} b
 */
export function containsDeep(a, b) {
  for (/** @type {Node | null} */ let n = b; n; n = composedParentOf(n)) if (n === a) return true;
  return false;
}

/** Points of a box a pointer is tried at, as fractions of its size: the centre, then inside each corner. */
const SAMPLE_POINTS = [[0.5, 0.5], [0.2, 0.2], [0.8, 0.8], [0.2, 0.8], [0.8, 0.2]];

/** How far inside its edge a strip of a control must show to be pointed at (a sliver is no control a person sees). */
const EDGE_INSET_PX = 8;

/**
 * The points tried on a box of this size: SAMPLE_POINTS, then the middle of each edge, EDGE_INSET_PX
 * inside it (tried only when the others are covered: a tree's label or a tab showing a strip beside
 * a floating window is reached there, as a person's pointer does).
 * @param {number} w @param {number} h
 * @returns {number[][]}
 */
export function samplePointsOf(w, h) {
  const fx = EDGE_INSET_PX / w, fy = EDGE_INSET_PX / h;
  // (Only where the edge's point is nearer the edge than the corners' are; most boxes take the
  // constant list, no array made per control.)
  if (fx >= 0.2 && fy >= 0.2) return SAMPLE_POINTS;
  const out = [...SAMPLE_POINTS];
  if (fx < 0.2) out.push([fx, 0.5], [1 - fx, 0.5]);
  if (fy < 0.2) out.push([0.5, fy], [0.5, 1 - fy]);
  return out;
}

/**
 * Where a person's pointer would land on the element, and what it would hit there: the first point
 * in the viewport — the middle of what it shows, then its centre and corners — whose topmost
 * element is the element or inside it (the link inside a tab, the icon inside a button), or the
 * element's centre when no point is (the caller has already said what covers it).
 * @param {Element} el @param {Aim | null} [aim] a point given as fractions of its box (aimedHit)
 * @returns {{x: number, y: number, target: Element}}
 */
export function pointerHit(el, aim) {
  if (aim) return aimedHit(el, aim);
  const r = rectOf(el);
  const view = /** @type {Window} */ (docOf(el).defaultView);
  // A person aims at what the control shows (its words, its icon), not at the middle of its box:
  // a tab item as wide as its list has its link at the left.
  const range = docOf(el).createRange();
  range.selectNodeContents(el);
  // An open tree item holds the items of its group: a person aims at its own row.
  const group = attr(el, "role") === "treeitem" ? qs(el, ":scope > [role=group]") : null;
  if (group) range.setEndBefore(group);
  const c = range.getBoundingClientRect();
  const shows = c.width > 0 && c.height > 0 ? [[(c.left + c.width / 2 - r.left) / r.width, (c.top + c.height / 2 - r.top) / r.height]] : [];
  for (const [fx, fy] of [...shows, ...samplePointsOf(r.width, r.height)]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) continue;
    const hit = deepElementFromPoint(docOf(el), x, y);
    if (hit && containsDeep(el, hit)) return { x, y, target: hit };
  }
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, target: el };
}

/**
 * The point given as fractions of the element's box (0..1 across, 0..1 down): where a canvas, a
 * drawing, a map or a slider is pointed at, and what the pointer hits there — refused (`covered`)
 * when that is not the element or inside it (another element lies over that point).
 * @typedef {{x: number, y: number}} Aim
 * @param {Element} el @param {Aim} aim
 * @returns {{x: number, y: number, target: Element}}
 */
export function aimedHit(el, aim) {
  const r = rectOf(el);
  // (The far edges are kept inside the box: a point on them belongs to what is beside it.)
  const x = Math.min(r.left + r.width * Math.min(Math.max(aim.x, 0), 1), r.right - 0.5);
  const y = Math.min(r.top + r.height * Math.min(Math.max(aim.y, 0), 1), r.bottom - 0.5);
  const hit = deepElementFromPoint(docOf(el), x, y);
  if (!hit || !containsDeep(el, hit)) {
    throw Object.assign(new Error(`That point of the element (${aim.x}, ${aim.y} of its box) is covered by ${hit ? `<${tagOf(hit)}>` : "nothing the page shows"}.`), { code: "covered" });
  }
  return { x, y, target: hit };
}

/** The point of an action's arguments (`x`, `y`: fractions of the element's box), or null. @param {Record<string, any>} args @returns {Aim | null} */
export function aimOf(args) {
  return typeof args.x === "number" && typeof args.y === "number" ? { x: args.x, y: args.y } : null;
}

const NO_TEXT = new Set(["style", "script", "template", "noscript"]);

/**
 * The rendered text of the page, in pieces: the document's, then each shadow root's and
 * same-origin frame's (`innerText` of a document leaves them out).
 * @param {Document} doc @param {Array<ShadowRoot | Document>} [roots] from innerRoots, when known
 * @returns {string[]}
 */
export function deepTexts(doc, roots = innerRoots(doc)) {
  const out = [doc.body ? innerTextOf(doc.body) : ""];
  // innerText of an element that is not rendered is its whole textContent: those are skipped.
  for (const r of roots) {
    if (r.nodeType === 9) {
      const b = /** @type {Document} */ (r).body;
      if (b && checkVisibilityOf(b)) out.push(innerTextOf(b));
      continue;
    }
    for (let n = r.firstChild; n; n = nextSiblingOf(n)) {
      if (nodeTypeOf(n) === 3) { if (checkVisibilityOf(/** @type {ShadowRoot} */ (r).host)) out.push(nodeValueOf(n) || ""); continue; }
      const c = /** @type {HTMLElement} */ (n);
      if (nodeTypeOf(n) === 1 && !NO_TEXT.has(tagOf(c)) && "innerText" in c && checkVisibilityOf(c)) out.push(innerTextOf(c));
    }
  }
  return out;
}
