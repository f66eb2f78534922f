// @ts-check
/**
 * What an action changed: URL, DOM mutations (summarised), a dialog that opened, where focus went.
 * Watches from just before the action until the page has been quiet for a moment (or a cap), so
 * re-renders the action triggered are counted.
 */
import { accessibleName, deepActiveElement, norm } from "./refind.js";
import { dialogName } from "./dom_scan.js";

/** @param {Element} el */
function isDialog(el) {
  return (el.localName === "dialog" && /** @type {HTMLDialogElement} */ (el).open) || el.getAttribute("role") === "dialog"
    || el.getAttribute("role") === "alertdialog" || el.getAttribute("aria-modal") === "true";
}

/** @param {Document} doc */
function openDialogs(doc) {
  return Array.from(doc.querySelectorAll("dialog[open],[role=dialog],[role=alertdialog],[aria-modal=true]"))
    .filter((d) => d.getClientRects().length > 0);
}

/** Starts watching the document; call the returned function after acting. @param {Document} doc */
export function watchChanges(doc) {
  const url = doc.location.href;
  const before = new Set(openDialogs(doc));
  let added = 0, removed = 0, attributes = 0, text = 0, last = performance.now();
  /** @type {Set<string>} */ const addedTags = new Set();
  const mo = new MutationObserver((records) => {
    last = performance.now();
    for (const r of records) {
      if (r.type === "childList") {
        for (const n of Array.from(r.addedNodes)) if (n.nodeType === 3) text++; else if (n.nodeType === 1 && !(/** @type {Element} */ (n)).hasAttribute("data-heybro-overlay")) { added++; if (addedTags.size < 6) addedTags.add(/** @type {Element} */ (n).localName); }
        for (const n of Array.from(r.removedNodes)) if (n.nodeType === 1 && !(/** @type {Element} */ (n)).hasAttribute("data-heybro-overlay")) removed++;
      } else if (r.type === "attributes") attributes++;
      else text++;
    }
  });
  mo.observe(doc.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });

  /**
   * Waits for the page to settle, stops watching and reports.
   * @param {{quietMs?: number, maxMs?: number}} [opts]
   */
  return async function finish(opts = {}) {
    const quiet = opts.quietMs ?? 120, max = opts.maxMs ?? 800;
    const start = performance.now();
    await new Promise((r) => setTimeout(r, 30));
    while (performance.now() - start < max && performance.now() - last < quiet) await new Promise((r) => setTimeout(r, 30));
    while (performance.now() - start < max && performance.now() - last < quiet) await new Promise((r) => setTimeout(r, 30));
    mo.disconnect();
    const newDialog = openDialogs(doc).find((d) => !before.has(d) && isDialog(d));
    const focused = deepActiveElement(doc);
    const parts = [];
    if (added) parts.push(`${added} element${added > 1 ? "s" : ""} added${addedTags.size ? ` (${[...addedTags].join(", ")})` : ""}`);
    if (removed) parts.push(`${removed} removed`);
    if (attributes) parts.push(`${attributes} attribute change${attributes > 1 ? "s" : ""}`);
    if (text) parts.push(`${text} text change${text > 1 ? "s" : ""}`);
    return {
      url: doc.location.href,
      url_changed: doc.location.href !== url,
      mutations: { added, removed, attributes, text, summary: parts.join(", ") || "no change" },
      dialog: newDialog ? { name: dialogName(newDialog), text: norm(newDialog.textContent).slice(0, 200) } : null,
      focused: focused && focused !== doc.body ? { tag: focused.localName, name: accessibleName(focused).slice(0, 80) } : null,
    };
  };
}
