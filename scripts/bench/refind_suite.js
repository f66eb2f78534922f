// @ts-check
/**
 * The re-finding mutation suite, run inside a page: for each target element, capture its
 * signature, apply one mutation to a fresh copy of the page body, call `refind`, and say whether
 * it returned the target (correct), another element (wrong), or nothing (abstained).
 *
 * Every trial starts from a clone of the original body, so mutations never accumulate; the target
 * is named by its index among the body's elements, which a clone preserves.
 */
import { captureSignature, refind, walkDeep } from "../../extension/content/refind.js";

export const MUTATIONS = ["id_renamed", "id_removed", "classes_hashed", "wrapper_added", "wrapper_removed",
  "siblings_reordered", "text_tweaked", "tag_swapped", "element_moved", "decoy_added", "decoy_elsewhere",
  "attribute_dropped", "deleted"];

/** A stable pseudo-random hash for generated class names. @param {string} s */
function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36).slice(0, 6);
}

/** @param {Element} el */
function hasText(el) { return !!(el.textContent || "").trim(); }

/** Changes one visible word of a text node inside el (or appends one). @param {Element} el */
function tweakText(el) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.nodeValue || "";
    if (t.trim()) { n.nodeValue = t.replace(/\S+\s*$/, (w) => `${w.trim()}s `).replace(/^\s*/, "") + ""; return true; }
  }
  return false;
}

/** Copies el into a new element of another tag (attributes and children kept). @param {Element} el */
function swapTag(el) {
  const tag = el.localName;
  const to = tag === "button" ? "a" : tag === "a" ? "button" : tag === "span" || tag === "div" ? (tag === "div" ? "span" : "div")
    : tag === "input" ? ((/** @type {HTMLInputElement} */ (el).type === "text" || !el.getAttribute("type")) ? "textarea" : "") : "div";
  if (!to) return null;
  const n = document.createElement(to);
  for (const a of Array.from(el.attributes)) { try { n.setAttribute(a.name, a.value); } catch { /* not valid there */ } }
  if (to === "a" && !n.hasAttribute("href")) n.setAttribute("href", "#");
  if (to === "div" || to === "span") { if (!n.hasAttribute("role")) n.setAttribute("role", tag === "a" ? "link" : "button"); n.setAttribute("tabindex", "0"); }
  while (el.firstChild) n.appendChild(el.firstChild);
  el.replaceWith(n);
  return n;
}

/**
 * Applies one mutation; returns the element that should now be found (null: the target is gone),
 * or undefined when the mutation does not apply to this target.
 * @param {string} kind @param {Element} t
 * @returns {Element | null | undefined}
 */
export function mutate(kind, t) {
  const parent = t.parentElement;
  switch (kind) {
    case "id_renamed":
      if (!t.id) return undefined;
      t.id = `${t.id}-${hash(t.id)}`; return t;
    case "id_removed":
      if (!t.id) return undefined;
      t.removeAttribute("id"); return t;
    case "classes_hashed": {
      let any = false;
      for (let e = /** @type {Element | null} */ (t); e && e !== document.body; e = parentOf(e)) {
        const cls = Array.from(e.classList);
        if (!cls.length) continue;
        any = true;
        e.setAttribute("class", cls.map((c) => `css-${hash(c + "v2")}`).join(" "));
      }
      return any ? t : undefined;
    }
    case "wrapper_added": {
      const w = document.createElement("div");
      w.className = "wrapper";
      t.replaceWith(w); w.appendChild(t); return t;
    }
    case "wrapper_removed":
      if (!parent || parent === document.body || parent.localName === "form" || parent.localName === "label") return undefined;
      parent.replaceWith(...Array.from(parent.childNodes)); return t;
    case "siblings_reordered": {
      // The container may be a shadow root: its top-level children are siblings too.
      const box = /** @type {Element | ShadowRoot | null} */ (t.parentNode);
      if (!box || box.children.length < 2) return undefined;
      const kids = Array.from(box.children).reverse();
      for (const k of kids) box.appendChild(k);
      return t;
    }
    case "text_tweaked":
      if (hasText(t)) return tweakText(t) ? t : undefined;
      { const lab = /** @type {HTMLInputElement} */ (t).labels?.[0]; if (lab && hasText(lab)) return tweakText(lab) ? t : undefined; }
      if (t.getAttribute("placeholder")) { t.setAttribute("placeholder", t.getAttribute("placeholder") + "s"); return t; }
      return undefined;
    case "tag_swapped": return swapTag(t) || undefined;
    case "element_moved": {
      const gp = parent && parent.parentElement;
      if (!gp || gp === document.documentElement) return undefined;
      gp.appendChild(t); return t;
    }
    case "decoy_added": {
      // A look-alike: same tag, classes and text, no id, one word different, right next to it.
      const d = /** @type {Element} */ (t.cloneNode(true));
      d.removeAttribute("id");
      for (const e of Array.from(d.querySelectorAll("[id]"))) e.removeAttribute("id");
      // An element with no words, name or placeholder has no look-alike that differs by one: a
      // copy of it would be an exact twin, which is another test (twins are "reordered"/"moved").
      let differs = false;
      if (d.getAttribute("name")) { d.setAttribute("name", d.getAttribute("name") + "2"); differs = true; }
      if (tweakText(d)) differs = true;
      else if (d.getAttribute("placeholder")) { d.setAttribute("placeholder", d.getAttribute("placeholder") + "s"); differs = true; }
      if (!differs) return undefined;
      t.after(d); return t;
    }
    case "decoy_elsewhere": return decoyElsewhere(t) ? t : undefined;
    case "attribute_dropped": {
      // The attribute that carried the element's identity, the most telling first.
      for (const a of ["name", "aria-label", "data-testid", "placeholder", "title", "alt", "href", "type", "id"]) {
        if (t.hasAttribute(a)) { t.removeAttribute(a); return t; }
      }
      return undefined;
    }
    case "deleted": t.remove(); return null;
  }
  return undefined;
}

/** Parent across shadow boundaries. @param {Element} el */
function parentOf(el) {
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** The part of the page an element belongs to: its form, fieldset, row, card or section. @param {Element} el */
function partOf(el) {
  for (let e = parentOf(el); e && e !== document.body; e = parentOf(e)) {
    if (e.matches("form, fieldset, tr, article, section, nav, header, footer, aside, [role=radiogroup], .card, .review, .result") || e.shadowRoot) return e;
  }
  return null;
}

/**
 * A copy of the element — same words, same label — put in another part of the page (another form,
 * group, row or section): the "overnight" radio of a second group, a second "Continue with
 * Google". The copy is placed after an element of the same kind there, or at the start of the
 * other part. Returns whether it was placed.
 * @param {Element} t
 */
function decoyElsewhere(t) {
  const label = t.closest("label");
  const unit = label && label.contains(t) ? label : t;
  const home = partOf(t);
  /** @type {Element[]} */
  const spots = [];
  walkDeep(document.body, (el) => {
    if (el.localName === t.localName && el !== t && partOf(el) !== home && !(home && home.contains(el))) spots.push(el);
  });
  const d = /** @type {Element} */ (unit.cloneNode(true));
  for (const e of [d, ...Array.from(d.querySelectorAll("[id]"))]) if (e.id) e.id = `${e.id}-copy`;
  for (const e of [d, ...Array.from(d.querySelectorAll("[for]"))]) if (e.getAttribute("for")) e.setAttribute("for", `${e.getAttribute("for")}-copy`);
  const spot = spots[Math.floor(spots.length / 2)];
  if (spot) {
    const spotUnit = spot.closest("label") || spot;
    spotUnit.after(d);
    return true;
  }
  const parts = Array.from(document.body.querySelectorAll("section, form, fieldset, nav, aside, footer")).filter((p) => p !== home && !p.contains(t) && !(home && home.contains(p)));
  if (!parts.length) return false;
  parts[0].prepend(d);
  return true;
}

/**
 * Whether another element of the mutated page now carries exactly the captured signature — its
 * rank among its look-alikes included, not how many of them the page holds (a copy put in anywhere
 * counts among them: it says nothing of which is which). @param {any} sig @param {Element} expected
 */
export function lookAlike(sig, expected) {
  const key = (/** @type {any} */ s) => JSON.stringify({ ...s, state: { ...s.state, focused: undefined },
    order: s.order && { k: s.order.k }, twins: s.twins && { k: s.twins.k }, peers: undefined });
  const want = key(sig);
  let twin = false;
  walkDeep(document.body, (el) => {
    if (twin || el === expected || el.localName !== sig.tag) return;
    if (key(captureSignature(el)) === want) twin = true;
  });
  return twin;
}

/**
 * Runs every mutation on the given targets (indices among the original body's elements).
 * @param {number[]} targets @param {{threshold?: number, margin?: number, explain?: boolean, features?: boolean}} [opts]
 */
export function runSuite(targets, opts = {}) {
  const original = /** @type {HTMLElement} */ (document.body.cloneNode(true));
  /** @type {Array<{target: number, mutation: string, outcome: string, confidence: number}>} */
  const out = [];
  for (const ti of targets) {
    for (const kind of MUTATIONS) {
      const body = /** @type {HTMLElement} */ (original.cloneNode(true));
      document.body.replaceWith(body);
      const t = body.querySelectorAll("*")[ti];
      if (!t) continue;
      const sig = captureSignature(t);
      const expected = mutate(kind, t);
      if (expected === undefined) continue;
      const o = { ...opts };
      const t0 = performance.now();
      const r = refind(sig, document, o);
      const ms = performance.now() - t0;
      let outcome = r.status !== "found" ? "abstained" : r.element === expected ? "correct" : "wrong";
      if (outcome !== "correct" && expected && lookAlike(sig, expected)) outcome = "indistinguishable-" + outcome;
      /** @type {Record<string, any>} */
      const row = { target: ti, mutation: kind, outcome, ms: Math.round(ms * 100) / 100, confidence: Math.round(r.confidence * 1000) / 1000, why: r.why || null };
      if (opts.explain && outcome !== "correct") {
        row.sig = `${sig.tag} ${sig.role} ${JSON.stringify(sig.name)} ${JSON.stringify(sig.attrs)}`;
        row.top = r.candidates.slice(0, 3).map((c) => `${c.element === expected ? "*" : ""}${c.tag} ${JSON.stringify(c.name).slice(0, 30)} ${c.score}`);
      }
      if (opts.features) row.f = (/** @type {any} */ (o).out || []).map((/** @type {any} */ x) => ({ ...x, element: undefined, hit: x.element === expected }));
      out.push(row);
    }
  }
  document.body.replaceWith(original);
  return out;
}
