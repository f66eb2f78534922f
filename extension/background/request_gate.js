// @ts-check
/**
 * What a page sends while heybro acts, judged as it leaves. A press is judged before it lands by
 * what the page says it does (content/act_gate.js); a page can do more than it says — an "OK"
 * whose script posts a payment, a checkbox whose change handler starts a subscription, a field
 * whose key handler sends what is typed to another site. So for the length of an action the
 * browser itself pauses every request the page starts (the DevTools protocol's Fetch domain, on
 * the debugger attachment heybro holds while it acts) and heybro lets each go, or stops it, by the
 * same rules a press is judged by (shared/effect_judge.js): a request whose own words, target or
 * body say it spends or deletes is failed before it leaves, and the action comes back
 * `needs_approval` with that request as its effect. The host asks the user and, on a yes, sends
 * the action again, the yes covering what the press sets off (`gate.covers`): the effect happens
 * once, after the yes, or not at all. (Where a request goes is not judged here: the data the page
 * was given was judged when heybro gave it, agent/sinks.py.)
 *
 * Requests for what a page shows (images, scripts, styles, fonts, media) go on at once, and so
 * does a script's request by a safe method (GET, HEAD, OPTIONS): by HTTP's own definition it asks
 * the server for something and changes nothing there (RFC 9110, 9.2.1) — the page's words for the
 * buttons it draws ("apply, cancel, delete") are no deletion. What changes the server is sent by
 * another method (a form's POST, a script's fetch or beacon) or by a navigation of the document,
 * and those are judged. A frame of another site runs in its own process, out of this watch (its
 * requests are its site's).
 *
 * @typedef {import("../shared/effect_judge.js").Gate} Gate
 * @typedef {import("../shared/effect_judge.js").Effect} Effect
 * @typedef {import("../shared/effect_judge.js").Reason} Reason
 * @typedef {{effect: Effect, digest: string, reasons: Reason[]}} Stopped
 */
import { cut, digestOf, reasonsOf } from "../shared/effect_judge.js";
import { attached, hold, letGo } from "./debugger_session.js";

/** Methods that ask and change nothing (RFC 9110, 9.2.1): a script's request by one is a read. */
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
/** What a request for the page's own showing is: never judged. */
const SHOWS = new Set(["Image", "Stylesheet", "Script", "Font", "Media", "Manifest", "TextTrack", "SignedExchange", "Prefetch", "CSPViolationReport", "Preflight"]);

/** The watches running, by tab: each judges the requests its tab's page starts. @type {Map<number, (params: any) => void>} */
const watching = new Map();

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method !== "Fetch.requestPaused" || source.tabId === undefined) return;
  const judge = watching.get(source.tabId);
  if (judge) { judge(params); return; }
  // No watch for this tab (a service worker that started again while an action was in flight
  // lost it): the page's requests are let go, never left hanging; the next action watches anew.
  const requestId = /** @type {any} */ (params)?.requestId;
  chrome.debugger.sendCommand(source, "Fetch.continueRequest", { requestId }).catch(() => {});
  chrome.debugger.sendCommand(source, "Fetch.disable").catch(() => {});
});

/**
 * The fields a request carries: its body read as a form, as JSON, or as one value; and its query.
 * @param {string} url @param {string} body @returns {import("../shared/effect_judge.js").Field[]}
 */
export function bodyFields(url, body) {
  /** @type {Array<[string, string]>} */ let pairs = [];
  const text = body.trim();
  if (text.startsWith("{") || text.startsWith("[")) {
    try {
      /** @param {any} v @param {string} k */
      const walk = (v, k) => {
        if (v && typeof v === "object") for (const [kk, vv] of Object.entries(v)) walk(vv, k ? `${k}.${kk}` : kk);
        else pairs.push([k, String(v)]);
      };
      walk(JSON.parse(text), "");
    } catch { pairs = [["", text]]; }
  } else if (text && /^[^=&\s]+=/.test(text)) {
    pairs = [...new URLSearchParams(text).entries()];
  } else if (text) {
    pairs = [["", text]];
  }
  try { pairs.push(...new URL(url).searchParams.entries()); } catch { /* no query */ }
  return pairs.slice(0, 60).map(([name, value]) => ({ name: cut(name, 60), label: "", type: "body", value: cut(value, 300) }));
}

/** How long a waiting request waits for its page to say what its form holds. */
const FORM_WAIT_MS = 800;

/**
 * A form's request fields typed as its form says (hidden, text, checkbox …), asked of the page's
 * agent in the top frame; those the form does not hold, or all when it cannot say, stay "body".
 * @param {number} tabId @param {string} url @param {string} method
 * @param {import("../shared/effect_judge.js").Field[]} fields
 */
async function asTheFormSays(tabId, url, method, fields) {
  /** @type {any} */ let reply = null;
  try {
    reply = await Promise.race([
      chrome.tabs.sendMessage(tabId, { kind: "dom.form_fields", target: url, method }, { frameId: 0 }),
      new Promise((resolve) => setTimeout(() => resolve(null), FORM_WAIT_MS)),
    ]);
  } catch { return fields; }
  const own = reply && reply.ok && Array.isArray(reply.result) ? /** @type {import("../shared/effect_judge.js").Field[]} */ (reply.result) : null;
  if (!own) return fields;
  return fields.map((f) => {
    const mine = own.find((o) => o.name === f.name && (o.value === f.value || o.type !== "hidden"));
    return mine ? { ...f, type: mine.type, label: mine.label } : f;
  });
}

/**
 * Watches the tab's requests while an action runs, judged by the action's gate; `stop` ends the
 * watch and says which requests were stopped. Nothing is watched when heybro holds no debugger
 * attachment for the tab (another debugger holds it): the press's own look still judged it.
 * @param {number} tabId @param {Gate} gate @param {string} origin the page's origin
 * @returns {Promise<{stop(): Promise<Stopped[]>}>}
 */
export async function watchRequests(tabId, gate, origin) {
  /** @type {Stopped[]} */ const stopped = [];
  if (!attached(tabId)) return { stop: async () => stopped };
  /** @type {import("./debugger_session.js").Send} */ let send;
  try { send = await hold(tabId, "Watching what the page sends as heybro acts"); } catch { return { stop: async () => stopped }; }
  const approved = new Set(gate.approved || []);
  watching.set(tabId, async (/** @type {any} */ p) => {
    const r = p.request || {};
    const go = () => send("Fetch.continueRequest", { requestId: p.requestId }).catch(() => {});
    const method = String(r.method || "GET").toUpperCase(), url = String(r.url || "");
    if (SHOWS.has(p.resourceType) || (SAFE.has(method) && p.resourceType !== "Document")) { go(); return; }
    /** @type {Effect} */
    let effect = { words: "", kind: "request", target: cut(url, 2000), method: method.toLowerCase(), fields: bodyFields(url, String(r.postData || "")), beside: "" };
    let reasons = reasonsOf(effect, gate, origin).filter((x) => x.kind === "risk");
    // A navigation sending a form that reads as risky: the form, still in its page while the
    // request waits, says which fields are its own (hidden) and which a person filled — a typed
    // price is no charge. (Asked only then: an ordinary form goes on without the round trip.)
    if (reasons.length && p.resourceType === "Document" && method !== "GET") {
      effect = { ...effect, fields: await asTheFormSays(tabId, url, method.toLowerCase(), effect.fields) };
      reasons = reasonsOf(effect, gate, origin).filter((x) => x.kind === "risk");
    }
    const digest = digestOf(effect);
    if (!reasons.length || gate.covers || approved.has(digest)) { go(); return; }
    stopped.push({ effect, digest, reasons });
    // A navigation answered "204 No Content" leaves the page where it is (a failed one would put
    // the browser's error page in its place, and the action could not be done again after a yes).
    if (p.resourceType === "Document") send("Fetch.fulfillRequest", { requestId: p.requestId, responseCode: 204, responseHeaders: [] }).catch(() => {});
    else send("Fetch.failRequest", { requestId: p.requestId, errorReason: "BlockedByClient" }).catch(() => {});
  });
  try {
    await send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
  } catch {
    watching.delete(tabId);
    letGo(tabId);
    return { stop: async () => stopped };
  }
  return {
    async stop() {
      watching.delete(tabId);
      await send("Fetch.disable").catch(() => {});
      letGo(tabId);
      return stopped;
    },
  };
}
