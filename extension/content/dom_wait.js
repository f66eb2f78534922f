// @ts-check
/**
 * Waiting for the page: an element to appear/disappear (one seen before, by id or signature, or one
 * not there yet, by role and accessible name), some text, or the page to settle ("quiet": no change
 * to its DOM for `quiet_ms`, none of its requests on their way, nothing marked busy — a list still
 * loading is not settled, however still its spinner). Text and elements are looked for where the
 * scan looks: through open shadow roots and same-origin frames.
 * (Waiting for a URL is done by the coordinator, which outlives a navigation.)
 */
import { accessibleName, roleOf } from "./accessible_name.js";
import { isInteractiveCheap, isRendered } from "./controls.js";
import { norm } from "./norm.js";
import { refind } from "./refind.js";
import { walkDeep } from "./dom_roots.js";
import { actionError } from "./dom_input.js";
import { innerRoots, deepTexts } from "./dom_roots.js";
import { isConnectedOf, qsa, rectsOf, tagOf } from "./dom_native.js";
import { canRequest, requestsPending, syncRequests } from "./dom_requests.js";

/** Something of the page is marked as loading (`aria-busy`) and shown. */
function busy() {
  return [document, ...innerRoots(document)].some((s) => Array.from(qsa(s, "[aria-busy=true]")).some((b) => rectsOf(b).length > 0));
}

/**
 * The first rendered element with this role (any interactive element when none is given) whose
 * accessible name contains `name` (any case), through shadow roots and same-origin frames.
 * @param {string} role @param {string} name
 * @returns {Element | null}
 */
export function findByRole(role, name) {
  const r = norm(role).toLowerCase(), n = norm(name).toLowerCase();
  /** @type {Element | null} */ let found = null;
  walkDeep(document, (el) => {
    if (found) return;
    if (r ? roleOf(el) !== r : !isInteractiveCheap(el)) return;
    if (n && !norm(accessibleName(el)).toLowerCase().includes(n)) return;
    if (isRendered(el)) found = el;
  });
  return found;
}

/** Whether `text` (any case) is on the page as it renders, or is the name of a control or picture
 * shown (see named). @param {string} text */
function hasText(text) {
  const t = text.toLowerCase();
  return deepTexts(document).some((s) => s.toLowerCase().includes(t)) || named(t);
}

/** Elements an attribute may name (an icon button's title, an aria-label, an image's alt). */
const NAMED = "[aria-label],[title],img[alt],[placeholder],input[value]";

/**
 * Whether a rendered control or picture is named with words holding `t` (lower case): the page
 * map shows an icon button titled "New Folder" as `button New Folder`, and the model waits for
 * what it read there, though no text of the page says it.
 * @param {string} t
 */
function named(t) {
  return [document, ...innerRoots(document)].some((s) => Array.from(qsa(s, NAMED)).some((el) =>
    (isInteractiveCheap(el) || tagOf(el) === "img" || !!roleOf(el)) && isRendered(el) && norm(accessibleName(el)).toLowerCase().includes(t)));
}

/**
 * @param {Record<string, any>} args wait_for's own words {element_id?, signature?, role?, name?, text?, gone?, seconds?}, or (the host's) {quiet_ms, seconds?}
 * @param {import("./dom_scan.js").Registry} reg
 */
export async function waitFor(args, reg) {
  const timeout = Math.max(0, Math.round((args.seconds ?? 5) * 1000));
  const start = performance.now();
  const wantHidden = args.gone === true;
  const byRole = !!(args.role || args.name);
  const what = args.quiet_ms !== undefined && args.quiet_ms !== null ? "quiet" : args.text ? "text"
    : args.element_id || args.signature ? "element" : byRole ? "role" : null;
  if (!what) throw actionError("unsupported", "wait_for needs one of element_id/signature, role/name, text, url_contains or quiet_ms.");
  let lastMutation = performance.now();
  const mo = new MutationObserver(() => { lastMutation = performance.now(); });
  const watch = { subtree: true, childList: true, attributes: true, characterData: true };
  // Shadow roots and frames present now; one added later shows up as a change of its host.
  if (what === "quiet") for (const s of [document, ...innerRoots(document)]) mo.observe(s.nodeType === 9 ? /** @type {Document} */ (s).documentElement : s, watch);
  const asks = what === "quiet" && canRequest(document);
  if (asks) await syncRequests(); // (the requests the page made before this wait, known here)
  try {
    for (;;) {
      /** @type {string | null} */ let matched = null;
      /** @type {Element | null} */ let el = null;
      if (what === "quiet") {
        if (performance.now() - lastMutation >= args.quiet_ms && !(asks && requestsPending(0)) && !busy()) matched = "quiet";
      } else if (what === "text") {
        if (hasText(String(args.text)) !== wantHidden) matched = "text";
      } else {
        if (what === "role") el = findByRole(String(args.role || ""), String(args.name || ""));
        else {
          el = args.element_id ? reg.get(args.element_id) : null;
          if ((!el || !isConnectedOf(el)) && args.signature) {
            const r = refind(args.signature, document);
            el = r.status === "found" ? r.element : null;
          }
        }
        const present = !!el && isConnectedOf(el) && isRendered(el);
        if (present !== wantHidden) matched = "element";
      }
      if (matched) {
        return { ok: true, action: "wait_for", matched, waited_ms: Math.round(performance.now() - start),
          ...(wantHidden && matched !== "quiet" ? { gone: true } : {}),
          ...(el && !wantHidden ? { element_id: reg.idFor(el) } : {}) };
      }
      if (performance.now() - start >= timeout) {
        const thing = what === "quiet" ? "page did not go quiet" : what === "text" ? `text "${args.text}" did not ${wantHidden ? "go away" : "appear"}`
          : `${what === "role" ? `${args.role || "element"}${args.name ? ` "${args.name}"` : ""}` : "element"} did not ${wantHidden ? "go away" : "appear"}`;
        throw actionError("timeout", `Waited ${timeout} ms and the ${thing}.`, { waited_ms: Math.round(performance.now() - start) });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    mo.disconnect();
  }
}
