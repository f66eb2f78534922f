// @ts-check
/**
 * Code editors that draw their own text and take the keyboard through a hidden field (Monaco, Ace,
 * CodeMirror 5): a textarea of a pixel or two, or see-through, sits inside the editor's box and
 * receives what is typed; the lines a person reads are drawn beside it. A person sees one field —
 * the box — clicks in it and types. So does heybro: the box is the field's place on the page (what
 * is hit-tested and clicked), the hidden textarea where its keys go, and the drawn lines its value.
 *
 * Editors that type into their own drawn text (CodeMirror 6, ProseMirror: contenteditable) are
 * fields as they are and need none of this.
 */
import { byTagOf, checkVisibilityOf, docOf, nodeTypeOf, nodeValueOf, parentElOf, qsa, rectOf } from "./dom_native.js";

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
 * @param {Element} box
 */
export function editorText(box) {
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
  /** @type {{top: number, parts: string[]}[]} */ const lines = [];
  for (const b of bits) {
    if (/^\s*\d+\s*$/.test(b.text) && b.right <= codeLeft + 1) continue; // the gutter's line number
    // One drawn line: the same top, give or take a part of a line's height.
    const line = lines.find((l) => Math.abs(l.top - b.top) < Math.max(3, b.h / 2));
    if (line) line.parts.push(b.text); else lines.push({ top: b.top, parts: [b.text] });
  }
  return lines.sort((a, b) => a.top - b.top).map((l) => l.parts.join("").replace(/\u00a0/g, " ").replace(/\u200b/g, "").replace(/\s+$/, "")).join("\n").trim();
}
