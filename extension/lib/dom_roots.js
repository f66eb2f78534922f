// @ts-check
/**
 * The parts of a page that hang off the top document: open shadow roots and the documents of
 * same-origin frames — the same places the scan walks. A MutationObserver on a document, its
 * `innerText` and its `activeElement` all stop at these boundaries, so whatever watches, searches
 * or reads focus after an action has to go through them too.
 */
import { frameDocument, isToolUi } from "./refind.js";

/**
 * Every open shadow root and same-origin frame document under `doc`, at any depth (not `doc`).
 * @param {Document} doc
 * @returns {Array<ShadowRoot | Document>}
 */
export function innerRoots(doc) {
  /** @type {Array<ShadowRoot | Document>} */ const out = [];
  /** @type {Array<Document | ShadowRoot>} */ const stack = [doc];
  while (stack.length) {
    const all = /** @type {Document | ShadowRoot} */ (stack.pop()).querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      const sr = el.shadowRoot;
      if (sr && !isToolUi(el)) { out.push(sr); stack.push(sr); } // our own overlay is no part of the page
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
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

const NO_TEXT = new Set(["style", "script", "template", "noscript"]);

/**
 * The rendered text of the page, in pieces: the document's, then each shadow root's and
 * same-origin frame's (`innerText` of a document leaves them out).
 * @param {Document} doc @param {Array<ShadowRoot | Document>} [roots] from innerRoots, when known
 * @returns {string[]}
 */
export function deepTexts(doc, roots = innerRoots(doc)) {
  const out = [doc.body ? doc.body.innerText : ""];
  // innerText of an element that is not rendered is its whole textContent: those are skipped.
  for (const r of roots) {
    if (r.nodeType === 9) {
      const b = /** @type {Document} */ (r).body;
      if (b && b.checkVisibility()) out.push(b.innerText);
      continue;
    }
    for (let n = r.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) { if (/** @type {ShadowRoot} */ (r).host.checkVisibility()) out.push(n.nodeValue || ""); continue; }
      const c = /** @type {HTMLElement} */ (n);
      if (n.nodeType === 1 && !NO_TEXT.has(c.localName) && "innerText" in c && c.checkVisibility()) out.push(c.innerText);
    }
  }
  return out;
}
