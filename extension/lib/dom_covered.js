// @ts-check
/**
 * Controls a person cannot reach because something is drawn over them: a full-page cover, a modal's
 * backdrop, a loading veil, a menu that opened over them. They stay off the page map (the model
 * would click them and be told "covered"); the map says how many and under what.
 *
 * Only controls in the viewport can be asked (the browser hit-tests what it draws), a few points
 * each. A control counts as covered when no point reaches it and what is there belongs to a
 * positioned layer (fixed, absolute or sticky): a control merely clipped by its scrolling box is
 * not covered, it is scrolled away.
 */
import { containsDeep, deepElementFromPoint, SAMPLE_POINTS } from "./dom_roots.js";
import { closestOf, docOf, parentElOf } from "./dom_native.js";

/**
 * @typedef {import("./dom_scan.js").Entry} Entry
 * @typedef {{count: number, by: Element, entries: Entry[]}} Covered  how many controls were left out, under what
 */

/** The outermost positioned element around `el` (below body), or null. @param {Element} el */
function layerOf(el) {
  const view = docOf(el).defaultView;
  if (!view) return null;
  /** @type {Element | null} */ let layer = null;
  for (/** @type {Element | null} */ let n = el; n && n !== docOf(el).body && n !== docOf(el).documentElement; n = parentElOf(n)) {
    const pos = view.getComputedStyle(n).position;
    if (pos === "fixed" || pos === "absolute" || pos === "sticky") layer = n;
  }
  return layer;
}

/** Whether a hit at a point reaches the control (it, inside it, or the label of it). @param {Element} hit @param {Element} el */
function reaches(hit, el) {
  if (containsDeep(el, hit)) return true;
  const label = closestOf(hit, "label");
  return !!label && /** @type {HTMLLabelElement} */ (label).control === el;
}

/**
 * Takes the covered controls of the top document out of `entries` (in place) and says what covers
 * them; inline ones are marked (their sentence shows their words without an id).
 * @param {Document} doc @param {Entry[]} entries
 * @returns {Covered | null}
 */
export function dropCovered(doc, entries) {
  const view = /** @type {Window} */ (doc.defaultView);
  const vw = view.innerWidth, vh = view.innerHeight;
  /** @type {Map<Element, Element | null>} */ const layers = new Map();
  /** @type {Covered | null} */ let covered = null;
  let kept = 0;
  for (const e of entries) {
    if (e.where !== "in" || docOf(e.el) !== doc || !coveredSafely(doc, e, vw, vh, layers)) { entries[kept++] = e; continue; }
    e.covered = true;
    if (covered) { covered.count++; covered.entries.push(e); } else covered = { count: 1, by: /** @type {Element} */ (e.coveredBy), entries: [e] };
  }
  entries.length = kept;
  return covered;
}

/**
 * Whether a control is covered; one whose hit test fails to read stays listed (the action's own
 * check will say what is wrong with it).
 * @param {Document} doc @param {Entry} e @param {number} vw @param {number} vh @param {Map<Element, Element | null>} layers
 */
function coveredSafely(doc, e, vw, vh, layers) {
  try { return isCovered(doc, e, vw, vh, layers); } catch { return false; }
}

/**
 * @param {Document} doc @param {Entry} e @param {number} vw @param {number} vh
 * @param {Map<Element, Element | null>} layers hit element → its layer (asked once per element)
 */
function isCovered(doc, e, vw, vh, layers) {
  const b = e.box;
  /** @type {Element | null} */ let first = null;
  for (const [fx, fy] of SAMPLE_POINTS) {
    const x = b.x + b.w * fx, y = b.y + b.h * fy;
    if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
    const hit = deepElementFromPoint(doc, x, y);
    if (!hit || reaches(hit, e.el)) return false;
    first = first || hit;
  }
  if (!first) return false;
  let layer = layers.get(first);
  if (layer === undefined) { layer = layerOf(first); layers.set(first, layer); }
  // A layer that holds the control is its own page part (a dropdown drawn over its own button's list).
  if (!layer || containsDeep(layer, e.el)) return false;
  e.coveredBy = layer;
  return true;
}
