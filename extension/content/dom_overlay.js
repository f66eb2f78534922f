// @ts-check
/**
 * Highlight overlay: numbered boxes over mapped elements, and an outline on the element being acted
 * on, kept for as long as that action runs (and at least OUTLINE_MIN_MS, so a person can see it),
 * replaced by the next action's, and taken away cleanly after: the host leaves the page when
 * nothing is shown.
 *
 * One fixed, full-viewport host with `pointer-events: none` (it never takes a click and never changes
 * what elementFromPoint finds), known by reference (own_ui.js) so the scanner and the re-finder skip
 * it — the `data-heybro-overlay` it carries only names it, a page could copy it — with its boxes in a closed shadow root so page CSS cannot restyle them and page scripts cannot
 * query them. While an element is outlined the host also carries `data-heybro-acting` with the
 * outline's box in viewport pixels ("x,y,width,height"): what the page and tests can know of it,
 * not a way to restyle it. Boxes follow scrolling, resizing and changes to the page (re-renders,
 * moved elements). The host is a manual popover shown in the browser's top layer, raised again on
 * every draw, so it stays above a modal dialog or popover the page opened later (a z-index cannot
 * beat the top layer). `clearOverlay()` removes the host and its listeners.
 */
import { markOwnUi, isOwnUi } from "./own_ui.js";
import { appendTo, clientLeftOf, clientTopOf, docOf, hasAttr, hidePopoverOf, isConnectedOf, matchesOf, qsa, rectOf, removeAttr, removeOf, setAttr, showPopoverOf, styleOf } from "./dom_native.js";

const HOST_ATTR = "data-heybro-overlay";
const STYLE = `
  :host { all: initial; }
  .box { position: fixed; border: 2px solid var(--c); box-sizing: border-box; border-radius: 3px; }
  .tag { position: absolute; top: -2px; left: -2px; transform: translateY(-100%); background: var(--c);
    color: #fff; font: 600 11px/14px system-ui, sans-serif; padding: 0 3px; border-radius: 3px 3px 3px 0; }
  .acting { position: fixed; border: 3px solid #ff2d55; box-sizing: border-box; border-radius: 4px;
    box-shadow: 0 0 0 4px rgba(255,45,85,.35); animation: pulse .6s ease-out 1; }
  @keyframes pulse { from { box-shadow: 0 0 0 0 rgba(255,45,85,.7); } to { box-shadow: 0 0 0 4px rgba(255,45,85,.35); } }
  @media (prefers-reduced-motion: reduce) { .acting { animation: none; } }
`;
const ACTING_ATTR = "data-heybro-acting";
/** The shortest time an outline shows, however fast its action was. */
export const OUTLINE_MIN_MS = 600;
const COLORS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000"];

/** @type {{host: HTMLElement, root: ShadowRoot, items: Array<{id: string, el: Element}>, onMove: () => void, watcher: MutationObserver} | null} */
let state = null;
/** The element being acted on and its outline. @type {{el: Element, box: HTMLElement, since: number, timer: ReturnType<typeof setTimeout> | null} | null} */
let acting = null;

/** @param {Document} doc */
function ensureHost(doc) {
  if (state && isConnectedOf(state.host)) return state;
  const host = doc.createElement("div");
  markOwnUi(host); // (known by reference: the attribute below only names it for a person reading the DOM)
  host.setAttribute(HOST_ATTR, "");
  host.setAttribute("aria-hidden", "true");
  // A popover's own look (border, padding, background, size, margin) is cleared: the host is only a
  // transparent, click-through sheet over the viewport.
  host.style.cssText = "position:fixed;inset:0;width:100vw;height:100vh;max-width:none;max-height:none;margin:0;padding:0;"
    + "border:0;background:transparent;overflow:visible;pointer-events:none;z-index:2147483647;contain:strict;";
  if ("showPopover" in host) host.setAttribute("popover", "manual");
  const root = host.attachShadow({ mode: "closed" });
  const style = doc.createElement("style");
  style.textContent = STYLE;
  root.append(style);
  appendTo(doc.documentElement, host);
  let queued = false;
  const onMove = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; drawBoxes(); placeOutline(); });
  };
  // Changes made by the page (not by the overlay's own host) may move or remove mapped elements.
  const watcher = new MutationObserver((records) => {
    if (records.some((r) => !(r.target instanceof Element && isOwnUi(r.target)))) onMove();
  });
  watcher.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  state = { host, root, items: [], onMove, watcher };
  addEventListener("scroll", onMove, { capture: true, passive: true });
  addEventListener("resize", onMove, { passive: true });
  return state;
}

/** Whether the page shows something in the top layer (a modal dialog, a popover) the boxes must be above. */
function pageTopLayer() {
  try { return Array.from(qsa(document, "dialog:modal, :popover-open")).some((e) => !isOwnUi(e)); } catch { return false; }
}

/** Puts the host on top of the browser's top layer (above a modal dialog opened since). */
function raise() {
  const host = state?.host;
  if (!host || !hasAttr(host, "popover")) return;
  try {
    if (matchesOf(host, ":popover-open")) hidePopoverOf(host);
    showPopoverOf(host);
  } catch { /* not shown (the host is being removed): nothing to raise */ }
}

/** The element's box in this document's viewport (same-origin frames add their offsets). @param {Element} el */
function viewportRect(el) {
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

function drawBoxes() {
  if (!state) return;
  if (pageTopLayer()) raise();
  for (const b of Array.from(state.root.querySelectorAll(".box"))) removeOf(b);
  state.items.forEach(({ id, el }, i) => {
    if (!isConnectedOf(el)) return;
    const r = viewportRect(el);
    if (r.w <= 0 || r.h <= 0 || r.y > innerHeight || r.y + r.h < 0) return;
    const box = document.createElement("div");
    box.className = "box";
    box.style.cssText = `--c:${COLORS[i % COLORS.length]};left:${r.x}px;top:${r.y}px;width:${r.w}px;height:${r.h}px;`;
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = id;
    box.append(tag);
    state?.root.append(box);
  });
}

/** Shows numbered boxes over these elements (replacing any shown before). @param {Array<{id: string, el: Element}>} items */
export function showBoxes(items) {
  const s = ensureHost(document);
  s.items = items;
  raise();
  drawBoxes();
}

function placeOutline() {
  if (!acting) return;
  if (!isConnectedOf(acting.el)) { clearHighlight(); return; }
  const r = viewportRect(acting.el);
  const box = [r.x - 3, r.y - 3, r.w + 6, r.h + 6];
  styleOf(acting.box).cssText = `left:${box[0]}px;top:${box[1]}px;width:${box[2]}px;height:${box[3]}px;`;
  setAttr(state?.host, ACTING_ATTR, box.map((v) => Math.round(v * 10) / 10).join(","));
}

/**
 * Outlines the element being acted on, replacing the outline of the action before. Call the
 * returned function when the action is done: the outline goes then (after OUTLINE_MIN_MS at the
 * earliest), unless another action's outline has replaced it already.
 * @param {Element} el
 * @returns {() => void}
 */
export function highlight(el) {
  clearHighlight({ keepHost: true });
  const s = ensureHost(document);
  const box = document.createElement("div");
  box.className = "acting";
  s.root.append(box);
  const mine = { el, box, since: performance.now(), timer: /** @type {ReturnType<typeof setTimeout> | null} */ (null) };
  acting = mine;
  raise();
  placeOutline();
  return () => {
    if (acting !== mine || mine.timer !== null) return;
    const left = OUTLINE_MIN_MS - (performance.now() - mine.since);
    if (left <= 0) clearHighlight();
    else mine.timer = setTimeout(() => { if (acting === mine) clearHighlight(); }, left);
  };
}

/**
 * Takes the outline away; with nothing else shown, the host goes too, so the page is as it was.
 * @param {{keepHost?: boolean}} [opts]
 */
export function clearHighlight(opts = {}) {
  if (acting) {
    if (acting.timer !== null) clearTimeout(acting.timer);
    removeOf(acting.box);
    acting = null;
  }
  if (!state) return;
  removeAttr(state.host, ACTING_ATTR);
  if (!opts.keepHost && !state.items.length) clearOverlay();
}

/** The element outlined as being acted on, if any. */
export function highlighted() { return acting?.el || null; }

/** Removes every box and outline, the host and its listeners. */
export function clearOverlay() {
  if (acting) { if (acting.timer !== null) clearTimeout(acting.timer); acting = null; }
  if (!state) return;
  removeEventListener("scroll", state.onMove, { capture: true });
  removeEventListener("resize", state.onMove);
  state.watcher.disconnect();
  removeOf(state.host);
  state = null;
}

/** Whether boxes are currently shown. */
export function overlayShown() { return !!state && state.items.length > 0; }
