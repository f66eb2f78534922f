// @ts-check
/** The addresses a task may open and read (shared_schema/reach.py): web pages, and a blank page. */
import { REACH } from "./schema_check.js";

/**
 * Why a task may not open (or read) this address, in words for the model and the user; null when it may.
 * @param {string} url
 */
export function addressProblem(url) {
  const u = String(url || "").trim();
  if (u.toLowerCase() === REACH.blank) return null;
  /** @type {URL} */ let parsed;
  try { parsed = new URL(u); } catch { return `${JSON.stringify(u.slice(0, 200))} is not a web address: give the whole address, with http:// or https://.`; }
  const scheme = parsed.protocol.replace(/:$/, "").toLowerCase();
  if (!REACH.schemes.includes(scheme)) {
    return `heybro does not open ${scheme}: addresses — a task works on web pages (http or https) only, never on your files or the browser's own pages.`;
  }
  if (!parsed.hostname) return `${JSON.stringify(u.slice(0, 200))} names no site.`;
  return null;
}
