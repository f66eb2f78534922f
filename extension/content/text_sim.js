// @ts-check
/**
 * How alike two texts are, as re-finding compares them: a near match is worth clearly less than an
 * exact one, and texts whose numbers differ, or that replace a word with another, are other things.
 */
import { norm } from "./norm.js";

/** Bigram counts of texts seen lately: a page repeats its words ("Add to cart" × 200), and a
 * re-find compares the same captured words with thousands of candidates. @type {Map<string, Map<string, number>>} */
const BIGRAMS = new Map();

/** @param {string} s */
function bigrams(s) {
  let m = BIGRAMS.get(s);
  if (m) return m;
  m = new Map();
  for (let i = 0; i < s.length - 1; i++) { const g = s.slice(i, i + 2); m.set(g, (m.get(g) || 0) + 1); }
  if (BIGRAMS.size > 20000) BIGRAMS.clear();
  BIGRAMS.set(s, m);
  return m;
}

/** @param {string} s */
export function numbers(s) { return (s.match(/\d+/g) || []).join(" "); }

/**
 * Similarity of two texts, 0..1 (null when neither side has one): Dice coefficient on character
 * bigrams, but a near match is worth clearly less than an exact one (a look-alike differs by a
 * word), and texts whose numbers differ ("Tab #2" / "Tab #3", "Book for $485" / "$1579") are
 * different things however many letters they share.
 * @param {string} a @param {string} b
 */
export function textSim(a, b) {
  a = norm(a).toLowerCase(); b = norm(b).toLowerCase();
  if (!a && !b) return null;
  if (!a || !b) return 0;
  if (a === b) return 1;
  // One character: only "3" → "3s" (the same thing, extended) keeps something in common.
  if (a.length < 2 || b.length < 2) return a[0] === b[0] ? NEAR * 0.5 : 0;
  const ga = bigrams(a), gb = bigrams(b);
  let inter = 0;
  for (const [g, n] of ga) inter += Math.min(n, gb.get(g) || 0);
  const dice = (2 * inter) / (a.length - 1 + b.length - 1);
  return NEAR * dice * (numbers(a) === numbers(b) && !replacedWord(a, b) ? 1 : OTHER_NUMBER);
}

/**
 * Whether one text has a word the other replaced with an unrelated word ("Edit Ada" / "Delete
 * Ada", "Continue with Apple" / "Continue with GitHub"): another thing, not the same one reworded.
 * A word that grew or shrank ("cart" / "carts", "Sign in" / "Sign in now") is the same thing.
 * @param {string} a @param {string} b lower case
 */
export function replacedWord(a, b) {
  const wa = a.split(/[^\p{L}]+/u).filter(Boolean), wb = b.split(/[^\p{L}]+/u).filter(Boolean);
  const onlyA = wa.filter((w) => !wb.includes(w)), onlyB = wb.filter((w) => !wa.includes(w));
  if (!onlyA.length || !onlyB.length) return false;
  const related = (/** @type {string} */ x, /** @type {string} */ y) => x.startsWith(y) || y.startsWith(x);
  return onlyA.some((x) => !onlyB.some((y) => related(x, y))) && onlyB.some((y) => !onlyA.some((x) => related(x, y)));
}

/** What a near (not exact) text match is worth, and how much of that is left when the numbers differ. */
export const NEAR = 0.85, OTHER_NUMBER = 0.3;
