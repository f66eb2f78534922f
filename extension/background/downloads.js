// @ts-check
/**
 * Files a task's pages download, for the task: the browser's debugger (attached while heybro acts
 * on a tab, dialog_answers.js) says which tab began a download and the name the site gave the file
 * (`Page.downloadWillBegin`); chrome.downloads says where the browser saved it once complete. An
 * action's result lists the files its page downloaded meanwhile (`downloads`), and the host makes
 * each one a resource of the task (upload, read_file). Downloads of other tabs, or while heybro is
 * not acting, are the user's and are never listed.
 *
 * @typedef {{name: string, path: string, url: string, bytes: number}} Downloaded
 */

/** How many finished downloads are kept for an action to take (the oldest forgotten). */
const KEEP = 20;

/** Downloads a tab began while heybro acted there, by the debugger's id. @type {Map<string, {tabId: number, url: string, name: string, at: number}>} */
const begun = new Map();
/** Finished ones, not yet taken by an action's result. @type {Array<{tabId: number, at: number, file: Downloaded}>} */
let finished = [];

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method !== "Page.downloadWillBegin" || source.tabId === undefined) return;
  const p = /** @type {{guid: string, url: string, suggestedFilename?: string}} */ (params);
  begun.set(p.guid, { tabId: source.tabId, url: String(p.url || ""), name: String(p.suggestedFilename || ""), at: Date.now() });
});

/** The last part of a path, whichever the separator. @param {string} path */
const baseName = (path) => path.split(/[\\/]/).pop() || path;

// (chrome.downloads needs the "downloads" permission; without it no download is listed)
chrome.downloads?.onChanged.addListener(async (delta) => {
  const state = delta.state?.current;
  if (state !== "complete" && state !== "interrupted") return;
  const [item] = await chrome.downloads.search({ id: delta.id });
  if (!item) return;
  // The tab that began it: the latest begun download of that address.
  /** @type {string | null} */ let guid = null;
  for (const [g, b] of begun) if ((b.url === item.url || b.url === item.finalUrl) && (guid === null || b.at > (begun.get(guid)?.at ?? 0))) guid = g;
  const b = guid === null ? undefined : begun.get(guid);
  if (guid === null || !b) return;
  begun.delete(guid);
  if (state !== "complete") return; // (cancelled or failed: no file)
  finished = [...finished, { tabId: b.tabId, at: b.at, file: { name: b.name || baseName(item.filename), path: item.filename, url: item.url, bytes: item.bytesReceived } }].slice(-KEEP);
});

/**
 * The files the tab's pages downloaded since `since` (Date.now()), waiting up to `waitMs` for those
 * still on their way; each is listed once.
 * @param {number} tabId @param {number} since @param {number} waitMs
 * @returns {Promise<Downloaded[]>}
 */
export async function downloadsSince(tabId, since, waitMs) {
  const until = Date.now() + waitMs;
  const pending = () => [...begun.values()].some((b) => b.tabId === tabId && b.at >= since);
  while (pending() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  const mine = finished.filter((d) => d.tabId === tabId && d.at >= since);
  finished = finished.filter((d) => !mine.includes(d));
  return mine.map((d) => d.file);
}
