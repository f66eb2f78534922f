// @ts-check
/**
 * What an element is called and what it says, as a person (and a screen reader) reads it: its
 * role, its accessible name (ARIA's name computation, its main branches), its label, the words it
 * shows as the browser lays them out, and the words it shows where its name says something else.
 *
 * A pure module over the DOM: the page map names controls by it, signatures record it
 * (signature.js), and the checks before an action read it. Reads within one synchronous pass share
 * a `pass` map (see signature.js captureSignature): the page's labels are indexed once and each
 * element's words read once.
 */
import { norm } from "./norm.js";
import { attr, byTagOf, childCountOf, containsOf, docOf, firstChildOf, hasAttr, idOf, innerTextOf, isConnectedOf, isHtml, matchesOf, nextSiblingOf, nodeTypeOf, nodeValueOf, parentElOf, qs, qsa, rootOf, tagOf, textOf } from "./dom_native.js";

/** @param {string} s @param {number} n */
function cut(s, n) { return s.length > n ? s.slice(0, n) : s; }

/** The element's ARIA role: explicit, or implied by its tag. @param {Element} el */
export function roleOf(el) {
  const explicit = attr(el, "role");
  if (explicit) return explicit.split(/\s+/)[0].toLowerCase();
  return implicitRole(el);
}

/** The role the element's tag gives it. @param {Element} el */
export function implicitRole(el) {
  const tag = tagOf(el);
  switch (tag) {
    case "a": case "area": return hasAttr(el, "href") ? "link" : "";
    case "button": return "button";
    case "select": return /** @type {HTMLSelectElement} */ (el).multiple || /** @type {HTMLSelectElement} */ (el).size > 1 ? "listbox" : "combobox";
    case "textarea": return "textbox";
    case "option": return "option";
    case "summary": return "button";
    case "dialog": return "dialog";
    case "img": return "img";
    case "input": {
      const t = (attr(el, "type") || "text").toLowerCase();
      if (["button", "submit", "reset", "image"].includes(t)) return "button";
      if (t === "checkbox") return "checkbox";
      if (t === "radio") return "radio";
      if (t === "range") return "slider";
      if (t === "number") return "spinbutton";
      if (t === "search") return "searchbox";
      if (t === "file") return "button";
      if (t === "hidden") return "";
      return hasAttr(el, "list") ? "combobox" : "textbox";
    }
    default: return /^h[1-6]$/.test(tag) ? "heading" : "";
  }
}

/** Text of the elements an aria-labelledby/-describedby names. @param {Element} el @param {string} name the attribute */
export function referencedText(el, name) {
  const ids = attr(el, name);
  if (!ids) return "";
  const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
  return norm(ids.split(/\s+/).map((id) => {
    const t = "getElementById" in root ? root.getElementById(id) : null;
    return t ? wordsOf(t) : "";
  }).join(" "));
}

const NOT_WORDS = new Set(["script", "style", "template", "noscript"]);

/**
 * Icon fonts draw a glyph from a word typed in the element (`<i class="material-icons">rss_feed</i>`):
 * a person sees the icon, not the word. Known by the font's class and a ligature-shaped word
 * (lowercase, underscores: never a sentence). Such a word is no part of a name; a control with
 * nothing else may be guessed from it (dom_names.js).
 */
export const ICON_FONTS = ".material-icons, [class*='material-icons-'], [class*='material-symbols'], .fa, .fas, .far, .fab, .fal, .fad, .glyphicon, .mdi, .bi, .icon, .icons, .codicon";
const LIGATURE = /^[a-z][a-z0-9_]*$/;

/** Whether an element is an icon font's glyph whose text is its ligature name. @param {Element} el */
export function isIconLigature(el) {
  return matchesIcon(el) && LIGATURE.test(norm(textOf(el)));
}

/** @param {Element} el */
function matchesIcon(el) {
  const c = attr(el, "class");
  return !!c && /icon|material|symbol|fa|glyph|mdi|bi/.test(c) && matchesOf(el, ICON_FONTS);
}

/** An element's text without its icon fonts' ligature words. @param {Element} el */
function textWithoutIcons(el) {
  let out = "";
  const walker = docOf(el).createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => nodeTypeOf(n) === 1 && (NOT_WORDS.has(tagOf(/** @type {Element} */ (n))) || isIconLigature(/** @type {Element} */ (n))) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (nodeTypeOf(n) === 3) out += " " + nodeValueOf(n);
  return out;
}

/**
 * An element's text without what is no words (a script or style inside it: a page's inline
 * `<script>` beside a label is code, not part of its name).
 * @param {Element} el
 */
export function wordsOf(el) {
  const raw = textOf(el) || "";
  if (!qs(el, "script, style, template, noscript")) return raw;
  let out = "";
  const walker = docOf(el).createTreeWalker(el, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => nodeTypeOf(n) === 1 && NOT_WORDS.has(tagOf(/** @type {Element} */ (n))) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (nodeTypeOf(n) === 3) out += nodeValueOf(n);
  return out;
}

/**
 * The text of the label(s) that describe a form control.
 * @param {Element} el @param {Map<any, any>} [pass] see captureSignature: the page's labels are indexed once
 */
export function labelText(el, pass) {
  if (!pass) return readLabelText(el);
  // (Read once in a pass: the rendering names a field by it, and its signature keeps it.)
  /** @type {Map<Element, string>} */
  let memo = pass.get(labelText);
  if (!memo) { memo = new Map(); pass.set(labelText, memo); }
  let t = memo.get(el);
  if (t === undefined) { t = readLabelText(el, pass); memo.set(el, t); }
  return t;
}

/** @param {Element} el @param {Map<any, any>} [pass] */
function readLabelText(el, pass) {
  const byRef = referencedText(el, "aria-labelledby");
  if (byRef) return cut(byRef, 120);
  const labels = labelsOf(el, pass);
  if (labels && labels.length) {
    // The label's own words, without the value of a control nested in it (e.g. a select's options).
    // (Each label's words once: a page that repeats its controls with the same ids points two labels
    // saying the same at one control.)
    // (A label that is an icon — a search field's magnifier — is named by its picture.)
    return cut(Array.from(new Set(Array.from(labels).map((l) => norm(ownText(l, el)) || pictureName(l, el)))).join(" ").trim(), 120);
  }
  return "";
}

/**
 * The labels of a form control, as `el.labels` lists them (in document order). `labels` searches
 * the whole document on every call (a quarter of a millisecond on a page of 20,000 elements), and
 * a re-find reads the labels of hundreds of candidates: within a pass they come from an index of
 * the labels that name an element by its id (built once per document or shadow root) and the
 * labels around it — the only ones whose control it can be.
 * @param {Element} el @param {Map<any, any>} [pass]
 * @returns {ArrayLike<HTMLLabelElement> | null | undefined}
 */
function labelsOf(el, pass) {
  if (!pass || !("labels" in el) || !isConnectedOf(el)) return /** @type {HTMLInputElement} */ (el).labels;
  const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
  /** @type {Map<Node, Map<string, HTMLLabelElement[]>>} */
  let byRoot = pass.get(labelsOf);
  if (!byRoot) { byRoot = new Map(); pass.set(labelsOf, byRoot); }
  let byFor = byRoot.get(root);
  if (!byFor) {
    byFor = new Map();
    for (const l of Array.from(/** @type {NodeListOf<HTMLLabelElement>} */ (qsa(root, "label[for]")))) {
      const f = l.getAttribute("for") || "";
      const g = byFor.get(f);
      if (g) g.push(l); else byFor.set(f, [l]);
    }
    byRoot.set(root, byFor);
  }
  /** @type {HTMLLabelElement[]} */
  const out = [];
  const control = /** @type {HTMLElement} */ (/** @type {unknown} */ (el)); // a form control: it has `labels`
  for (let p = parentElOf(el); p; p = parentElOf(p)) if (tagOf(p) === "label" && /** @type {HTMLLabelElement} */ (p).control === control) out.push(/** @type {HTMLLabelElement} */ (p));
  if (idOf(el)) for (const l of byFor.get(idOf(el)) || []) if (l.control === control && !out.includes(l)) out.push(l);
  return out.length > 1 ? out.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1)) : out;
}

/**
 * Text of `root` leaving out the subtree of `skip`, of other form controls, and of the elements
 * `also` names (a caller's look-alikes of `skip`: a copy of a control put beside it is not what
 * names the row or card it stands in).
 * @param {Element} root @param {Element} skip @param {(e: Element) => boolean} [also]
 */
export function ownText(root, skip, also) {
  let out = "";
  const walker = (docOf(root) || document).createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n === skip || (nodeTypeOf(n) === 1 && (["select", "textarea", "script", "style"].includes(tagOf(/** @type {Element} */ (n))) || (!!also && also(/** @type {Element} */ (n)))))
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (nodeTypeOf(n) === 3) out += nodeValueOf(n) + " ";
  return out;
}

/**
 * The element's visible words (textContent is used: innerText would force a layout per element).
 * @param {Element} el @param {Map<any, any>} [pass] see captureSignature: each element's are read once
 */
export function visibleText(el, pass) {
  if (!pass) return readVisibleText(el);
  /** @type {Map<Element, string>} */
  let memo = pass.get(visibleText);
  if (!memo) { memo = new Map(); pass.set(visibleText, memo); }
  let t = memo.get(el);
  if (t === undefined) { t = readVisibleText(el); memo.set(el, t); }
  return t;
}

/** @param {Element} el */
function readVisibleText(el) {
  const tag = tagOf(el);
  if (tag === "input" || tag === "textarea") return "";
  if (tag === "select") {
    const sel = /** @type {HTMLSelectElement} */ (el);
    return cut(norm(sel.selectedOptions[0]?.textContent), 80);
  }
  if (isIconLigature(el)) return "";
  let raw = itemOwnText(el) ?? textOf(el) ?? "";
  // (Long text past the laid-out walk: its icon words still are none.)
  if (childCountOf(el) && (raw.length > 400 || byTagOf(el, "*").length > LAID_OUT_MAX) && qs(el, ICON_FONTS)) raw = textWithoutIcons(el);
  // A container's words can run to the whole page's: the first hundred, once normalised, are those
  // of a slice whose normalised form is longer than that.
  if (raw.length > 400) { const head = norm(raw.slice(0, 400)); if (head.length > 100) return head.slice(0, 100); }
  return cut(norm(childCountOf(el) && raw.length <= 400 ? laidOutText(el, raw) : raw), 100);
}

/** A control's subtree past this size keeps its textContent (walking it would cost more than it says). */
const LAID_OUT_MAX = 40;

/** Parts of a control that are other things, not its words: a tree item's nested group of items, a
 * menu's submenu (Chrome's accessible name leaves them out too). */
const NOT_NAME = new Set(["group", "tree", "list", "listbox", "menu", "menubar", "grid", "table", "tablist", "toolbar", "dialog"]);
/** Items of a tree, a menu or a list: one nested in another (in a list of no role of its own) is
 * another item, never the outer one's words. */
const ITEM_ROLES = new Set(["treeitem", "menuitem", "menuitemcheckbox", "menuitemradio", "option"]);
const ITEMS = "[role=treeitem], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option]";

/**
 * An item's own words, those of the items nested in it left out (read in document order, up to a
 * few hundred characters). Null when el is no item or holds none.
 * @param {Element} el
 */
function itemOwnText(el) {
  const role = attr(el, "role");
  if (!role || !ITEM_ROLES.has(role) || !qs(el, ITEMS)) return null;
  let out = "";
  /** @param {Node} p */
  const walk = (p) => {
    for (let c = firstChildOf(p); c && out.length < 400; c = nextSiblingOf(c)) {
      const t = nodeTypeOf(c);
      if (t === 3) out += nodeValueOf(c) || "";
      else if (t === 1) {
        const r = attr(/** @type {Element} */ (c), "role");
        if (!(r && (ITEM_ROLES.has(r) || NOT_NAME.has(r)))) walk(c);
      }
    }
  };
  walk(el);
  return out;
}

/**
 * An element's words as the browser lays them out and a person reads them: a part that stands
 * apart (a block, an inline-block badge, a float, a positioned one) is a word of its own ("Inbox 7",
 * not "Inbox7"; "Comments 2 Comments in moderation"); words hidden from everyone (display: none,
 * visibility: hidden, aria-hidden) and a nested group of other items say nothing, as in Chrome's
 * accessible name; a line break (`New<br>messages`) and an inline svg's title part words too;
 * inline formatting inside a word ("Ket<b>tle</b>") stays one word.
 * @param {Element} el @param {string} raw its textContent
 */
function laidOutText(el, raw) {
  const view = docOf(el).defaultView;
  if (!view || byTagOf(el, "*").length > LAID_OUT_MAX) return raw;
  let out = "";
  /** @param {Node} p @param {boolean} shown whether p's own words show (visibility) */
  const walk = (p, shown) => {
    for (let c = firstChildOf(p); c; c = nextSiblingOf(c)) {
      const t = nodeTypeOf(c);
      if (t === 3) { if (shown) out += nodeValueOf(c) || ""; continue; }
      if (t !== 1) continue;
      const e = /** @type {Element} */ (c), tag = tagOf(e);
      if (tag === "script" || tag === "style" || tag === "template" || attr(e, "aria-hidden") === "true") continue;
      if (tag === "br") { out += " "; continue; } // a line break parts words as a space does
      if (isIconLigature(e)) { out += " "; continue; } // an icon, not its ligature's word
      const role = attr(e, "role");
      if (role && (NOT_NAME.has(role) || (item && ITEM_ROLES.has(role)))) continue;
      const st = view.getComputedStyle(e);
      if (st.display === "none") continue;
      // (An inline picture, an svg, is a thing of its own beside the words: its title is a word apart.)
      const apart = (st.display !== "inline" && st.display !== "contents") || tag === "svg" || st.float !== "none" || st.position === "absolute" || st.position === "fixed";
      if (apart) out += " ";
      walk(e, st.visibility === own || st.visibility === "visible");
      if (apart) out += " ";
    }
  };
  // Hidden words are those hidden inside the element: a control hidden as a whole (a menu's entry
  // shown on hover) still has its own.
  const own = view.getComputedStyle(el).visibility;
  const mine = attr(el, "role"), item = !!mine && ITEM_ROLES.has(mine);
  walk(el, true);
  return out;
}

/**
 * A simplified accessible name (ARIA name computation, main branches).
 * @param {Element} el @param {Map<any, any>} [pass] see captureSignature
 */
export function accessibleName(el, pass) {
  const byRef = referencedText(el, "aria-labelledby");
  if (byRef) return cut(byRef, 120);
  const aria = norm(attr(el, "aria-label"));
  if (aria) return cut(aria, 120);
  const tag = tagOf(el);
  if (tag === "input" || tag === "textarea" || tag === "select") {
    const t = (attr(el, "type") || "").toLowerCase();
    if (tag === "input" && ["submit", "button", "reset"].includes(t)) return norm(/** @type {HTMLInputElement} */ (el).value) || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : "");
    if (tag === "input" && t === "image") return norm(attr(el, "alt"));
    const label = labelText(el, pass);
    if (label) return label;
    // (The title before the placeholder, as the HTML accessibility mapping orders them.)
    const said = cut(norm(attr(el, "title") || attr(el, "placeholder")), 120);
    // A file field with no label reads as the button the browser draws in it (as Chrome names it).
    if (!said && tag === "input" && t === "file") return hasAttr(el, "multiple") ? "Choose Files" : "Choose File";
    return said;
  }
  if (tag === "img") return cut(norm(attr(el, "alt") || attr(el, "title")), 120);
  // A button is labelable too: a <label> around it or pointing at it names it before its content.
  if (tag === "button") { const label = labelText(el, pass); if (label) return label; }
  // What is typed into an editable region is its value, not its name (a rich-text body is named
  // by its label, never by the letter being written in it).
  if (isTextRegion(el)) return cut(norm(attr(el, "aria-placeholder") || attr(el, "placeholder") || attr(el, "data-placeholder") || attr(el, "title")), 120);
  const text = visibleText(el, pass);
  if (text) return text;
  // An icon button: the name often sits on the image inside it (an empty alt says the image is
  // decoration: the control's title names it then).
  const pictured = pictureName(el);
  if (pictured) return pictured;
  // Words (or signs) its style sheet writes in (`::after { content: "Increment Hours" }`, a minus
  // drawn in `::before`): part of its content, so of its name, as the accessible-name rules say.
  const drawn = generatedText(el);
  if (drawn) return cut(drawn, 120);
  return cut(norm(attr(el, "title")), 120);
}

/**
 * The name of a picture inside an element with no words (an icon button, a label that is an icon):
 * an image's alt text, a part's label, an svg's title — or, as the accessible-name rules read a
 * part with no words, that part's title. A picture hidden from everyone says nothing (a glyph's
 * parts labelled inside an aria-hidden icon). "" when none.
 * @param {Element} el @param {Element} [skip] a control inside it, which is not its picture
 */
function pictureName(el, skip) {
  const parts = Array.from(qsa(el, "img[alt], svg title, [aria-label], [title]"))
    .filter((i) => i !== skip && !(skip && containsOf(skip, i)) && !hiddenWithin(i, el)).slice(0, 4);
  for (const img of parts) {
    const t = norm(attr(img, "alt") || attr(img, "aria-label") || (tagOf(img) === "title" ? textOf(img) : ""));
    if (t) return cut(t, 120);
  }
  for (const part of parts) {
    const t = norm(attr(part, "title"));
    if (t && !norm(textOf(part))) return cut(t, 120);
  }
  return "";
}

/** Parts of a control whose drawn content is read at most (an icon button has one or two). */
const GENERATED_MAX = 6;
/** Characters of an icon font's private use area: a glyph, not a sign a person reads. */
const PRIVATE_USE = /[\ue000-\uf8ff]|[\u{f0000}-\u{10ffff}]/gu;

/**
 * The text a control's style sheet draws before and after it and its parts (CSS generated content),
 * without icon fonts' glyphs. Asked only of a control with no words of its own.
 * @param {Element} el
 */
function generatedText(el) {
  const view = docOf(el).defaultView;
  if (!view) return "";
  // (The first parts only, without listing every element inside it.)
  const inside = byTagOf(el, "*");
  const parts = [el];
  for (let i = 0, p = inside.item(0); p && parts.length < GENERATED_MAX; p = inside.item(++i)) parts.push(p);
  let out = "";
  for (const p of parts) {
    if (p !== el && hiddenWithin(p, el)) continue;
    for (const which of ["::before", "::after"]) {
      const c = view.getComputedStyle(p, which).content;
      // (A string, or strings; `none`, `normal`, counters and images say no words.)
      const m = c && c !== "none" && c !== "normal" ? c.match(/"((?:[^"\\]|\\.)*)"/g) : null;
      if (m) out += ` ${m.map((q) => q.slice(1, -1).replace(/\\(.)/g, "$1")).join("")} `;
    }
  }
  return norm(out.replace(PRIVATE_USE, " "));
}

/** Whether n, inside el, is hidden from everyone by `aria-hidden` on it or on what holds it within el. @param {Element} n @param {Element} el */
function hiddenWithin(n, el) {
  for (let a = /** @type {Element | null} */ (n); a && a !== el; a = parentElOf(a)) if (attr(a, "aria-hidden") === "true") return true;
  return false;
}

/**
 * The words a control shows where its accessible name says something else (`<button
 * aria-label="Keep my account">Delete my account</button>`): a person reads one, a screen reader
 * the other, and either may be the page's trap — so both are shown. "" where they agree (one holds
 * the other), where the control shows no words (an icon), or for a field (its words are its value).
 * @param {Element} el @param {string} name its accessible name
 */
export function shownWords(el, name) {
  if (!name || !(hasAttr(el, "aria-label") || hasAttr(el, "aria-labelledby"))) return "";
  const tag = tagOf(el);
  if (tag === "input" || tag === "textarea" || tag === "select" || isTextRegion(el)) return "";
  const shown = norm(isHtml(el) ? innerTextOf(/** @type {HTMLElement} */ (el)) : textOf(el)).slice(0, 80);
  if (!/[\p{L}\p{N}]/u.test(shown)) return "";
  const a = shown.toLowerCase(), b = name.toLowerCase();
  return a.includes(b) || b.includes(a) ? "" : shown;
}

/** An editable region or a text box the page draws itself (not a form field). @param {Element} el */
export function isTextRegion(el) {
  const ce = attr(el, "contenteditable");
  return (ce !== null && ce !== "false") || /^(textbox|searchbox)$/.test(attr(el, "role") || "");
}
