// @ts-check
/**
 * Tools the host asks the browser to run (`tool.call` → `tool.result`). Each entry takes the call's
 * args and resolves with a JSON result, or throws an Error with a `code` from the shared ErrorCode
 * list. The DOM agent and tab tools register here.
 *
 * @typedef {{tool: string, args: Record<string, any>, task_id?: string, tab_id?: number, timeout_ms: number}} ToolCallPayload
 * @typedef {(call: ToolCallPayload) => Promise<Record<string, any>>} ToolFn
 */

/** @type {Map<string, ToolFn>} */
export const TOOLS = new Map();

/** @param {string} name @param {ToolFn} fn */
export function registerTool(name, fn) { TOOLS.set(name, fn); }

/**
 * Runs a tool call with its timeout; always resolves to a `tool.result` payload.
 * @param {ToolCallPayload} call
 * @returns {Promise<{ok: boolean, result?: Record<string, any>, error?: {code: string, message: string, detail?: Record<string, any>}}>}
 */
export async function runTool(call) {
  const fn = TOOLS.get(call.tool);
  if (!fn) return { ok: false, error: { code: "unsupported", message: `The browser has no tool named "${call.tool}".` } };
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
