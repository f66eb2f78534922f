// @ts-check
/**
 * The page's requests still on their way (fetch, XMLHttpRequest), as its page-world helper
 * (extension/content/page_requests.js) reports them: what "the page is still loading its content"
 * means to the settle waits.
 *
 * A request counts while it is young: one that has been open for `LONG_MS` is a long poll or a
 * stream (event feeds, chat), which never ends and must not hold the agent. A request that just
 * ended still counts for `TAIL_MS`: its answer is drawn in a task or two after it arrives (a
 * `fetch` resolves at the headers; the body and the framework's render come after).
 */

const EVENT = "heybro-request";
export const LONG_MS = 1500;
const TAIL_MS = 60;

/** @type {Map<number, number>} request id → when it started (this document's clock) */
const open = new Map();
/** When each of the last ended requests started and ended. @type {Array<{start: number, end: number}>} */
let ended = [];
let listening = false;

/** Starts listening (once per document; the helper's events before this are missed). @param {Document} doc */
export function watchRequests(doc) {
  if (listening) return;
  listening = true;
  doc.addEventListener(EVENT, (e) => {
    let d;
    try { d = JSON.parse(String(/** @type {CustomEvent} */ (e).detail)); } catch { return; }
    if (!d || typeof d.id !== "number" || typeof d.t !== "number") return;
    if (d.phase === "start") open.set(d.id, d.t);
    else if (d.phase === "end" && open.has(d.id)) {
      ended.push({ start: /** @type {number} */ (open.get(d.id)), end: d.t });
      open.delete(d.id);
      if (ended.length > 32) ended = ended.slice(-16);
    }
  });
}

/**
 * Whether a request the page started at or after `since` is still on its way (and young), or has
 * just come back and is being drawn.
 * @param {number} since a time on this document's clock (performance.now())
 */
export function requestsPending(since) {
  const now = performance.now();
  for (const start of open.values()) if (start >= since && now - start < LONG_MS) return true;
  return ended.some((r) => r.start >= since && now - r.end < TAIL_MS);
}
