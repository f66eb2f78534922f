// @ts-check
/**
 * Content a person cannot reach: an `inert` subtree, or everything outside a modal dialog
 * (`showModal()` makes the rest of its document inert — still drawn, behind a backdrop, but it
 * takes no clicks, no focus and no keys).
 */
import { containsDeep } from "./dom_roots.js";
import { attr, docOf, hasAttr, nodeTypeOf, parentNodeOf } from "./dom_native.js";

/** The document's open modal dialog (the topmost), or null. @param {Document} doc */
export function openModal(doc) {
  try { return doc.querySelector("dialog:modal"); } catch { return null; } // :modal: Chrome 105+
}


/**
 * Why a person could not act on the element, or "" when nothing makes it inert.
 * @param {Element} el
 */
export function inertReason(el) {
  for (let n = /** @type {Node | null} */ (el); n; n = parentNodeOf(n) || (n instanceof ShadowRoot ? n.host : null)) {
    if (nodeTypeOf(n) === 1 && hasAttr(/** @type {Element} */ (n), "inert")) return "it is inside an inert part of the page";
  }
  const modal = openModal(docOf(el));
  if (modal && !containsDeep(modal, el)) return `it is behind the open modal dialog${attr(modal, "aria-label") ? ` "${attr(modal, "aria-label")}"` : ""}`;
  return "";
}
