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

const PORT = /^(.*):(\d{1,5})$/;

/** @param {string} host */
function idna(host) {
  const h = host.trim().toLowerCase().replace(/\.+$/, "");
  if (/^[\x00-\x7f]*$/.test(h)) return h;
  try { return new URL(`http://${h}`).hostname.replace(/\.+$/, ""); } catch { return h; }
}

/**
 * A page's site: its host name, with the port when the address names one; "" when it has none.
 * @param {string} url
 */
export function siteOf(url) {
  /** @type {URL} */ let u;
  try { u = new URL(String(url || "").trim()); } catch { return ""; }
  if (!u.hostname) return "";
  const host = idna(u.hostname);
  return u.port ? `${host}:${u.port}` : host; // (URL drops the scheme's own port)
}

/**
 * A pattern as the user means it (see shared_schema/sites.py pattern_of).
 * @param {string} text
 */
export function patternOf(text) {
  let p = String(text || "").trim().toLowerCase();
  if (p.includes("://")) p = p.split("://").slice(1).join("://");
  p = p.split(/[/?#]/, 1)[0];
  p = p.slice(p.lastIndexOf("@") + 1);
  for (const prefix of ["*.", "www."]) if (p.startsWith(prefix)) p = p.slice(prefix.length);
  const m = PORT.exec(p);
  let [host, port] = m ? [m[1], m[2]] : [p, ""];
  if (!host.includes("*") && !host.startsWith("[")) host = idna(host);
  return port && host ? `${host}:${port}` : host.replace(/\.+$/, "");
}

/** @param {string} s @returns {[string, string]} */
function split(s) {
  const m = PORT.exec(s);
  return m && !s.endsWith("]") ? [m[1], m[2]] : [s, ""];
}

/**
 * Whether `pattern` covers `site` (siteOf's answer).
 * @param {string} pattern @param {string} site
 */
export function matches(pattern, site) {
  const p = patternOf(pattern);
  if (!p || !site) return false;
  const [pHost, pPort] = split(p);
  const [sHost, sPort] = split(site);
  if (pPort && pPort !== sPort) return false;
  if (pHost.includes("*")) {
    const re = pHost.split("*").map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
    return new RegExp(`^(?:${re})$`, "s").test(sHost);
  }
  return sHost === pHost || sHost.endsWith(`.${pHost}`);
}

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
