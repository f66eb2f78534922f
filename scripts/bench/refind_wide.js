// @ts-check
/**
 * The wide re-finding suite, run inside a page: generated pages (refind_pages.js) with twins in
 * other parts of the page and look-alikes in shadow roots; each trial rebuilds the page, captures
 * the target's signature (JSON round-tripped, as it travels in the product), applies one mutation
 * or a combination of two or three, and asks `refind`. Nothing changed must be found; a deleted
 * target must be refused; anything else is correct, wrong or abstained.
 */
import { captureSignature, refind, walkDeep } from "../../extension/content/refind.js";
import { scanPage, Registry } from "../../extension/content/dom_scan.js";
import { buildPage } from "./refind_pages.js";
import { mutate, lookAlike } from "./refind_suite.js";

/** Mutations applied alone. "none" changes nothing. */
export const SINGLES = ["none", "id_renamed", "id_removed", "classes_hashed", "wrapper_added", "wrapper_removed",
  "siblings_reordered", "text_tweaked", "tag_swapped", "element_moved", "decoy_added", "decoy_elsewhere",
  "attribute_dropped", "deleted"];
/** What a combination draws from (a redesign changes several things at once). */
const COMBINABLE = ["id_renamed", "id_removed", "classes_hashed", "wrapper_added", "wrapper_removed", "siblings_reordered",
  "text_tweaked", "tag_swapped", "element_moved", "decoy_added", "decoy_elsewhere", "attribute_dropped"];

/** Changes that come before a deletion in a combination: they change the page around the target. */
const BEFORE_DELETE = ["classes_hashed", "siblings_reordered", "decoy_elsewhere", "wrapper_added", "element_moved"];

/** Every element of the page in deep order (open shadow roots included). */
export function deepElements() {
  /** @type {Element[]} */
  const out = [];
  walkDeep(document.body, (el) => out.push(el));
  return out;
}

/** @param {number} seed */
function draw(seed) {
  let a = seed >>> 0 || 1;
  return () => { a = Math.imul(a ^ (a >>> 15), 2246822507) + 0x9e3779b9 >>> 0; return (a >>> 8) / 16777216; };
}

/**
 * The interactive elements the scanner reports, spread over the page, as deep indices.
 * @param {string} kind @param {number} seed @param {number} limit
 */
export function targetsOf(kind, seed, limit) {
  buildPage(kind, seed);
  const all = deepElements();
  const idx = new Map(all.map((e, i) => [e, i]));
  const els = scanPage(new Registry("")).entries.map((e) => idx.get(e.el)).filter((i) => i !== undefined);
  const n = Math.min(limit, els.length), step = els.length / Math.max(n, 1);
  return Array.from({ length: n }, (_, k) => /** @type {number} */ (els[Math.floor(k * step)]));
}

/**
 * The mutation plans for one target: every single one, `combos` combinations of two or three,
 * and one deletion after another change.
 * @param {number} seed @param {number} combos
 */
export function plans(seed, combos) {
  const next = draw(seed);
  /** @type {string[][]} */
  const out = SINGLES.map((m) => [m]);
  for (let c = 0; c < combos; c++) {
    const pool = COMBINABLE.slice();
    const n = next() < 0.5 ? 2 : 3;
    /** @type {string[]} */
    const plan = [];
    while (plan.length < n && pool.length) plan.push(pool.splice(Math.floor(next() * pool.length), 1)[0]);
    out.push(plan);
  }
  // A page-wide change, then the target deleted (a near copy put next to it first would be the
  // target with its text tweaked: no matcher can tell, so that pair is not drawn).
  out.push([BEFORE_DELETE[Math.floor(next() * BEFORE_DELETE.length)], "deleted"]);
  return out;
}

/**
 * Applies a plan in order; the element to find follows each step (a swapped tag is a new element).
 * Returns undefined when a step does not apply to this target (the trial is not counted).
 * @param {string[]} plan @param {Element} t
 * @returns {Element | null | undefined}
 */
export function apply(plan, t) {
  /** @type {Element | null} */ let cur = t;
  for (const m of plan) {
    if (m === "none") continue;
    if (!cur) return undefined;
    const got = mutate(m, cur);
    if (got === undefined) return undefined;
    cur = got;
  }
  return cur;
}

/**
 * Runs the suite on one page.
 * @param {string} kind @param {number} seed @param {number[]} targets @param {{combos?: number, explain?: boolean, timing?: boolean}} [opts]
 */
export function runWide(kind, seed, targets, opts = {}) {
  /** @type {Array<Record<string, any>>} */
  const out = [];
  for (const ti of targets) {
    for (const plan of plans(seed * 7919 + ti, opts.combos ?? 3)) {
      buildPage(kind, seed);
      const t = deepElements()[ti];
      if (!t) continue;
      const sig = JSON.parse(JSON.stringify(captureSignature(t)));
      const expected = apply(plan, t);
      if (expected === undefined) continue;
      const t0 = performance.now();
      const r = refind(sig, document);
      const ms = performance.now() - t0;
      let outcome = r.status !== "found" ? "abstained" : r.element === expected ? "correct" : "wrong";
      if (outcome !== "correct" && expected && lookAlike(sig, expected)) outcome = "indistinguishable-" + outcome;
      const mutation = plan.length === 1 ? plan[0] : plan.includes("deleted") ? "combo_deleted" : `combo_${plan.length}`;
      /** @type {Record<string, any>} */
      const row = { target: ti, mutation, plan: plan.join("+"), outcome, ms: Math.round(ms * 100) / 100, confidence: Math.round(r.confidence * 1000) / 1000, why: r.why || null };
      if (opts.explain && outcome !== "correct" && !(outcome === "abstained" && !expected)) {
        row.sig = `${sig.tag} ${sig.role} ${JSON.stringify(sig.name)} ${JSON.stringify(sig.attrs)} ctx=${JSON.stringify(sig.context || null)}`;
        row.got = r.element ? `${r.element.localName} ${JSON.stringify((r.element.textContent || "").trim().slice(0, 30))}` : r.status;
        row.top = r.candidates.slice(0, 3).map((c) => `${c.element === expected ? "*" : ""}${c.tag} ${JSON.stringify(c.name).slice(0, 30)} ${c.score}`);
      }
      out.push(row);
    }
  }
  return out;
}
