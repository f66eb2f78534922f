// @ts-check
/**
 * Two refind.js builds side by side in one page: the same trials as the mutation suites
 * (refind_suite.js, refind_wide.js), each answered by both on the same signature, so a change
 * meant to make re-finding faster can show it gives every answer as before — the same status,
 * the same element, the same confidence, the same candidates with the same scores — and how much
 * faster it is (the two alternate which goes first, so neither always meets a colder page).
 */
import { mutate, MUTATIONS } from "./refind_suite.js";
import { buildPage } from "./refind_pages.js";
import { apply, deepElements, plans } from "./refind_wide.js";

/**
 * @typedef {{captureSignature: (el: Element) => any, refind: (sig: any, root?: any) => any}} Matcher
 * @typedef {{mutation: string, target: number, same: boolean, why?: string, msOld: number, msNew: number}} Compared
 */

/** Whether only the decision is compared (status and element), not the reported candidates. */
let decisionsOnly = false;
/** @param {boolean} on */
export function setDecisionsOnly(on) { decisionsOnly = on; }

/** How two answers differ, or "" when they do not. @param {any} a @param {any} b */
function difference(a, b) {
  if (a.status !== b.status) return `status ${a.status} → ${b.status}`;
  if (a.element !== b.element) return "another element";
  if (decisionsOnly) return "";
  if (a.confidence !== b.confidence) return `confidence ${a.confidence} → ${b.confidence}`;
  if (a.candidates.length !== b.candidates.length) return `${a.candidates.length} → ${b.candidates.length} candidates`;
  for (let i = 0; i < a.candidates.length; i++) {
    const x = a.candidates[i], y = b.candidates[i];
    if (x.element !== y.element || x.score !== y.score) return `candidate ${i} differs`;
  }
  return "";
}

/**
 * One trial: the signature as the old build takes it (the new one must take the same), then the
 * mutation, then both answers.
 * @param {Matcher} oldM @param {Matcher} newM @param {Element} t @param {(t: Element) => Element | null | undefined} change
 * @param {boolean} newFirst
 * @returns {Omit<Compared, "mutation" | "target"> | null}
 */
function trial(oldM, newM, t, change, newFirst) {
  const sig = JSON.parse(JSON.stringify(oldM.captureSignature(t)));
  const sigNew = JSON.stringify(newM.captureSignature(t));
  if (change(t) === undefined) return null;
  const time = (/** @type {Matcher} */ m) => { const t0 = performance.now(); const r = m.refind(sig, document); return { r, ms: performance.now() - t0 }; };
  const [first, second] = newFirst ? [time(newM), time(oldM)] : [time(oldM), time(newM)];
  const [o, n] = newFirst ? [second, first] : [first, second];
  const why = sigNew !== JSON.stringify(sig) ? "another signature" : difference(o.r, n.r);
  const what = why ? { why, sig: `${sig.tag} ${JSON.stringify(sig.name).slice(0, 30)}`, old: o.r.status, new: n.r.status } : {};
  return { same: !why, ...what, msOld: Math.round(o.ms * 100) / 100, msNew: Math.round(n.ms * 100) / 100 };
}

/**
 * The mutation suite's trials (refind_suite.js) on the page as it is now.
 * @param {Matcher} oldM @param {Matcher} newM @param {number[]} targets indices among the body's elements
 * @returns {Compared[]}
 */
export function compareSuite(oldM, newM, targets) {
  const original = /** @type {HTMLElement} */ (document.body.cloneNode(true));
  /** @type {Compared[]} */
  const out = [];
  for (const ti of targets) {
    for (const kind of MUTATIONS) {
      const body = /** @type {HTMLElement} */ (original.cloneNode(true));
      document.body.replaceWith(body);
      const t = body.querySelectorAll("*")[ti];
      if (!t) continue;
      const r = trial(oldM, newM, t, (el) => mutate(kind, el), out.length % 2 === 1);
      if (r) out.push({ mutation: kind, target: ti, ...r });
    }
  }
  document.body.replaceWith(original);
  return out;
}

/**
 * The wide suite's trials (refind_wide.js) on one generated page.
 * @param {Matcher} oldM @param {Matcher} newM @param {string} kind @param {number} seed @param {number[]} targets deep indices
 * @param {number} combos
 * @returns {Compared[]}
 */
export function compareWide(oldM, newM, kind, seed, targets, combos) {
  /** @type {Compared[]} */
  const out = [];
  for (const ti of targets) {
    for (const plan of plans(seed * 7919 + ti, combos)) {
      buildPage(kind, seed);
      const t = deepElements()[ti];
      if (!t) continue;
      const r = trial(oldM, newM, t, (el) => apply(plan, el), out.length % 2 === 1);
      if (r) out.push({ mutation: plan.join("+"), target: ti, ...r });
    }
  }
  return out;
}
