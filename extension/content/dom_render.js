// @ts-check
/**
 * The compact page rendering the LLM reads: one line per element, grouped by landmark/form, with
 * the page's own words in between, inside a fence that marks them as untrusted data.
 *
 * A token budget keeps what is in the viewport first, then what is nearest to it, and says what it
 * left out ("38 more elements below"). Tokens are estimated (≈ 4 characters per token for this
 * format; scripts/bench_render.py checks the estimate against a real tokenizer).
 */
import { neutral, neutralPart, noDelimiters } from "./page_text.js";
import { editorText } from "./dom_editors.js";
import { ICON_FONTS, accessibleName, implicitRole, isTextRegion, roleOf, shownWords } from "./accessible_name.js";
import { elementState } from "./signature.js";
import { norm } from "./norm.js";
import { isDropZone } from "./controls.js";
import { guessName } from "./dom_names.js";
import { unseenWordsTest } from "./dom_unseen.js";
import { attr, checkVisibilityOf, childCountOf, docOf, hasAttr, innerTextOf, isHtml, qs, tagOf, textOf } from "./dom_native.js";

/**
 * @typedef {import("./dom_scan.js").Scan} Scan
 * @typedef {import("./dom_scan.js").Entry} Entry
 * @typedef {import("./dom_scan.js").TextBlock} TextBlock
 * @typedef {import("./dom_scan.js").Part} Part
 * @typedef {{role: string, name: string, guessed: boolean, signs?: string, hover?: boolean, shows?: string}} Shown  how an element's line presents it (signs: a name of signs only, shown before a guess; shows: the words it shows where its accessible name says otherwise)
 * @typedef {{text: string, shown: Entry[], counts: {total: number, shown: number, omitted: number,
 *   omitted_above: number, omitted_below: number, new: number, text_blocks_omitted: number, unreadable: number},
 *   tokens_estimate: number}} Rendering
 */

// Short on purpose (it is on every page the model reads): triple quotes, the usual delimiter for
// quoted data in a prompt, one token each; the host's prompt names the section as untrusted page
// content. Page text can never produce the delimiter (see clean).
export const FENCE_OPEN = '"""';
export const FENCE_CLOSE = '"""';
const CHARS_PER_TOKEN = 4;
const VISIBLE = { checkOpacity: true, checkVisibilityCSS: true };

const DIALOG_GROUP = /^(dialog|alertdialog)\b/;

/** @param {string} s */
export function estimateTokens(s) { return Math.ceil(s.length / CHARS_PER_TOKEN); }

/** Page text must not be able to close the fence or fake a line of ours (page_text.js). @param {string} s */
function clean(s) { return neutral(s).replace(/[\r\n]+/g, " "); }

/** A value, quoted: its exact extent matters ("" vs " "). @param {string} s */
function q(s) { return `"${clean(s).replace(/"/g, "'")}"`; }

/**
 * A name, unquoted (quotes cost two tokens a line): the line's other parts are a closed vocabulary
 * after it (state words, `=value`, `options:`), so the name needs no delimiters.
 * @param {string} s
 */
function bare(s) { return clean(s); }

/** Roles for elements that have none (clickable by listener/cursor, editable regions). @param {Element} el */
export function roleLabel(el) {
  let r = roleOf(el);
  // A control is never presentational (ARIA ignores the role on a focusable element): its tag says what it is.
  if (r === "presentation" || r === "none") r = implicitRole(el);
  if (r) return r;
  const ce = attr(el, "contenteditable");
  if (ce !== null && ce !== "false") return "editable";
  if (tagOf(el) === "label") return "label";
  if (isDropZone(el)) return "drop zone";
  return "clickable";
}

/**
 * A link target worth showing: only where it tells something the name does not — a link that leaves
 * the site (host + path), or a link without a name (its path).
 * @param {Element} el @param {string} name
 */
function hrefOf(el, name) {
  const raw = attr(el, "href");
  if (!raw || raw === "#" || raw.startsWith("javascript:")) return "";
  // A named link with a relative target stays on the site: no URL to parse.
  if (name && !raw.startsWith("//") && !/^[a-z][a-z0-9+.-]*:/i.test(raw)) return "";
  try {
    const u = new URL(raw, docOf(el).baseURI);
    const external = u.origin !== docOf(el).location.origin;
    if (!external && name) return "";
    const s = external ? u.host + u.pathname : u.pathname + u.search + u.hash;
    return s.length > 60 ? s.slice(0, 57) + "…" : s;
  } catch { return ""; }
}

/** A value as the line shows it: its lines kept apart (⏎), and where it is cut, how much more it holds. @param {string} v */
function shownValue(v) {
  const lines = v.replace(/\r\n?/g, "\n").replace(/\n/g, " ⏎ ");
  return lines.length <= 80 ? q(lines) : `${q(lines.slice(0, 80))}… (+${lines.length - 80} characters: extract it to read it whole)`;
}

/** Input types worth saying (text-like ones are implied by the role). */
const SHOWN_TYPES = new Set(["password", "email", "tel", "url", "date", "time", "datetime-local", "month", "week", "color"]);

/**
 * The name a person would give the element, and whether it is guessed: its accessible name (for a
 * container clickable by its cursor, the words it shows: its markup's text also holds its hidden
 * menus), else a title on its icon, else a guess from its looks or the words before it (dom_names.js).
 * @param {Entry} e @param {string} role @param {boolean} inline @param {Map<any, any>} [pass] see renderScan
 * @returns {{name: string, guessed: boolean, signs?: string}} signs: a name of signs only, shown before a guess
 */
export function nameOf(e, role, inline, pass) {
  const el = e.el;
  const name = e.name ?? (e.name = accessibleName(el, pass)); // kept for the element's signature
  let shown = name;
  // (Words hidden from everyone are no part of a name: the accessible name leaves them out.)
  if (name && role === "clickable" && childCountOf(el) && !hasAttr(el, "aria-label") && !qs(el, ICON_FONTS)) shown = norm(innerTextOf(/** @type {HTMLElement} */ (el)) ?? name).slice(0, 100);
  // A name of signs only (…, ×, ☰) says little: the guess from its looks goes with it.
  if (shown && /[\p{L}\p{N}]/u.test(shown)) return { name: shown, guessed: false };
  // (Signs its style sheet draws, a minus: its own title says what they do.)
  const titled = shown ? norm(attr(el, "title")) : "";
  if (titled) return { name: titled, guessed: false, signs: shown };
  const g = guessName(el, e.surface);
  // In a sentence (or a table's row line) the words before a field, its row and column are right
  // there: not said twice.
  if ((g.from === "text" || g.from === "table") && inline) return { name: shown, guessed: false };
  if (g.from === "title" || g.from === "label" || g.from === "table" || g.from === "legend") return { name: g.name, guessed: false, signs: shown };
  return g.name ? { name: g.name, guessed: true, signs: shown } : { name: shown, guessed: false };
}

/**
 * One line for one element: `[id] role name`, then its value and state, e.g.
 * `[e12] textbox Email ="a@b.c" required`, `[e3] checkbox Remember me checked` (no word: unchecked),
 * `[e9] combobox Country ="France" options: France|Germany|Japan`, `[e7] clickable ~"trash"` (a
 * guessed name). Inline (inside a sentence) the same words in one bracket: `[e12 link 5th]`.
 * @param {Entry} e @param {boolean} [inline] @param {Map<any, any>} [pass] see renderScan
 */
export function elementLine(e, inline = false, pass) {
  const el = e.el;
  let role = roleLabel(el);
  const { name, guessed, signs } = nameOf(e, role, inline, pass);
  const shows = guessed ? "" : shownWords(el, name);
  e.shown = { role, name, guessed, ...(signs ? { signs } : {}), ...(e.onHover ? { hover: true } : {}), ...(shows ? { shows } : {}) };
  const st = e.state ?? (e.state = elementState(el, pass)); // kept for the element's signature
  const tag = tagOf(el);
  const type = tag === "input" ? (attr(el, "type") || "").toLowerCase() : "";
  if (type === "file") role = "file";
  else if (SHOWN_TYPES.has(type)) role += ` ${type}`;
  const parts = [inline ? `${e.isNew ? "*" : ""}[${e.id}` : `${e.isNew ? "*" : ""}[${e.id}]`, role];
  if (signs && name) parts.push(bare(signs.slice(0, 10)));
  if (name) parts.push(guessed ? `~${q(name.slice(0, 40))}` : bare(name.slice(0, 80)));
  if (shows) parts.push(`shows ${q(shows)}`); // (its name and its words disagree: both are the page's claims)
  if (type === "file") {
    const acc = attr(el, "accept");
    if (acc) parts.push(`accept=${clean(acc)}`);
    if (st.value) parts.push(`=${q(st.value)}`);
  } else if (tag === "select") {
    const sel = /** @type {HTMLSelectElement} */ (el);
    parts.push(`=${q(st.value || "")}`); // the one reading of a select's value (elementState)
    const opts = Array.from(sel.options).map((o) => norm(o.textContent)).filter(Boolean);
    parts.push(`options: ${clean(opts.slice(0, 8).join("|"))}${opts.length > 8 ? ` (+${opts.length - 8})` : ""}`);
  } else if (e.surface) {
    // A code editor's lines, drawn beside the field its keys go to; a select's chosen values.
    const v = editorText(e.surface, tag !== "textarea" && !isTextRegion(el));
    if (v) parts.push(`=${shownValue(v)}`);
  } else if (st.value !== undefined && st.value !== "" && role !== "button") {
    // A text field's whole value (the state keeps a part of it); a secret's "filled" as the state says it.
    const whole = (tag === "textarea" || (tag === "input" && !st.secret)) ? /** @type {HTMLInputElement} */ (el).value
      : isTextRegion(el) && isHtml(el) ? innerTextOf(/** @type {HTMLElement} */ (el)).replace(/[ \t\u00a0]+/g, " ").replace(/ ?\n[\n ]*/g, "\n").trim() : st.value;
    parts.push(`=${shownValue(whole)}`);
  }
  const ph = attr(el, "placeholder");
  if (ph && norm(ph) !== name) parts.push(`placeholder=${q(ph.slice(0, 40))}`);
  if (role === "link") { const h = hrefOf(el, name); if (h) parts.push(`→${clean(h)}`); }
  // A checkbox or radio is unchecked unless the line says "checked" (as accessibility snapshots do).
  if (st.checked) parts.push("checked");
  if (st.pressed) parts.push("pressed");
  if (st.selected) parts.push("selected");
  if (st.current) parts.push("current");
  if (st.on) parts.push("on"); // drawn on (a star filled, a toggle lit), no markup saying so
  if (st.readonly) parts.push("read-only");
  if (st.expanded !== undefined) parts.push(st.expanded ? "expanded" : "collapsed");
  else { const pop = popupOf(el, role); if (pop) parts.push(`opens ${pop}`); } // (a menu a script opens on hover or click)
  if (st.disabled || e.noPointer) parts.push("disabled"); // the page turned the pointer off for it: as good as disabled
  if (e.onHover) parts.push("(on hover)"); // hidden until a pointer is over its row or menu: heybro hovers there first
  if (st.focused) parts.push("focused");
  if (hasAttr(el, "required") || attr(el, "aria-required") === "true") parts.push("required");
  if (attr(el, "aria-invalid") === "true") parts.push("invalid");
  const line = parts.join(" ");
  // Inside a sentence a bracket in a name would end the element early.
  return inline ? `${line.slice(0, parts[0].length)}${line.slice(parts[0].length).replace(/\[/g, "(").replace(/\]/g, ")")}]` : line;
}

/** What a control says it opens (aria-haspopup), where its role does not say it already. @param {Element} el @param {string} role */
function popupOf(el, role) {
  const v = (attr(el, "aria-haspopup") || "").trim().toLowerCase();
  if (!v || v === "false" || role === "combobox" || tagOf(el) === "select") return "";
  return v === "true" ? "menu" : /^(menu|listbox|tree|grid|dialog)$/.test(v) ? v : "";
}

/** @param {Element} el */
function visibleWords(el) { return innerTextOf(/** @type {HTMLElement} */ (el)) ?? textOf(el) ?? ""; }

/**
 * A text block's line. A run of text with controls in it reads as the sentence it is, each control
 * in its place (`click the [e12 link 5th] result`); words inside an element that is not shown
 * (a collapsed menu in the sentence) are left out.
 * @param {TextBlock} t @param {(el: Element) => boolean} visible @param {Map<any, any>} [pass] see renderScan
 * @returns {{line: string, inline: Entry[]}}
 */
function textLine(t, visible, pass) {
  /** @type {Entry[]} */ const inline = [];
  let s;
  if (t.parts) {
    let out = "";
    for (const p of t.parts) {
      if (typeof p === "string") out += p;
      // Words shown on hover are read with the controls they go with ("Edit | Delete"); hidden
      // words keep the words around them apart. (The page's words are made safe piece by piece:
      // the controls' brackets between them are the map's own.)
      else if ("s" in p) { if (p.hover || visible(p.el)) out += neutralPart(p.s); else if (/^\s.*\s$/s.test(p.s)) out += " "; }
      else if (p.covered) { if (visible(p.el)) out += neutralPart(visibleWords(p.el)); } // under a cover: its words, not a control to use
      else { out += elementLine(p, true, pass); inline.push(p); }
    }
    s = noDelimiters(norm(out));
    if (!inline.length && !/[\p{L}\p{N}]/u.test(s)) s = ""; // a row whose cells are all hidden: separators alone say nothing
  } else s = clean(t.text);
  if (t.mark && t.mark !== "- ") return { line: `${t.mark}${inline.length ? s : s.slice(0, 150)}`, inline };
  if (t.mark && s) s = t.mark + s;
  return { line: inline.length || s.length <= 300 ? s : s.slice(0, 299) + "…", inline };
}

/** Browser dialogs (alert/confirm/prompt) answered for the agent since it last looked. @param {Scan} scan */
function answeredLines(scan) {
  return scan.dialogs.filter((d) => d.answer).map((d) => `Browser ${d.kind} ${q((d.text || "").slice(0, 120))}: ${d.answer}`);
}

/**
 * Controls left off the map because something is drawn over them, and what (the model can close or
 * wait for it: it is on the map itself when it can be clicked).
 * @param {import("./dom_covered.js").Covered} c
 */
function coverLine(c) {
  const by = c.by, id = attr(by, "id"), name = norm(innerTextOf(/** @type {HTMLElement} */ (by)) || "").slice(0, 40);
  return `Under a cover (${tagOf(by)}${id ? `#${clean(id)}` : ""}${name ? ` ${q(name)}` : ""}): ${c.count} control${c.count > 1 ? "s" : ""} left out`;
}

const FRAME_LINES = 5;

/**
 * Cross-origin frames, which their own agents read (their contents follow the page's): named by
 * title, or by address when untitled. A page full of ad frames costs a few lines, not one each.
 * @param {Scan} scan
 */
function frameLines(scan) {
  const fs = scan.remoteFrames;
  const out = fs.slice(0, FRAME_LINES).map((f) => `[frame ${f.name ? q(f.name.slice(0, 60)) : clean(shortUrl(f.url))}]`);
  if (fs.length > FRAME_LINES) out.push(`[${fs.length - FRAME_LINES} more frames]`);
  return out;
}

/** host + path of an address, cut short. @param {string} url */
function shortUrl(url) {
  try { const u = new URL(url); url = u.protocol.startsWith("http") ? u.host + u.pathname : u.protocol; } catch { /* as it is */ }
  return url.length > 60 ? url.slice(0, 57) + "…" : url;
}

/**
 * Renders a scan within a token budget.
 * @param {Scan} scan
 * @param {{maxTokens?: number, header?: string[], pass?: Map<any, any>}} [opts] pass: what this observe has read,
 *   shared with the signatures taken after (refind.js captureSignature): the page's labels are indexed
 *   once, each element's words read once
 * @returns {Rendering}
 */
export function renderScan(scan, opts = {}) {
  const maxTokens = opts.maxTokens ?? 4000;
  const pass = opts.pass;
  /** @type {Array<{kind: "el", e: Entry, line: string, d: number, k: number, o: number} | {kind: "text", t: TextBlock, line: string, inline: Entry[], d: number, k: number, o: number}>} */
  const items = [];
  // A control inside a sentence is shown in it, with it.
  for (const e of scan.entries) if (!e.inline) items.push({ kind: "el", e, line: "", d: e.dist, k: 0, o: e.order });
  for (const t of scan.texts) items.push({ kind: "text", t, line: "", inline: [], d: t.dist, k: 1, o: t.order });

  // URL and title travel as the observe result's own fields (the host's prompt shows them): not
  // repeated here.
  const head = [FENCE_OPEN];
  const open = scan.dialogs.filter((d) => !d.answer);
  const dialogLine = open.length ? `Open dialog: ${open.map((d) => q(d.name.slice(0, 40))).join(", ")}` : "";
  // Page-sourced words (browser dialogs' messages, frame titles and addresses) stay inside the fence.
  const notes = answeredLines(scan), frames = frameLines(scan);
  const { above_px: upPx, below_px: downPx } = scan.scroll;
  const scrollLine = upPx || downPx ? `Scroll: ${upPx}px above, ${downPx}px below` : "";
  let budget = maxTokens * CHARS_PER_TOKEN - head.join("\n").length - dialogLine.length - scrollLine.length - FENCE_CLOSE.length - 120
    - [...notes, ...frames].reduce((n, l) => n + l.length + 1, 0);

  /** @type {Map<Element, boolean>} */ const seenVisible = new Map();
  // Words a person cannot see (no size, no colour, clipped, far off the page) are left out, counted.
  const unseen = unseenWordsTest(scan.unseenWords || new Set(), scan.coveredWords || new Set());
  const visible = (/** @type {Element} */ el) => {
    let v = seenVisible.get(el);
    if (v === undefined) { v = checkVisibilityOf(el, VISIBLE) && !unseen(el); seenVisible.set(el, v); }
    return v;
  };
  // Priority: visible first, then by distance from the viewport; elements before text at equal
  // distance. At the end of a scrolled page, what is in view is taken from the bottom up: the end is
  // what scrolling there was for, and no more scrolling would bring it first.
  const atEnd = downPx === 0 && upPx > 0;
  const ranked = items.slice().sort((a, b) => a.d - b.d || a.k - b.k || (atEnd && a.d === 0 ? b.o - a.o : a.o - b.o));
  const chosen = new Set();
  let misses = 0;
  let hiddenTexts = 0;
  let unreadable = scan.skipped.count;
  for (const it of ranked) {
    try {
      if (it.kind === "el") it.line = elementLine(it.e, false, pass);
      // The scan does not ask every text block whether it is visible: only those that would be shown
      // (a run, word by word: a control can show inside a hidden block).
      else if (it.t.el && !it.t.parts && !visible(it.t.el)) { hiddenTexts++; continue; }
      else {
        ({ line: it.line, inline: it.inline } = textLine(it.t, visible, pass));
        if (!it.line || it.line === it.t.mark) { hiddenTexts++; continue; }
      }
    } catch {
      // One element whose reading fails is left out (and counted); the page is still read.
      unreadable++;
      if (it.kind === "text") hiddenTexts++;
      continue;
    }
    const cost = it.line.length + 1 + 12; // + a share of group headers
    // Past the budget, try a few smaller items, then stop (describing the rest costs time).
    if (cost > budget) { if (budget < 40 || ++misses > 20) break; continue; }
    budget -= cost;
    chosen.add(it);
  }

  const shownItems = items.filter((it) => chosen.has(it)).sort((a, b) => a.o - b.o);
  // A dialog whose contents are shown says so in its group header ("## dialog Settings"); the
  // "Open dialog" line is kept for one that shows nothing (all of it left out by the budget).
  const inDialog = shownItems.some((it) => DIALOG_GROUP.test(it.kind === "el" ? it.e.group : it.t.group));
  const lines = dialogLine && !inDialog ? [...head, dialogLine, ...notes] : [...head, ...notes];
  if (scan.covered) lines.push(coverLine(scan.covered));
  let group = "";
  for (const it of shownItems) {
    const g = it.kind === "el" ? it.e.group : it.t.group;
    // A group opens with its "## name" line and ends at a blank line (a blank line costs no token:
    // it merges with the line break before it).
    if (g !== group) { if (group) lines.push(""); if (g) lines.push(`## ${clean(g)}`); group = g; }
    lines.push(it.line);
  }
  const shown = shownItems.flatMap((it) => it.kind === "el" ? [it.e] : it.inline);
  const shownSet = new Set(shown);
  const omittedEls = scan.entries.filter((e) => !shownSet.has(e));
  // One in view but left out for length lies above or below what is shown (by document order).
  const inViewShown = shownItems.filter((it) => it.d === 0).map((it) => it.o);
  const firstInView = inViewShown.length ? Math.min(...inViewShown) : -Infinity; // (none shown: all below)
  const above = omittedEls.filter((e) => e.where === "above" || (e.where === "in" && e.order < firstInView)).length;
  const below = omittedEls.length - above;
  const textsOmitted = scan.texts.length - hiddenTexts - shownItems.filter((it) => it.kind === "text").length;
  lines.push(...frames, FENCE_CLOSE);
  if (scrollLine) lines.push(scrollLine);
  // What the model can do to see them: scroll the page — or, where the page cannot scroll that way,
  // the part of the page they are in (a list that scrolls on its own).
  const more = (/** @type {number} */ n, /** @type {string} */ where, /** @type {number} */ px, /** @type {string} */ dir) =>
    `… ${n} more element${n > 1 ? "s" : ""} ${where} (${px > 0 ? `scroll ${dir}` : `in a part of the page that scrolls on its own: scroll ${dir} with the id of an element in it`})`;
  if (above) lines.push(more(above, "above", upPx, "up"));
  if (below) lines.push(more(below, "below", downPx, "down"));
  if (textsOmitted > 0 && (above || below || textsOmitted)) lines.push(`… ${textsOmitted} text block${textsOmitted > 1 ? "s" : ""} left out`);
  if (unreadable) lines.push(`… ${unreadable} element${unreadable > 1 ? "s" : ""} could not be read and ${unreadable > 1 ? "are" : "is"} left out`);
  const text = lines.join("\n");
  return {
    text, shown,
    counts: { total: scan.entries.length, shown: shown.length, omitted: omittedEls.length, omitted_above: above,
      omitted_below: below, new: scan.newCount, text_blocks_omitted: textsOmitted, unreadable },
    tokens_estimate: estimateTokens(text),
  };
}
