// @ts-check
/**
 * The outline a person sees on the element heybro acts on: kept for as long as that action runs (and
 * at least OUTLINE_MIN_MS, so a person can see it), replaced by the next action's, gone after.
 *
 * Nothing of it is in the page: this agent only says where the element is (its box in this frame's
 * viewport, again as the page scrolls or resizes) and the coordinator draws the outline over the
 * page through the browser's DevTools protocol (background/outline.js), which no script of the
 * page can see — no node, no attribute, no popover in its document. Where heybro holds no debugger
 * on the tab (another debugger does), there is no outline.
 */
import { clientLeftOf, clientTopOf, docOf, isConnectedOf, rectOf } from "./dom_native.js";

/** The shortest time an outline shows, however fast its action was. */
export const OUTLINE_MIN_MS = 600;

/** The element being acted on. @type {{el: Element, since: number, timer: ReturnType<typeof setTimeout> | null} | null} */
let acting = null;
let queued = false;

/** @param {{x: number, y: number, w: number, h: number} | null} box */
function tell(box) {
  try { chrome.runtime.sendMessage({ kind: "outline", box }).catch(() => {}); } catch { /* the extension was reloaded */ }
}

/**
 * The element's box in this agent's viewport (an element of a same-origin frame adds the frames'
 * offsets).
 * @param {Element} el
 */
export function viewportRect(el) {
  const r = rectOf(el);
  let x = r.left, y = r.top;
  try {
    for (let w = docOf(el).defaultView; w && w !== window && w.frameElement; w = docOf(w.frameElement).defaultView) {
      const f = rectOf(w.frameElement);
      x += f.left + clientLeftOf(w.frameElement); y += f.top + clientTopOf(w.frameElement);
    }
  } catch { /* cross-origin parent */ }
  return { x, y, w: r.width, h: r.height };
}

function place() {
  queued = false;
  if (!acting) return;
  if (!isConnectedOf(acting.el)) { clearHighlight(); return; }
  const r = viewportRect(acting.el);
  tell({ x: r.x - 3, y: r.y - 3, w: r.w + 6, h: r.h + 6 });
}

const onMove = () => {
  if (queued || !acting) return;
  queued = true;
  requestAnimationFrame(place);
};

/**
 * Outlines the element being acted on, replacing the outline of the action before. Call the
 * returned function when the action is done: the outline goes then (after OUTLINE_MIN_MS at the
 * earliest), unless another action's outline has replaced it already.
 * @param {Element} el
 * @returns {() => void}
 */
export function highlight(el) {
  clearHighlight({ quiet: true });
  const mine = { el, since: performance.now(), timer: /** @type {ReturnType<typeof setTimeout> | null} */ (null) };
  acting = mine;
  // (Listeners of this script's own world: the page's scripts cannot see them.)
  addEventListener("scroll", onMove, { capture: true, passive: true });
  addEventListener("resize", onMove, { passive: true });
  place();
  return () => {
    if (acting !== mine || mine.timer !== null) return;
    const left = OUTLINE_MIN_MS - (performance.now() - mine.since);
    if (left <= 0) clearHighlight();
    else mine.timer = setTimeout(() => { if (acting === mine) clearHighlight(); }, left);
  };
}

/**
 * Takes the outline away.
 * @param {{quiet?: boolean}} [opts] quiet: another outline replaces it at once (nothing to tell)
 */
export function clearHighlight(opts = {}) {
  if (!acting) return;
  if (acting.timer !== null) clearTimeout(acting.timer);
  acting = null;
  removeEventListener("scroll", onMove, { capture: true });
  removeEventListener("resize", onMove);
  if (!opts.quiet) tell(null);
}
