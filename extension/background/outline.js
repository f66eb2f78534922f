// @ts-check
/**
 * The outline a person sees on the element heybro acts on, drawn over the page by the browser's
 * DevTools protocol (`Overlay.highlightRect`) on the tab's debugger attachment — which heybro holds
 * while it acts on the tab (dialog_answers.js) — and never as part of the page: no node, attribute
 * or popover of heybro's is in its document for its scripts to find. The DOM agent of the frame
 * acted in says where the element is (content/dom_outline.js), in its frame's viewport; a
 * cross-origin frame's box is placed by the frame's offset in the top page (frames.js).
 *
 * Where heybro holds no attachment to the tab (another debugger holds it, or it could not attach),
 * there is no outline: this never attaches for it. The outline also shows on the tab's captures
 * (`captureVisibleTab` includes the DevTools overlay), so the screenshot for the model takes it
 * away first (`hideOutline`). It goes when the page it is on navigates (a click on a link: the
 * agent that drew it is gone), and one nobody took away goes after STALE_MS.
 */
import { attached, hold, letGo, onDetached } from "./debugger_session.js";
import { frameOffsets, inTop } from "./frame_rules.js";
import { frameTree } from "./frames.js";

/** An outline nobody updated for this long goes. */
const STALE_MS = 20_000;
const FILL = { r: 255, g: 45, b: 85, a: 0.12 };
const LINE = { r: 255, g: 45, b: 85, a: 1 };

/** Tabs whose attachment has the Overlay domain on. @type {Set<number>} */
const enabled = new Set();
/** One change at a time per tab, in the order asked. @type {Map<number, Promise<void>>} */
const queues = new Map();
/** @type {Map<number, ReturnType<typeof setTimeout>>} */
const stale = new Map();
/** The frame each tab's outline is in. @type {Map<number, number>} */
const owner = new Map();
/** Each tab's latest word on its outline: an older one still being placed is dropped. @type {Map<number, number>} */
const latest = new Map();
/** @param {number} tabId */
const bump = (tabId) => { const n = (latest.get(tabId) || 0) + 1; latest.set(tabId, n); return n; };

onDetached((tabId) => { enabled.delete(tabId); });

/**
 * @param {number} tabId @param {(send: import("./debugger_session.js").Send) => Promise<void>} fn
 * @returns {Promise<void>}
 */
function onTab(tabId, fn) {
  const run = async () => {
    if (!attached(tabId)) return; // (no attachment: no outline, and none is made for it)
    const send = await hold(tabId, "The outline of the element acted on");
    try { await fn(send); } finally { letGo(tabId); }
  };
  const next = (queues.get(tabId) || Promise.resolve()).then(run).catch(() => { /* the tab closed, the bar was cancelled */ });
  queues.set(tabId, next);
  next.then(() => { if (queues.get(tabId) === next) queues.delete(tabId); });
  return next;
}

/**
 * Draws the outline at `box` (CSS px, in the top page's viewport), replacing the one shown.
 * @param {number} tabId @param {{x: number, y: number, w: number, h: number}} box
 */
function show(tabId, box) {
  clearTimeout(stale.get(tabId));
  stale.set(tabId, setTimeout(() => hideOutline(tabId), STALE_MS));
  return onTab(tabId, async (send) => {
    if (!enabled.has(tabId)) {
      await send("DOM.enable");
      await send("Overlay.enable");
      enabled.add(tabId);
    }
    const rect = { x: Math.round(box.x), y: Math.round(box.y), width: Math.max(1, Math.round(box.w)), height: Math.max(1, Math.round(box.h)) };
    await send("Overlay.highlightRect", { ...rect, color: FILL, outlineColor: LINE });
  });
}

/** Takes the tab's outline away. @param {number} tabId */
export function hideOutline(tabId) {
  bump(tabId);
  clearTimeout(stale.get(tabId));
  stale.delete(tabId);
  return onTab(tabId, async (send) => { if (enabled.has(tabId)) await send("Overlay.hideHighlight"); });
}

/**
 * Where a frame's viewport is in the top page's (null when it cannot be told: then no outline).
 * @param {number} tabId @param {number} frameId
 */
async function offsetOf(tabId, frameId) {
  if (frameId === 0) return { x: 0, y: 0, s: 1 };
  return frameOffsets((await frameTree(tabId)).seen).get(frameId) || null;
}

// A DOM agent tells where the element it acts on is (null: the action is done).
chrome.runtime.onMessage.addListener((msg, sender) => {
  if (msg?.kind !== "outline" || sender.id !== chrome.runtime.id) return false;
  const tabId = sender.tab?.id;
  if (tabId === undefined || !attached(tabId)) return false;
  const box = msg.box;
  if (!box || typeof box.x !== "number") { hideOutline(tabId); return false; }
  const n = bump(tabId);
  owner.set(tabId, sender.frameId ?? 0);
  offsetOf(tabId, sender.frameId ?? 0).then((o) => {
    if (latest.get(tabId) !== n) return undefined;
    return o ? show(tabId, inTop(box, o)) : hideOutline(tabId);
  }, () => {});
  return false;
});

// The page (or the frame) the outline is on is replaced: the element is gone with it.
chrome.webNavigation.onCommitted.addListener(({ tabId, frameId }) => {
  if (latest.has(tabId) && (frameId === 0 || owner.get(tabId) === frameId)) hideOutline(tabId);
});
chrome.tabs.onRemoved.addListener((tabId) => {
  clearTimeout(stale.get(tabId));
  for (const m of [stale, owner, latest]) m.delete(tabId);
  enabled.delete(tabId);
});
