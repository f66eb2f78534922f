// @ts-check
/** Reading content out of the page: visible text, or a table as rows of cells. */
import { norm } from "./norm.js";
import { secretField } from "./signature.js";
import { editorText } from "./dom_editors.js";
import { closestOf, innerTextOf, matchesOf, qs, qsa, textOf } from "./dom_native.js";

const MAX_CHARS = 20000;

/** @param {Element} table */
function readTable(table) {
  const rows = Array.from(qsa(table, "tr, [role=row]")).filter((r) => closestOf(r, "table, [role=table], [role=grid]") === table);
  const cells = rows.map((r) => Array.from(qsa(r, "th, td, [role=cell], [role=gridcell], [role=columnheader]"))
    .filter((c) => closestOf(c, "tr, [role=row]") === r).map((c) => norm(innerTextOf(/** @type {HTMLElement} */ (c)) ?? textOf(c))));
  const first = rows[0];
  const hasHeader = !!first && qs(first, "th, [role=columnheader]") !== null;
  return { headers: hasHeader ? cells[0] : [], rows: (hasHeader ? cells.slice(1) : cells).slice(0, 500) };
}

/** What a form field holds, or null for an element that is not one. @param {Element} el */
function fieldText(el) {
  if (matchesOf(el, "textarea, input")) return secretField(el) ? "" : /** @type {HTMLInputElement} */ (el).value;
  if (matchesOf(el, "select")) return Array.from(/** @type {HTMLSelectElement} */ (el).selectedOptions).map((o) => norm(o.textContent)).join(", ");
  return null;
}

/**
 * @param {Element | null} el the element to read (the whole page when null)
 * @param {{mode?: "text" | "table" | "auto", max_chars?: number}} args
 * @param {Element} [editor] the box of the code editor whose hidden field el is (dom_editors.js)
 */
export function extractFrom(el, args, editor) {
  const root = el || document.body;
  const mode = args.mode || "auto";
  const max = args.max_chars || MAX_CHARS;
  // A field's text is what it holds now (a text box's lines, a list's chosen option), not its markup's;
  // a code editor's, the lines it draws (its hidden field holds a part at most).
  const field = editor ? editorText(editor) : fieldText(root);
  if (field !== null) return { text: field.slice(0, max), truncated: field.length > max };
  if (mode === "table" || (mode === "auto" && matchesOf(root, "table, [role=table], [role=grid]"))) {
    const table = matchesOf(root, "table, [role=table], [role=grid]") ? root : qs(root, "table, [role=table], [role=grid]");
    if (table) return { table: readTable(table) };
    if (mode === "table") return { table: null, text: "", truncated: false };
  }
  const raw = innerTextOf(/** @type {HTMLElement} */ (root)) ?? textOf(root) ?? "";
  const text = raw.replace(/[ \t]+/g, " ").replace(/\n\s*\n+/g, "\n").trim();
  return { text: text.slice(0, max), truncated: text.length > max };
}
