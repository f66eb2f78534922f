// @ts-check
/**
 * What an effect needs before it may happen, judged the same wherever it is seen: by the page's
 * agent as a press is about to land (content/act_gate.js), and by the coordinator as a request the
 * page sends while heybro acts is about to leave (background/request_gate.js). An effect is what
 * the press or the request would do as far as can be read before it happens — the control's words,
 * where it leads (an address), how (a method), what it carries (a form's fields, a request's body)
 * and the small print beside it — with the rules of shared_schema/effects.py (effect_rules.js).
 * Nothing here touches a page.
 *
 * @typedef {{origin?: string | null, confirm?: boolean, approved?: string[], named?: string[], secret?: "password" | "code" | "any" | null, covers?: boolean}} Gate
 * @typedef {{name: string, label: string, type: string, value: string}} Field  type "hidden" (the
 *   page's own word), "body" (a request's: sent by the page's script), or the field's input type
 * @typedef {{words: string, kind: string, target: string | null, method: string | null, fields: Field[], beside: string, place?: string}} Effect
 *   place: the item the control is in (the row, list item or card), in the page's words
 * @typedef {{kind: "risk", what: string, said: string} | {kind: "leaves", site: string} | {kind: "changed", from: string}} Reason
 */
import { CLICKERS, FIELD_DELETE, FIELD_PAYMENT, FIELD_SPEND, RISK_WORDS, TARGET_DELETE, TARGET_SPEND } from "./effect_rules.js";
import { matches, siteOf } from "./site_match.js";

const re = (/** @type {string} */ s) => new RegExp(s, "i");
const WORDS = Object.entries(RISK_WORDS).map(([what, s]) => /** @type {[string, RegExp]} */ ([what, re(s)]));
const [T_SPEND, T_DELETE, F_SPEND, F_PAYMENT, F_DELETE] = [TARGET_SPEND, TARGET_DELETE, FIELD_SPEND, FIELD_PAYMENT, FIELD_DELETE].map(re);
/** Controls that turn a setting on or off, or pick one of several. */
const TOGGLES = new Set(["checkbox", "switch", "radio"]);
/** @param {string} s @param {number} n */
export const cut = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * A form field as a person would name it: its label, else its name's own words (the last part of
 * `new_values[user_email][0]`: "user email").
 * @param {Field} f
 */
export function fieldWords(f) {
  if (f.label) return f.label;
  const parts = f.name.split(/[[\]]+/).filter((p) => p && !/^\d+$/.test(p));
  return (parts[parts.length - 1] || f.name).replace(/[_.-]+/g, " ").trim() || "a field";
}

/** The words of an address's path and query (`/account/delete?confirm=1` → "account delete confirm 1"). @param {string} url */
function targetWords(url) {
  try {
    const u = new URL(url);
    return decodeURIComponent(`${u.pathname} ${u.search}`).replace(/[/?&=.+]/g, " ").toLowerCase();
  } catch { return ""; }
}

/**
 * Why a press with this effect needs a yes first (none: it may go).
 * @param {Effect} e @param {Gate} gate @param {string} origin the document's origin
 * @returns {Reason[]}
 */
export function reasonsOf(e, gate, origin) {
  /** @type {Reason[]} */ const out = [];
  const submits = e.kind === "submit" || e.method !== null && e.method !== "get" || e.fields.length > 0;
  if (gate.confirm) {
    const risk = (/** @type {string} */ what, /** @type {string} */ said) => { out.push({ kind: "risk", what, said: cut(said, 200) }); };
    // A toggle's words name the setting it turns on or off ("Delete files after 30 days", "Click
    // here to rename, delete, etc."), not something it does: what it sets off is its form's and
    // its requests' to say.
    if ((CLICKERS.has(e.kind) || submits) && !TOGGLES.has(e.kind)) {
      for (const [what, pattern] of WORDS) {
        if (what === "send or publish" && e.kind === "link") continue; // ("Posts" opens a page)
        const m = pattern.exec(e.words);
        if (m) risk(what, m[0]);
      }
    }
    if (e.target) {
      const words = targetWords(e.target);
      const acts = submits ? e.method !== "get" || /\?/.test(e.target) : /\?./.test(e.target);
      const del = T_DELETE.exec(words);
      if (del) risk("delete", `it leads to ${cut(e.target, 100)}`);
      const spend = acts ? T_SPEND.exec(words) : null;
      if (spend) risk("spend money", `it ${e.kind === "request" ? "sends" : submits ? "sends its form" : "leads"} to ${cut(e.target, 100)}`);
    }
    for (const f of e.fields) {
      const said = `${f.name} ${f.label}`.replace(/[_-]/g, " ");
      const own = f.type === "hidden" || f.type === "body"; // (the page's word, not what the user typed)
      const where = f.type === "body" ? "its request" : "its form";
      if (own && F_DELETE.test(`${f.name}=${f.value}`)) risk("delete", `${where} says ${fieldWords(f)}: "${f.value}"`);
      else if (own && F_SPEND.test(said)) risk("spend money", `${where} carries ${fieldWords(f)}: "${f.value}"`);
      else if (!own && F_PAYMENT.test(said)) risk("spend money", `${where} carries your ${fieldWords(f)}`);
    }
    if (e.beside) risk("spend money", `beside it: "${e.beside}"`);
  }
  if (e.target) {
    const site = siteOf(e.target), here = siteOf(origin);
    const carries = e.fields.some((f) => f.type !== "hidden") || /[?#]./.test(e.target);
    if (site && site !== here && carries && !(gate.named || []).some((p) => matches(p, site))) out.push({ kind: "leaves", site });
  }
  return out;
}

/** A short digest of an effect (FNV-1a, 64 bits as two halves): what a yes is bound to. @param {Effect} e */
export function digestOf(e) {
  const text = JSON.stringify([e.words, e.kind, e.target, e.method, e.fields.map((f) => [f.name, f.type, f.type === "hidden" ? f.value : ""]), e.beside, e.place || ""]);
  let a = 0x811c9dc5, b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}
