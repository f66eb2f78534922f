// @ts-check
/**
 * What the page's style sheets say about its elements, without reading the computed style of every
 * element: which show a pointer cursor (clickable by listener: the page styled them as clickable),
 * and which could be hidden by opacity, `visibility` or `content-visibility`.
 *
 * `getComputedStyle` on each of a page's ~20,000 nodes costs tens of milliseconds, and
 * `checkVisibility` on each of its interactive elements a few µs apiece (≈ 15 ms on 5,000). These
 * properties, though, can only come from a style rule, an inline style, an animation, or the
 * user-agent sheet. So we ask the page's own style sheets which selectors set them, and match those
 * selectors once with `querySelectorAll`. Where a sheet cannot be read (cross-origin without CORS),
 * or a selector cannot be matched on its own, the caller falls back to asking each element.
 */

import { attr, hasAttr, qsa, tagOf } from "./dom_native.js";

/** Pseudo-classes that depend on interaction or are pseudo-elements: dropped so the selector matches
 * the element itself (the computed style then settles whether the cursor really is a pointer). */
const DYNAMIC = /::?(before|after|marker|placeholder|selection|first-line|first-letter|backdrop|file-selector-button|-webkit-[\w-]+|-moz-[\w-]+)\b|:(hover|active|focus|focus-visible|focus-within|visited|target)\b/g;
/** A state a person's pointer or keys put an element in (a rule with one holds only in that state). */
const DYNAMIC_STATE = /:(hover|active|focus|focus-visible|focus-within|checked|target)\b/;

/** Pseudo-elements that hold real elements (a shadow tree's part, a closed `<details>`'s content):
 * hiding them hides those elements. Dropped, with what follows them, they leave a selector for the
 * element that holds them — a superset, which the exact checks narrow down. */
const HOLDER = /::(part\([^)]*\)|details-content).*$/;
/**
 * The cursors a page gives what a person operates with the pointer: a pointer (clicked), a move or
 * a grab cursor (dragged: an editor's palette item, a board's card handle).
 */
export const HAND_CURSORS = new Set(["pointer", "move", "grab"]);

/** Any other pseudo-element (and the legacy one-colon forms): hiding it hides no element. */
const PSEUDO_ELEMENT = /::[\w-]|:(before|after|first-line|first-letter)\b/;

/** Attribute selectors and strings, which may contain anything. */
const QUOTED = /\[[^\]]*\]|"[^"]*"|'[^']*'/g;

/** A selector list's selectors (commas inside `:is(…)`, `[…]` or quotes do not split). @param {string} list */
function splitSelectors(list) {
  /** @type {string[]} */ const out = [];
  let depth = 0, start = 0;
  /** @type {string | null} */ let quote = null;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) { if (c === "\\") i++; else if (c === quote) quote = null; }
    else if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) { out.push(list.slice(start, i)); start = i + 1; }
  }
  out.push(list.slice(start));
  return out;
}

/** Selectors per style sheet, keyed by the sheet (a sheet's rules rarely change between scans).
 * cursor / hide: null when some rule could not be turned into a selector that stands on its own;
 * hoverPointer: selectors that give a pointer cursor on hover only (`.controls span:hover`): the
 * element shows it the moment a pointer is over it, which its style now cannot confirm;
 * hostHide: a shadow root's sheet hides its host or the host's slotted children;
 * noPointer: selectors of rules that turn the pointer off (`pointer-events: none`, which is inherited:
 * a disabled page link's `.disabled .page-link`), static ones only (a :hover rule is not the page now);
 * reveal: elements a pointer over something around them shows (`tr:hover .row-actions { left: 0 }`),
 * as selectors without their :hover, so they match those elements as the page is now;
 * revealSelf: elements a pointer over themselves shows (`.add-cell:hover { opacity: 1 }`: drawn only
 * when pointed at), likewise;
 * revealUnlessKept: the same from rules that hide an element while nothing is pointed at
 * (`.row:not(:hover) .act`), as "way\tselector" (the way it hides: hiddenBy) — shown on hover
 * unless kept hidden the same way by a rule that holds always;
 * revealSelfUnlessKept: likewise for an element hidden while not pointed at itself
 * (`.act:not(:hover) { opacity: 0 }`);
 * kept: those rules that hold always (no state of pointer or keys in them), as "way\tselector";
 * displayed: of those in reveal, the ones a pointer around them lays out at all (`li:hover > ul
 * { display: block }`: a menu's submenu, not rendered until then);
 * words: selectors of rules that can keep words from a person's eyes (hidesWords).
 * covers: selectors of rules that can lay a box over other elements' words (coversWords).
 * @typedef {{cursor: string[] | null, hoverPointer: string[], hide: string[] | null, hostHide: boolean, noPointer: string[],
 *   reveal: string[], revealUnlessKept: string[], revealSelfUnlessKept: string[], kept: string[], revealSelf: string[], displayed: string[], words: string[], covers: string[]}} SheetSelectors */
/** @type {WeakMap<CSSStyleSheet, {n: number, s: SheetSelectors}>} */
const sheetCache = new WeakMap();

/** @param {CSSStyleDeclaration} st whether the declarations set a property that can hide an element */
function hides(st) { return !!(st.opacity || st.visibility || /** @type {any} */ (st).contentVisibility); }

/** Whether a length places its element far off (-999px, -100vw, -9999em …). @param {string} v */
function far(v) { return /^-\s*\d{3,}/.test(v.trim()); }

/** Whether a part of a selector closes every bracket it opens (a whole selector, not a piece of one). @param {string} s */
function balanced(s) {
  let depth = 0;
  for (const c of s.replace(QUOTED, "")) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/** A length of no size, or a pixel or two (the "visually hidden" box). @param {string} v */
const tiny = (v) => /^(0(\.0*)?[a-z%]*|[0-2](\.\d*)?px)$/i.test(v.trim());

/**
 * Whether the declarations can keep words from a person's eyes while the element stays rendered
 * (the carriers of hidden instructions): no size for its text, a colour that is none (or white, the
 * page's usual ground), a transform to nothing, clipping, a place far off the page, or one fixed to
 * the window, which may be outside it (a console slid below its edge). The words of
 * such elements are confirmed with their computed style before they are shown (dom_unseen.js).
 * @param {CSSStyleDeclaration} st
 */
function hidesWords(st) {
  return /^0(\.0*)?([a-z%]*)$/i.test(st.fontSize.trim()) || /transparent|rgba?\([^)]*[,/]\s*0(\.0*)?\s*\)|#fff\b|#ffffff\b|white|255,\s*255,\s*255/i.test(st.color)
    || /scale[xy3d]*\(\s*0(\.0*)?\s*[,)]/i.test(st.transform) || /translate[xy3d]*\([^)]*(-?\d{3,}(px|vw|vh)|-?100%)/i.test(st.transform) || !!st.clip || (!!st.clipPath && st.clipPath !== "none")
    || far(st.textIndent) || far(st.left) || far(st.top) || far(st.marginLeft) || far(st.marginTop)
    || tiny(st.height) || tiny(st.maxHeight) || tiny(st.width) || tiny(st.maxWidth) || st.position === "fixed";
}

/**
 * Whether the declarations can make a box laid over its neighbours' words (placed absolutely, with
 * a background of its own): the words under it are confirmed by hit testing (dom_unseen.js).
 * @param {CSSStyleDeclaration} st
 */
function coversWords(st) {
  return st.position === "absolute" && !!(st.backgroundColor || st.backgroundImage || st.background);
}

/**
 * Whether the declarations take an element from a person's eyes (transparent, invisible, not
 * displayed, clipped, shrunk to nothing or placed far off): a rule that holds only while nothing is
 * pointed at and does this shows the element on hover.
 * @param {CSSStyleDeclaration} st
 */
function hidesNow(st) { return hiddenBy(st).length > 0; }

/**
 * The ways the declarations take an element from a person's eyes (see hidesNow), by the property
 * that does it: a rule that shows it again must undo that one.
 * @param {CSSStyleDeclaration} st @returns {string[]}
 */
function hiddenBy(st) {
  /** @type {string[]} */ const out = [];
  if (/^0(\.0*)?%?$/.test(st.opacity.trim())) out.push("opacity");
  if (st.visibility === "hidden") out.push("visibility");
  if (st.display === "none") out.push("display");
  if (st.clip || (st.clipPath && st.clipPath !== "none")) out.push("clip");
  if (/scale[xy3d]*\(\s*0(\.0*)?\s*[,)]/i.test(st.transform)) out.push("transform");
  if (far(st.left) || far(st.top)) out.push("place");
  return out;
}

/**
 * A selector that holds while something is not pointed at (`A:not(:hover) B`, `A:not(:hover,
 * :focus-within) > B`, `B:not(:hover)`): the selector without that :not(…), and whether the
 * element not pointed at is the one styled (self) or one around it. Null for any other selector.
 * @param {string} t one selector @returns {{now: string, self: boolean} | null}
 */
function notHovered(t) {
  const m = /:not\(\s*:(?:hover|focus-within)(?:\s*,\s*:(?:hover|focus-within|focus-visible|focus))*\s*\)/.exec(t);
  if (!m) return null;
  const before = t.slice(0, m.index), after = t.slice(m.index + m[0].length);
  if (!balanced(before) || !balanced(after) || /:(hover|focus-within)\b/.test(before + after)) return null;
  // Another compound after it (a combinator outside brackets): the styled element is inside the one
  // not pointed at.
  const self = !/^[^\s>+~]*[\s>+~]/.test(after.replace(/\([^()]*\)/g, "()"));
  return { now: before + after, self };
}

/** @param {CSSStyleDeclaration} st whether the declarations can bring a hidden element into view (or draw one's icon) */
function reveals(st) {
  return !!(st.opacity || st.visibility || st.display || st.left || st.right || st.top || st.transform || st.clip
    || st.clipPath || st.maxHeight || st.height || st.position || st.content);
}

/**
 * The selectors of a sheet's rules that set `cursor` and those that can hide, or null if the sheet
 * cannot be read.
 * @param {CSSStyleSheet} sheet
 * @returns {SheetSelectors | null}
 */
function sheetSelectors(sheet) {
  /** @type {CSSRuleList} */ let rules;
  try { rules = sheet.cssRules; } catch { return null; }
  const hit = sheetCache.get(sheet);
  if (hit && hit.n === rules.length) return hit.s;
  /** @type {string[] | null} */ let cursor = [];
  /** @type {string[] | null} */ let hide = [];
  /** @type {string[]} */ const hoverPointer = [];
  /** @type {string[]} */ const noPointer = [];
  /** @type {string[]} */ const reveal = [];
  /** @type {string[]} */ const revealUnlessKept = [];
  /** @type {string[]} */ const revealSelfUnlessKept = [];
  /** @type {string[]} */ const kept = [];
  /** @type {string[]} */ const revealSelf = [];
  /** @type {string[]} */ const displayed = [];
  /** @type {string[]} */ const words = [];
  /** @type {string[]} */ const covers = [];
  let hostHide = false;
  /**
   * @param {CSSRuleList} list
   * @param {string} parent the enclosing style rule's selector (CSS nesting), "" at the top
   */
  const visit = (list, parent) => {
    for (let i = 0; i < list.length; i++) {
      const r = /** @type {any} */ (list[i]);
      if (r.styleSheet) {
        const sub = sheetSelectors(r.styleSheet);
        if (!sub) { cursor = hide = null; return; }
        if (cursor) { if (sub.cursor) cursor.push(...sub.cursor); else cursor = null; }
        hoverPointer.push(...sub.hoverPointer);
        noPointer.push(...sub.noPointer);
        reveal.push(...sub.reveal);
        revealUnlessKept.push(...sub.revealUnlessKept);
        revealSelfUnlessKept.push(...sub.revealSelfUnlessKept);
        kept.push(...sub.kept);
        revealSelf.push(...sub.revealSelf);
        displayed.push(...sub.displayed);
        words.push(...sub.words);
        covers.push(...sub.covers);
        if (hide) { if (sub.hide) hide.push(...sub.hide); else hide = null; }
        hostHide ||= sub.hostHide;
      }
      // Keyframes are left to the animations themselves (scopeStyles asks for them); @page styles no element.
      const styled = r.style && r.keyText === undefined && r.type !== 6;
      // Declarations after nested rules carry no selector: they apply to the enclosing rule's.
      // A nested selector's "&" (the enclosing rule's elements) is widened to any element: the
      // selector then matches a superset, which the exact checks narrow down.
      const sel = styled ? (r.selectorText || parent).replace(/&/g, ":is(*)") : "";
      if (styled && cursor && r.style.cursor) {
        if (!sel) cursor = null;
        else for (const s of splitSelectors(sel)) {
          const t = s.replace(DYNAMIC, "").trim();
          // ":host" rules style the shadow host from inside: the per-element fallback handles them.
          if (/:host/.test(t)) { cursor = null; break; }
          if (t && r.style.cursor === "pointer" && /:hover\b/.test(s) && !PSEUDO_ELEMENT.test(s.replace(QUOTED, ""))) hoverPointer.push(t);
          else if (t) cursor.push(t);
        }
      }
      if (styled && sel && r.style.pointerEvents === "none" && !/:host|::slotted/.test(sel)) {
        for (const s of splitSelectors(sel)) {
          const t = s.trim();
          if (t && !PSEUDO_ELEMENT.test(t.replace(QUOTED, "")) && !/:(hover|active|focus)/.test(t)) noPointer.push(t);
        }
      }
      if (styled && sel && /:(hover|focus-within)\b/.test(sel) && reveals(r.style)) {
        for (const s of splitSelectors(sel)) {
          const t = s.trim();
          // Hidden while not pointed at (`.header:not(:hover, :focus-within) .anchor { opacity: 0 }`):
          // shown on hover as surely as by a :hover rule. What the rule styles matches as the page is
          // now once the :not(…) is taken out.
          const neg = notHovered(t);
          if (neg) {
            if (!hidesNow(r.style)) continue;
            const now = neg.now.replace(DYNAMIC, "").replace(/\s+/g, " ").trim();
            if (!now) continue;
            // (Shown on hover only if no rule that holds whatever is pointed at hides it too: a
            // rich editor's block button, hidden by its own rule and this one, shows on focus.)
            for (const by of hiddenBy(r.style)) (neg.self ? revealSelfUnlessKept : revealUnlessKept).push(`${by}\t${now}`);
            if (!neg.self && r.style.display === "none") displayed.push(now);
            continue;
          }
          // The pointer is over something around it (`tr:hover .actions`), not over it: what the
          // rule shows is the element after the last :hover. (`:focus-within` alone shows it to
          // the keyboard, not to a pointer.)
          const m = t.match(/^(.*):hover\b[^\s>+~]*\s*([>+~]?)\s*(.+)$/);
          // A pointer over the element itself shows it (`.add-cell:hover`, nothing after).
          const own = m ? null : t.match(/^(.*[^\s>+~(]):hover$/);
          if (own && balanced(own[1])) { revealSelf.push(own[1].replace(DYNAMIC, "").trim()); continue; }
          // (A :hover inside :not(…) or :is(…) says nothing about a pointer over a row.)
          if (!m || !balanced(m[1]) || !balanced(m[3])) continue;
          // What a pointer over the row draws in an element's ::before (an icon a flag toggle shows
          // only then) reveals that element.
          const drawn = PSEUDO_ELEMENT.test(m[3].replace(QUOTED, ""));
          if (drawn && !r.style.content) continue;
          const shown = `${m[1]} ${m[2]} ${drawn ? m[3].replace(/::?(before|after)\b.*$/, "") : m[3]}`.replace(DYNAMIC, "").replace(/\s+/g, " ").trim();
          reveal.push(shown);
          if (!drawn && r.style.display && r.style.display !== "none") displayed.push(shown);
        }
      }
      // Hidden whatever is pointed at or focused: no dynamic state in the selector.
      const keeps = styled && sel && !DYNAMIC_STATE.test(sel) && !/:host|::slotted/.test(sel) ? hiddenBy(r.style) : [];
      if (keeps.length) {
        for (const s of splitSelectors(sel)) {
          const t = s.trim();
          if (t && !PSEUDO_ELEMENT.test(t.replace(QUOTED, ""))) for (const by of keeps) kept.push(`${by}\t${t}`);
        }
      }
      if (styled && hide && hides(r.style)) {
        if (!sel) hide = null;
        // From inside a shadow root: the host itself, or its children through the slots.
        else if (/:host|::slotted/.test(sel)) hostHide = true;
        else {
          for (const s of splitSelectors(sel)) {
            // Dynamic pseudo-classes stay: querySelectorAll matches them as the page is now.
            const t = s.replace(HOLDER, "").trim();
            if (t !== s.trim()) hide.push(t || "*");
            else if (!PSEUDO_ELEMENT.test(t.replace(QUOTED, ""))) hide.push(t);
          }
        }
      }
      if (styled && sel && hidesWords(r.style) && !/:host|::slotted/.test(sel)) {
        for (const s of splitSelectors(sel)) {
          const t = s.replace(DYNAMIC, "").trim();
          if (t && !PSEUDO_ELEMENT.test(t.replace(QUOTED, ""))) words.push(t);
        }
      }
      if (styled && sel && coversWords(r.style) && !/:host|::slotted/.test(sel)) {
        for (const s of splitSelectors(sel)) {
          const t = s.replace(DYNAMIC, "").trim();
          if (t && !PSEUDO_ELEMENT.test(t.replace(QUOTED, ""))) covers.push(t);
        }
      }
      if (r.cssRules) visit(r.cssRules, r.selectorText ? sel : parent); // @media, @supports, @layer, nested rules
    }
  };
  visit(rules, "");
  /** @type {SheetSelectors} */ const s = { cursor, hoverPointer, hide, hostHide, noPointer, reveal, revealUnlessKept, revealSelfUnlessKept, kept, revealSelf, displayed, words, covers };
  sheetCache.set(sheet, { n: rules.length, s });
  return s;
}

/**
 * What a scope's elements say in their own `style` attributes, and what the user-agent sheet hides
 * (a closed `<details>` and `hidden=until-found` hide their content with `content-visibility`), in
 * one pass over the scope (a pass of the selector engine each would walk every element again):
 * elements whose inline style could hide them, whose cursor is worth confirming, and that may turn
 * the pointer off. (Compared as the `[style*="…" i]` selectors would: case-insensitive words.)
 * @param {Document | ShadowRoot} scope
 */
/** Properties of an inline style that could keep words unseen (as hidesWords reads a rule's). */
const INLINE_WORDS = /font-size|(^|[^-])color|transform|clip|text-indent|left|top|margin|height|width|position/;

function inlineStyles(scope) {
  /** @type {Set<Element>} */ const hide = new Set();
  /** @type {Element[]} */ const cursor = [];
  /** @type {Set<Element>} */ const noPointer = new Set();
  /** @type {Set<Element>} */ const words = new Set();
  /** @type {Set<Element>} */ const covers = new Set();
  const found = qsa(scope, "[style], details, [hidden]");
  for (let i = 0; i < found.length; i++) {
    const el = found[i];
    const style = (attr(el, "style") || "").toLowerCase();
    if (tagOf(el) === "details" || hasAttr(el, "hidden") || style.includes("opacity") || style.includes("visibility")) hide.add(el);
    if (style.includes("cursor")) cursor.push(el);
    if (style.includes("pointer-events")) noPointer.add(el);
    if (INLINE_WORDS.test(style)) words.add(el);
    if (style.includes("absolute") && style.includes("background")) covers.add(el);
  }
  return { hide, cursor, noPointer, words, covers };
}

/**
 * What the style of one tree scope (a document or a shadow root) says:
 *   pointer — elements whose computed cursor is `pointer`, or null when a sheet could not be read
 *     (the caller then reads each element's style);
 *   hide — elements that could be hidden by their own style (opacity, visibility,
 *     content-visibility: set by a rule, inline, an animation or the user-agent sheet; what is
 *     under them can be hidden too), or null when that is not known (the caller then asks each
 *     element); an element in no set with a box of its own, under no element in a set, is visible;
 *   hostHide — (a shadow root) its styles may hide the host or the host's slotted children;
 *   noPointer — elements a rule (or an inline style) may turn the pointer off for, with what is under
 *     them (the caller confirms with the computed style);
 *   reveal — elements a pointer over something around them shows (hover-only row actions);
 *   revealSelf — elements a pointer over themselves shows;
 *   displayed — of reveal, those a pointer around them lays out (not rendered at all until then);
 *   words — elements whose style may keep their words (and those under them) from a person's eyes
 *     while they stay rendered (the caller confirms with the computed style, dom_unseen.js).
 * @param {Document | ShadowRoot} scope
 *   covers — elements that may lie over their neighbours' words (confirmed by hit testing, dom_unseen.js)
 * @returns {{pointer: Set<Element> | null, hide: Set<Element> | null, hostHide: boolean, noPointer: Set<Element>, reveal: Set<Element>, revealSelf: Set<Element>, displayed: Set<Element>, words: Set<Element>, covers: Set<Element>}}
 */
export function scopeStyles(scope) {
  /** @type {string[] | null} */ let cursor = [];
  /** @type {string[] | null} */ let hide = [];
  /** @type {string[]} */ const hoverPointer = [];
  /** @type {string[]} */ const noPointer = [];
  /** @type {string[]} */ const reveal = [];
  /** @type {string[]} */ const revealUnlessKept = [];
  /** @type {string[]} */ const revealSelfUnlessKept = [];
  /** @type {string[]} */ const kept = [];
  /** @type {string[]} */ const revealSelf = [];
  /** @type {string[]} */ const displayed = [];
  /** @type {string[]} */ const words = [];
  /** @type {string[]} */ const covers = [];
  let hostHide = false;
  const sheets = [...Array.from(scope.styleSheets), ...(scope.adoptedStyleSheets || [])];
  for (const sheet of sheets) {
    const s = sheetSelectors(sheet);
    // A sheet that cannot be read leaves the cursor and hiding unknown (asked element by element);
    // what the other sheets say of the pointer and of hovering still stands.
    if (!s) { cursor = hide = null; continue; }
    if (cursor) { if (s.cursor) cursor.push(...s.cursor); else cursor = null; }
    hoverPointer.push(...s.hoverPointer);
    noPointer.push(...s.noPointer);
    reveal.push(...s.reveal);
    revealUnlessKept.push(...s.revealUnlessKept);
    revealSelfUnlessKept.push(...s.revealSelfUnlessKept);
    kept.push(...s.kept);
    revealSelf.push(...s.revealSelf);
    displayed.push(...s.displayed);
    words.push(...s.words);
    covers.push(...s.covers);
    if (hide) { if (s.hide) hide.push(...s.hide); else hide = null; }
    hostHide ||= s.hostHide;
  }
  const inline = inlineStyles(scope);
  /** @type {Set<Element> | null} */ let hideSet = null;
  if (hide) {
    hideSet = matchAll(scope, hide, null);
    if (hideSet) for (const el of inline.hide) hideSet.add(el);
    // Animations (CSS animations, transitions, element.animate) can set opacity with no rule to say so.
    if (hideSet) {
      try {
        for (const a of scope.getAnimations()) {
          const t = /** @type {KeyframeEffect | null} */ (a.effect)?.target;
          if (t) hideSet.add(t);
        }
      } catch { hideSet = null; }
    }
  }
  /** @type {Set<Element> | null} */ let pointer = null;
  if (cursor) {
    const view = (scope.ownerDocument || /** @type {Document} */ (scope)).defaultView;
    const keep = (/** @type {Element} */ el) => !!view && HAND_CURSORS.has(view.getComputedStyle(el).cursor);
    pointer = matchAll(scope, cursor, keep);
    if (pointer) for (const el of inline.cursor) if (!pointer.has(el) && keep(el)) pointer.add(el);
    if (pointer && hoverPointer.length) for (const el of matchAll(scope, hoverPointer, () => true) || []) pointer.add(el);
  }
  const offSet = matchAll(scope, noPointer, () => true) || new Set();
  for (const el of inline.noPointer) offSet.add(el);
  const wordsSet = matchAll(scope, words, () => true) || new Set();
  for (const el of inline.words) wordsSet.add(el);
  const coverSet = covers.length ? matchAll(scope, covers, () => true) || new Set() : new Set();
  for (const el of inline.covers) coverSet.add(el);
  const revealSet = matchAll(scope, reveal, () => true) || new Set();
  const revealSelfSet = revealSelf.length ? matchAll(scope, revealSelf, () => true) || new Set() : new Set();
  for (const el of shownUnlessKept(scope, revealUnlessKept, kept)) revealSet.add(el);
  for (const el of shownUnlessKept(scope, revealSelfUnlessKept, kept)) revealSelfSet.add(el);
  return { pointer, hide: hideSet, hostHide: hostHide || !hideSet, noPointer: offSet, words: wordsSet, covers: coverSet,
    reveal: revealSet,
    revealSelf: revealSelfSet,
    displayed: displayed.length ? matchAll(scope, displayed, () => true) || new Set() : new Set() };
}

/**
 * Elements a rule hides while not pointed at (so a pointer shows them) — less those that a rule
 * holding whatever is pointed at hides the same way (`visibility`, `opacity`…): a pointer never
 * shows those.
 * @param {Document | ShadowRoot} scope @param {string[]} unlessKept "way\tselector" @param {string[]} kept "way\tselector"
 * @returns {Set<Element>}
 */
function shownUnlessKept(scope, unlessKept, kept) {
  /** @type {Set<Element>} */ const shown = new Set();
  if (!unlessKept.length) return shown;
  /** @param {string[]} entries @returns {Map<string, string[]>} */
  const byWay = (entries) => { const m = new Map(); for (const e of entries) { const [by, sel] = e.split("\t"); m.set(by, [...(m.get(by) || []), sel]); } return m; };
  const keptBy = byWay(kept), blocked = new Set();
  for (const [by, sels] of byWay(unlessKept)) {
    const keptSet = keptBy.has(by) ? matchAll(scope, /** @type {string[]} */ (keptBy.get(by)), () => true) || new Set() : new Set();
    for (const el of matchAll(scope, sels, () => true) || []) (keptSet.has(el) ? blocked : shown).add(el);
  }
  for (const el of blocked) shown.delete(el);
  return shown;
}

/**
 * The elements of a scope that match any of the selectors (and pass `keep`), or null when a
 * selector cannot be matched and no `keep` says that dropping it is fine.
 * @param {Document | ShadowRoot} scope @param {string[]} sels @param {((el: Element) => boolean) | null} keep
 * @returns {Set<Element> | null}
 */
function matchAll(scope, sels, keep) {
  /** @type {Set<Element>} */ const out = new Set();
  if (!sels.length) return out; // (an empty selector list is a syntax error, and throwing costs)
  /** @param {string} sel */
  const add = (sel) => {
    const found = qsa(scope, sel);
    for (let i = 0; i < found.length; i++) {
      const el = found[i];
      if (!out.has(el) && (!keep || keep(el))) out.add(el);
    }
  };
  try { add(sels.join(",")); } catch {
    // One selector the engine rejects would sink the whole list: try them one by one.
    for (const s of sels) {
      try { add(s); } catch {
        // A hiding selector we cannot match: hidden elements could be missed, so nothing is known.
        if (!keep) return null;
      }
    }
  }
  return out;
}

/**
 * Elements in one tree scope (a document or a shadow root) whose computed cursor is `pointer`, or
 * null when a sheet could not be read (the caller then reads each element's style).
 * @param {Document | ShadowRoot} scope
 * @returns {Set<Element> | null}
 */
export function pointerElements(scope) { return scopeStyles(scope).pointer; }
