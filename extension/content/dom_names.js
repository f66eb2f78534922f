// @ts-check
/**
 * A name for a control that has none a person could read off the page's markup: an icon-only
 * button, an unlabelled field. Guessed, and said to be (the rendering marks it `~"trash"`), from
 * what the page's authors wrote about the control where a person would look for its meaning: the
 * words of its (and its icon's) class names, id, data attributes and image file names
 * (`btn-trash` → "trash", `reply.png` → "reply", `data-icon="star"` → "star"); a field from the
 * words just before it ("Username" beside a box with no label).
 *
 * Only asked for the elements shown without a name, so reading their style is affordable.
 */
import { ICON_NOISE, isGeneratedId, isStableClass } from "./signature.js";
import { ICON_FONTS, isIconLigature, isTextRegion, labelText, wordsOf } from "./accessible_name.js";
import { norm } from "./norm.js";
import { cellName, headsOf, rowCells, tableOf } from "./dom_tables.js";
import { attr, attrsOf, checkVisibilityOf, closestOf, docOf, rectOf, matchesOf, nextSiblingOf, nodeTypeOf, parentElOf, previousSiblingOf, qs, qsa, rootOf, tagOf, textOf } from "./dom_native.js";

/** Layout and widget words: they say where or what kind, not which. */
const LAYOUT = new Set(["float", "right", "left", "top", "bottom", "pull", "col", "row", "flex", "grid", "item", "items", "wrap",
  "wrapper", "container", "inner", "outer", "box", "block", "inline", "main", "ui", "fa", "fas", "far", "fab", "mdi", "bi", "ico",
  "control", "controls", "actions", "action", "link", "clickable", "hidden", "visible", "js", "el", "component", "widget", "hitarea",
  "white", "black", "dark", "light", "hover", "center", "middle", "corner", "corners", "all", "state", "default", "content", "header",
  "helper", "clearfix", "reset", "input", "field", "form", "text", "area"]);
const ICON_NODES = "svg, i, span, img, use, div";
/** Where tooltip libraries keep a control's title. */
const TOOLTIP_ATTRS = ["data-title", "data-tooltip", "data-original-title", "data-bs-original-title"];
const TOOLTIPS = TOOLTIP_ATTRS.map((a) => `[${a}]`).join(", ");
/** Data attributes whose value names what a control does. */
const DATA_WORDS = /^data-(icon|action|name|type|tooltip|title|label|command|cmd|target|id|testid|test-id|qa|cy)$/;

/** Words that join others and name nothing (an anchor's `#load-the-data`). */
const JOINING = new Set(["the", "and", "for", "with", "from", "into", "onto", "that", "this", "your", "our", "its", "are", "was"]);

/** @param {string} s @param {Set<string>} out @param {Set<string>} [namespaces] words that say whose, not which (namespaceWords) */
function addWords(s, out, namespaces) {
  const spaced = s.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  for (const w of spaced.split(/[^a-z]+/)) if (w.length >= 3 && !ICON_NOISE.has(w) && !LAYOUT.has(w) && !JOINING.has(w) && !namespaces?.has(w)) out.add(w);
}

/** How many different class names must hold a word for it to be a namespace. */
const NAMESPACE_CLASSES = 8;
/** Elements whose classes are read for namespaces, at most (a page's first ones carry its toolkit's). */
const NAMESPACE_SAMPLE = 800;
/** @type {WeakMap<Document | ShadowRoot, {at: number, words: Set<string>}>} */
const namespaceCache = new WeakMap();

/**
 * The words of a page's class names that are a toolkit's namespace: each in many different class
 * names (`red-ui-tab`, `red-ui-button`, `red-ui-sidebar`…; a design system's `du-bois-light-btn`,
 * `du-bois-light-select`…). They say whose control it is, never which. Read once in ten seconds at
 * most: a page's class names do not change with what it shows.
 * @param {Document | ShadowRoot} root
 */
function namespaceWords(root) {
  const now = performance.now(), hit = namespaceCache.get(root);
  if (hit && now - hit.at < 10_000) return hit.words;
  /** @type {Set<string>} */ const classes = new Set();
  // (Walked, not queried: a query would list all of a large page's elements first.)
  const walk = (nodeTypeOf(root) === 9 ? /** @type {Document} */ (root) : docOf(root)).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let n = walk.nextNode(), seen = 0; n && seen < NAMESPACE_SAMPLE; n = walk.nextNode()) {
    const cls = attr(/** @type {Element} */ (n), "class");
    if (!cls) continue;
    seen++;
    for (const c of cls.split(/\s+/)) if (c) classes.add(c);
  }
  /** @type {Map<string, number>} */ const count = new Map();
  for (const c of classes) {
    /** @type {Set<string>} */ const ws = new Set();
    addWords(c, ws);
    for (const w of ws) count.set(w, (count.get(w) || 0) + 1);
  }
  const words = new Set([...count].filter(([, n]) => n >= NAMESPACE_CLASSES).map(([w]) => w));
  namespaceCache.set(root, { at: now, words });
  return words;
}

/** The file name part of a URL (`…/icons/reply.png` → "reply"). @param {string} url */
function fileWords(url) { return url.replace(/[?#].*$/, "").replace(/^.*\//, "").replace(/\.\w+$/, ""); }

/** Image URLs a node's style puts on it (`content: url(…)`, a background image). @param {Element} n */
function styleImages(n) {
  const view = docOf(n).defaultView;
  if (!view) return [];
  const st = view.getComputedStyle(n);
  return `${st.content} ${st.backgroundImage}`.match(/url\(["']?[^"')]+/g)?.map((u) => u.replace(/^url\(["']?/, "")) || [];
}

/** Where a same-page link leads (`#editor-tab-description`): the part it opens, named by the authors. @param {Element} n */
function fragment(n) {
  const h = tagOf(n) === "a" ? attr(n, "href") || "" : "";
  return /^#[\w-]{3,}$/.test(h) ? h.slice(1) : "";
}

/**
 * Each source's words for one control, most telling source first: where a same-page link leads,
 * class names (its icon's too: `fa-cog` → "cog"), id, data attributes, image files. Of a text
 * region only its own: what it holds is its value, not its looks (a code editor's highlighted words).
 * @param {Element} el @returns {Set<string>[]}
 */
function sourceWords(el) {
  const nodes = isTextRegion(el) ? [el] : [el, ...Array.from(qsa(el, ICON_NODES)).slice(0, 6)];
  const namespaces = namespaceWords(/** @type {Document | ShadowRoot} */ (rootOf(el)));
  /** @type {Array<(n: Element, out: Set<string>) => void>} */
  const sources = [
    (n, out) => { const f = fragment(n); if (f && !isGeneratedId(f)) addWords(f, out); },
    (n, out) => { for (const c of (attr(n, "class") || "").split(/\s+/)) if (isStableClass(c)) addWords(c, out, namespaces); },
    (n, out) => { const id = attr(n, "id"); if (id && !isGeneratedId(id)) addWords(id, out); },
    (n, out) => { for (const a of Array.from(attrsOf(n))) if (DATA_WORDS.test(a.name) && !/\d{3,}/.test(a.value)) addWords(a.value, out); },
    (n, out) => {
      const src = attr(n, "src") || attr(n, "href") || attr(n, "xlink:href");
      if (src && tagOf(n) !== "a") addWords(tagOf(n) === "use" ? src.replace(/^.*#/, "") : fileWords(src), out);
      for (const u of styleImages(n)) addWords(fileWords(u), out);
    },
  ];
  return sources.map((source) => {
    /** @type {Set<string>} */ const out = new Set();
    for (const n of nodes) source(n, out);
    return out;
  });
}

/**
 * The controls laid out as el's peers: of its tag, as deep under the nearest of its three closest
 * ancestors that holds any (a tab bar's other tabs, a row's other buttons); a few.
 * @param {Element} el @returns {Element[]}
 */
function peersOf(el) {
  const tag = tagOf(el);
  let up = parentElOf(el);
  for (let depth = 1; up && depth <= 3; up = parentElOf(up), depth++) {
    /** @type {Element[]} */ const peers = [];
    for (const o of Array.from(qsa(up, tag))) {
      if (o === el) continue;
      let a = /** @type {Element | null} */ (o);
      for (let i = 0; a && i < depth; i++) a = parentElOf(a);
      if (a === up) peers.push(o);
      if (peers.length >= 8) break;
    }
    if (peers.length) return peers;
  }
  return [];
}

/**
 * The words a control's looks are named by, most telling first; up to two. Words every one of its
 * peers carries in the same place say what kind it is (`red-ui-tab-link-button` on each tab of a
 * bar), not which: left out while another word says which (`#editor-tab-description`), kept when
 * nothing else does (a row's only trash button, like every row's).
 * @param {Element} el
 */
export function lookWords(el) {
  const own = sourceWords(el);
  const peers = own.some((w) => w.size) ? peersOf(el).map(sourceWords) : [];
  if (peers.length) {
    for (let i = 0; i < own.length; i++) {
      const which = Array.from(own[i]).filter((w) => !peers.every((p) => p[i].has(w)));
      if (which.length) return which.slice(0, 2).join(" ");
    }
  }
  const first = own.find((w) => w.size);
  return first ? Array.from(first).slice(0, 2).join(" ") : "";
}

/** A sibling node's words: an element's, a text's; a comment in the markup is no words. @param {Node} n */
function nodeWords(n) {
  const type = nodeTypeOf(n);
  return norm(type === 1 ? wordsOf(/** @type {Element} */ (n)) : type === 3 ? textOf(n) : "");
}

/**
 * The words a person reads just before a field, when short enough to be its label: in its
 * container, or before the wrappers it is the first thing in (up to three levels). `label` when
 * they are a `<label>` element's (one whose `for` points elsewhere: a page that repeats its
 * controls with the same ids) — a label as a person reads it, not a guess.
 * @param {Element} el @returns {{text: string, label: boolean}}
 */
function wordsBefore(el) {
  const none = { text: "", label: false };
  /** @type {Element | null} */ let at = el;
  for (let depth = 0; at && depth < 3; depth++) {
    for (let n = previousSiblingOf(at); n; n = previousSiblingOf(n)) {
      // A control, or a cell or box holding one (a list of functions beside the value), is no label.
      if (nodeTypeOf(n) === 1 && (matchesOf(/** @type {Element} */ (n), "input,select,textarea,button") || qs(/** @type {Element} */ (n), "input,select,textarea,button"))) return none;
      const t = nodeWords(n);
      // A label is a few words, not a sentence.
      if (t) return t.length <= 40 && !/[.!?]$/.test(t) ? { text: t.replace(/[:*]\s*$/, ""), label: nodeTypeOf(n) === 1 && tagOf(/** @type {Element} */ (n)) === "label" } : none;
    }
    // Up past a wrapper only when the field is all it holds (the words before a list of fields label the list).
    const up = parentElOf(at);
    if (!up || qsa(up, "input,select,textarea").length > 1) break;
    at = up;
  }
  return none;
}

/**
 * The words a person reads just after a tick box or a radio button — its label, wherever its `for`
 * points: the next sibling's words, when short and no control. "" when there are none.
 * @param {Element} el
 */
function wordsAfter(el) {
  for (let n = nextSiblingOf(el); n; n = nextSiblingOf(n)) {
    if (nodeTypeOf(n) === 1 && (matchesOf(/** @type {Element} */ (n), FIELDS) || qs(/** @type {Element} */ (n), FIELDS))) return "";
    const t = nodeWords(n);
    if (t) return t.length <= 40 ? t.replace(/[:*]\s*$/, "") : "";
  }
  return "";
}

const FIELDS = "input:not([type=hidden]),select,textarea,button";

/** A table cell's words when it holds words only (no control, no bare number or date), short enough to be a label. @param {Element} cell */
function labelCell(cell) {
  if (qs(cell, FIELDS + ",a[href]")) return "";
  const t = norm(wordsOf(cell)).replace(/[:*]\s*$/, "");
  // A date, a number or an id is a record's value, not what a field is called.
  return t.length <= 60 && !/^[\d\s.,:/#+-]+$/.test(t) ? t : "";
}

/**
 * The words a person reads for a field in a form laid out as a table: its row's label cell (a `th`,
 * or the row's first cell, before the field's, holding words only), else the row above when that
 * row is one cell of words heading it ("Telephone" over the box holding the number). "" when neither.
 * @param {Element} el
 */
function rowHeading(el) {
  const cell = closestOf(el, "td, th");
  const row = cell && closestOf(cell, "tr");
  if (!cell || !row || !tableOf(row)) return "";
  const cells = rowCells(row).map((c) => c.cell);
  const own = cells.indexOf(cell);
  const before = cells.slice(0, Math.max(0, own));
  const head = before.find((c) => tagOf(c) === "th") || before[0];
  const t = head ? labelCell(head) : "";
  if (t || before.some((c) => norm(textOf(c)))) return t;
  const above = previousElementRow(row);
  const heads = above ? rowCells(above) : [];
  return heads.length === 1 ? labelCell(heads[0].cell) : "";
}

/** The row before a table row (in its group). @param {Element} row */
function previousElementRow(row) {
  for (let n = previousSiblingOf(row); n; n = previousSiblingOf(n)) if (nodeTypeOf(n) === 1) return tagOf(/** @type {Element} */ (n)) === "tr" ? /** @type {Element} */ (n) : null;
  return null;
}

/** The legend of the fieldset a field is the one field of: the words it is read under. @param {Element} el */
function legendOf(el) {
  const set = closestOf(el, "fieldset");
  if (!set) return "";
  const legend = qs(set, "legend");
  if (!legend || closestOf(legend, "fieldset") !== set) return "";
  const fields = Array.from(qsa(set, "input:not([type=hidden]),select,textarea")).filter((f) => !isWidgetPart(f));
  return fields.length === 1 ? norm(wordsOf(legend)).slice(0, 80) : "";
}

/** A part a widget draws its field with, not the field (a read-only box out of the tab order, said to be nothing). @param {Element} f */
function isWidgetPart(f) { return attr(f, "role") === "presentation" && attr(f, "tabindex") === "-1"; }

/**
 * The label of the form field a widget stands in for: a page that draws its own field (a
 * recipients box, a styled select) often keeps the real one, hidden, beside it — with the label
 * ("To") still pointing at the hidden one. "" when there is none.
 * @param {Element} el
 */
function replacedLabel(el) {
  /** @type {Element | null} */ let at = parentElOf(el);
  for (let depth = 0; at && depth < 3; depth++, at = parentElOf(at)) {
    for (const f of Array.from(qsa(at, "input, select, textarea"))) {
      if (f === el || (attr(f, "type") !== "hidden" && shown(f))) continue;
      // A hidden input is no labelable element (its `labels` is null), yet editors keep their
      // text in one and leave the page's <label for> pointing at it.
      const t = attr(f, "type") === "hidden" ? forLabel(f) : labelText(f);
      if (t) return t;
    }
  }
  return "";
}

/** The words of a <label for> naming the element by its id. @param {Element} f */
function forLabel(f) {
  const id = attr(f, "id");
  if (!id) return "";
  const label = qs(/** @type {Document | ShadowRoot} */ (rootOf(f)), `label[for="${CSS.escape(id)}"]`);
  return label ? norm(textOf(label)).replace(/[:*]\s*$/, "").slice(0, 80) : "";
}

/** Whether a field is drawn where a person sees it (not moved off the page, see-through or a pixel). @param {Element} f */
function shown(f) {
  const r = rectOf(f);
  return r.width > 2 && r.height > 2 && r.right > 0 && r.bottom > 0 && checkVisibilityOf(f, { checkOpacity: true, checkVisibilityCSS: true });
}

/** Whether a field stands in a table with column headers. @param {Element} el */
function inDataTable(el) {
  const row = closestOf(el, "tr, [role=row]");
  const table = row && tableOf(row);
  return !!table && !!headsOf(table);
}

/**
 * A name for a control with none, and where it came from ("" when nothing says), the words a person
 * reads first: `title` — a title/aria-label on its icon, a tooltip library's title; `label` — the
 * label of the field it stands in for, the label beside it; `table` — its row's label cell, the
 * row heading it, its row and column in a data table (dom_tables.js); `legend` — its fieldset's;
 * `text` — the words before a field; `look` — an icon font's ligature, then class/id/data/image
 * words (a guess, the very last resort).
 * @param {Element} el
 * @param {Element} [place] where a person sees it, when not where el is (a code editor's box around its hidden field)
 * @returns {{name: string, from: "title" | "label" | "table" | "legend" | "text" | "look" | ""}}
 */
export function guessName(el, place = el) {
  // An option's title describes that option, never the list it is in.
  const titled = qs(el, "[title]:not(option, optgroup), [aria-label]:not(option, optgroup)");
  const t = norm((titled ? attr(titled, "aria-label") : undefined) || (titled ? attr(titled, "title") : undefined));
  if (t) return { name: t, from: "title" }; // a real name, on the icon inside
  // A tooltip library's title (Bootstrap moves `title` there; charting toolbars set their own): the
  // words a person reads when pointing at it.
  const tip = matchesOf(el, TOOLTIPS) ? el : qs(el, TOOLTIPS);
  const said = tip ? norm(TOOLTIP_ATTRS.map((a) => attr(tip, a)).find(Boolean)) : "";
  if (said) return { name: said, from: "title" };
  if (matchesOf(el, "input,select,textarea") || isTextRegion(el)) {
    const read = fieldWords(el, place);
    if (read.name) return read;
  }
  // A tick box's looks say only that it is one ("acme-checkbox-wrapper"); its row or label says which.
  // Nor do a text area's ("ace_text-input": the editor library's name, not the field's).
  if (matchesOf(el, "input[type=checkbox], input[type=radio], textarea")) return { name: "", from: "" };
  const glyph = iconGlyph(el);
  if (glyph) return { name: glyph, from: "look" };
  const words = lookWords(el);
  return { name: words, from: words ? "look" : "" };
}

/**
 * The words a person reads for a field without a label, most telling first.
 * @param {Element} el @param {Element} place
 * @returns {{name: string, from: "label" | "table" | "legend" | "text" | ""}}
 */
function fieldWords(el, place) {
  const stood = place === el ? replacedLabel(el) : "";
  if (stood) return { name: stood, from: "label" };
  if (matchesOf(el, "input[type=checkbox], input[type=radio]")) {
    const after = wordsAfter(place);
    if (after) return { name: after, from: "label" };
  }
  // In a table with column headers the cell before is another column's value, not a label.
  const inTable = inDataTable(place) ? cellName(place) : "";
  if (inTable) return { name: inTable, from: "table" };
  const heading = rowHeading(place);
  if (heading) return { name: heading, from: "table" };
  const legend = legendOf(place);
  if (legend) return { name: legend, from: "legend" };
  const before = wordsBefore(place);
  if (before.text) return { name: before.text, from: before.label ? "label" : "text" };
  const row = cellName(place);
  if (row) return { name: row, from: "table" };
  return { name: "", from: "" };
}

/** The ligature word of the icon font glyph a control shows ("rss_feed" → "rss feed"): a guess at its meaning. @param {Element} el */
function iconGlyph(el) {
  const icon = isIconLigature(el) ? el : Array.from(qsa(el, ICON_FONTS)).slice(0, 4).find(isIconLigature);
  return icon ? norm(textOf(icon)).replace(/_/g, " ").replace(/\d+$/, "").trim() : "";
}
