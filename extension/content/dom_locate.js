// @ts-check
/**
 * Finding the element an action is about, and checking a user could act on it.
 *
 * The failure protocol: the id → (gone) re-find by signature, abstaining when unsure → (still
 * nothing) let the page settle, re-scan and re-find once more → a typed error with the best
 * candidates, so the host can re-plan instead of the agent clicking something else.
 */
import { refind, THRESHOLD } from "./refind.js";
import { roleOf, accessibleName, shownWords } from "./accessible_name.js";
import { elementState } from "./signature.js";
import { actionError } from "./dom_input.js";
import { dialogName, inertReason } from "./dom_inert.js";
import { containsDeep, deepElementFromPoint, samplePointsOf } from "./dom_roots.js";
import { attr, clientLeftOf, clientTopOf, closestOf, containsOf, docOf, idOf, isConnectedOf, matchesOf, qs, rectOf, rectsOf, scrollIntoViewOf, tagOf } from "./dom_native.js";

/**
 * @typedef {import("./dom_scan.js").Registry} Registry
 * @typedef {{el: Element, found_by: "id" | "signature" | "rescan", confidence: number, why?: string}} Located
 *   why: how the signature decided (refind's reason), for the result and the task's record
 */

/** @param {Registry} reg @param {import("./refind.js").RefindResult} r */
function candidatesOut(reg, r) {
  return r.candidates.slice(0, 3).map((c) => ({ id: reg.idFor(c.element), score: c.score, tag: c.tag, name: c.name.slice(0, 60) }));
}

/**
 * @param {Registry} reg
 * @param {{element_id?: string | null, signature?: any}} args
 * @param {() => Promise<void>} rescan settles the page and re-scans it
 * @returns {Promise<Located>}
 */
export async function locate(reg, args, rescan) {
  const id = args.element_id;
  if (id) {
    const el = reg.get(id);
    if (el && isConnectedOf(el)) return { el, found_by: "id", confidence: 1 };
  }
  const sig = args.signature;
  if (!sig) {
    if (!id) throw actionError("not_found", "No element was named (element_id or signature).");
    throw actionError("detached", `Element ${id} is no longer on the page and no signature was given to find it again; observe the page again.`, { element_id: id });
  }
  let r = refind(sig, document);
  if (r.status === "found" && r.element) return { el: r.element, found_by: "signature", confidence: round(r.confidence), why: r.why };
  await rescan();
  r = refind(sig, document);
  if (r.status === "found" && r.element) return { el: r.element, found_by: "rescan", confidence: round(r.confidence), why: r.why };
  const detail = { element_id: id || null, confidence: round(r.confidence), threshold: THRESHOLD, candidates: candidatesOut(reg, r), ...(r.why ? { why: r.why } : {}) };
  if (r.status === "ambiguous") {
    throw actionError("ambiguous", `Element ${id || ""} is gone and ${r.candidates.length > 1 ? "several elements" : "an element"} match its description about equally well; refusing to guess${r.why ? ` (${r.why})` : ""}.`.replace("  ", " "), detail);
  }
  throw actionError("not_found", `Element ${id || ""} is gone and nothing on the page matches its description well enough (best ${round(r.confidence)} < ${THRESHOLD}).`.replace("  ", " "), detail);
}

/** @param {number} n */
function round(n) { return Math.round(n * 1000) / 1000; }

/**
 * A short description of an element for errors and results: only the fields it reports (a whole
 * signature — neighbour text, ancestor path — would be read and thrown away on every action).
 * @param {Element | null} el
 */
export function brief(el) {
  if (!el) return null;
  const id = attr(el, "id");
  const name = accessibleName(el).slice(0, 80), shows = shownWords(el, name);
  return { tag: tagOf(el), role: roleOf(el), name, ...(shows ? { shows } : {}), ...(id ? { html_id: id } : {}), state: elementState(el) };
}

/** Whether `hit` is the target, inside it, or a label/part that forwards to it. @param {Element} hit @param {Element} target */
export function reaches(hit, target) {
  if (containsDeep(target, hit)) return true;
  const label = closestOf(hit, "label");
  if (label && /** @type {HTMLLabelElement} */ (label).control === target) return true;
  if (tagOf(target) === "label" && /** @type {HTMLLabelElement} */ (target).control === hit) return true;
  return containsOf(target, hit) || containsOf(hit, target) && rectOf(hit).width <= rectOf(target).width + 4;
}

/**
 * What covers a point of a frame's viewport in the documents around that frame, or null when each
 * frame element is on top there: a full-page overlay in the parent hides the frame's content
 * although the frame's own document sees nothing above it. Stops where the parent cannot be read.
 * @param {Document} doc @param {number} x @param {number} y in doc's viewport
 * @returns {Element | null}
 */
function coverAround(doc, x, y) {
  for (let fe = doc.defaultView?.frameElement; fe; fe = docOf(fe).defaultView?.frameElement) {
    const view = /** @type {Window} */ (docOf(fe).defaultView);
    const r = rectOf(fe), cs = view.getComputedStyle(fe);
    x += r.left + clientLeftOf(fe) + parseFloat(cs.paddingLeft || "0");
    y += r.top + clientTopOf(fe) + parseFloat(cs.paddingTop || "0");
    if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return null; // out of that viewport: no test there
    const hit = deepElementFromPoint(docOf(fe), x, y);
    if (hit && !reaches(hit, fe)) return hit;
  }
  return null;
}

/**
 * Scrolls the element into view and refuses when a user could not act on it: not rendered,
 * disabled (for actions that need an enabled control), inert (behind a modal dialog), or hidden
 * under another element — in its own document or, for an element in a frame, in the page around it.
 * @param {Element} el @param {{needEnabled?: boolean, hitTest?: boolean}} [opts]
 */
export function prepare(el, opts = {}) {
  if (!isConnectedOf(el)) throw actionError("detached", "The element was removed from the page before the action.");
  scrollIntoViewOf(el, { block: "center", inline: "center", behavior: "instant" });
  const r = rectOf(el);
  const style = getComputedStyle(el);
  if (r.width === 0 || r.height === 0 || style.visibility === "hidden" || !rectsOf(el).length) {
    // A styled checkbox/file input: invisible itself, clicked through its label.
    const label = /** @type {HTMLInputElement} */ (el).labels?.[0];
    if (label && label.getClientRects().length) return prepare(label, opts);
    throw actionError("not_interactable", "The element is not visible on the page.", { element: brief(el) });
  }
  // :disabled covers a control in a disabled fieldset as well as its own attribute.
  if (opts.needEnabled && (matchesOf(el, ":disabled") || /** @type {any} */ (el).disabled === true || attr(el, "aria-disabled") === "true")) {
    throw actionError("not_interactable", "The element is disabled.", { element: brief(el) });
  }
  if (opts.needEnabled || opts.hitTest !== false) {
    const inert = inertReason(el);
    if (inert) throw actionError("not_interactable", `The element cannot be used: ${inert}.`, { element: brief(el) });
  }
  if (opts.hitTest !== false) {
    // Sample the centre, a point inside each corner and by each edge: covered means none of them reaches it.
    /** @type {Element | null} */ let cover = null;
    let inView = 0;
    const view = /** @type {Window} */ (docOf(el).defaultView);
    for (const [fx, fy] of samplePointsOf(r.width, r.height)) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) continue;
      inView++;
      const hit = deepElementFromPoint(docOf(el), x, y);
      const over = !hit || reaches(hit, el) ? coverAround(docOf(el), x, y) : hit;
      if (!over) return el;
      cover = cover || over;
    }
    if (inView && cover) {
      const DIALOG = "dialog,[role=dialog],[role=alertdialog],[aria-modal=true]";
      // A backdrop covers the page; the dialog on it is what the user would name.
      const top = closestOf(cover, DIALOG) || qs(cover, DIALOG) || cover;
      // A cover with a title (a modal, however the page built it) is named by it, as a person would.
      const titled = matchesOf(top, DIALOG) || qs(top, "h1,h2,h3,h4,h5,h6,[role=heading]") ? dialogName(top) : "";
      const what = titled ? `the dialog "${titled}" is open over it (close or answer it first)` : `it is hidden under another element (${describe(top)}); close or move that first`;
      throw actionError("covered", `The element cannot be used: ${what}.`, { element: brief(el), covering: brief(top) });
    }
  }
  return el;
}

/** @param {Element} el */
function describe(el) {
  const b = brief(el);
  return `<${tagOf(el)}${idOf(el) ? ` id="${idOf(el)}"` : ""}>${b && b.name ? ` "${b.name.slice(0, 40)}"` : ""}`;
}
