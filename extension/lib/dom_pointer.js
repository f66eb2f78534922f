// @ts-check
/**
 * Which elements show a pointer cursor (clickable by listener: the page styled them as clickable),
 * without reading the computed style of every element.
 *
 * `getComputedStyle` on each of a page's ~20,000 nodes costs tens of milliseconds; the cursor,
 * though, can only come from a style rule, an inline style, or the user-agent sheet (links, which
 * are interactive anyway). So we ask the page's own style sheets which selectors set `cursor`,
 * match those selectors once with `querySelectorAll`, and confirm each match with its computed
 * style (which settles specificity, media queries and `:hover`-only rules). Where a sheet cannot be
 * read (cross-origin without CORS) the caller falls back to reading every element's style.
 */

/** Pseudo-classes that depend on interaction or are pseudo-elements: dropped so the selector matches the element itself. */
const DYNAMIC = /::?(before|after|marker|placeholder|selection|first-line|first-letter|backdrop|file-selector-button|-webkit-[\w-]+|-moz-[\w-]+)\b|:(hover|active|focus|focus-visible|focus-within|visited|target)\b/g;

/** Selectors per style sheet, keyed by the sheet (a sheet's rules rarely change between scans). */
/** @type {WeakMap<CSSStyleSheet, {n: number, sels: string[]}>} */
const sheetCache = new WeakMap();

/**
 * Selectors of the rules in a sheet that set `cursor`, or null if the sheet cannot be read.
 * @param {CSSStyleSheet} sheet
 * @returns {string[] | null}
 */
function cursorSelectors(sheet) {
  /** @type {CSSRuleList} */ let rules;
  try { rules = sheet.cssRules; } catch { return null; }
  const hit = sheetCache.get(sheet);
  if (hit && hit.n === rules.length) return hit.sels;
  /** @type {string[]} */ const sels = [];
  let ok = true;
  /** @param {CSSRuleList} list */
  const visit = (list) => {
    for (let i = 0; i < list.length; i++) {
      const r = /** @type {any} */ (list[i]);
      if (r.style && r.selectorText && r.style.cursor) {
        for (const s of r.selectorText.split(",")) {
          const t = s.replace(DYNAMIC, "").trim();
          // ":host" rules style the shadow host from inside: the per-element fallback handles them.
          if (/:host|&/.test(t)) ok = false;
          else if (t) sels.push(t);
        }
      }
      if (r.styleSheet) { const sub = cursorSelectors(r.styleSheet); if (sub) sels.push(...sub); else ok = false; }
      if (r.cssRules) visit(r.cssRules); // @media, @supports, @layer, nested rules
    }
  };
  visit(rules);
  if (!ok) return null;
  sheetCache.set(sheet, { n: rules.length, sels });
  return sels;
}

/**
 * Elements in one tree scope (a document or a shadow root) whose computed cursor is `pointer`, or
 * null when a sheet could not be read (the caller then reads each element's style).
 * @param {Document | ShadowRoot} scope
 * @returns {Set<Element> | null}
 */
export function pointerElements(scope) {
  /** @type {string[]} */ const sels = ['[style*="cursor" i]'];
  const sheets = [...Array.from(scope.styleSheets), ...(scope.adoptedStyleSheets || [])];
  for (const sheet of sheets) {
    const s = cursorSelectors(sheet);
    if (!s) return null;
    sels.push(...s);
  }
  /** @type {Set<Element>} */ const out = new Set();
  /** @param {string} sel */
  const add = (sel) => {
    for (const el of Array.from(scope.querySelectorAll(sel))) {
      if (out.has(el)) continue;
      const v = el.ownerDocument.defaultView;
      if (v && v.getComputedStyle(el).cursor === "pointer") out.add(el);
    }
  };
  try { add(sels.join(",")); } catch {
    // One selector the engine rejects would sink the whole list: try them one by one.
    for (const s of sels) { try { add(s); } catch { /* not a selector querySelectorAll takes */ } }
  }
  return out;
}
