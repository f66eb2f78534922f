// @ts-check
/**
 * Controls in view that a person's pointer cannot reach, judged the way the browser judges a
 * click: by hit testing at the control's visible points (`elementFromPoint`, through shadow roots
 * and same-origin frames).
 *
 * - covered: what the pointer lands on belongs to a layer drawn over the page (fixed, absolute or
 *   sticky) that does not hold the control — a modal's backdrop, a loading veil, a menu opened over
 *   it. Left off the map, which says how many and under what (the model can close or wait for it).
 * - hidden: what it lands on is part of the page itself — the control is clipped by a box it
 *   overflows, drawn under a twin, or under a sibling laid over it. Left off the map: nobody can see
 *   or click it.
 * - open (kept): some point reaches the control (it, what is inside it, or its label); or it is
 *   merely scrolled out of a scrolling box, or under a bar that stays put while the page scrolls (a
 *   header, footer or side panel beside the content covers nothing: scrolling brings it out).
 *
 * Only controls in the viewport can be asked (the browser hit-tests what it draws).
 */
import { containsDeep, deepElementFromPoint, samplePointsOf } from "./dom_roots.js";
import { frameDocument } from "./dom_roots.js";
import { clientHeightOf, clientLeftOf, clientTopOf, clientWidthOf, closestOf, composedParentOf, containsOf, nodeTypeOf, docOf, parentElOf, qsa, rectOf, rectsOf, scrollHeightOf, scrollWidthOf, tagOf, textOf } from "./dom_native.js";
import { escapes } from "./dom_unseen.js";

/**
 * @typedef {import("./dom_scan.js").Entry} Entry
 * @typedef {{count: number, by: Element, entries: Entry[]}} Covered  how many controls were left out, under what
 * @typedef {{x: number, y: number}} Point
 */

/** The outermost positioned element around `el` (below body), or null. @param {Element} el */
function layerOf(el) {
  const view = docOf(el).defaultView;
  if (!view) return null;
  /** @type {Element | null} */ let layer = null;
  for (/** @type {Element | null} */ let n = el; n && n !== docOf(el).body && n !== docOf(el).documentElement; n = parentElOf(n)) {
    const pos = view.getComputedStyle(n).position;
    if (pos === "fixed" || pos === "absolute" || pos === "sticky") layer = n;
  }
  return layer;
}

/** Whether a hit at a point reaches the control (it, inside it, or the label of it). @param {Element} hit @param {Element} el */
function reaches(hit, el) {
  if (containsDeep(el, hit)) return true;
  const label = closestOf(hit, "label");
  return !!label && /** @type {HTMLLabelElement} */ (label).control === el;
}

/**
 * The element at a point of the top window, through shadow roots and same-origin frames.
 * @param {Document} doc @param {number} x @param {number} y
 */
function hitAt(doc, x, y) {
  let hit = deepElementFromPoint(doc, x, y);
  for (let depth = 0; hit && depth < 4 && (tagOf(hit) === "iframe" || tagOf(hit) === "frame"); depth++) {
    const sub = frameDocument(hit);
    if (!sub) break;
    const r = rectOf(hit);
    x -= r.left + clientLeftOf(hit); y -= r.top + clientTopOf(hit);
    const inner = deepElementFromPoint(sub, x, y);
    if (!inner) break;
    hit = inner;
  }
  return hit;
}

/**
 * A bar that stays put while the page scrolls (fixed or sticky: a header, a footer, a side panel,
 * a form's Save bar) and leaves most of the window to the page: what it hides is scrolled under it
 * or beside it, and scrolling brings it out — not covered. (A layer over most of the window, or one
 * that scrolls with the page — a menu opened over a list — does cover.)
 * @param {Element} layer @param {number} vw @param {number} vh
 */
function staysPut(layer, vw, vh) {
  const view = docOf(layer).defaultView;
  const pos = view ? view.getComputedStyle(layer).position : "";
  if (pos !== "fixed" && pos !== "sticky") return false;
  const r = rectOf(layer);
  const w = Math.min(r.right, vw) - Math.max(r.left, 0), h = Math.min(r.bottom, vh) - Math.max(r.top, 0);
  return w > 0 && h > 0 && w * h <= 0.5 * vw * vh;
}

/**
 * The part of a bar that stays put hanging outside the bar's own box at a point (a menu opened
 * from the bar's button, drawn over the page below it): the outermost placed box around the hit,
 * inside the bar, that holds the point the bar's box does not. Null where the bar's box is there.
 * @param {Element} hit @param {Element} bar @param {number} x @param {number} y in their window
 */
function hangingFrom(hit, bar, x, y) {
  const inBox = (/** @type {Element} */ n) => { const r = rectOf(n); return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom; };
  if (inBox(bar)) return null;
  const view = docOf(hit).defaultView;
  if (!view) return null;
  /** @type {Element | null} */ let out = null;
  for (let n = /** @type {Element | null} */ (hit); n && n !== bar; n = parentElOf(n)) {
    if (/^(absolute|fixed)$/.test(view.getComputedStyle(n).position) && inBox(n)) out = n;
  }
  return out;
}

/** Whether the element is in a layer fixed to the window (no scrolling of the page moves it). @param {Element} el */
function fixedItself(el) {
  const own = layerOf(el);
  return !!own && docOf(own).defaultView?.getComputedStyle(own).position === "fixed";
}

/**
 * Whether scrolling can move el at all: the window scrolls (its page is longer or wider than it,
 * and not cut off), or a box around el scrolls itself.
 * @param {Element} el
 */
function scrollsOut(el) {
  const doc = docOf(el), view = doc.defaultView;
  if (!view || windowScrolls(doc)) return true;
  for (let a = parentElOf(el); a && a !== doc.body && a !== doc.documentElement; a = parentElOf(a)) if (scrollsItself(a, view)) return true;
  return false;
}

/** Whether the window scrolls its page: longer or wider than the window, and not cut off. @param {Document} doc */
function windowScrolls(doc) {
  const view = doc.defaultView;
  if (!view) return true;
  const root = doc.scrollingElement || doc.documentElement;
  // (Each way on its own: a page that cuts off what overflows sideways — overflow-x: hidden, as
  // many do — still scrolls up and down.)
  const cut = (/** @type {"overflowY" | "overflowX"} */ axis) => [doc.documentElement, doc.body].some((n) => !!n && /(hidden|clip)/.test(view.getComputedStyle(n)[axis]));
  return (scrollHeightOf(root) > view.innerHeight + 1 && !cut("overflowY")) || (scrollWidthOf(root) > view.innerWidth + 1 && !cut("overflowX"));
}

/** Whether a person scrolls the box along one axis: it holds more than it shows that way (asked first:
 * most boxes hold what they show, and style costs more), and its style lets it scroll.
 * @param {Element} a @param {"X" | "Y"} axis @param {Window} view */
function scrollsAlong(a, axis, view) {
  const over = axis === "Y" ? scrollHeightOf(a) > clientHeightOf(a) + 1 : scrollWidthOf(a) > clientWidthOf(a) + 1;
  return over && /(auto|scroll|overlay)/.test(view.getComputedStyle(a)[axis === "Y" ? "overflowY" : "overflowX"]);
}

/** Whether a person can scroll the box: it holds more than it shows, and its style lets it scroll. @param {Element} a @param {Window} view */
function scrollsItself(a, view) {
  return scrollsAlong(a, "Y", view) || scrollsAlong(a, "X", view);
}

/**
 * Whether a box that hides what overflows it is moved with a box beside it that a person scrolls:
 * one near it (under its fourth ancestor) holding as much along that axis — a grid's header row,
 * which its script moves with the rows below it. Scrolling that box brings out what the cut box holds.
 * @param {Element} box @param {"X" | "Y"} axis @param {Window} view
 */
function movedBeside(box, axis, view) {
  const extent = (/** @type {Element} */ n) => axis === "Y" ? scrollHeightOf(n) : scrollWidthOf(n);
  const held = extent(box), doc = docOf(box);
  let near = box;
  for (let i = 0; i < 4; i++) { const p = parentElOf(near); if (!p || p === doc.body || p === doc.documentElement) break; near = p; }
  for (const n of qsa(near, "*")) {
    if (n === box || containsOf(n, box) || containsOf(box, n)) continue;
    if (Math.abs(extent(n) - held) <= 2 && scrollsAlong(n, axis, view)) return true;
  }
  return false;
}

/**
 * What a box does to what it holds, as cutOff asks it: null when it neither cuts off nor scrolls
 * (it holds no more than it shows — asked first: style costs more), else which axes it cuts off and
 * which it scrolls, and the part of the window it shows its content in.
 * @typedef {{cx: boolean, cy: boolean, sx: boolean, sy: boolean, x0: number, y0: number, x1: number, y1: number, moved: {X?: boolean, Y?: boolean}}} CutBox
 * @param {Element} box @param {Window} view @returns {CutBox | null}
 */
function cutBoxOf(box, view) {
  if (scrollWidthOf(box) <= clientWidthOf(box) + 1 && scrollHeightOf(box) <= clientHeightOf(box) + 1) return null;
  const st = view.getComputedStyle(box);
  const cx = /(hidden|clip)/.test(st.overflowX), cy = /(hidden|clip)/.test(st.overflowY);
  const sx = !cx && scrollsAlong(box, "X", view), sy = !cy && scrollsAlong(box, "Y", view);
  if (!cx && !cy && !sx && !sy) return null;
  const b = rectOf(box), x0 = b.left + clientLeftOf(box), y0 = b.top + clientTopOf(box);
  return { cx, cy, sx, sy, x0, y0, x1: x0 + clientWidthOf(box), y1: y0 + clientHeightOf(box), moved: {} };
}

/**
 * One scan's memo for cutOff: each element's list of the boxes around it that cut off or scroll
 * what they hold, nearest first ("top" for a box of the top layer — an open modal dialog or popover,
 * which nothing around it clips — which ends the list), shared by what it holds: the controls of a
 * long page walk their ancestors once between them; and each document's top layer, looked up once.
 * @typedef {{chains: Map<Element, [Element, CutBox | "top"][]>, tops: Map<Document, Set<Element>>}} CutMemo
 */

/** @param {Node | null} start the element's parent @param {Document} doc @param {Window} view @param {CutMemo} memo */
function cutChainOf(start, doc, view, memo) {
  /** @type {Element[]} */ const path = [];
  /** @type {[Element, CutBox | "top"][]} */ let tail = [];
  for (let n = start; n; n = composedParentOf(n)) {
    if (nodeTypeOf(n) !== 1) continue;
    const el = /** @type {Element} */ (n);
    if (el === doc.body || el === doc.documentElement) break;
    const known = memo.chains.get(el);
    if (known) { tail = known; break; }
    path.push(el);
  }
  let top = memo.tops.get(doc);
  if (!top) { top = new Set(qsa(doc, ":modal, :popover-open")); memo.tops.set(doc, top); }
  for (let i = path.length - 1; i >= 0; i--) {
    const c = top.has(path[i]) ? "top" : cutBoxOf(path[i], view);
    if (c === "top") tail = [[path[i], c]];
    else if (c) tail = [[path[i], c], ...tail];
    memo.chains.set(path[i], tail);
  }
  return tail;
}

/**
 * Whether a control past the window's side is cut off where it lies by a box around it that hides
 * what overflows it (a carousel's slides past its frame, a strip's tabs past its end): scrolling the
 * window or any box a person scrolls never shows it — unless that box moves with one beside it
 * (movedBeside). In view, hit testing says so; out of view, only the layout can. (One placed against
 * a box outside the cut one, or in the top layer, is not cut by it.)
 * @param {Element} el @param {CutMemo} memo
 */
export function cutOff(el, memo) {
  const doc = docOf(el), view = doc.defaultView;
  if (!view) return false;
  const chain = cutChainOf(composedParentOf(el), doc, view, memo);
  if (!chain.length) return false;
  // Where along each axis it can be: where it is, until a box it scrolls in is passed — then
  // anywhere in what that box shows (a strip's last items past a shell that cuts off the window's
  // side come into it).
  const r = rectOf(el);
  let [x0, x1, y0, y1] = [r.left, r.right, r.top, r.bottom];
  for (const [box, c] of chain) {
    if (c === "top") return false;
    /** @type {"X" | "Y" | null} */ const axis = c.cx && (x1 <= c.x0 || x0 >= c.x1) ? "X" : c.cy && (y1 <= c.y0 || y0 >= c.y1) ? "Y" : null;
    if (c.sx) [x0, x1] = [c.x0, c.x1];
    if (c.sy) [y0, y1] = [c.y0, c.y1];
    if (!axis || escapes(el, box)) continue;
    if (c.moved[axis] === undefined) c.moved[axis] = movedBeside(box, axis, view);
    return !c.moved[axis];
  }
  return false;
}

/**
 * Whether the point lies outside a box the control scrolls in (a list scrolled past it): scrolling
 * that box brings the control out, so it is not hidden.
 * @param {Element} el @param {number} x @param {number} y in el's own window
 */
function scrolledAway(el, x, y) {
  const view = docOf(el).defaultView;
  if (!view) return false;
  for (/** @type {Node | null} */ let n = composedParentOf(el); n; n = composedParentOf(n)) {
    if (nodeTypeOf(n) !== 1) continue;
    const a = /** @type {Element} */ (n);
    if (a === docOf(el).documentElement || a === docOf(el).body) break;
    if (!scrollsItself(a, view)) continue;
    const r = rectOf(a);
    if (x < r.left || x > r.left + clientWidthOf(a) || y < r.top || y > r.top + clientHeightOf(a)) return true;
  }
  return false;
}

/**
 * The points a pointer would try on a control: across its box, and then (asked only when none of
 * those reaches it: most controls are one box) the middle of each of the first lines of an element
 * that wraps (a link over two lines has a box with other words in its middle); each in the top
 * window, and only where the window shows it.
 * @param {Entry} e @param {number} vw @param {number} vh @param {boolean} inTop the element is in the top document
 * @returns {{box: Point[], lines: () => Point[], dx: number, dy: number}} dx, dy: from the element's window to the top one
 */
function samplePoints(e, vw, vh, inTop) {
  const b = e.box;
  const el = e.surface || e.el;
  // Where the element's frame sits in the top window (its box was read there: nothing to add in the top document).
  let dx = 0, dy = 0;
  if (!inTop) { const own = rectOf(el); dx = b.x - own.left; dy = b.y - own.top; }
  const inView = (/** @type {Point} */ p) => p.x >= 0 && p.y >= 0 && p.x < vw && p.y < vh;
  /** @type {Point[]} */ const box = [];
  // Across the part of its box the window shows (a control half scrolled out is aimed at where it shows).
  const x0 = Math.max(b.x, 0), y0 = Math.max(b.y, 0), x1 = Math.min(b.x + b.w, vw), y1 = Math.min(b.y + b.h, vh);
  if (x1 - x0 >= 1 && y1 - y0 >= 1) for (const [fx, fy] of samplePointsOf(x1 - x0, y1 - y0)) box.push({ x: x0 + (x1 - x0) * fx, y: y0 + (y1 - y0) * fy });
  const lines = () => {
    /** @type {Point[]} */ const out = [];
    const rs = rectsOf(el);
    if (rs.length > 1) for (let i = 0; i < Math.min(rs.length, 4); i++) {
      const r = rs[i];
      if (r.width > 2 && r.height > 2) out.push({ x: r.left + dx + r.width / 2, y: r.top + dy + r.height / 2 });
    }
    return out.filter(inView);
  };
  return { box: box.filter(inView), lines, dx, dy };
}

/**
 * What a pointer finds at a control's visible points.
 * @param {Document} doc @param {Entry} e @param {number} vw @param {number} vh
 * @param {Map<Element, Element | null>} layers hit element → its layer (asked once per element)
 * @param {boolean} [whole] open only when every point reaches it (where on the box a control will show is not known)
 * @returns {"open" | "away" | "out" | "hidden" | {cover: Element}} away: scrolled out of a box it scrolls in (kept);
 *   out: no point of it in the window
 */
function judge(doc, e, vw, vh, layers, whole = false) {
  const pts = samplePoints(e, vw, vh, docOf(e.surface || e.el) === doc);
  const el = e.surface || e.el; // a code editor is where its box is drawn, not its hidden field
  /** @type {Element | null} */ let first = null;
  /** @type {Point} */ let at = { x: 0, y: 0 };
  /** @param {Point[]} ps */
  const tryAt = (ps) => {
    for (const p of ps) {
      const hit = hitAt(doc, p.x, p.y);
      if (!hit || reaches(hit, el)) { if (whole) continue; return true; }
      if (!first) { first = hit; at = p; }
      if (whole) return false;
    }
    return whole;
  };
  if (tryAt(pts.box)) return "open";
  const lines = whole ? [] : pts.lines();
  if (!whole && tryAt(lines)) return "open";
  const top = [...pts.box, ...lines];
  // (In the page's rows but past the window's side — a wide grid's last columns: judged as out of view.)
  if (!top.length) return "out";
  if (!first) return "open";
  // Scrolled out of the box it scrolls in, wholly (a palette's list past its last shown row): what
  // the window shows at its place is whatever lies behind that box, no cover of it. (A box that is
  // itself under a cover takes it along: dropUnreachable.)
  const away = top.map((p) => scrolledAway(el, p.x - pts.dx, p.y - pts.dy)); // (each point's ancestors walked once)
  if (away.every(Boolean)) return "away";
  let layer = layers.get(first);
  if (layer === undefined) { layer = layerOf(first); layers.set(first, layer); }
  // (A bar that stays put covers nothing the page scrolls out from under it — unless the control
  // stays put as well: a fixed panel's list under a shade laid over that panel; or nothing scrolls
  // it: an application's shell that fills the window, a popover fixed over its grid's heads.)
  if (layer && !containsDeep(layer, el)) {
    if (!staysPut(layer, vw, vh) || fixedItself(el) || !scrollsOut(el)) return { cover: layer };
    // (What hangs from such a bar over the page, outside the bar's own box — a menu opened from
    // its button — covers as a menu opened over a list does.)
    const hit = /** @type {Element} */ (first);
    const hang = docOf(hit) === doc ? hangingFrom(hit, layer, at.x, at.y) : null; // (points are the top window's)
    return hang ? { cover: hang } : "open";
  }
  // Drawn over by the page itself: clipped, or under a sibling — unless a box it scrolls in hides it.
  return away.some(Boolean) ? "away" : "hidden";
}

/**
 * What a pointer finds at an element that is not itself listed (a box a control scrolls in, the row
 * a pointer must be over first), judged at its box as a control's is — or at a part of that box.
 * @param {Document} doc @param {Element} el @param {number} vw @param {number} vh @param {Map<Element, Element | null>} layers
 * @param {{x: number, y: number, w: number, h: number}} [box] the part judged (all of it by default)
 */
function judgeElement(doc, el, vw, vh, layers, box) {
  const r = rectOf(el);
  return judge(doc, /** @type {Entry} */ (/** @type {unknown} */ ({ el, box: box || { x: r.left, y: r.top, w: r.width, h: r.height } })), vw, vh, layers);
}

/**
 * Where in the box it scrolls in a control scrolled out of it comes into view: the band of that
 * box's shown part along the control's column (scrolled past up or down) or its row (left or
 * right), or the whole shown part when it is past both.
 * @param {Element} sc @param {Entry} e
 */
function landingBand(sc, e) {
  const r = rectOf(sc);
  const x0 = r.left + clientLeftOf(sc), y0 = r.top + clientTopOf(sc), x1 = x0 + clientWidthOf(sc), y1 = y0 + clientHeightOf(sc);
  const b = e.box, l = Math.max(b.x, x0), rt = Math.min(b.x + b.w, x1), t = Math.max(b.y, y0), bt = Math.min(b.y + b.h, y1);
  if (rt - l >= 1) return { x: l, y: y0, w: rt - l, h: y1 - y0 };
  if (bt - t >= 1) return { x: x0, y: t, w: x1 - x0, h: bt - t };
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/** Points along the window's edges (fractions of its size), where a dialog in the middle is not. */
const EDGES = [[0.05, 0.05], [0.5, 0.05], [0.95, 0.05], [0.05, 0.5], [0.95, 0.5], [0.05, 0.95], [0.5, 0.95], [0.95, 0.95]];

/**
 * A layer fixed over the whole window (a modal's backdrop or its full-window container): what is
 * hit along nearly all the window's edges, drawn over all of it. Whatever it does not hold is
 * covered at any scroll position — the controls out of view included. (So is a blank one placed
 * over the page's whole box where the window does not scroll: jQuery UI's shade; an application's
 * panels placed over it hold its content, no shade.)
 * @param {Document} doc @param {number} vw @param {number} vh
 */
function fullCover(doc, vw, vh) {
  /** @type {Map<Element, number>} */ const votes = new Map();
  let misses = 0;
  for (const [fx, fy] of EDGES) {
    const hit = deepElementFromPoint(doc, vw * fx, vh * fy);
    const l = hit && layerOf(hit);
    if (l) votes.set(l, (votes.get(l) || 0) + 1);
    // (A layer over the whole window is hit at all edges but one: two points without one say no.)
    else if (++misses > 1) return null;
  }
  let layer = null, most = 0;
  for (const [l, n] of votes) if (n > most) { layer = l; most = n; }
  if (!layer || most < EDGES.length - 1) return null;
  const pos = docOf(layer).defaultView?.getComputedStyle(layer).position;
  if (pos !== "fixed" && (pos !== "absolute" || windowScrolls(doc) || /\S/.test(textOf(layer) || ""))) return null;
  const r = rectOf(layer);
  return r.left <= 1 && r.top <= 1 && r.right >= vw - 1 && r.bottom >= vh - 1 ? layer : null;
}

/**
 * Takes the controls no pointer can reach out of `entries` (in place): covered ones are said (the
 * result names what covers them); hidden ones are counted. Inline ones are marked (their sentence
 * shows their words without an id). A control whose hit test fails to read stays listed (the
 * action's own check will say what is wrong with it).
 * @param {Document} doc @param {Entry[]} entries
 * @returns {{covered: Covered | null, hidden: Entry[]}}
 */
export function dropUnreachable(doc, entries) {
  const view = /** @type {Window} */ (doc.defaultView);
  const vw = view.innerWidth, vh = view.innerHeight;
  /** @type {Map<Element, Element | null>} */ const layers = new Map();
  /** @type {CutMemo} */ const cuts = { chains: new Map(), tops: new Map() };
  /** @type {Covered | null} */ let covered = null;
  let kept = 0;
  /** @type {Entry[]} */ const hidden = [];
  /** @type {Element | null} */ let full = null;
  try { full = fullCover(doc, vw, vh); } catch { full = null; }
  /** Out of view, kept for now: under a cover too when the box they scroll in is (below). @type {Entry[]} */
  const away = [];
  for (const e of entries) {
    /** @type {"open" | "away" | "out" | "hidden" | {cover: Element}} */ let v = "open";
    // (A control shown on hover is not reachable now by design: the action hovers first — unless a
    // layer over the whole page, a modal's backdrop, keeps the pointer from its row as well.)
    if (e.onHover) {
      v = full && !containsDeep(full, e.el) ? { cover: full } : "open";
      // Where it shows is under a cover or drawn over (behind a dialog, under a menu), though its
      // row may peek out: judged at its own place, where whatever of its row the pointer finds
      // there is the row (a hidden control lets the pointer through to it).
      if (v === "open" && e.hoverAt && e.where === "in" && docOf(e.hoverAt) === doc) {
        try {
          // (Where the pointer goes is inside the control when the hover draws a part of it, an
          // icon: the control is then what the pointer finds.)
          const target = containsDeep(e.hoverAt, e.el) ? e.hoverAt : e.el;
          // (One with no box until then, laid out on hover, is where its row is.)
          const r = e.box.w >= 1 && e.box.h >= 1 ? null : rectOf(e.hoverAt);
          const box = r ? { x: r.left, y: r.top, w: r.width, h: r.height } : e.box;
          const at = /** @type {Entry} */ ({ ...e, el: target, surface: undefined, box });
          const h = judge(doc, at, vw, vh, layers);
          if (typeof h === "object" || h === "hidden") v = h;
          // (Where on its row it will show is not known: a part of the row under a menu may be
          // that place, so a cover over any part of the row is a doubt, and a doubt leaves it out.)
          else if (rectOf(e.el).width < 1) { const w = judge(doc, at, vw, vh, layers, true); if (typeof w === "object" || w === "hidden") v = w; }
        } catch { /* judged as shown */ }
      }
    }
    else if (e.where === "in") { try { v = judge(doc, e, vw, vh, layers); } catch { v = "open"; } }
    // Past the window's side, cut off by a box that hides what overflows it: as hidden as it would
    // be in view. (Only sideways: a window seldom scrolls that way, so it is judged where it lies;
    // one above or below the window is judged by hit testing once the window scrolls to it — and
    // long pages hold thousands of those.)
    const side = v === "out";
    if ((e.where !== "in" || v === "out") && !e.onHover) v = full && !containsDeep(full, e.el) ? { cover: full } : "out";
    if (side && v === "out" && !e.onHover) { try { if (cutOff(e.surface || e.el, cuts)) v = "hidden"; } catch { /* judged as out of view */ } }
    if (v === "open" || v === "away" || v === "out") { if ((v !== "open" && !e.onHover) || (e.onHover && e.where !== "in")) away.push(e); entries[kept++] = e; continue; }
    e.covered = true;
    if (v === "hidden") { hidden.push(e); continue; }
    e.coveredBy = v.cover;
    if (covered) { covered.count++; covered.entries.push(e); } else covered = { count: 1, by: v.cover, entries: [e] };
  }
  entries.length = kept;
  // A control scrolled out of a box that is itself under a cover (a panel's list behind a dialog's
  // shade), or drawn over by the page (a flow editor's canvas and palette under its tray's shade),
  // comes into view there still under it — as does one whose column of that box is under a layer
  // (a notebook's cells below a menu opened over their side of it). Asked only when something is
  // covered or hidden at all.
  if ((covered || hidden.length) && away.length) {
    /** @type {Map<string, Element | "hidden" | null>} */ const under = new Map();
    /** @type {Map<Element, number>} */ const boxIds = new Map();
    const out = new Set(away.filter((e) => {
      const sc = docOf(e.el) === doc && scrollBoxOf(e.el);
      if (!sc) return false;
      const band = landingBand(sc, e);
      if (!boxIds.has(sc)) boxIds.set(sc, boxIds.size);
      const key = `${boxIds.get(sc)} ${Math.round(band.x)} ${Math.round(band.y)} ${Math.round(band.w)} ${Math.round(band.h)}`;
      if (!under.has(key)) {
        let v;
        try { v = judgeElement(doc, sc, vw, vh, layers, band); } catch { v = "open"; }
        under.set(key, typeof v === "object" ? v.cover : v === "hidden" ? "hidden" : null);
      }
      const by = under.get(key);
      if (!by) return false;
      e.covered = true;
      if (by === "hidden") { hidden.push(e); return true; }
      e.coveredBy = by;
      if (covered) { covered.count++; covered.entries.push(e); } else covered = { count: 1, by, entries: [e] };
      return true;
    }));
    if (out.size) { let k = 0; for (const e of entries) if (!out.has(e)) entries[k++] = e; entries.length = k; }
  }
  return { covered, hidden };
}

/**
 * Whether el lies in a box that scrolls itself and is in the window's view (a dialog fixed over the
 * window whose long content scrolls inside it): scrolling that box brings el out, wherever el is
 * now. A box out of view itself (a log inside a console slid below the window) does not.
 * @param {Element} el
 */
export function scrollsIntoView(el) {
  const sc = scrollBoxOf(el), view = docOf(el).defaultView;
  if (!sc || !view) return false;
  const r = rectOf(sc);
  return r.bottom > 0 && r.right > 0 && r.top < view.innerHeight && r.left < view.innerWidth;
}

/** The box an element scrolls in, short of the page itself (null when that is the page). @param {Element} el */
function scrollBoxOf(el) {
  const view = docOf(el).defaultView;
  if (!view) return null;
  for (let n = parentElOf(el), depth = 0; n && depth < 40; n = parentElOf(n), depth++) {
    const tag = tagOf(n);
    if (tag === "body" || tag === "html") return null;
    if (scrollsItself(n, view)) return n;
  }
  return null;
}
