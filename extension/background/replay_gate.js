// @ts-check
/**
 * Whether the browser's own input may do again what a script's action seemed not to do.
 *
 * In the default mode the DOM agent acts as a script first and replays the action with the
 * browser's input only when that had no effect (content/dom_trusted.js). Its view of "no effect"
 * is the page's DOM, focus and values; a page can react without touching any of those — a request
 * still on its way (a slow server), a confirm() the coordinator answered while the page's script
 * waited — and a replay would then do the action a second time (two orders, two confirmations).
 * The coordinator hears both from the browser itself, for every frame of the tab: chrome.webRequest
 * (page_requests.js) and the debugger's dialog events (dialog_answers.js). So it refuses a replay
 * when anything of the kind happened since the action began, whatever the page's side concluded:
 * an action is done once by construction.
 *
 * @typedef {{at: number, type: string}} StartedRequest  at: Date.now(); type: webRequest's resource type
 * @typedef {{at: number, kind: string}} OpenedDialog  at: Date.now(); kind: alert, confirm, prompt, beforeunload
 */

/** Resource types that are a page (or a frame) loading: a navigation. */
const LOADS = new Set(["main_frame", "sub_frame"]);

/**
 * Why a replay of an action begun at `since` must not happen (the page reacted to it), or null.
 * @param {{requests: StartedRequest[], dialogs: OpenedDialog[]}} seen what the tab's pages did lately
 * @param {number} since when the action began (Date.now(), the content script's clock: the same wall clock)
 * @returns {string | null}
 */
export function pageReaction(seen, since) {
  const dialog = seen.dialogs.find((d) => d.at >= since);
  if (dialog) return `it opened a browser dialog${dialog.kind ? ` (${dialog.kind})` : ""}`;
  const requests = seen.requests.filter((r) => r.at >= since);
  if (requests.some((r) => LOADS.has(r.type))) return "it started loading a page";
  if (requests.length) {
    const kinds = [...new Set(requests.map((r) => r.type === "xmlhttprequest" ? "fetch" : r.type))];
    return `it started ${requests.length === 1 ? "a request" : `${requests.length} requests`} (${kinds.join(", ")}), answered or not`;
  }
  return null;
}
