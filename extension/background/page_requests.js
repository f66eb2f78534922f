// @ts-check
/**
 * The pages' own requests (fetch, XMLHttpRequest) as the browser sees them (chrome.webRequest),
 * told to the DOM agent of the frame that made them (pushed as they start and end, and answered
 * when the agent asks): what "the page is still loading its content" means to its settle waits
 * (content/dom_requests.js). And every request a tab's pages start, of any kind (a beacon, an
 * image pinged, a page loading), kept a short while: whether the page reacted to an action at all,
 * answered or not, which the coordinator reads before it lets the browser's own input do the
 * action again (replay_gate.js).
 *
 * Nothing runs in the page for this — no wrapped `fetch`, no event on its document — so a page
 * cannot tell heybro is there by its requests. The browser is followed only while heybro is at
 * work (from a tool call until FOLLOW_MS after the last), so the service worker is not woken by
 * the user's own browsing.
 */

/** @type {chrome.webRequest.RequestFilter} */
const FILTER = { urls: ["<all_urls>"], types: ["xmlhttprequest"] };
/**
 * Every kind of request a page's script or a navigation can start (a beacon, an image pinged, a
 * frame or page loaded), for the record of what a tab's pages started: a page that started one
 * since an action began reacted to it (replay_gate.js). Media (a playing video's next range), fonts
 * and style sheets are the page's drawing, not a reaction.
 * @type {chrome.webRequest.RequestFilter}
 */
const ANY = { urls: ["<all_urls>"] };
const NOT_REACTIONS = new Set(["media", "font", "stylesheet"]);
/** The requests each tab's pages started lately, newest last (Date.now()). @type {Map<number, Array<{at: number, type: string}>>} */
const startedByTab = new Map();
const STARTED_KEPT = 32;
/** How long after the last tool call requests are still followed. */
const FOLLOW_MS = 5 * 60_000;

/** @type {ReturnType<typeof setTimeout> | undefined} */
let idle;
let following = false;

/** @typedef {{id: string, start: number, end?: number}} Seen  times: Date.now() */
/** Each frame's requests (key "tab:frame"): those on their way, and the last that ended. @type {Map<string, {open: Map<string, number>, ended: Seen[]}>} */
const frames = new Map();
const ENDED_KEPT = 16, ENDED_TOLD_MS = 1000;

/** @param {number} tabId @param {number} frameId */
function frameOf(tabId, frameId) {
  const key = `${tabId}:${frameId}`;
  let f = frames.get(key);
  if (!f) frames.set(key, f = { open: new Map(), ended: [] });
  return f;
}

/** @param {{tabId: number, frameId: number, requestId: string}} d @param {"start" | "end"} phase */
function tell(d, phase) {
  if (d.tabId < 0) return; // a service worker's, or the extension's own
  const f = frameOf(d.tabId, d.frameId), now = Date.now();
  if (phase === "start") f.open.set(d.requestId, now);
  else {
    const start = f.open.get(d.requestId);
    if (start === undefined) return;
    f.open.delete(d.requestId);
    f.ended = [...f.ended.slice(1 - ENDED_KEPT), { id: d.requestId, start, end: now }];
  }
  chrome.tabs.sendMessage(d.tabId, { kind: "heybro.request", id: d.requestId, phase }, { frameId: d.frameId })
    .catch(() => { /* no agent in that frame (yet) */ });
}
const started = (/** @type {chrome.webRequest.OnBeforeRequestDetails} */ d) => { tell(d, "start"); return undefined; };
const noted = (/** @type {chrome.webRequest.OnBeforeRequestDetails} */ d) => {
  if (d.tabId < 0 || NOT_REACTIONS.has(d.type)) return undefined;
  const list = startedByTab.get(d.tabId) || [];
  list.push({ at: d.timeStamp || Date.now(), type: d.type });
  startedByTab.set(d.tabId, list.slice(-STARTED_KEPT));
  return undefined;
};

/**
 * The requests the tab's pages started at or after `since` (Date.now()), any frame, answered or
 * not, as the browser told them.
 * @param {number} tabId @param {number} since
 */
export function requestsStartedSince(tabId, since) {
  return (startedByTab.get(tabId) || []).filter((r) => r.at >= since);
}
const ended = (/** @type {chrome.webRequest.OnCompletedDetails | chrome.webRequest.OnErrorOccurredDetails} */ d) => { tell(d, "end"); };

/**
 * A frame's requests as its agent asks for them (the pushes above may still be on their way when
 * it needs to know: right after an action, or at its page's load): ages in ms.
 * @param {number} tabId @param {number} frameId
 */
export function requestsOf(tabId, frameId) {
  const f = frames.get(`${tabId}:${frameId}`), now = Date.now();
  if (!f) return { open: [], ended: [] };
  return {
    open: [...f.open].map(([id, start]) => ({ id, age_ms: now - start })),
    ended: f.ended.filter((e) => now - /** @type {number} */ (e.end) < ENDED_TOLD_MS)
      .map((e) => ({ id: e.id, age_ms: now - e.start, ended_ms: now - /** @type {number} */ (e.end) })),
  };
}

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (msg?.kind !== "heybro.requests" || sender.tab?.id === undefined) return false;
  sendResponse(requestsOf(sender.tab.id, sender.frameId ?? 0));
  return false;
});
chrome.tabs.onRemoved.addListener((tabId) => {
  startedByTab.delete(tabId);
  for (const key of [...frames.keys()]) if (key.startsWith(`${tabId}:`)) frames.delete(key);
});

function stop() {
  following = false;
  frames.clear();
  startedByTab.clear();
  chrome.webRequest.onBeforeRequest.removeListener(started);
  chrome.webRequest.onBeforeRequest.removeListener(noted);
  chrome.webRequest.onCompleted.removeListener(ended);
  chrome.webRequest.onErrorOccurred.removeListener(ended);
}

/** heybro is at work: follow the pages' requests (again) for the next FOLLOW_MS. */
export function followRequests() {
  if (!following) {
    following = true;
    chrome.webRequest.onBeforeRequest.addListener(started, FILTER);
    chrome.webRequest.onBeforeRequest.addListener(noted, ANY);
    chrome.webRequest.onCompleted.addListener(ended, FILTER);
    chrome.webRequest.onErrorOccurred.addListener(ended, FILTER);
  }
  clearTimeout(idle);
  idle = setTimeout(stop, FOLLOW_MS);
}
