// @ts-check
/**
 * Highlight overlay: numbered boxes over mapped elements, and a flash on the element being acted on.
 *
 * One fixed, full-viewport host with `pointer-events: none` (it never takes a click and never changes
 * what elementFromPoint finds), marked `data-heybro-overlay` so the scanner and the re-finder skip
 * it, with its boxes in a closed shadow root so page CSS cannot restyle them and page scripts cannot
 * query them. `clearOverlay()` removes the host and its listeners.
 */

const HOST_ATTR = "data-heybro-overlay";
const STYLE = `
  :host { all: initial; }
  .box { position: fixed; border: 2px solid var(--c); box-sizing: border-box; border-radius: 3px; }
  .tag { position: absolute; top: -2px; left: -2px; transform: translateY(-100%); background: var(--c);
    color: #fff; font: 600 11px/14px system-ui, sans-serif; padding: 0 3px; border-radius: 3px 3px 3px 0; }
  .flash { position: fixed; border: 3px solid #ff2d55; box-sizing: border-box; border-radius: 4px;
    box-shadow: 0 0 0 4px rgba(255,45,85,.35); animation: pulse .6s ease-out 1; }
  @keyframes pulse { from { box-shadow: 0 0 0 0 rgba(255,45,85,.7); } to { box-shadow: 0 0 0 12px rgba(255,45,85,0); } }
`;
const COLORS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000"];

/** @type {{host: HTMLElement, root: ShadowRoot, items: Array<{id: string, el: Element}>, onMove: () => void} | null} */
let state = null;

/** @param {Document} doc */
function ensureHost(doc) {
  if (state && state.host.isConnected) return state;
  const host = doc.createElement("div");
  host.setAttribute(HOST_ATTR, "");
  host.setAttribute("aria-hidden", "true");
  host.style.cssText = "position:fixed;inset:0;pointer-events:none;z-index:2147483647;contain:strict;";
  const root = host.attachShadow({ mode: "closed" });
  const style = doc.createElement("style");
  style.textContent = STYLE;
  root.append(style);
  doc.documentElement.append(host);
  let queued = false;
  const onMove = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; drawBoxes(); });
  };
  state = { host, root, items: [], onMove };
  addEventListener("scroll", onMove, { capture: true, passive: true });
  addEventListener("resize", onMove, { passive: true });
  return state;
}

/** The element's box in this document's viewport (same-origin frames add their offsets). @param {Element} el */
function viewportRect(el) {
  const r = el.getBoundingClientRect();
  let x = r.left, y = r.top;
  try {
    for (let w = el.ownerDocument.defaultView; w && w !== window && w.frameElement; w = w.frameElement.ownerDocument.defaultView) {
      const f = w.frameElement.getBoundingClientRect();
      x += f.left + w.frameElement.clientLeft; y += f.top + w.frameElement.clientTop;
    }
  } catch { /* cross-origin parent */ }
  return { x, y, w: r.width, h: r.height };
}

function drawBoxes() {
  if (!state) return;
  for (const b of Array.from(state.root.querySelectorAll(".box"))) b.remove();
  state.items.forEach(({ id, el }, i) => {
    if (!el.isConnected) return;
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
  drawBoxes();
}

/** Briefly outlines the element being acted on. @param {Element} el */
export function flash(el) {
  const s = ensureHost(document);
  const r = viewportRect(el);
  const f = document.createElement("div");
  f.className = "flash";
  f.style.cssText = `left:${r.x - 3}px;top:${r.y - 3}px;width:${r.w + 6}px;height:${r.h + 6}px;`;
  s.root.append(f);
  setTimeout(() => {
    f.remove();
    // Nothing left to show: take the host away so the page is as it was.
    if (state && !state.items.length && !state.root.querySelector(".flash")) clearOverlay();
  }, 700);
}

/** Removes every box, the host and its listeners. */
export function clearOverlay() {
  if (!state) return;
  removeEventListener("scroll", state.onMove, { capture: true });
  removeEventListener("resize", state.onMove);
  state.host.remove();
  state = null;
}

/** Whether boxes are currently shown. */
export function overlayShown() { return !!state && state.items.length > 0; }
