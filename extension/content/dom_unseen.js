// @ts-check
/**
 * Words a person cannot see although the element holding them is rendered — the usual carriers of
 * instructions hidden for the model: text of no size (font-size 0, a transform to nothing), a colour
 * that is none or the colour of what lies behind it, clipped to nothing (clip, clip-path, a box of no
 * size that hides its overflow), or placed far off the page. Asked only of elements under a rule or an
 * inline style that could do so (dom_pointer.js `words`), and settled by the computed style and the
 * boxes the browser drew: the page map leaves such words out (it counts them).
 */
import { containsOf, docOf, elementsAtOf, offsetParentOf, parentElOf, rectOf, tagOf, textOf } from "./dom_native.js";

/**
 * Whether a box lies wholly outside its window's view and stays there: it is in a part of the page
 * fixed to the window (a console slid below its bottom edge, a drawer beside it), which no scrolling
 * brings into view. Only boxes out of view are asked (their positioned ancestors: a few, memoised
 * in `memo` by the nearest, for one scan).
 * @param {Element} el @param {{top: number, bottom: number, left: number, right: number}} r
 * @param {Map<Element, boolean>} [memo]
 */
export function fixedOutOfView(el, r, memo = new Map()) {
  const view = docOf(el).defaultView;
  if (!view || !(r.bottom <= 0 || r.right <= 0 || r.top >= view.innerHeight || r.left >= view.innerWidth)) return false;
  const first = offsetParentOf(el);
  if (!first) return view.getComputedStyle(el).position === "fixed";
  let v = memo.get(first);
  if (v === undefined) {
    let last = first;
    for (let p = offsetParentOf(first), n = 0; p && n < 30; p = offsetParentOf(p), n++) last = p;
    v = last !== docOf(el).body && view.getComputedStyle(last).position === "fixed";
    memo.set(first, v);
  }
  return v;
}

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
 * Whether a computed style clips its element to nothing, whatever its box: a clip path that insets
 * it by half or more, or a circle of no radius; a `clip` rectangle of no width or height (the usual
 * "visually hidden" rules — its box is still laid out and measured full size).
 * @param {CSSStyleDeclaration} s
 */
export function clipsToNothing(s) {
  if (/inset\(\s*(50|100)%|circle\(\s*0(px|%)?\s*[)a]/.test(s.clipPath)) return true;
  const m = /^rect\(([^)]*)\)$/.exec(s.clip);
  if (!m) return false;
  const [t, r, b, l] = m[1].split(/[\s,]+/).map((v) => (v === "auto" ? NaN : parseFloat(v)));
  return r - l <= 0 || b - t <= 0; // (an "auto" side clips nothing on that side: NaN says no)
}

/**
 * Whether a control is clipped to nothing, so no person sees or points at it: by a `clip` or clip
 * path of no size, its own or around it, or by a box of a pixel or two around it that hides or
 * scrolls what overflows it (a column folded to nothing) — the "visually hidden" rules, put on a
 * wrapper too (a panel's heading kept for screen readers, with the label inside it) — unless the
 * browser draws it there all the same (placed against a box outside the clipping one).
 * @param {Element} el @param {DOMRect} r its box
 */
export function clippedAway(el, r) {
  const view = docOf(el).defaultView;
  if (!view) return false;
  for (const a of around(el)) {
    const s = view.getComputedStyle(a);
    if (clipsToNothing(s)) return true;
    // (A box that scrolls clips as well: one of a pixel or two leaves no room to scroll in.)
    if (a !== el && overflowOf(a, s) && folded(rectOf(a)) && !escapes(el, a) && !(inView(el, r) && drawnAt(el, r))) return true;
  }
  return false;
}

/**
 * What a box does with what overflows it: "clips" (hidden, clip, a `clip` rectangle), "scrolls", or
 * null — visible, or the body's and the root's, whose overflow is the window's and clips nothing of
 * their own box.
 * @param {Element} a @param {CSSStyleDeclaration} s its computed style
 * @returns {"clips" | "scrolls" | null}
 */
function overflowOf(a, s) {
  const doc = docOf(a);
  if (a === doc.body || a === doc.documentElement) return null;
  const ov = s.overflowX + s.overflowY;
  return /(hidden|clip)/.test(ov) || s.clip !== "auto" ? "clips" : /(auto|scroll|overlay)/.test(ov) ? "scrolls" : null;
}

/** A box of a pixel or two across or down: all it holds overflows it. @param {DOMRect} b */
const folded = (b) => b.width <= 2 || b.height <= 2;

/** @param {Element} el @param {DOMRect} r */
function inView(el, r) {
  const view = docOf(el).defaultView;
  return !!view && r.right > 0 && r.bottom > 0 && r.left < view.innerWidth && r.top < view.innerHeight;
}

/**
 * Whether el escapes the overflow clipping of `box` around it, as the browser lays it out: it, or
 * something between them, is placed (absolutely, or fixed) against a box outside `box` — which then
 * does not clip it. (Hit testing, which honours clipping, cannot tell this box's clipping from a
 * scrolled list's, nor ask out of view.)
 * @param {Element} el @param {Element} box
 */
export function escapes(el, box) {
  const view = /** @type {Window} */ (docOf(el).defaultView);
  for (let n = /** @type {Element | null} */ (el); n && n !== box; n = parentElOf(n)) {
    const pos = view.getComputedStyle(n).position;
    if (pos === "fixed") return true;
    if (pos === "absolute") {
      // Its containing block: the nearest placed box around it, else the window's (offsetParent
      // then says the body, unplaced).
      const cb = offsetParentOf(n);
      if (!cb || (cb === docOf(el).body && view.getComputedStyle(cb).position === "static") || (cb !== box && containsOf(cb, box))) return true;
    }
  }
  return false;
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
  if (boxes.every((r) => fixedOutOfView(el, r))) return true; // in a panel fixed outside the window
  for (const a of around(el)) {
    const s = a === el ? st : view.getComputedStyle(a);
    const how = overflowOf(a, s);
    if (how) {
      const b = rectOf(a);
      // A box of no size that hides or scrolls what it holds (a column folded to nothing), or
      // words slid out of a box that hides what overflows it (a panel moved aside in its rail) —
      // unless the words escape its clipping (placed absolutely against a box outside it, as an
      // editor's palette inside a collapsed layout box): the browser then draws them, and hit
      // testing finds them where they are.
      const outside = folded(b)
        || (how === "clips" && boxes.every((r) => r.right <= b.left || r.left >= b.right || r.bottom <= b.top || r.top >= b.bottom));
      if (outside && !drawnAt(el, boxes[0])) return true;
    }
    if (clipsToNothing(s)) return true;
  }
  const ground = color ? groundAt(el, boxes[0], grounds) : null;
  return !!color && !!ground && contrast(color, ground) < 1.1;
}

/**
 * Whether the browser draws the element at the middle of its words' box (hit testing honours
 * clipping): false where that cannot be asked (out of view).
 * @param {Element} el @param {DOMRect} box
 */
function drawnAt(el, box) {
  const doc = docOf(el), view = doc.defaultView;
  if (!view) return false;
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return false;
  return elementsAtOf(doc, x, y).some((e) => e === el || containsOf(el, e));
}

/**
 * The colour drawn behind an element's words, as the browser stacked the page at their first box:
 * the first thing painted under them — an element's background colour, or the page's canvas. Null
 * where that is not known (the words are out of view, or a picture, a video or a gradient lies
 * behind them, as a banner's title over its photo): such words are shown, never guessed unseen.
 * @param {Element} el @param {DOMRect} box @param {Map<Element, number[] | null>} grounds
 */
function groundAt(el, box, grounds) {
  const doc = docOf(el), view = doc.defaultView;
  if (!view) return null;
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return null;
  const stack = elementsAtOf(doc, x, y);
  const at = stack.findIndex((e) => e === el || containsOf(el, e));
  if (at < 0) return null; // something else is drawn over the words: not this test's to judge
  for (let i = at; i < stack.length; i++) {
    const e = stack[i];
    if (grounds.has(e)) return grounds.get(e) || null;
    const s = view.getComputedStyle(e);
    /** @type {number[] | null | undefined} */ let g;
    if (/^(img|video|canvas|svg|iframe|picture|object|embed)$/.test(tagOf(e)) || s.backgroundImage !== "none") g = null;
    else { const bg = rgba(s.backgroundColor); if (bg && bg[3] > 0.5) g = bg; }
    if (g !== undefined) { grounds.set(e, g); return g; }
  }
  return [255, 255, 255, 1]; // the canvas of a page that paints none of its own
}

/**
 * Whether what the browser drew at each of the words' boxes (up to three) lays an opaque blank box
 * over them — a picture, or an element with a background of its own and no words, that is not
 * around them (nor heybro's): a box laid over words to keep them from a person. A box the point
 * does not reach, or one out of view, is not judged (the words are shown).
 * @param {Element} el
 */
function coveredByBox(el) {
  const doc = docOf(el), view = doc.defaultView;
  if (!view) return false;
  const range = doc.createRange();
  range.selectNodeContents(el);
  const boxes = Array.from(range.getClientRects()).filter((r) => r.width >= 1 && r.height >= 1).slice(0, 3);
  if (!boxes.length) return false;
  for (const box of boxes) {
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return false;
    const stack = elementsAtOf(doc, x, y);
    const at = stack.findIndex((e) => e === el || containsOf(el, e));
    if (at <= 0) return false;
    const opaque = stack.slice(0, at).some((e) => {
      // A box of words of its own over them (a menu, a dialog, a popover opened over the page) is
      // the page's own layer, judged as a cover of controls is; a blank box or a picture hides.
      if (containsOf(e, el) || textOf(e).trim()) return false;
      if (/^(img|video|canvas|picture|object|embed|iframe)$/.test(tagOf(e))) return true;
      const s = view.getComputedStyle(e);
      if (Number(s.opacity) < 0.9) return false;
      const bg = rgba(s.backgroundColor);
      return s.backgroundImage !== "none" || (!!bg && bg[3] >= 0.9);
    });
    if (!opaque) return false;
  }
  return true;
}

/**
 * Whether an element is one of `set` or inside one, memoised along the way (ancestors are asked
 * once for all their descendants).
 * @param {Set<Element>} set @returns {(el: Element) => boolean}
 */
export function within(set) {
  /** @type {Map<Element, boolean>} */ const seen = new Map();
  /** @param {Element} el @returns {boolean} */
  const test = (el) => {
    let v = seen.get(el);
    if (v === undefined) {
      const p = parentElOf(el);
      v = set.has(el) || (!!p && test(p));
      seen.set(el, v);
    }
    return v;
  };
  return test;
}

/**
 * The rendering's test of words: unseen when the element, or one above it, is under a rule that
 * could hide words and the computed style says it does, or inside an element with a box that may
 * lie over its words and hit testing finds one there. Memoised for one rendering.
 * @param {Set<Element>} candidates elements under such rules (dom_pointer.js `words`)
 * @param {Set<Element>} [coverParents] elements a box of theirs may lie over (dom_scan.js `coveredWords`)
 * @returns {(el: Element) => boolean}
 */
export function unseenWordsTest(candidates, coverParents = new Set()) {
  if (!candidates.size && !coverParents.size) return () => false;
  /** @type {Map<Element, boolean>} */ const verdict = new Map();
  /** @type {Map<Element, number[] | null>} */ const grounds = new Map();
  const inCandidate = within(candidates), inCover = within(coverParents);
  return (el) => {
    let v = verdict.get(el);
    if (v === undefined) {
      try { v = (inCandidate(el) && wordsUnseen(el, grounds)) || (coverParents.size > 0 && inCover(el) && coveredByBox(el)); } catch { v = false; }
      verdict.set(el, v);
    }
    return v;
  };
}
