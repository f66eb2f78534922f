// @ts-check
/**
 * One `chrome.debugger` attachment per tab, shared by what needs the browser's DevTools protocol:
 * trusted input (the browser's own mouse and keyboard) and the answers to browser dialogs while
 * heybro acts. Each user holds the tab while it works and lets go after; the attachment ends when
 * the last one lets go (after the time it asked to linger), so Chrome's "heybro started debugging
 * this browser" bar shows while heybro is at work on that tab and not after.
 *
 * When another debugger holds the tab (DevTools' own client on some Chrome versions, another
 * extension), attaching fails with a typed `debugger_busy` error; a page the browser keeps from
 * extensions fails `unsupported`.
 *
 * @typedef {(method: string, params?: Record<string, any>) => Promise<any>} Send
 */

/** What Chrome says when another client holds the tab. */
const HELD = /already attached|another debugger|devtools/i;

/** @typedef {{ready: Promise<void>, users: number, until: number, timer?: ReturnType<typeof setTimeout>}} Session */
/** @type {Map<number, Session>} */
const sessions = new Map();
/** @type {Set<(tabId: number) => void>} */
const detachListeners = new Set();

/** @param {string} code @param {string} message @param {Record<string, any>} [detail] */
function fail(code, message, detail) { return Object.assign(new Error(message), { code, ...(detail ? { detail } : {}) }); }

/**
 * Holds the tab's attachment (attaching first when none is up) and gives the way to send commands.
 * @param {number} tabId @param {string} why what needs it, for the refusal's words
 * @returns {Promise<Send>}
 */
export async function hold(tabId, why) {
  let s = sessions.get(tabId);
  if (!s) {
    const ready = chrome.debugger.attach({ tabId }, "1.3").catch((e) => {
      sessions.delete(tabId);
      const text = String(/** @type {any} */ (e)?.message || e);
      if (HELD.test(text)) {
        throw fail("debugger_busy", `${why} needs Chrome's debugger, which another debugger holds on this tab (DevTools or another extension: "${text}"). Close DevTools on this tab, or act another way.`, { reason: text });
      }
      throw fail("unsupported", `${why} is not available on this page (${text}).`, { reason: text });
    });
    s = { ready, users: 0, until: 0 };
    sessions.set(tabId, s);
  }
  s.users++;
  clearTimeout(s.timer);
  try { await s.ready; } catch (e) { s.users--; throw e; }
  return (method, params) => chrome.debugger.sendCommand({ tabId }, method, params);
}

/**
 * Lets go of the tab; the attachment ends once nobody holds it and `lingerMs` has passed.
 * @param {number} tabId @param {number} [lingerMs]
 */
export function letGo(tabId, lingerMs = 0) {
  const s = sessions.get(tabId);
  if (!s) return;
  s.users = Math.max(0, s.users - 1);
  linger(tabId, lingerMs);
}

/**
 * Keeps the tab's attachment up at least `lingerMs` longer once nobody holds it (a session nobody
 * holds ends when its time is up).
 * @param {number} tabId @param {number} lingerMs
 */
export function linger(tabId, lingerMs) {
  const s = sessions.get(tabId);
  if (!s) return;
  s.until = Math.max(s.until, Date.now() + lingerMs);
  if (s.users) return;
  clearTimeout(s.timer);
  s.timer = setTimeout(() => {
    if (s.users || sessions.get(tabId) !== s) return;
    sessions.delete(tabId);
    chrome.debugger.detach({ tabId }).catch(() => { /* the tab closed, or the user cancelled the bar */ });
    for (const fn of detachListeners) fn(tabId);
  }, Math.max(0, s.until - Date.now()));
}

/** Ends the tab's attachment now, unless someone holds it (then when they let go). @param {number} tabId */
export function letGoNow(tabId) {
  const s = sessions.get(tabId);
  if (!s) return;
  s.until = 0;
  linger(tabId, 0);
}

/** Whether heybro's attachment to the tab is up. @param {number} tabId */
export const attached = (tabId) => sessions.has(tabId);

/** Called when an attachment ends (let go, the tab closed, the user cancelled the bar). @param {(tabId: number) => void} fn */
export function onDetached(fn) { detachListeners.add(fn); }

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId === undefined || !sessions.has(source.tabId)) return;
  sessions.delete(source.tabId);
  for (const fn of detachListeners) fn(source.tabId);
});
