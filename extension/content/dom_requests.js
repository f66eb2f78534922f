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

import { attrNamesOf, nodeTypeOf, qsa, shadowOf, tagOf } from "./dom_native.js";

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

/** @type {WeakMap<Document, boolean>} whether a document's handlers or shadow roots may run script */
const handlersOf = new WeakMap();
/** Documents watched since they started: whether script was ever parsed into them. @type {WeakMap<Document, boolean>} */
const scriptSeen = new WeakMap();

/** @param {Node} n a node the parser (or anything) put into the document */
function mayRunScript(n) {
  if (nodeTypeOf(n) !== 1) return false;
  const el = /** @type {Element} */ (n);
  const tag = tagOf(el);
  return tag === "script" || tag === "template" // (a template may become a shadow root)
    || attrNamesOf(el).some((name) => name.startsWith("on"));
}

/**
 * Watches a document from its start (the agent runs at document_start) for anything that may run
 * script as it is parsed: a script element — even one that removes itself once it ran —, an
 * inline handler, a template for a shadow root. Stops at the first.
 * @param {Document} doc
 */
export function watchScripts(doc) {
  if (scriptSeen.has(doc) || doc.readyState !== "loading") return;
  scriptSeen.set(doc, false);
  /** @param {MutationRecord[]} records */
  const seen = (records) => records.some((r) => Array.from(r.addedNodes).some(mayRunScript));
  const mo = new MutationObserver((records) => {
    if (seen(records)) { scriptSeen.set(doc, true); mo.disconnect(); }
  });
  mo.observe(doc, { childList: true, subtree: true });
  // Parsed: whatever comes later is put there by script, which was seen by then.
  doc.addEventListener("DOMContentLoaded", () => {
    if (seen(mo.takeRecords())) scriptSeen.set(doc, true);
    mo.disconnect();
  }, { once: true });
}

/** What only script asks for, or loads: a script file, a fetch, an XMLHttpRequest. */
const SCRIPT_LOADS = new Set(["script", "fetch", "xmlhttprequest"]);

/**
 * Whether this document can ask for anything of its own (fetch, XMLHttpRequest): only its script
 * can. It may have script when a script element, an inline handler or a template was parsed into
 * it (watched from its start: a script that removed itself counts), when it holds a script element,
 * has loaded a script file or made a request of its own (its resource timing keeps them after
 * their element is gone), has an inline handler (`onload="…"`) or a shadow root. A document with none of them (a page served whole:
 * many forms, articles, server-rendered admin pages) has no request to wait for, so settling
 * spends no round trip to the coordinator on it, nor the second look a moment after its load.
 * (Script is needed to add script: the walk for handlers and shadow roots is done once per
 * document; its script elements and loads are read every time.)
 * @param {Document} doc
 */
export function canRequest(doc) {
  if (scriptSeen.get(doc) || qsa(doc, "script").length) return true;
  const perf = doc.defaultView?.performance;
  if (!perf || perf.getEntriesByType("resource").some((e) => SCRIPT_LOADS.has(/** @type {PerformanceResourceTiming} */ (e).initiatorType))) return true;
  let handlers = handlersOf.get(doc);
  if (handlers === undefined) {
    const inline = doc.evaluate("count(//@*[starts-with(name(), 'on')])", doc, null, XPathResult.NUMBER_TYPE, null).numberValue;
    const all = qsa(doc, "*");
    handlers = inline > 0;
    for (let i = 0; !handlers && i < all.length; i++) handlers = shadowOf(all[i]) !== null;
    handlersOf.set(doc, handlers);
  }
  return handlers;
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

/**
 * Whether the page started a request at or after `since`, answered or not (as far as the
 * coordinator has told this frame: after a settle wait, all it knew then).
 * @param {number} since a time on this document's clock (performance.now())
 */
export function requestsStartedSince(since) {
  for (const start of open.values()) if (start >= since) return true;
  return ended.some((r) => r.start >= since);
}
