// @ts-check
/**
 * Tab tools the host runs through `tool.call` (see shared_schema/tab_tools.py): navigate, back,
 * new_tab, switch_tab, close_tab, list_tabs, screenshot — each listed as an action module in
 * extension/actions/. The tab is the call's `tab_id`; `navigate` without one opens a new tab so a
 * task never takes over the page the user is looking at. Which tabs are the task's is the
 * coordinator's word (`task_tabs`, checked by reach.js before a call runs) and tab_adoption.js's.
 */
import { finishedShot, markBoxes } from "./shot.js";
import { adoptedTabs } from "./tab_adoption.js";
import { tabBirths } from "./tab_births.js";
import { hideOutline } from "./outline.js";
import { addressProblem } from "../shared/web_address.js";

/** @typedef {import("./tools.js").ToolCallPayload} ToolCallPayload */

/** @param {string} message @param {string} code */
const fail = (message, code) => Object.assign(new Error(message), { code });

/** @param {chrome.tabs.Tab} tab */
const info = (tab) => ({ tab_id: /** @type {number} */ (tab.id), url: tab.url || tab.pendingUrl || "", title: tab.title || "", active: !!tab.active });

/** @param {number | undefined} tabId @returns {Promise<chrome.tabs.Tab>} */
async function tabOf(tabId) {
  if (tabId === undefined || tabId === null) throw fail("This tool needs the task's tab.", "no_tab");
  try { return await chrome.tabs.get(tabId); } catch { throw fail(`Tab ${tabId} is gone.`, "no_tab"); }
}

/**
 * Resolves with the tab once it finished loading the page `start` asked for (or after `ms`, with
 * what it has). `tabId` may be a function when the tab only exists once `start` ran; `start` may
 * return "complete" when the load already finished before anything could be heard.
 * @param {number | (() => number | undefined)} tabId @param {number} ms
 * @param {() => Promise<any>} start
 */
function loaded(tabId, ms, start) {
  const idOf = () => (typeof tabId === "function" ? tabId() : tabId);
  return new Promise((resolve, reject) => {
    let timer = 0;
    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      chrome.tabs.onUpdated.removeListener(listener);
      clearTimeout(timer);
      const id = idOf();
      if (id === undefined) { reject(fail("The tab could not be opened.", "no_tab")); return; }
      try { resolve(await chrome.tabs.get(id)); } catch { reject(fail(`Tab ${id} closed while loading.`, "no_tab")); }
    };
    /** @param {number} id @param {chrome.tabs.OnUpdatedInfo} change */
    const listener = (id, change) => {
      if (id !== idOf()) return;
      if (change.status === "complete") finish();
    };
    chrome.tabs.onUpdated.addListener(listener);
    timer = /** @type {any} */ (setTimeout(finish, ms));
    start().then((r) => { if (r === "complete") finish(); },
      (e) => { chrome.tabs.onUpdated.removeListener(listener); clearTimeout(timer); reject(fail(String(e?.message || e), "navigation")); });
  });
}

/** A web address a task may open (background/reach.js), as the browser writes it. @param {string} url */
function checkUrl(url) {
  const why = addressProblem(url);
  if (why) throw fail(why, "not_allowed");
  return new URL(url.trim()).href;
}

/**
 * Opens `url` in a new tab. The tab is created with the URL itself (not about:blank first): a
 * blank tab's own "complete" could otherwise be taken for the page having loaded.
 * @param {string} url @param {number} ms
 */
async function openNew(url, ms) {
  /** @type {number | undefined} */
  let id;
  return info(await loaded(() => id, ms, async () => {
    const tab = await chrome.tabs.create({ url, active: true });
    id = /** @type {number} */ (tab.id);
    const now = await chrome.tabs.get(id);
    return now.status === "complete" ? "complete" : undefined;
  }));
}

/** @param {ToolCallPayload} call */
export async function navigate(call) {
  const url = checkUrl(call.args.url);
  const ms = Math.max(1000, call.timeout_ms - 500);
  if (call.tab_id === undefined || call.tab_id === null) return openNew(url, ms);
  const tab = await tabOf(call.tab_id);
  const id = /** @type {number} */ (tab.id);
  return info(await loaded(id, ms, () => chrome.tabs.update(id, { url })));
}

/** @param {ToolCallPayload} call */
export async function newTab(call) { return openNew(checkUrl(call.args.url), Math.max(1000, call.timeout_ms - 500)); }

/** @param {ToolCallPayload} call */
export async function back(call) {
  const tab = await tabOf(call.tab_id);
  const id = /** @type {number} */ (tab.id);
  return info(await loaded(id, Math.max(1000, call.timeout_ms - 500), () => chrome.tabs.goBack(id)));
}

/** @param {ToolCallPayload} call */
export async function switchTab(call) {
  const tab = await tabOf(call.args.tab_id);
  await chrome.tabs.update(/** @type {number} */ (tab.id), { active: true });
  if (tab.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
  return info(await chrome.tabs.get(/** @type {number} */ (tab.id)));
}

/**
 * Closes a tab the task made: one the browser says was made after the task started — by the
 * task itself (navigate, new_tab) or by one of the task's pages (a link with target=_blank, a
 * Ctrl+click, window.open). A tab the user had before the task, the one they handed over among
 * them, is theirs to close, never heybro's: refused. Closing the tab the task works in moves the
 * task to another of its tabs (the one that opened it, else the newest), which is reported as
 * where the task is now; the task's last tab is not closed.
 * @param {ToolCallPayload} call
 */
export async function closeTab(call) {
  const tab = await tabOf(call.args.tab_id);
  const id = /** @type {number} */ (tab.id);
  const [all, births] = await Promise.all([chrome.tabs.query({}), tabBirths()]);
  const mine = new Set([...(call.task_tabs || []), ...(call.tab_id !== undefined && call.tab_id !== null ? [call.tab_id] : [])]);
  for (const t of adoptedTabs(all, mine, call.task_since, births)) mine.add(t);
  const birth = births.get(id);
  if (!mine.has(id) || call.task_since === undefined || !birth || birth.at < call.task_since) {
    throw fail(`Tab ${id} is not one the task opened: heybro closes only tabs it (or its pages) opened during the task; the user's own tabs stay open.`, "not_allowed");
  }
  const left = all.filter((t) => t.id !== undefined && t.id !== id && mine.has(t.id));
  const here = call.tab_id !== undefined && call.tab_id !== null && call.tab_id !== id ? left.find((t) => t.id === call.tab_id) : undefined;
  const next = here || left.find((t) => t.id === birth.opener) || left.sort((a, b) => (births.get(/** @type {number} */ (b.id))?.at ?? 0) - (births.get(/** @type {number} */ (a.id))?.at ?? 0))[0];
  if (!next) throw fail(`Tab ${id} is the task's last tab: navigate it elsewhere instead of closing it.`, "not_allowed");
  await chrome.tabs.remove(id);
  if (!here) await chrome.tabs.update(/** @type {number} */ (next.id), { active: true }).catch(() => {});
  return { ...info(await chrome.tabs.get(/** @type {number} */ (next.id))), closed: id };
}

/**
 * The task's tabs — those the coordinator's registry holds as the task's (it worked in them, opened
 * them, or the user handed them over) and those their pages opened while the task ran
 * (tab_adoption.js) — never the titles and addresses of the user's other tabs: only how many
 * there are.
 * @param {ToolCallPayload} call
 */
export async function listTabs(call) {
  const all = (await chrome.tabs.query({})).filter((t) => t.id !== undefined);
  /** @type {Set<number>} */
  const mine = new Set([...(call.task_tabs || []), ...(call.tab_id !== undefined && call.tab_id !== null ? [call.tab_id] : [])]);
  for (const id of adoptedTabs(all, mine, call.task_since, await tabBirths())) mine.add(id);
  const tabs = all.filter((t) => mine.has(/** @type {number} */ (t.id)));
  return { tabs: tabs.map(info), other_tabs: all.length - tabs.length };
}

/** Chrome allows two captureVisibleTab calls a second (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND). */
const CAPTURE_GAP_MS = 510;
let lastCapture = 0;

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Captures a window's visible tab, spacing captures as Chrome's quota requires (and once more
 * after a quota refusal: another extension's captures count too).
 * @param {number} windowId @param {chrome.extensionTypes.ImageDetails} opts
 */
async function capture(windowId, opts) {
  for (let attempt = 0; ; attempt++) {
    const wait = lastCapture + CAPTURE_GAP_MS - Date.now();
    if (wait > 0) await sleep(wait);
    lastCapture = Date.now();
    try {
      return await chrome.tabs.captureVisibleTab(windowId, opts);
    } catch (e) {
      if (attempt > 0 || !/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(String(/** @type {any} */ (e)?.message))) throw e;
    }
  }
}

/**
 * The visible part of the call's tab. Only Chrome's visible tab can be captured: a task whose tab
 * is in the background gets an error rather than the tab brought to the front (that would take the
 * page away from the user, every step). The image is finished in shot.js: frames on sites the
 * user's rules keep heybro off covered, the numbered boxes drawn when on. With `clear_boxes`, the
 * boxes are turned off once the capture is taken, or when none can be.
 * @param {ToolCallPayload} call
 */
export async function screenshot(call) {
  const tab = await tabOf(call.tab_id);
  const tabId = /** @type {number} */ (tab.id);
  try {
    if (!tab.active) throw fail("The task's tab is in the background; heybro does not bring it to the front for a screenshot.", "unsupported");
    const quality = call.args.quality;
    const opts = quality ? { format: /** @type {"jpeg"} */ ("jpeg"), quality } : { format: /** @type {"png"} */ ("png") };
    await hideOutline(tabId); // (the outline is for the person watching; it would show on the capture)
    const dataUrl = await finishedShot(tabId, call.sites || {}, () => capture(/** @type {number} */ (tab.windowId), opts), quality || 90);
    return { tab_id: tabId, data_url: dataUrl };
  } finally {
    if (call.args.clear_boxes) markBoxes(tabId, false);
  }
}
