// @ts-check
/**
 * Words a person cannot see although the element holding them is rendered — the usual carriers of
 * instructions hidden for the model: text of no size (font-size 0, a transform to nothing), a colour
 * that is none or the colour of what lies behind it, clipped to nothing (clip, clip-path, a box of no
 * size that hides its overflow), or placed far off the page. Asked only of elements under a rule or an
 * inline style that could do so (dom_pointer.js `words`), and settled by the computed style and the
 * boxes the browser drew: the page map leaves such words out (it counts them).
 */
import { docOf, parentElOf, rectOf } from "./dom_native.js";

/** @param {string} c a computed colour, `rgb(…)` or `rgba(…)` @returns {number[] | null} r, g, b, alpha */
function rgba(c) {
  const m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)/.exec(c);
  if (!m) return null;
  const a = m[4] === undefined ? 1 : m[4].endsWith("%") ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  return [Number(m[1]), Number(m[2]), Number(m[3]), a];
}

/** WCAG relative luminance. @param {number[]} c */
function luminance(c) {
  const [r, g, b] = c.slice(0, 3).map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** @param {number[]} a @param {number[]} b */
function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** The ancestors an element's words are clipped by or drawn on, nearest first (a few levels). @param {Element} el */
function around(el) {
  /** @type {Element[]} */ const out = [];
  for (let a = /** @type {Element | null} */ (el); a && out.length < 10; a = parentElOf(a)) out.push(a);
  return out;
}

/**
 * Whether an element's words are unseen (see above).
 * @param {Element} el @param {Map<Element, number[] | null>} grounds each element's background, as found
 */
function wordsUnseen(el, grounds) {
  const view = docOf(el).defaultView;
  if (!view) return false;
  const st = view.getComputedStyle(el);
  const color = rgba(st.color);
  if (color && color[3] <= 0.05) return true;
  const range = docOf(el).createRange();
  range.selectNodeContents(el);
  const boxes = Array.from(range.getClientRects()).filter((r) => r.width >= 1 && r.height >= 1);
  if (!boxes.length) return true; // no size: font-size 0, a transform to nothing
  if (boxes.every((r) => r.right + view.scrollX <= 0 || r.bottom + view.scrollY <= 0)) return true; // off the page's left or top
  let ground = null, image = false;
  for (const a of around(el)) {
    const s = a === el ? st : view.getComputedStyle(a);
    if (/(hidden|clip)/.test(s.overflowX + s.overflowY) || s.clip !== "auto") {
      const b = rectOf(a);
      if (b.width < 2 || b.height < 2) return true; // a box of no size that hides what it holds
    }
    if (/inset\(\s*(50|100)%|circle\(\s*0(px|%)?\s*[)a]/.test(s.clipPath)) return true;
    if (!ground && !image) {
      if (grounds.has(a)) ground = grounds.get(a) || null;
      else {
        const bg = rgba(s.backgroundColor);
        if (s.backgroundImage !== "none") image = true;
        else if (bg && bg[3] > 0.5) { ground = bg; grounds.set(a, bg); }
      }
    }
  }
  // The canvas behind a page with no background of its own is white; a picture behind says nothing.
  if (!ground && !image) ground = [255, 255, 255, 1];
  return !!color && !!ground && contrast(color, ground) < 1.1;
}

/**
 * The rendering's test of words: unseen when the element, or one above it, is under a rule that
 * could hide words and the computed style says it does. Memoised for one rendering.
 * @param {Set<Element>} candidates elements under such rules (dom_pointer.js `words`)
 * @returns {(el: Element) => boolean}
 */
export function unseenWordsTest(candidates) {
  if (!candidates.size) return () => false;
  /** @type {Map<Element, boolean>} */ const under = new Map();
  /** @type {Map<Element, boolean>} */ const verdict = new Map();
  /** @type {Map<Element, number[] | null>} */ const grounds = new Map();
  /** @param {Element} el @returns {boolean} */
  const inCandidate = (el) => {
    let v = under.get(el);
    if (v === undefined) {
      const p = parentElOf(el);
      v = candidates.has(el) || (!!p && inCandidate(p));
      under.set(el, v);
    }
    return v;
  };
  return (el) => {
    let v = verdict.get(el);
    if (v === undefined) {
      try { v = inCandidate(el) && wordsUnseen(el, grounds); } catch { v = false; }
      verdict.set(el, v);
    }
    return v;
  };
}
