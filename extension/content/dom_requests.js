// @ts-check
/**
 * The page's requests still on their way (fetch, XMLHttpRequest), as the browser reports them to
 * the coordinator (background/page_requests.js, chrome.webRequest), which tells this frame's agent:
 * what "the page is still loading its content" means to the settle waits. Nothing of this runs in
 * the page or shows on its document.
 *
 * A request counts while it is young: one that has been open for `LONG_MS` is a long poll or a
 * stream (event feeds, chat), which never ends and must not hold the agent. A request that just
 * ended still counts for `TAIL_MS`: its answer is drawn in a task or two after it arrives (a
 * `fetch` resolves at the headers; the body and the framework's render come after).
 */

export const LONG_MS = 1500;
const TAIL_MS = 60;

/** @type {Map<string, number>} request id → when it started (this document's clock) */
const open = new Map();
/** When each of the last ended requests started and ended. @type {Array<{id: string, start: number, end: number}>} */
let ended = [];
let listening = false;

/** Starts listening (once per document; requests told before this are missed). */
export function watchRequests() {
  if (listening) return;
  listening = true;
  chrome.runtime.onMessage.addListener((msg) => {
    if (!msg || msg.kind !== "heybro.request" || typeof msg.id !== "string") return false;
    const t = performance.now();
    if (msg.phase === "start") open.set(msg.id, t);
    else if (msg.phase === "end" && open.has(msg.id)) {
      ended.push({ id: msg.id, start: /** @type {number} */ (open.get(msg.id)), end: t });
      open.delete(msg.id);
      if (ended.length > 32) ended = ended.slice(-16);
    }
    return false;
  });
}

/**
 * Asks the coordinator for this frame's requests: one round trip, after which every request the
 * page made before it is known here (the pushes may still be on their way).
 */
export async function syncRequests() {
  /** @type {{open: Array<{id: string, age_ms: number}>, ended: Array<{id: string, age_ms: number, ended_ms: number}>} | undefined} */
  let r;
  try { r = await chrome.runtime.sendMessage({ kind: "heybro.requests" }); } catch { return; }
  if (!r || !Array.isArray(r.open) || !Array.isArray(r.ended)) return;
  const now = performance.now();
  for (const x of r.ended) {
    open.delete(x.id);
    if (!ended.some((e) => e.id === x.id)) ended.push({ id: x.id, start: now - x.age_ms, end: now - x.ended_ms });
  }
  for (const x of r.open) if (!open.has(x.id) && !ended.some((e) => e.id === x.id)) open.set(x.id, now - x.age_ms);
  if (ended.length > 32) ended = ended.slice(-16);
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
