// @ts-check
/**
 * What "the page" scrolls: the document — or, on an app-shell page whose document does not scroll
 * (`html, body {overflow: hidden}` with a `<main style="overflow: auto">`), the largest visible
 * scrolling container, which is what a person's wheel moves. The scan's above/below figures and the
 * scroll action both go through it, so "N more below (scroll down)" and scrolling down agree.
 */
import { deepElementFromPoint } from "./dom_roots.js";
import { clientHeightOf, clientWidthOf, docOf, nodeTypeOf, parentElOf, parentNodeOf, scrollByOf, scrollHeightOf, scrollIntoViewOf, scrollLeftOf, scrollToOf, scrollTopOf, scrollWidthOf } from "./dom_native.js";

/** Scrolling styles. */
const SCROLLS = /(auto|scroll|overlay)/;

/** Whether the document's own viewport can be scrolled by a person. @param {Document} doc */
function documentScrolls(doc) {
  const view = /** @type {Window} */ (doc.defaultView);
  const se = doc.scrollingElement || doc.documentElement;
  if (scrollHeightOf(se) - clientHeightOf(se) <= 1 && scrollWidthOf(se) - clientWidthOf(se) <= 1) return false;
  // The viewport takes html's overflow, or body's when html's is `visible`.
  let overflow = view.getComputedStyle(doc.documentElement).overflowY;
  if (overflow === "visible" && doc.body) overflow = view.getComputedStyle(doc.body).overflowY;
  return overflow !== "hidden" && overflow !== "clip";
}

/** Whether the element scrolls vertically (has hidden content and a scrolling overflow). @param {Element} el */
function scrollsY(el) {
  if (scrollHeightOf(el) - clientHeightOf(el) <= 1) return false; // a cheap layout read rules most out
  return SCROLLS.test(/** @type {Window} */ (docOf(el).defaultView).getComputedStyle(el).overflowY);
}

/**
 * The element that scrolls in place of the document, or null when the document scrolls itself (or
 * nothing else covers a quarter of the viewport): the largest vertically scrolling element under a
 * few points spread over the viewport.
 * @param {Document} doc
 * @returns {Element | null}
 */
export function pageScroller(doc) {
  if (documentScrolls(doc)) return null;
  const view = /** @type {Window} */ (doc.defaultView);
  const vw = view.innerWidth, vh = view.innerHeight;
  /** @type {Set<Element>} */ const seen = new Set();
  /** @type {Element | null} */ let best = null;
  let bestArea = vw * vh / 4;
  for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) {
    for (let n = /** @type {Node | null} */ (deepElementFromPoint(doc, vw * fx, vh * fy)); n; n = parentNodeOf(n) || (n instanceof ShadowRoot ? n.host : null)) {
      if (nodeTypeOf(n) !== 1) continue;
      const el = /** @type {Element} */ (n);
      if (seen.has(el)) break; // this point's chain joins one already walked
      seen.add(el);
      if (el === doc.documentElement || el === doc.body) continue;
      const area = clientWidthOf(el) * clientHeightOf(el);
      if (area > bestArea && scrollsY(el)) { best = el; bestArea = area; }
    }
  }
  return best;
}

/**
 * Scroll position and what lies above/below, of the document or of the container that stands in
 * for it.
 * @param {Document} doc
 * @returns {import("./dom_scan.js").ScrollInfo}
 */
export function scrollInfo(doc) {
  const win = /** @type {Window} */ (doc.defaultView);
  const vh = win.innerHeight, vw = win.innerWidth;
  const box = pageScroller(doc);
  if (box) {
    const y = scrollTopOf(box);
    return { x: Math.round(scrollLeftOf(box)), y: Math.round(y), viewport_w: vw, viewport_h: vh, page_w: scrollWidthOf(box), page_h: scrollHeightOf(box),
      above_px: Math.round(y), below_px: Math.max(0, Math.round(scrollHeightOf(box) - y - clientHeightOf(box))) };
  }
  const se = doc.scrollingElement || doc.documentElement;
  const pageH = Math.max(scrollHeightOf(se), doc.body ? scrollHeightOf(doc.body) : 0);
  const pageW = Math.max(scrollWidthOf(se), doc.body ? scrollWidthOf(doc.body) : 0);
  return {
    x: Math.round(win.scrollX), y: Math.round(win.scrollY), viewport_w: vw, viewport_h: vh, page_w: pageW, page_h: pageH,
    above_px: Math.round(win.scrollY), below_px: Math.max(0, Math.round(pageH - win.scrollY - vh)),
  };
}

/** The element to scroll: the element itself if it scrolls, else its nearest scrolling ancestor. @param {Element} el */
function scroller(el) {
  const doc = docOf(el);
  for (let e = /** @type {Element | null} */ (el); e && e !== doc.body && e !== doc.documentElement; e = parentElOf(e)) {
    const s = /** @type {Window} */ (doc.defaultView).getComputedStyle(e);
    if (SCROLLS.test(s.overflowY + s.overflowX) && (scrollHeightOf(e) > clientHeightOf(e) || scrollWidthOf(e) > clientWidthOf(e))) return e;
  }
  return null;
}

/**
 * The scroll action: the page (or its stand-in container) by direction, inside an element by
 * direction, or an element into view.
 * @param {Record<string, any>} args @param {Element | null} el
 */
export function doScroll(args, el) {
  const dir = args.direction;
  const target = el && dir ? scroller(el) : null;
  if (el && !dir) {
    scrollIntoViewOf(el, { block: "center", behavior: "instant" });
    return { scrolled: "to_element" };
  }
  const box = target || pageScroller(document) || document.scrollingElement || document.documentElement;
  const page = box === document.scrollingElement || box === document.documentElement;
  const ph = page ? innerHeight : clientHeightOf(box), pw = page ? innerWidth : clientWidthOf(box);
  const amt = args.pixels ?? Math.round((args.amount ?? 0.8) * (dir === "left" || dir === "right" ? pw : ph));
  const dx = dir === "left" ? -amt : dir === "right" ? amt : 0;
  const dy = dir === "up" ? -amt : dir === "down" || !dir ? amt : 0;
  const before = { x: scrollLeftOf(box), y: scrollTopOf(box) };
  if (dir === "top") scrollToOf(box, { top: 0, behavior: "instant" });
  else if (dir === "bottom") scrollToOf(box, { top: scrollHeightOf(box), behavior: "instant" });
  else scrollByOf(box, { left: dx, top: dy, behavior: "instant" });
  const y = scrollTopOf(box), max = scrollHeightOf(box) - clientHeightOf(box);
  return { scrolled: target ? "element" : "page", moved_px: Math.round(Math.abs(y - before.y) + Math.abs(scrollLeftOf(box) - before.x)),
    at_top: y <= 0, at_bottom: y >= max - 1, scroll_y: Math.round(y) };
}
