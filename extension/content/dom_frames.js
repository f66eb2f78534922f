// @ts-check
/**
 * Frames the user's site rules keep heybro off, as the coordinator named them with its request
 * (background/frame_rules.js judges them: a frame is a page). This agent reads its own document and
 * the same-origin frames inside it; those the coordinator named — by their place in the page, the
 * index path of `window.frames` from the top, which the browser keeps whatever a page writes — are
 * left out of every read and every search (refind.js `frameDocument` is the one way into a frame's
 * document), each shown in the map by the line it came with.
 */
import { docOf } from "./dom_native.js";

/** @type {Array<{path: number[], line: string}>} */
let off = [];

/** The frames to leave out, from the coordinator's request (none when it names none). @param {unknown} list */
export function setFramesOff(list) {
  off = Array.isArray(list) ? list.filter((o) => o && Array.isArray(o.path) && typeof o.line === "string") : [];
}

/**
 * A window's place in the page: the index of each frame among its parent's, from the top; null when
 * it cannot be told.
 * @param {Window | null} win
 * @returns {number[] | null}
 */
export function framePath(win) {
  if (!win) return null;
  /** @type {number[]} */ const path = [];
  try {
    for (let w = win; w !== w.top; w = w.parent) {
      const p = w.parent;
      let i = 0;
      while (i < p.length && p[i] !== w) i++;
      if (i >= p.length) return null;
      path.unshift(i);
    }
  } catch { return null; }
  return path;
}

/**
 * The line the map shows instead of this frame's document when it is left out; null when it may be
 * read. A frame whose place cannot be told while some are left out is left out too.
 * @param {Document} doc
 * @returns {string | null}
 */
export function leftOut(doc) {
  if (!off.length) return null;
  const path = framePath(doc.defaultView);
  if (!path) return "[frame left out: heybro could not tell which frame this is]";
  const hit = off.find((o) => o.path.length <= path.length && o.path.every((v, i) => v === path[i]));
  return hit ? hit.line : null;
}

/**
 * The line of the left-out frame an element lies in (its own document or one it sits in, up to
 * this agent's), or null: an element found by an id from before the rule held is not acted on.
 * @param {Element} el
 * @returns {string | null}
 */
export function leftOutAround(el) {
  if (!off.length) return null;
  try {
    for (let d = docOf(el); d && d !== document;) {
      const line = leftOut(d);
      if (line) return line;
      const owner = d.defaultView?.frameElement;
      d = owner ? docOf(owner) : null;
    }
  } catch { /* a parent beyond this agent's reach */ }
  return null;
}
