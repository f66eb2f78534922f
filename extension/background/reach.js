// @ts-check
/**
 * What a host's tool call may reach, whatever the model asked (shared_schema/reach.py): the task's
 * own tabs — the tab the user handed over (by starting the task there, or from the panel), the
 * tabs the task opened and the tabs their pages opened — and in them web pages only, on sites the
 * user's per-site permissions allow (shared/site_rules.js; the call carries them from the settings).
 * Everything else is the user's: a call that names another tab, reads or acts on a page that is no
 * web page (a file, the browser's own pages) or is on a site kept off, or opens such an address, is
 * refused (`not_allowed`, with the site's verdict as detail) before it runs; a page an action led
 * to on such a site is withheld from its result. Which argument names a tab and which holds the
 * address a tool opens is marked in the shared schema; whether an action reads its page, in its
 * definition (extension/actions/).
 *
 * @typedef {import("./tools.js").ToolCallPayload} ToolCallPayload
 */
import { ACTIONS } from "../actions/index.js";
import { REACH } from "../shared/schema_check.js";
import { siteRefusal, siteVerdict } from "../shared/site_rules.js";
import { addressProblem } from "../shared/web_address.js";

/** @param {string} message @param {import("../shared/site_rules.js").SiteVerdict} [detail] */
const refuse = (message, detail) => Object.assign(new Error(message), { code: "not_allowed", detail });

/**
 * Refuses a page on a site the user's permissions keep the task off.
 * @param {string} url @param {import("../shared/site_rules.js").SiteGate} gate
 */
function checkSite(url, gate) {
  const v = siteVerdict(url, gate);
  if (v) throw refuse(siteRefusal(v), v);
}

/** @type {Map<string, import("../actions/index.js").Action>} */
const BY_NAME = new Map(ACTIONS.map((a) => [a.name, a]));

/**
 * What a call needs of tabs: the arguments naming its tab and holding the address it opens (marked
 * in the shared schema), and whether it reads its tab's page (the action's definition).
 * @param {import("../actions/index.js").Action} a
 * @returns {{tabArg?: string, reads: boolean, opens?: string}}
 */
function needsOf(a) {
  /** @type {Record<string, string>} */ const marks = REACH.tools[a.name] || {};
  const arg = (/** @type {string} */ kind) => Object.keys(marks).find((k) => marks[k] === kind);
  const reads = "page" in a.needs || /** @type {import("../actions/tab.js").TabNeeds} */ (a.needs).reads;
  return { tabArg: arg("tab"), reads, opens: arg("opens") };
}

/**
 * Checks a call against the task's tabs before it runs. A reading call that names no tab reads the
 * page the user is looking at: allowed only as a task's first look, when it has no tab yet (a task
 * started from a terminal without an address) — that tab is then named in the call, so the tool
 * reads exactly the tab checked here. Resolves with the call to run, or rejects with the refusal.
 * @param {ToolCallPayload} call @param {Set<number>} taskTabs
 * @returns {Promise<ToolCallPayload>}
 */
export async function confine(call, taskTabs) {
  const a = BY_NAME.get(call.tool);
  if (!a) return call; // (runTool answers that there is no such tool)
  const { tabArg, reads, opens } = needsOf(a);
  const named = tabArg ? call.args?.[tabArg] : undefined;
  for (const id of [call.tab_id, named]) {
    if (typeof id === "number" && !taskTabs.has(id)) {
      throw refuse(`Tab ${id} is not one of this task's tabs: heybro works only in the tab the task started in and the tabs it opened. The user's other tabs stay theirs.`);
    }
  }
  const gate = call.sites || {};
  if (opens) {
    const address = String(call.args?.[opens] ?? "");
    const why = addressProblem(address);
    if (why) throw refuse(why);
    checkSite(address, gate);
  }
  if (!reads) return call;
  let tabId = call.tab_id ?? undefined;
  if (tabId === undefined) {
    if (taskTabs.size) throw refuse("This call names no tab: heybro acts only in the task's tabs.");
    const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    if (active?.id === undefined) return call; // (the tool says there is no tab to act on)
    tabId = active.id;
  }
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  const url = tab ? tab.url || tab.pendingUrl || "" : "";
  const why = url ? addressProblem(url) : null;
  if (why) throw refuse(`The task's tab shows a ${url.split(":")[0]}: page, which heybro does not read. ${why}`);
  checkSite(url, gate);
  return { ...call, tab_id: tabId, ...(tab ? { tab } : {}) };
}

/**
 * A call's result without what it read of pages on sites kept off: the page an action led to
 * (its `observation`, dropped: the host then looks again, and is refused or asks the user), and
 * the titles of such pages among its tabs.
 * @param {ToolCallPayload} call @param {Record<string, any>} result
 * @returns {Record<string, any>}
 */
export function withheld(call, result) {
  const gate = call.sites || {};
  const kept = (/** @type {any} */ url) => typeof url !== "string" || !siteVerdict(url, gate);
  const out = { ...result };
  if (out.observation && typeof out.observation === "object" && !kept(out.observation.url)) delete out.observation;
  if (!kept(out.url)) for (const k of ["title", "text"]) if (k in out) out[k] = "";
  for (const key of ["tabs", "opened_tabs"]) {
    if (Array.isArray(out[key])) out[key] = out[key].map((/** @type {any} */ t) => (t && !kept(t.url) ? { ...t, title: "" } : t));
  }
  return out;
}

/**
 * The tabs a call that ran found to be the task's: the tab it worked in, tabs it opened, and tabs
 * the task's pages opened (list_tabs, observe's `opened_tabs`, an action's page after it) — all
 * reported by the browser.
 * @param {ToolCallPayload} call @param {Record<string, any>} result
 * @returns {number[]}
 */
export function reachedTabs(call, result) {
  /** @type {number[]} */ const out = [];
  const add = (/** @type {any} */ id) => { if (typeof id === "number") out.push(id); };
  add(call.tab_id);
  for (const r of [result, result.observation]) { // (an action's page after it, too)
    if (!r || typeof r !== "object") continue;
    add(r.tab_id);
    for (const t of [...(Array.isArray(r.tabs) ? r.tabs : []), ...(Array.isArray(r.opened_tabs) ? r.opened_tabs : [])]) add(t?.tab_id);
  }
  return out;
}
