// @ts-check
/**
 * Tools the host asks the browser to run (`tool.call` → `tool.result`), made from the action
 * modules (extension/actions/): a page action goes to the DOM agent of the right frame, a tab
 * action runs here. Each takes the call and resolves with a JSON result, or throws an Error with a
 * `code` from the shared ErrorCode list.
 *
 * @typedef {{tool: string, args: Record<string, any>, task_id?: string, tab_id?: number, timeout_ms: number, sites?: import("../shared/site_rules.js").SiteGate | null, task_tabs?: number[], task_since?: number, tab?: chrome.tabs.Tab}} ToolCallPayload  task_tabs: the task's tabs by the coordinator's registry (tabs the user handed over among them), set by the coordinator; task_since: when the task started (ms since the epoch; a tab its pages opened after that is the task's too), set by the coordinator; tab: the call's tab as the reach check read it just before (not read again)
 * @typedef {(call: ToolCallPayload) => Promise<Record<string, any>>} ToolFn
 */
import { ACTIONS } from "../actions/index.js";
import { actionTool } from "./dom_tools.js";
import { followRequests } from "./page_requests.js";

/** @param {import("../actions/index.js").Action} a @returns {ToolFn} */
function toolOf(a) {
  if ("page" in a.needs) return actionTool(/** @type {import("../actions/page.js").PageAction} */ (a));
  const { run, needs } = /** @type {import("../actions/tab.js").TabAction} */ (a);
  if (needs.tab !== "required") return run;
  return async (call) => {
    if (call.tab_id === undefined || call.tab_id === null) throw Object.assign(new Error(`${call.tool} needs the task's tab.`), { code: "no_tab" });
    return run(call);
  };
}

/** Tool name → how it runs. @type {Map<string, ToolFn>} */
export const TOOLS = new Map(ACTIONS.map((a) => [a.name, toolOf(a)]));

/**
 * Runs a tool call with its timeout; always resolves to a `tool.result` payload.
 * @param {ToolCallPayload} call
 * @returns {Promise<{ok: boolean, result?: Record<string, any>, error?: {code: string, message: string, detail?: Record<string, any>}}>}
 */
export async function runTool(call) {
  const fn = TOOLS.get(call.tool);
  if (!fn) return { ok: false, error: { code: "unsupported", message: `The browser has no tool named "${call.tool}".` } };
  followRequests(); // heybro is at work: its settle waits hear the pages' requests
  /** @type {any} */
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`${call.tool} did not finish within ${call.timeout_ms} ms.`), { code: "timeout" })), call.timeout_ms);
    });
    const result = await Promise.race([fn(call), timeout]);
    return { ok: true, result: result || {} };
  } catch (e) {
    const err = /** @type {any} */ (e);
    const error = { code: typeof err?.code === "string" ? err.code : "internal", message: String(err?.message || err) };
    if (err?.detail) Object.assign(error, { detail: err.detail });
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}
