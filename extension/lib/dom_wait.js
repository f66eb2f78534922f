// @ts-check
/**
 * Waiting for the page: an element to appear/disappear, some text, or the DOM to go quiet.
 * (Waiting for a URL is done by the coordinator, which outlives a navigation.)
 */
import { isRendered, refind } from "./refind.js";
import { actionError } from "./dom_input.js";

/**
 * @param {Record<string, any>} args {element_id?, signature?, text?, state?: "visible"|"hidden", quiet_ms?, timeout_ms?}
 * @param {import("./dom_scan.js").Registry} reg
 */
export async function waitFor(args, reg) {
  const timeout = Math.max(0, args.timeout_ms ?? 5000);
  const start = performance.now();
  const wantHidden = args.state === "hidden";
  let lastMutation = performance.now();
  const mo = new MutationObserver(() => { lastMutation = performance.now(); });
  mo.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    for (;;) {
      /** @type {string | null} */ let matched = null;
      if (args.quiet_ms !== undefined && args.quiet_ms !== null) {
        if (performance.now() - lastMutation >= args.quiet_ms) matched = "quiet";
      } else if (args.text) {
        const has = (document.body?.innerText || "").toLowerCase().includes(String(args.text).toLowerCase());
        if (has !== wantHidden) matched = "text";
      } else if (args.element_id || args.signature) {
        let el = args.element_id ? reg.get(args.element_id) : null;
        if ((!el || !el.isConnected) && args.signature) {
          const r = refind(args.signature, document);
          el = r.status === "found" ? r.element : null;
        }
        const present = !!el && el.isConnected && isRendered(el);
        if (present !== wantHidden) matched = "element";
        if (matched && el && !wantHidden) return { ok: true, action: "wait_for", matched, waited_ms: Math.round(performance.now() - start), element_id: reg.idFor(el) };
      } else {
        throw actionError("unsupported", "wait_for needs one of element_id/signature, text, url or quiet_ms.");
      }
      if (matched) return { ok: true, action: "wait_for", matched, waited_ms: Math.round(performance.now() - start) };
      if (performance.now() - start >= timeout) {
        throw actionError("timeout", `Waited ${timeout} ms and the ${args.quiet_ms != null ? "page did not go quiet" : args.text ? `text "${args.text}" did not ${wantHidden ? "go away" : "appear"}` : `element did not ${wantHidden ? "go away" : "appear"}`}.`, { waited_ms: Math.round(performance.now() - start) });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    mo.disconnect();
  }
}
