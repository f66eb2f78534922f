// @ts-check
/**
 * Content a person cannot reach: an `inert` subtree, or everything outside a modal dialog
 * (`showModal()` makes the rest of its document inert — still drawn, behind a backdrop, but it
 * takes no clicks, no focus and no keys); and the dialogs that do it, by the name a person reads.
 */
import { accessibleName, wordsOf } from "./accessible_name.js";
import { norm } from "./norm.js";
import { containsDeep } from "./dom_roots.js";
import { attr, checkVisibilityOf, docOf, hasAttr, nodeTypeOf, parentNodeOf, qs, qsa } from "./dom_native.js";

/** The words of the first element under `el` that matches. @param {Element} el @param {string} sel */
export function textIn(el, sel) {
  const m = qs(el, sel);
  return m ? wordsOf(m) : "";
}

/** A dialog's name: its label, else its heading, else its first words. @param {Element} el */
export function dialogName(el) {
  const labelled = attr(el, "aria-label") || attr(el, "aria-labelledby") ? accessibleName(el) : "";
  return norm(labelled || textIn(el, "h1,h2,h3,h4,h5,h6,[role=heading]") || wordsOf(el)).slice(0, 80);
}

const DIALOGS = "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]";

/** Whether the element is in an inert subtree. @param {Element} el */
function inInert(el) {
  for (let n = /** @type {Node | null} */ (el); n; n = parentNodeOf(n) || (n instanceof ShadowRoot ? n.host : null)) {
    if (nodeTypeOf(n) === 1 && hasAttr(/** @type {Element} */ (n), "inert")) return true;
  }
  return false;
}

/** The dialog that shows while the rest of the page is inert (one shown and not inert itself), or null. @param {Document} doc */
function shownDialog(doc) {
  for (const d of Array.from(qsa(doc, DIALOGS)).reverse()) if (checkVisibilityOf(d, { checkVisibilityCSS: true }) && !inInert(d)) return d;
  return null;
}

/** The document's open modal dialog (the topmost), or null. @param {Document} doc */
export function openModal(doc) {
  try { return doc.querySelector("dialog:modal"); } catch { return null; } // :modal: Chrome 105+
}


/**
 * Why a person could not act on the element, or "" when nothing makes it inert.
 * @param {Element} el
 */
export function inertReason(el) {
  if (inInert(el)) {
    // A page makes the rest inert when it opens a dialog (one that opened by itself after the page was read, too).
    const dialog = shownDialog(docOf(el));
    return dialog ? `the dialog "${dialogName(dialog)}" is open over it (close or answer it first)` : "it is inside an inert part of the page";
  }
  const modal = openModal(docOf(el));
  if (modal && !containsDeep(modal, el)) return `it is behind the open dialog "${dialogName(modal)}" (close or answer it first)`;
  return "";
}
