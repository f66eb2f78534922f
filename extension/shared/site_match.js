// @ts-check
/**
 * Sites as heybro reads them, with nothing else loaded (the DOM agent bundles this): a page's site,
 * a pattern as the user means it, and whether one covers the other (shared_schema/sites.py says
 * the same in Python; both are tested against tests/fixtures/site_rules_cases.json).
 */

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
