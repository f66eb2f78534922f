// @ts-check
/**
 * Fields a page draws as a box around them, the field itself hidden inside. Code editors that draw
 * their own text and take the keyboard through a hidden field (Monaco, Ace, CodeMirror 5): a
 * textarea of a pixel or two, or see-through, sits inside the editor's box and receives what is
 * typed; the lines a person reads are drawn beside it. Widget toolkits' selects (Ant Design's, a
 * design system built on it): a clickable box showing the chosen values, around a see-through
 * combobox input a few pixels wide. A person sees one field — the box — clicks in it and types. So
 * does heybro: the box is the field's place on the page (what is hit-tested and clicked), the
 * hidden field where its keys go and whose role, name and state it has, and the drawn words its
 * value.
 *
 * Editors that type into their own drawn text (CodeMirror 6, ProseMirror: contenteditable) are
 * fields as they are and need none of this.
 */
import { attr, byTagOf, checkVisibilityOf, docOf, hasAttr, nodeTypeOf, nodeValueOf, parentElOf, qsa, rectOf } from "./dom_native.js";

/** Fields a hidden one could stand in for: more than one in the box makes it a form, not an editor. */
const FIELDS = "textarea, input:not([type=hidden]), select, [contenteditable]:not([contenteditable=false])";
/** A box a person would type in: at least a short line's size. */
const MIN_W = 40, MIN_H = 16;
/** Text pieces read of one editor at most (an editor draws only the lines in view, a few hundred pieces). */
const MAX_BITS = 4000;

/**
 * The editors of a document or shadow root: each box, with the hidden field that takes its keys.
 * @param {Document | ShadowRoot} root @returns {Map<Element, HTMLTextAreaElement>}
 */
export function editorSurfaces(root) {
  /** @type {Map<Element, HTMLTextAreaElement>} */ const out = new Map();
  // (A document's own list of its textareas is kept by the browser: cheaper than a query.)
  const fields = nodeTypeOf(root) === 9 ? byTagOf(root, "textarea") : qsa(root, "textarea");
  for (const t of /** @type {HTMLTextAreaElement[]} */ (Array.from(fields))) {
    if (t.disabled) continue;
    // A pixel or two of its own, or of the box that clips it (CodeMirror 5's), or see-through (Ace's).
    const r = rectOf(t), p = parentElOf(t), pr = p ? rectOf(p) : r;
    const hidden = tiny(r) || tiny(pr) || !checkVisibilityOf(t, { checkOpacity: true });
    // A field the page took out of the layout entirely is no editor's keyboard either.
    if (!hidden || !checkVisibilityOf(t, { checkVisibilityCSS: true })) continue;
    const box = surfaceOf(t);
    if (box) out.set(box, t);
  }
  return out;
}

/** @param {DOMRect} r */
const tiny = (r) => r.width <= 4 || r.height <= 4;

/** What else a person could operate inside a box: then the box is more than one field's. */
const OTHER_CONTROLS = "a[href], button, [role=button], [role=link], [role=checkbox], [role=switch], [role=combobox], [role=textbox], [tabindex]:not([tabindex='-1'])";

/**
 * The field a box clickable by its cursor is drawn for: the one field inside it, hidden from the
 * eye (a few pixels, or see-through) yet rendered, enabled and not hidden from everyone, beside no
 * other control — a toolkit select's box around its combobox input. Null when there is none.
 * @param {Element} box
 */
export function drawnField(box) {
  const fields = qsa(box, FIELDS);
  if (fields.length !== 1) return null;
  const f = fields[0];
  if (hasAttr(f, "disabled") || attr(f, "aria-hidden") === "true" || attr(f, "tabindex") === "-1") return null;
  // (Narrower than a letter, it holds a caret, not words a person reads: Ant Design's search input
  // once its select is open.)
  const r = rectOf(f);
  if (!checkVisibilityOf(f, { checkVisibilityCSS: true }) || (r.width >= 8 && r.height >= 8 && checkVisibilityOf(f, { checkOpacity: true }))) return null;
  for (const o of Array.from(qsa(box, OTHER_CONTROLS))) if (o !== f) return null;
  return f;
}

/**
 * The box around a hidden field that a person sees as the field: its nearest ancestor (a few levels
 * up) of a field's size, shown, holding no other field.
 * @param {Element} field
 */
function surfaceOf(field) {
  /** @type {Element | null} */ let at = parentElOf(field);
  for (let depth = 0; at && depth < 4; depth++, at = parentElOf(at)) {
    const r = rectOf(at);
    if (r.width < MIN_W || r.height < MIN_H) continue;
    if (!checkVisibilityOf(at, { checkOpacity: true, checkVisibilityCSS: true })) return null;
    return qsa(at, FIELDS).length === 1 ? at : null;
  }
  return null;
}

/**
 * The text an editor shows, as a person reads it: its drawn lines top to bottom (editors place line
 * elements absolutely, and reuse them, so the document's order is not the lines' order), without
 * the line numbers of its gutter (numbers left of where any code starts).
 * A one-line field's (a select's chosen values, drawn as chips that may wrap) are one list.
 * @param {Element} box @param {boolean} [oneLine]
 */
export function editorText(box, oneLine = false) {
  const apart = oneLine ? ", " : ""; // (a code editor's tokens are drawn apart by their own spaces)
  const doc = docOf(box);
  const range = doc.createRange();
  /** @type {{text: string, top: number, left: number, right: number, h: number}[]} */ const bits = [];
  const area = rectOf(box);
  /** @type {Map<Element, boolean>} */ const shown = new Map();
  const walker = doc.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n && bits.length < MAX_BITS; n = walker.nextNode()) {
    const text = nodeValueOf(n) || "";
    if (!text) continue;
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    // Not drawn, or not where the editor shows it: the hidden field's text, a measuring element.
    if ((r.width === 0 && r.height === 0) || r.bottom <= area.top || r.top >= area.bottom || r.right <= area.left || r.left >= area.right) continue;
    const parent = parentElOf(n);
    if (!parent) continue;
    let vis = shown.get(parent);
    if (vis === undefined) { vis = checkVisibilityOf(parent, { checkOpacity: true, checkVisibilityCSS: true }); shown.set(parent, vis); }
    if (vis) bits.push({ text, top: r.top, left: r.left, right: r.right, h: r.height });
  }
  const codeLeft = Math.min(...bits.filter((b) => /[^\d\s]/.test(b.text)).map((b) => b.left));
  /** @type {{top: number, right: number, parts: string[]}[]} */ const lines = [];
  for (const b of bits) {
    if (/^\s*\d+\s*$/.test(b.text) && b.right <= codeLeft + 1) continue; // the gutter's line number
    // One drawn line: the same top, give or take a part of a line's height.
    // (Words drawn apart on one line, a select's chips, are read apart.)
    const line = lines.find((l) => Math.abs(l.top - b.top) < Math.max(3, b.h / 2));
    if (line && apart && b.left > line.right + 2) {
      line.parts.push(line.parts.pop()?.trimEnd() + apart + b.text.trimStart());
      line.right = b.right;
    } else if (line) { line.parts.push(b.text); line.right = b.right; }
    else lines.push({ top: b.top, right: b.right, parts: [b.text] });
  }
  return lines.sort((a, b) => a.top - b.top).map((l) => l.parts.join("").replace(/\u00a0/g, " ").replace(/\u200b/g, "").replace(/\s+$/, "")).join(oneLine ? ", " : "\n").trim();
}
