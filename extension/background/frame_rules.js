// @ts-check
/**
 * Frames are pages: the user's per-site permissions (shared/site_rules.js) hold in every frame heybro
 * reads or acts in, as in a tab. A frame is kept off when its own site is, or when a frame it sits
 * in is (whatever a kept-off page embeds is shown by that page); a frame with no site of its own
 * (about:blank, srcdoc, data:) is its parent's. What is kept off is never read, never acted in and
 * never shown on a screenshot; the page map says in one line that it was left out, and why.
 *
 * Pure functions over two views of a tab's frames: the browser's (`FrameNode`: webNavigation's
 * frame ids, parents and committed addresses — what the rules are judged on) and each frame's own
 * (`FrameSeen`: its place among its parent's frames, its viewport and the boxes of its child
 * frames — where a frame is on screen, what frames.js asks each frame). A frame's place is its
 * index path from the top page (`window.frames` at each level: [2, 0] is the first frame of the
 * top page's third), which the frame and every frame above it tell alike.
 *
 * @typedef {import("../shared/site_rules.js").SiteGate} SiteGate
 * @typedef {import("../shared/site_rules.js").SiteVerdict} SiteVerdict
 * @typedef {{frameId: number, parentFrameId: number, url: string}} FrameNode
 * @typedef {{x: number, y: number, w: number, h: number}} Box  CSS px, in a frame's viewport
 * @typedef {Box & {i: number, cx: number, cy: number, s: number}} ChildBox  a child frame's element: its box, where its
 *   content starts (cx, cy) and how much it is scaled (s: a CSS transform's 0.5 draws the frame at half size)
 * @typedef {{x: number, y: number, s: number}} Offset  where a frame's viewport starts in the top page's, and its scale there
 * @typedef {{frameId: number, path: number[] | null, root: boolean, url: string, vw: number, vh: number, kids: ChildBox[]}} FrameSeen
 * @typedef {{verdict: SiteVerdict, url: string}} FrameVerdict  url: the address of the frame whose site is kept off (itself or one it sits in)
 */
import { siteVerdict } from "../shared/site_rules.js";

/**
 * The address a frame's site is read from: a blob: address's origin; another address as it is
 * (one with no host has no site: the frame is its parent's).
 * @param {string} url
 */
export function frameAddress(url) {
  const u = String(url || "");
  if (/^blob:/i.test(u)) { try { return new URL(u.slice(5)).origin; } catch { return ""; } }
  return u;
}

/**
 * Each frame's verdict: its own site's, else that of the nearest frame it sits in that is kept off;
 * null for a frame heybro may read.
 * @param {FrameNode[]} nodes @param {SiteGate} gate
 * @returns {Map<number, FrameVerdict | null>}
 */
export function frameVerdicts(nodes, gate) {
  const byId = new Map(nodes.map((n) => [n.frameId, n]));
  /** @type {Map<number, FrameVerdict | null>} */ const out = new Map();
  /** @param {number} id @param {number} depth @returns {FrameVerdict | null} */
  const of = (id, depth) => {
    if (out.has(id)) return /** @type {FrameVerdict | null} */ (out.get(id));
    const n = byId.get(id);
    if (!n) return null;
    const own = siteVerdict(frameAddress(n.url), gate);
    // (A parent the browser no longer lists, or a loop, ends the climb.)
    const v = own ? { verdict: own, url: n.url } : n.parentFrameId >= 0 && depth < 64 ? of(n.parentFrameId, depth + 1) : null;
    out.set(id, v);
    return v;
  };
  for (const n of nodes) of(n.frameId, 0);
  return out;
}

/** @param {number[] | null} path */
const keyOf = (path) => (path ? path.join(".") : "");

/**
 * Whether `path` is `top` or inside it.
 * @param {number[]} path @param {number[]} top
 */
export function within(path, top) {
  return top.length <= path.length && top.every((v, i) => v === path[i]);
}

/**
 * Where each frame's viewport starts in the top page's viewport (CSS px), and at what scale: the
 * frames it sits in, composed from the boxes each parent gives its child frames. Null for a frame
 * whose place cannot be told (a parent that did not answer, an owner element not found).
 * @param {FrameSeen[]} seen
 * @returns {Map<number, Offset | null>}
 */
export function frameOffsets(seen) {
  const byPath = new Map(seen.filter((f) => f.path).map((f) => [keyOf(f.path), f]));
  /** @type {Map<string, Offset | null>} */ const memo = new Map([["", { x: 0, y: 0, s: 1 }]]);
  /** @param {number[]} path @returns {Offset | null} */
  const at = (path) => {
    const key = keyOf(path);
    if (memo.has(key)) return /** @type {Offset | null} */ (memo.get(key));
    memo.set(key, null); // (a loop in what frames said ends here)
    const parentPath = path.slice(0, -1);
    const parent = byPath.get(keyOf(parentPath));
    const base = parent ? at(parentPath) : null;
    const kid = parent?.kids.find((k) => k.i === path[path.length - 1]);
    const v = base && kid ? { x: base.x + base.s * kid.cx, y: base.y + base.s * kid.cy, s: base.s * (kid.s || 1) } : null;
    memo.set(key, v);
    return v;
  };
  return new Map(seen.map((f) => [f.frameId, f.path ? at(f.path) : null]));
}

/**
 * A box in a frame's viewport, in the top page's.
 * @param {Box} b @param {Offset} o @returns {Box}
 */
export function inTop(b, o) { return { x: o.x + o.s * b.x, y: o.y + o.s * b.y, w: o.s * b.w, h: o.s * b.h }; }

/**
 * What a screenshot must cover: the box, in the top page's viewport, of every kept-off frame that
 * does not sit in another kept-off frame (covering it covers all it holds) and is rendered; and the
 * addresses of those whose box cannot be told (then no screenshot may be sent).
 * @param {FrameSeen[]} seen @param {Map<number, FrameVerdict | null>} verdicts @param {FrameNode[]} nodes
 * @returns {{boxes: Array<Box & {site: string}>, unknown: string[]}}
 */
export function keptOffBoxes(seen, verdicts, nodes) {
  const offsets = frameOffsets(seen);
  const byId = new Map(seen.map((f) => [f.frameId, f]));
  const byPath = new Map(seen.filter((f) => f.path).map((f) => [keyOf(f.path), f]));
  /** @type {Array<Box & {site: string}>} */ const boxes = [];
  /** @type {string[]} */ const unknown = [];
  for (const n of nodes) {
    const v = verdicts.get(n.frameId);
    if (!v || n.frameId === 0 || verdicts.get(n.parentFrameId)) continue;
    const f = byId.get(n.frameId);
    // A frame that is not rendered shows nothing; one that did not say is taken to show.
    if (f && (f.vw <= 0 || f.vh <= 0)) continue;
    const path = f?.path;
    const parent = path ? byPath.get(keyOf(path.slice(0, -1))) : undefined;
    const base = parent ? offsets.get(parent.frameId) : null;
    const kid = path ? parent?.kids.find((k) => k.i === path[path.length - 1]) : undefined;
    if (!path || !base || !kid) { unknown.push(n.url); continue; }
    if (kid.w > 0 && kid.h > 0) boxes.push({ ...inTop(kid, base), site: v.verdict.site });
  }
  return { boxes, unknown };
}

/**
 * The kept-off frames inside a root frame's document that its agent could reach itself (same-origin
 * ones): by their place, each with the line the map shows instead.
 * @param {FrameSeen[]} seen @param {Map<number, FrameVerdict | null>} verdicts @param {number[]} rootPath
 * @returns {Array<{path: number[], line: string}>}
 */
export function framesOffUnder(seen, verdicts, rootPath) {
  /** @type {Array<{path: number[], line: string}>} */ const out = [];
  for (const f of seen) {
    const v = verdicts.get(f.frameId);
    if (v && f.path && f.path.length > rootPath.length && within(f.path, rootPath)) out.push({ path: f.path, line: leftOutLine(v) });
  }
  return out;
}

/** Page words must not close the map's fence or fake a line of heybro's (as dom_tools.js's clean). @param {string} s */
const clean = (s) => s.replace(/"{3,}|<<<|>>>/g, "«").replace(/[\r\n\u2028\u2029]+/g, " ");

/**
 * The one line the map shows for a frame left out: where it was (its address, cut short: the page
 * chose it) and why.
 * @param {FrameVerdict} v
 */
export function leftOutLine(v) {
  let where = String(v.url || "");
  try { const u = new URL(where); if (/^https?:$/.test(u.protocol)) where = u.host + u.pathname; } catch { /* as it is */ }
  where = clean(where.length > 80 ? `${where.slice(0, 77)}…` : where);
  const why = v.verdict.rule === "ask"
    ? `${v.verdict.site} is a site to ask the user about first, and they have not said yes in this task`
    : `heybro does not work on ${v.verdict.site}: ${v.verdict.why}`;
  return `[frame left out: ${where} — ${clean(why)}]`;
}
