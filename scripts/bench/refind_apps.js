// @ts-check
/**
 * Re-finding across a real application's own changes (scripts/bench_refind_apps.py): signatures
 * of the page's controls are captured, the application changes (its rows sorted, filtered, paged,
 * added or deleted, its language or skin switched), and each is re-found in the new document.
 *
 * The truth is what the application's data says a control is — never its words or place: a link's
 * address (the record it opens, minus the view's own parameters: sort order, page, tokens), a
 * field's name (and a checkbox's value: the record it ticks), an id the page did not generate, and
 * the form it belongs to. A control with none of these, or whose key is not unique, is not a
 * target; a key gone after the change, or whose control the change hid, is a deleted target
 * (re-finding must abstain).
 */
import { captureSignature, collectCandidates, refind, shortlist, walkDeep } from "../../extension/content/refind.js";
import { isGeneratedId } from "../../extension/content/signature.js";
import { Registry, scanPage } from "../../extension/content/dom_scan.js";

/** @returns {Element[]} */
function deep() {
  /** @type {Element[]} */ const out = [];
  walkDeep(document.body, (el) => out.push(el));
  return out;
}

/**
 * A link's or form's address as a key: the view's own parameters left out. A link to the page's
 * own view (a fragment of it, the same view as a feed or a file, a login that comes back to it) is
 * keyed by what it adds to the view, not by the view: after a sort or a filter it is still the
 * same control.
 * @param {string} raw @param {string[]} ignore
 */
function addressKey(raw, ignore) {
  if (raw.startsWith("#")) return raw;
  try {
    const here = new URL(location.href);
    const own = [...here.searchParams].filter(([k]) => !ignore.includes(k));
    const self = [here.pathname + here.search, here.href];
    const u = new URL(raw, location.href);
    let params = [...u.searchParams].filter(([k]) => !ignore.includes(k))
      .map(([k, v]) => [k, self.includes(v) || (v.startsWith(here.pathname) && v.includes("?")) ? "<view>" : v]);
    const path = `${u.origin === location.origin ? "" : u.origin}${u.pathname}`;
    // (the view's state carried in a link that adds something to it: a feed, a file, a fold)
    if (own.length && u.pathname === here.pathname && params.length > own.length
      && own.every(([k, v]) => u.searchParams.get(k) === v)) params = params.filter(([k]) => !own.some(([ok]) => ok === k));
    return `${path}?${params.map(([k, v]) => `${k}=${v}`).sort().join("&")}${u.hash}`;
  } catch {
    return null;
  }
}

/**
 * What the application's data says the control is; null when it has nothing but words and place.
 * @param {Element} el @param {string[]} ignore
 */
export function keyOf(el, ignore) {
  const tag = el.localName;
  /** @type {string[]} */ const parts = [];
  const href = tag === "a" ? el.getAttribute("href") : null;
  if (href && href !== "#" && !href.startsWith("javascript:")) {
    const k = addressKey(href, ignore);
    if (k) parts.push(`href=${k}`);
  }
  const name = el.getAttribute("name");
  if (name) parts.push(`name=${name}`);
  const type = (el.getAttribute("type") || "").toLowerCase();
  const value = el.getAttribute("value");
  if (name && value !== null && (type === "checkbox" || type === "radio")) parts.push(`value=${value}`);
  if (el.id && !isGeneratedId(el.id)) parts.push(`id=${el.id}`);
  if (!parts.length) return null;
  const form = el.closest("form");
  // (a form without an action posts to the page's own address, view parameters and all: no key)
  const action = form?.getAttribute("action");
  if (form && tag !== "a") parts.push(`form=${action ? addressKey(action, ignore) : ""}|${form.id || form.getAttribute("name") || ""}`);
  return `${tag} ${parts.join(" ")}`;
}

/** @param {string[]} ignore @returns {Map<string, Element[]>} */
function byKey(ignore) {
  /** @type {Map<string, Element[]>} */ const out = new Map();
  for (const el of deep()) {
    const k = keyOf(el, ignore);
    if (!k) continue;
    const list = out.get(k);
    if (list) list.push(el); else out.set(k, [el]);
  }
  return out;
}

/**
 * The controls the scanner reports whose key is unique on the page, with their signatures (as
 * heybro keeps them: plain JSON, good in another document).
 * @param {string[]} ignore
 */
export function capture(ignore) {
  const keys = byKey(ignore);
  const seen = new Set();
  /** @type {Array<{key: string, sig: any}>} */ const out = [];
  for (const entry of scanPage(new Registry("")).entries) {
    const k = keyOf(entry.el, ignore);
    if (!k || keys.get(k)?.length !== 1 || seen.has(k)) continue;
    seen.add(k);
    out.push({ key: k, sig: JSON.parse(JSON.stringify(captureSignature(entry.el))) });
  }
  return out;
}

/** @param {Element | null | undefined} el @param {string[]} ignore */
function describe(el, ignore) {
  if (!el) return null;
  return keyOf(el, ignore) || `${el.localName} ${JSON.stringify((el.textContent || "").trim().slice(0, 40))}`;
}

/**
 * Each captured control re-found in this document and judged against the truth.
 * @param {Array<{key: string, sig: any}>} items @param {string[]} ignore @param {boolean} explain
 */
export function judge(items, ignore, explain) {
  const keys = byKey(ignore);
  return items.map(({ key, sig }) => {
    const same = keys.get(key) || [];
    if (same.length > 1) return { key, outcome: "unclear" };
    // A control the change hid (a panel closed) is gone for a person, who cannot use it: only an
    // abstention is right, as for one the change removed.
    const truth = same[0] && same[0].checkVisibility({ visibilityProperty: true }) ? same[0] : null;
    const t0 = performance.now();
    const r = refind(sig, document);
    const ms = performance.now() - t0;
    const outcome = r.status !== "found" ? "abstained" : r.element === truth ? "correct" : "wrong";
    /** @type {Record<string, any>} */
    const row = { key, gone: !truth, outcome, status: r.status, ms: Math.round(ms * 100) / 100 };
    if (explain && (outcome === "wrong" || (outcome === "abstained" && truth))) {
      row.sig = `${sig.tag} ${sig.role} ${JSON.stringify(sig.name)} ${JSON.stringify(sig.attrs)}`;
      row.got = describe(r.element, ignore);
      row.truth = truth ? `${truth.localName} ${JSON.stringify((truth.textContent || "").trim().slice(0, 40))}` : null;
      row.why = r.why || null;
      if (truth) {
        const pool = collectCandidates(sig, document, true);
        row.pooled = pool.includes(truth);
        row.listed = shortlist(sig, pool, true).includes(truth);
        row.truth_href = truth.getAttribute("href");
      }
      row.top = (r.candidates || []).slice(0, 3).map((c) => `${c.element === truth ? "*" : ""}${c.tag} ${JSON.stringify(c.name).slice(0, 40)} ${c.score}`);
    }
    return row;
  });
}
