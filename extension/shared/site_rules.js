// @ts-check
/**
 * The user's per-site permissions, read the way the host reads them (shared_schema/sites.py; both
 * are tested against tests/fixtures/site_rules_cases.json): never, ask first (unless the user said
 * yes during the task), allowed, then the categories heybro stays off.
 *
 * @typedef {{never?: string[], ask?: string[], allow?: string[], categories_off?: string[], approved?: string[]}} SiteGate
 * @typedef {{rule: "never" | "ask", site: string, why: string}} SiteVerdict
 */
import { SITE_CATEGORIES } from "./schema_check.js";
import { matches, patternOf, siteOf } from "./site_match.js";

export { matches, patternOf, siteOf };

/**
 * Whether a task may work on the page at `url`: null when it may, else the rule and why.
 * @param {string} url @param {SiteGate} gate
 * @returns {SiteVerdict | null}
 */
export function siteVerdict(url, gate) {
  const site = siteOf(url);
  if (!site) return null;
  const hit = (/** @type {string[] | undefined} */ list) => (list || []).find((p) => matches(p, site));
  let p = hit(gate.never);
  if (p !== undefined) return { rule: "never", site, why: `your settings list ${patternOf(p)} among the sites heybro must never touch` };
  p = hit(gate.ask);
  if (p !== undefined) {
    if ((gate.approved || []).includes(site)) return null;
    return { rule: "ask", site, why: `your settings say to ask you before heybro works on ${patternOf(p)}` };
  }
  if (hit(gate.allow) !== undefined) return null;
  const off = new Set(gate.categories_off || []);
  for (const c of SITE_CATEGORIES) {
    if (!off.has(c.name) && c.patterns.some((x) => matches(x, site))) {
      return { rule: "never", site, why: `it looks like a site of the kind heybro stays off (${c.label.toLowerCase()})` };
    }
  }
  return null;
}

/**
 * The refusal the model and the user read (the same words as the host's).
 * @param {SiteVerdict} v
 */
export function siteRefusal(v) {
  if (v.rule === "ask") return `heybro asks the user before it works on ${v.site}: ${v.why}.`;
  return `heybro does not work on ${v.site}: ${v.why}. Do not try to reach it another way; tell the user. (They can allow the site in heybro's settings, under Sites, or with \`heybro config --allow-site ${v.site}\`.)`;
}
