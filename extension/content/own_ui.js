// @ts-check
/**
 * heybro's own elements in a page (the overlay's host), known by reference: a page can copy any
 * attribute or class, not a reference held here. The scanner, the re-finder and the change reports
 * leave these out — and only these: page content marked to look like heybro's is read as the page.
 */

/** @type {WeakSet<Element>} */
const OWN = new WeakSet();

/** Records an element heybro made (and put into the page). @param {Element} el */
export function markOwnUi(el) { OWN.add(el); }

/** Whether heybro made this element. @param {Element} el */
export function isOwnUi(el) { return OWN.has(el); }
