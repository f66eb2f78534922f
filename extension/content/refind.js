// @ts-check
/**
 * Re-finding an element by its signature (signature.js) after the page changed: the element the
 * model chose, or an abstention — never a different one. A wrong answer is a click on something
 * nobody chose; an abstention costs one more look at the page.
 *
 *   refind(signature, root = document) → {status: "found" | "ambiguous" | "not_found", element,
 *                                          confidence, candidates, why}.
 *
 * No extension APIs: the content script, the tests, the benchmarks and any outside evaluation load
 * this very module in a plain page (`import()`), with `captureSignature` re-exported beside it.
 *
 * **The invariants.** Every answer keeps these, whatever the page is (tests/test_refind_properties.py
 * checks them on pages and changes drawn at random):
 *
 *   1. An untouched original wins. A candidate that still carries every attribute, class, word,
 *      label and context value the signature recorded is the answer whenever it is the only such
 *      candidate — whatever was inserted, moved or copied around it — provided it was the only such
 *      element when captured (signature.js `peers`; otherwise only its place told it apart, see 3).
 *   2. A contradiction loses. A candidate that carries a different value than the element had
 *      (another form name, label, placeholder, link, value, data key, another row's key) is never
 *      taken over one that merely lacks a value; one carrying a form name, link, test id or value
 *      where the element had none (a copy's mark), or lacking one it had while carrying one it
 *      never had, is not taken at all.
 *   3. Position never decides alone. Among candidates that tie on everything but their place (box,
 *      order, ancestors, the words around them — the words before a nameless element being its
 *      name), the answer is "ambiguous", with the candidates — unless one stands in the element's
 *      very place, all of it (a wrapper put around it or taken away aside), among no fewer
 *      look-alikes, and either still carries all it carried itself (a copy of it put beside it), or
 *      place was all that told the element from them when it was captured (a change made to
 *      them all alike tells nothing of which is which) and it lost nothing one of them keeps. Place can say "not
 *      this one" (a changed element in another component of its kind), never "this one" between
 *      elements that something else told apart.
 *   4. Context is identity. An element inside a component, a shadow root, a row, a form or a
 *      labelled region is never answered by its twin in another one (the other widget's star, the
 *      other row's Delete, the footer's "Blog" for the header's) — nor, while a container its
 *      author gave an id still stands, by one in another such container it never stood in (a
 *      copy of its form, `form#log-in-2`); and a part of the page renamed is the part only while
 *      the part, as it was named, is gone.
 *   5. Gone is gone. A deleted element is refused, not replaced by its nearest look-alike: what is
 *      left is another element by 2–4, or told apart by nothing of its own.
 *
 * **The decision** reads as those invariants, in order (`decide`): the element to the letter in its
 * place (`unchanged`); the one untouched original (`untouched`); its own identity — the id, test id,
 * link target, form name and checkbox value the page's author gave it — on one candidate
 * (`ownIdentity`); then its context sets aside every candidate in another part of the page
 * (`field`: `left`); then look-alikes by what tells them apart (`byEvidence`: the whole signature,
 * an anchor, one thing changed, its place where that place still holds, the one its form knows by
 * name, its own features, every word of it); else not found or ambiguous, with why (`undecided`).
 * Every answer passes through `found`, which turns down what invariants 2–4 forbid — so no rule,
 * however it scores, can break them.
 *
 * Scoring is a weighted similarity over the signature's fields (in the spirit of the Similo
 * locators: many weak attributes together beat any single brittle one), each field's weight scaled
 * down when many candidates share its value (a "Delete" shared by twenty rows says little), judged
 * among what is left in the element's part of the page. What a candidate no longer has — a dropped
 * attribute, rehashed classes, a label whose `for` a renamed id broke, the name that came from them
 * — is gone, not different. The constants were tuned on the "tune" halves of
 * scripts/bench_refind.py, scripts/bench_refind_wide.py and scripts/bench_refind_props.py;
 * BENCHMARKS.md has both halves of each.
 *
 * **Big pages.** What a re-find costs is what it touches: the first touch of a node from script
 * makes an object for it, about a microsecond and a half, so walking a catalogue of 20,000 elements
 * costs more than the whole re-find may. Where each candidate stands is read before its full
 * signature, and one in another item or landmark gets none; a run of a thousand look-alikes keeps
 * the few nearest its old place; on a page of more than BIG_PAGE elements the candidates are asked
 * of the selector engine (see gatherBig); and a candidate's place among look-alikes is worked out
 * only for those that look like the element.
 */
import { norm } from "./norm.js";
import { captureSignature, ancestorPath, contextOf, idHolders, DATA_KEPT, hrefKey, STABLE_ATTRS, UI_STATES, isGeneratedId, lookKeyOfSignature, placeCandidates, tagQuery, TEST_ID_ATTRS, valueIsIdentity } from "./signature.js";
import { labelText, roleOf, visibleText } from "./accessible_name.js";
import { INTERACTIVE_TAGS, isInteractiveCheap, isRendered } from "./controls.js";
import { frameDocument, walkDeep } from "./dom_roots.js";
import { NEAR, OTHER_NUMBER, numbers, replacedWord, textSim } from "./text_sim.js";
import { attr, byTagOf, containsOf, docOf, firstChildOf, hasAttrs, idOf, nextSiblingOf, nodeTypeOf, nodeValueOf, qsa, rectOf, shadowOf, tagOf } from "./dom_native.js";

/** The matcher and the signatures it reads, for outside evaluations that load this module alone. */
export { captureSignature, walkDeep };

/** @param {string} s @param {number} n */
function cut(s, n) { return s.length > n ? s.slice(0, n) : s; }

/** Best score needed to act on a match. */
export const THRESHOLD = 0.63;

/** The best must lead the runner-up by this much. */
export const MARGIN = 0.1;

/**
 * @typedef {import("./signature.js").Signature} Signature
 * @typedef {import("./signature.js").Context} Context
 * @typedef {import("./signature.js").Placed} Placed
 * @typedef {import("./signature.js").Box} Box
 * @typedef {import("./signature.js").Twins} Twins
 * @typedef {{element: Element, score: number, signature: Signature, distinctive?: boolean, loo?: number, looField?: string, looSim?: number, looAbsent?: boolean, anchor?: boolean,
 *   idAnchor?: boolean, tagOk?: boolean}} Scored
 * @typedef {{status: "found" | "ambiguous" | "not_found", element: Element | null,
 *   confidence: number, candidates: Array<{element: Element, score: number, tag: string,
 *   name: string, text: string}>, why?: string}} RefindResult
 */
/**
 * Whether what a candidate is says it is another element, whatever else matches: it stands in
 * another part of the page (contextClash), its words are gone where the element had some (the
 * image link beside a card's title link), its link leads to another numbered place (/p/12, not
 * /p/13), or it is a nameless control showing another icon.
 * @param {Signature} sig @param {Signature} c @param {Set<string>} [standing] see standingZones
 */
export function anotherElement(sig, c, standing) {
  if (contextClash(sig, c, standing)) return true;
  // Its name says something else: a word replaced by another, or other numbers ("Edit Ada" for
  // "Delete Ada", "2 stars" for "1 star"); an editable region's name is its text, which changes.
  if (sig.name && c.name && sig.name !== c.name && sig.state?.value === undefined && /^(input|select|textarea)$/.test(sig.tag) === /^(input|select|textarea)$/.test(c.tag) && !nameGone(sig, c)) {
    const a = norm(sig.name).toLowerCase(), b = norm(c.name).toLowerCase();
    if (numbers(a) !== numbers(b) || replacedWord(a, b) || saidAfter(a, b)) return true;
  }
  // Words in an attribute that names it saying something else: other numbers or a word replaced
  // (a title "2 stars" where it had "1 star").
  for (const k of WORD_ATTRS) {
    const a = norm(sig.attrs?.[k] || "").toLowerCase(), b = norm(c.attrs?.[k] || "").toLowerCase();
    if (a && b && a !== b && (numbers(a) !== numbers(b) || replacedWord(a, b) || saidAfter(a, b))) return true;
  }
  // A form control's name attribute is what the form submits it as.
  const na = sig.attrs?.name, nb = c.attrs?.name;
  if (na && nb && na !== nb && !isGeneratedId(na) && !extendsId(nb, na)) return true;
  if (otherRecord(sig, c)) return true;
  if (otherVariant(sig.classes || [], c.classes || [])) return true;
  if (heldIt(sig, c)) return true;
  // Words where it had none, or none where it had some: the title link beside a card's image link.
  if (!!sig.text !== !!c.text && sig.tag === c.tag && sig.tag !== "select" && sig.state?.value === undefined) return true;
  // Inside other components, or none.
  if ((sig.shadow || []).map((x) => x.split(/[.#]/)[0]).join(">") !== (c.shadow || []).map((x) => x.split(/[.#]/)[0]).join(">")) return true;
  if (otherComponent(sig, c)) return true;
  if (otherLink(sig.attrs?.href, c.attrs?.href)) return true;
  if (sig.icon && c.icon && !c.name) {
    const a = sig.icon.split(" "), b = c.icon.split(" ");
    if (a.some((w) => !b.includes(w)) && b.some((w) => !a.includes(w))) return true;
  }
  return false;
}

/**
 * Whether words were put before all of the element's words ("Also save to favorites", "Don't
 * notify"): what comes first says what it does, so that is another control — unlike words grown
 * at the end ("Save" → "Save changes", "★" → "★ rated"), which reword it.
 * @param {string} a the element's words, normalised @param {string} b the candidate's
 */
function saidAfter(a, b) { return b.length > a.length && b.endsWith(` ${a}`); }

/** A signature's own step, written as its ancestors' are (see step). @param {Signature} s */
function ownStep(s) {
  const id = s.attrs?.id;
  return s.tag + (id && !isGeneratedId(id) ? `#${id}` : s.classes?.[0] ? `.${s.classes[0]}` : "");
}

/**
 * Whether the candidate is the container the element stood in: written as its parent was (tag and
 * class) and standing where that parent stood — an icon's wrapper, with the icon gone from it. Not
 * when the element was written as its parent (a span in a span): then it may be the element with
 * its wrapper taken away.
 * @param {Signature} sig @param {Signature} c
 */
function heldIt(sig, c) {
  const p = sig.path || [], q = c.path || [];
  if (!p.length || ownStep(c) !== p[0] || ownStep(sig) === p[0]) return false;
  return q.slice(0, p.length - 1).join(">") === p.slice(1).join(">") && (p.length >= 6 || q.length === p.length - 1);
}

/**
 * The keys the page's author gave the element, which a re-render keeps and no other element has:
 * an id the page did not generate, a test id, a link's target (not a fragment or a script), a form
 * control's name and a checkbox's or radio's value.
 * @param {Signature} sig @returns {Array<[string, string]>}
 */
function identityKeys(sig) {
  const A = sig.attrs || {};
  /** @type {Array<[string, string]>} */ const out = [];
  const alone = new Set(sig.alone || []);
  if (!alone.size) return out; // (a signature from before this was kept, or nothing of its own)
  if (A.id && alone.has("id") && !isGeneratedId(A.id)) out.push(["id", A.id]);
  for (const k of TEST_ID_ATTRS) if (A[k] && alone.has(k)) out.push([k, A[k]]);
  if (A.href && alone.has("href") && !A.href.startsWith("#") && !/^javascript:/i.test(A.href)) out.push(["href", hrefKey(A.href)]);
  if (A.name && alone.has("name") && !isGeneratedId(A.name) && /^(input|select|textarea|button)$/.test(sig.tag)) {
    out.push(["name", A.name]);
    if (A.value !== undefined && /^(checkbox|radio)$/i.test(A.type || "")) out.push(["value", A.value]);
  }
  return out;
}

/** @param {Signature} sig @param {Array<[string, string]>} keys */
function carries(sig, keys) {
  const B = sig.attrs || {};
  return keys.every(([k, v]) => (k === "href" ? B.href !== undefined && hrefKey(B.href) === v : B[k] === v));
}

/** The same as `carries`, read off the element. @param {Element} el @param {Array<[string, string]>} keys */
function carriesAttrs(el, keys) {
  return keys.every(([k, v]) => { const a = attr(el, k); return a !== null && a !== undefined && (k === "href" ? hrefKey(a) === v : a === v); });
}

/** @param {Array<[string, string]>} keys */
function identityText(keys) {
  return keys.map(([k, v]) => `${k}=${cut(v, 60)}`).join(", ");
}

/** Whether two signatures stand inside the same components (shadow hosts), or in none. @param {Signature} a @param {Signature} b */
function sameComponent(a, b) {
  const chain = (/** @type {Signature} */ s) => (s.shadow || []).map((x) => x.split(/[.#]/)[0]).join(">");
  return chain(a) === chain(b) && (a.hosts || []).join(" ") === (b.hosts || []).join(" ");
}

/** Whether a candidate stands in another row, card or post than the element did (both named). @param {Signature} sig @param {Signature} c */
function otherItem(sig, c) {
  return !!sig.context?.item && !!c.context?.item && !sameItem(sig, c);
}

/**
 * Whether a candidate carries another record's key than the element's own: a checkbox's, radio's
 * or option's value (what the form submits for it: post 2, not post 5), an id of the same shape
 * with other numbers (cb-select-2, not cb-select-5), or, for a link, other words leading to another
 * query (a search's "Kettle" to create, not its "Kettles lid"), a data key of its own with another
 * value (data-sku 1100, not 100). An element whose own key went away
 * is not found in a neighbour that has one of its own.
 * @param {Signature} sig @param {Signature} c
 */
function otherRecord(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  const type = (A.type || "").toLowerCase();
  if ((type === "checkbox" || type === "radio" || sig.tag === "option") && A.value !== undefined
    && B.value !== undefined && A.value !== B.value) return true;
  if (A.id && B.id && A.id !== B.id && /\d/.test(A.id) && A.id.replace(/\d+/g, "0") === B.id.replace(/\d+/g, "0")) return true;
  // A data key the page's author gave it (no state the page flips) with another value: a record's
  // (data-sku 100, not 1100).
  for (const k of Object.keys(A)) if (k.startsWith("data-") && !STATE_DATA.test(k) && B[k] !== undefined && B[k] !== A[k]) return true;
  if (sig.tag !== "a" || !A.href || !B.href || !sig.name || !c.name) return false;
  if (norm(sig.name).toLowerCase() === norm(c.name).toLowerCase()) return false;
  try { return new URL(A.href, "http://x/").search !== new URL(B.href, "http://x/").search; } catch { return false; }
}

/**
 * Whether a class of the element is replaced, in the candidate, by one that says another word after
 * the same stem ("btn-bold" by "btn-italic", "icon-heart" by "icon-star"): another variant of the
 * same control, not the control restyled (a build's rehash leaves no such word; a state class
 * such as "is-active" is not read).
 * @param {string[]} a @param {string[]} b
 */
function otherVariant(a, b) {
  const split = (/** @type {string} */ x) => { const m = /^([a-z][\w]*?[-_]+)([a-z]{3,})$/i.exec(x); return m ? [m[1], m[2].toLowerCase()] : null; };
  const theirs = b.filter((x) => !a.includes(x)).map(split).filter((x) => x !== null);
  return a.filter((x) => !b.includes(x)).map(split).some((m) => m !== null && theirs.some((t) => t !== null && t[0] === m[0] && t[1] !== m[1]
    && !t[1].startsWith(m[1]) && !m[1].startsWith(t[1])));
}

/**
 * Whether two link targets are other places: another path (/docs/community/tokens is not
 * /docs/guides/tokens), or the same path with other numbers (?p=2 is not ?p=3). What follows a
 * "#" alone, and a query's words, may change with the page's state.
 * @param {string | undefined} a @param {string | undefined} b
 */
function otherLink(a, b) {
  if (!a || !b || a === b) return false;
  let pa, pb;
  try { pa = new URL(a, "http://x/"); pb = new URL(b, "http://x/"); } catch { return false; }
  if (pa.host !== pb.host || pa.pathname.replace(/\/$/, "") !== pb.pathname.replace(/\/$/, "")) return true;
  return numbers(pa.search) !== numbers(pb.search);
}

/**
 * Whether two titles say the same: nearly the same text, or mostly the same words in another
 * order (a row's cells or a card's parts rearranged), with the same numbers.
 * @param {string} a @param {string} b
 */
function sameWords(a, b) {
  if ((textSim(a, b) ?? 1) >= 0.7) return true;
  const wa = new Set(a.toLowerCase().match(/[\p{L}\d]+/gu) || []), wb = new Set(b.toLowerCase().match(/[\p{L}\d]+/gu) || []);
  if (numbers(a) !== numbers(b) && [...wa].some((w) => /\d/.test(w)) && [...wb].some((w) => /\d/.test(w))
    && [...wa].filter((w) => /\d/.test(w)).sort().join() !== [...wb].filter((w) => /\d/.test(w)).sort().join()) return false;
  const inter = [...wa].filter((w) => wb.has(w)).length;
  return inter / Math.max(1, wa.size + wb.size - inter) >= 0.6;
}

/** Whether a candidate stands in the item (post, row, card) the element was captured in. @param {Placed} sig @param {Placed} c */
function sameItem(sig, c) {
  const a = sig.context?.item || "", b = c.context?.item || "";
  return !!a && !!b && sameWords(a.slice(2), b.slice(2));
}

/** Whether two zones ("kind:label") are the same part of the page: same kind, and labels that agree or are unknown. @param {string} a @param {string} b */
function sameZone(a, b) {
  const i = a.indexOf(":"), j = b.indexOf(":");
  if (a.slice(0, i) !== b.slice(0, j)) return false;
  const la = a.slice(i + 1), lb = b.slice(j + 1);
  return !la || !lb || (textSim(la, lb) ?? 1) >= 0.7;
}

/**
 * Whether a candidate stands in another part of the page than the one the element was captured in:
 * outside one of the zones the element was in (the footer's nav, not the header's; the sign-up
 * form, not the login form; a copy of a form's button put outside the form), inside a landmark or
 * form it was not in (a paragraph's link copied into the sidebar), or in an item with another title
 * (Bob's row, not Alice's), or in a table's row when it stood in none (a copy of a table's toolbar
 * button put in a row). A section or group it gained (a new wrapper) and an item title that is
 * gone say nothing. An element that had look-alikes (told apart by the part it stood in) is not one
 * found outside that part while the part still stands (`standing`, see standingZones).
 * @param {Signature} sig @param {Placed} c @param {Set<string>} [standing]
 */
export function contextClash(sig, c, standing) {
  const A = sig.context, B = c.context;
  if (!A || !B) return false;
  if (A.item && B.item && A.item.slice(0, 2) === B.item.slice(0, 2) && !sameItem(sig, c)) return true;
  // Into a table's row when it stood in none: a table's "Invite user" is not a copy of it put in
  // Kai's row. (Not any item: one read from a run of look-alike containers can come and go with a
  // wrapper.)
  if (!A.item && B.item.startsWith("r:")) return true;
  // A part renamed or named since (a redesign may name it) agrees with the one the element stood
  // in — not while that part, to the letter and within the same parts, still stands: then the
  // other is another part (a copy of the fieldset, its legend reworded; a copy of the pagination's
  // link in the labelled table of contents).
  const agree = (/** @type {string} */ a, /** @type {number} */ i, /** @type {string} */ b) => sameZone(a, b)
    && !(standing && a !== b && standing.has(A.zones.slice(i).join(ZONE_SEP)));
  const gained = B.zones.filter((b) => !A.zones.some((a, i) => agree(a, i, b)));
  // Into a landmark or form it was not in (a paragraph's link is not the sidebar's): elsewhere.
  if (gained.some((b) => LANDMARKS.has(b.slice(0, b.indexOf(":"))))) return true;
  const lost = A.zones.filter((a, i) => !B.zones.some((b) => agree(a, i, b)));
  if (!lost.length) return false;
  // Out of a zone and into another: elsewhere. Out of a zone only because the zone's element went
  // away (its ancestors are the old ones less a step): the same element, unwrapped — unless the
  // zone is still there and was what told the element from its look-alikes (the Push switch of the
  // Mentions group, a copy of it standing outside any group).
  if (gained.length > 0 || !unwrapped(sig.path || [], c.path || [])) return true;
  return !!sig.twins && !!standing && A.zones.some((a, i) => lost.includes(a) && standing.has(A.zones.slice(i).join(ZONE_SEP)));
}

const ZONE_SEP = "\u0001";

/**
 * The parts of the page the candidates stand in, each with those around it ("fieldset:Mentions",
 * "section:Notifications", "main:"): whether a zone an element left still stands.
 * @param {Placed[]} cands
 */
function standingZones(cands) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const c of cands) {
    const z = c.context?.zones || [];
    for (let i = 0; i < z.length; i++) out.add(z.slice(i).join(ZONE_SEP));
  }
  return out;
}

/** Zones that an element does not enter and stay itself (a new wrapping section or group may come). */
const LANDMARKS = new Set(["header", "footer", "nav", "aside", "form", "dialog"]);

/**
 * Whether ancestor path b is path a with one step taken out and none put in (tags only: classes
 * may have been rehashed). Paths keep six steps, so a full one may show one more step at its far end.
 * @param {string[]} a @param {string[]} b
 */
function unwrapped(a, b) {
  const ta = a.map((x) => x.split(/[.#]/)[0]), tb = b.map((x) => x.split(/[.#]/)[0]);
  const dp = Array.from({ length: ta.length + 1 }, () => new Array(tb.length + 1).fill(0));
  for (let i = 1; i <= ta.length; i++) for (let j = 1; j <= tb.length; j++) dp[i][j] = ta[i - 1] === tb[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
  const spare = ta.length >= 6 ? 1 : 0, lcs = dp[ta.length][tb.length];
  return tb.length < ta.length + spare && lcs >= tb.length - spare && ta.length - lcs <= 1;
}

/**
 * The words before and after an element, from its neighbour text ("before | after", normalised:
 * "| after" when nothing is before it, "before |" when nothing is after).
 * @param {string} s @returns {[string, string]}
 */
function aroundParts(s) {
  s = s || "";
  if (s === "|") return ["", ""];
  if (s.startsWith("| ")) return ["", s.slice(2)];
  if (s.endsWith(" |")) return [s.slice(0, -2), ""];
  const i = s.indexOf(" | ");
  return i < 0 ? [s, ""] : [s.slice(0, i), s.slice(i + 3)];
}

/**
 * Neighbour text is "before | after"; the words before a control usually name it (a row's title
 * before its button), so they count three times as much as the words after.
 * @param {string} a @param {string} b
 */
function neighborSim(a, b) {
  const [pa, na] = aroundParts(a), [pb, nb] = aroundParts(b);
  const p = textSim(pa, pb), n = textSim(na, nb);
  if (p === null && n === null) return null;
  return 0.75 * (p ?? 1) + 0.25 * (n ?? 1);
}

/** @param {string[]} a @param {string[]} b */
function setSim(a, b) {
  if (!a.length && !b.length) return null;
  if (!a.length || !b.length) return 0;
  const sb = new Set(b);
  const inter = a.filter((x) => sb.has(x)).length;
  return inter / (a.length + b.length - inter);
}

/** Similarity of two ancestor paths: longest common subsequence over the longer length. @param {string[]} a @param {string[]} b */
function pathSim(a, b) {
  if (!a.length && !b.length) return null;
  if (!a.length || !b.length) return 0;
  const dp = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) {
    dp[i][j] = a[i - 1] === b[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
  }
  return dp[a.length][b.length] / Math.max(a.length, b.length);
}

/** @param {Box} a @param {Box} b */
function boxSim(a, b) {
  if (!a || !b) return null;
  const d = Math.hypot(a.x + a.w / 2 - (b.x + b.w / 2), a.y + a.h / 2 - (b.y + b.h / 2));
  const size = Math.min(a.w * a.h, b.w * b.h) / Math.max(a.w * a.h, b.w * b.h, 1);
  return 0.7 * Math.exp(-d / 250) + 0.3 * size;
}

/**
 * Whether a box starts (or ends: right-aligned words) where another did, on the same line: the
 * element stayed put, though its words grew or shrank.
 * @param {Box} a @param {Box} b
 */
function sameSpot(a, b) {
  if (!a || !b || Math.abs(a.y - b.y) > 4) return false;
  return Math.abs(a.x - b.x) <= 4 || Math.abs(a.x + a.w - (b.x + b.w)) <= 4;
}

/** The roles that stand in for each other when a tag is swapped (button ↔ link ↔ div role=button). */
const ACTION_ROLES = new Set(["button", "link", "menuitem", "tab", "option"]);

/** @param {string} a @param {string} b */
function roleSim(a, b) {
  if (!a && !b) return null;
  if (a === b) return 1;
  return ACTION_ROLES.has(a) && ACTION_ROLES.has(b) ? 0.6 : 0;
}

/**
 * Field weights. Tuned on scripts/bench_refind.py's mutation suite: names and labels carry most,
 * positions little (after a deletion the next sibling slides into the old place).
 * @type {Record<string, number>}
 */
export const WEIGHTS = {
  tag: 1, role: 1, name: 3, text: 2, id: 5, nameAttr: 3, type: 1, href: 2, placeholder: 2,
  alt: 1, title: 1, testid: 4, data: 2, label: 2, classes: 1, neighbor: 2.5, path: 1.5, box: 1, frame: 0.5,
  value: 2,
};

/**
 * Per-field similarities between a captured signature and a candidate's.
 * @param {Signature} sig @param {Signature} c
 * @returns {Record<string, number | null>}
 */
export function fieldSims(sig, c) {
  const memo = simsMemo?.get(c);
  if (memo && memo.sig === sig) return memo.sims;
  const sims = readFieldSims(sig, c);
  simsMemo?.set(c, { sig, sims });
  return sims;
}

/**
 * Within one refind call nothing changes on the page nor in the signatures it compares, and the
 * rules ask for the same candidate's similarities several times: they are worked out once.
 * @type {WeakMap<Signature, {sig: Signature, sims: Record<string, number | null>}> | null}
 */
let simsMemo = null;

/** @param {Signature} sig @param {Signature} c @returns {Record<string, number | null>} */
function readFieldSims(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  const testA = TEST_ID_ATTRS.map((k) => A[k]).find(Boolean) || "";
  const testB = TEST_ID_ATTRS.map((k) => B[k]).find(Boolean) || "";
  const eq = (/** @type {string | undefined} */ x, /** @type {string | undefined} */ y) => (!x && !y ? null : x === y ? 1 : 0);
  return {
    tag: sig.tag === c.tag ? 1 : 0,
    role: roleSim(sig.role, c.role),
    name: textSim(sig.name, c.name),
    text: textSim(sig.text, c.text),
    id: A.id ? (A.id === B.id ? 1 : 0) : null,
    nameAttr: A.name ? (A.name === B.name ? 1 : 0) : null,
    type: eq(A.type, B.type),
    href: A.href ? (B.href ? (hrefKey(A.href) === hrefKey(B.href) ? 1 : 0.5 * (textSim(A.href, B.href) || 0)) : 0) : null,
    placeholder: A.placeholder ? textSim(A.placeholder, B.placeholder || "") : null,
    alt: A.alt ? textSim(A.alt, B.alt || "") : null,
    title: A.title ? textSim(A.title, B.title || "") : null,
    testid: testA ? (testA === testB ? 1 : 0) : null,
    data: dataSim(A, B),
    label: sig.label ? textSim(sig.label, c.label) : null,
    classes: setSim(sig.classes || [], c.classes || []),
    neighbor: neighborSim(sig.neighbor, c.neighbor),
    path: pathSim(sig.path || [], c.path || []),
    box: boxSim(sig.box, c.box),
    frame: (sig.frame || []).join(">") === (c.frame || []).join(">") ? 1 : 0,
    // A radio's or checkbox's value attribute is what it stands for ("1", "2", "yes").
    value: A.value && valueIsIdentity(sig.tag) ? (A.value === B.value ? 1 : 0) : null,
  };
}

/** Share of the signature's other data-* attributes the candidate has with the same value. @param {Record<string, string>} A @param {Record<string, string>} B */
function dataSim(A, B) {
  const keys = Object.keys(A).filter((k) => k.startsWith("data-") && !TEST_ID_ATTRS.includes(k));
  if (!keys.length) return null;
  return keys.filter((k) => B[k] === A[k]).length / keys.length;
}

/** @param {string} id */
function idWeight(id) { return isGeneratedId(id) ? 0.3 : 1; }

/** Fields that can single an element out (tag, role, type, position and frame only narrow it down). */
const DISTINCTIVE = ["name", "text", "id", "nameAttr", "href", "placeholder", "alt", "title", "testid", "data", "label", "neighbor", "value", "classes"];

/**
 * Scores every candidate against the signature. A field's weight shrinks with the number of
 * candidates that match it well (rarity), so shared words do not outvote the distinctive ones.
 * @param {Signature} sig @param {Array<{element: Element, signature: Signature}>} cands
 * @returns {Scored[]}
 */
export function scoreCandidates(sig, cands) {
  const sims = cands.map((c) => fieldSims(sig, c.signature));
  const A = sig.attrs || {};
  const numberedData = Object.keys(A).some((k) => k.startsWith("data-") && !TEST_ID_ATTRS.includes(k) && /\d/.test(A[k]));
  /** @type {Record<string, number>} */
  const shared = {};
  for (const f of Object.keys(WEIGHTS)) shared[f] = sims.reduce((n, s) => n + ((s[f] ?? 0) >= 0.9 ? 1 : 0), 0);
  return cands.map((c, i) => {
    const si = sims[i];
    // Evidence that singles this candidate out: a field it matches that at most one other does.
    let distinctive = false;
    for (const f of DISTINCTIVE) if ((si[f] ?? 0) >= 0.8 && shared[f] <= 2) distinctive = true;
    // An anchor: a stable identifier (id, test id, form name, data keys, link target) that this
    // candidate alone on the page carries with the very value captured.
    let anchor = false;
    let idAnchor = false;
    for (const f of ANCHORS) if ((si[f] ?? 0) >= 0.999 && shared[f] === 1 && !(f === "id" && isGeneratedId(sig.attrs.id || ""))) { anchor = true; if (f === "id") idAnchor = true; }
    // A numbered key (data-sku="650", href="/p/500") names one record; a word (data-type="radio",
    // href="#") names a kind, which may be unique only because its twin was deleted.
    if ((si.data ?? 0) >= 0.999 && shared.data === 1 && numberedData) anchor = true;
    if ((si.href ?? 0) >= 0.999 && shared.href === 1 && /\d/.test(sig.attrs.href || "") && (si.name ?? 0) >= 0.8) anchor = true;
    let num = 0, den = 0;
    /** @type {Array<[string, number, number]>} */
    const parts = [];
    for (const [f, base] of Object.entries(WEIGHTS)) {
      const s = si[f];
      if (s === null || s === undefined) continue;
      let w = base * (f === "id" ? idWeight(sig.attrs.id) : 1);
      // Rarity: a value matched by many candidates identifies little (position is never "shared").
      if (f !== "box" && shared[f] > 1) w /= 1 + Math.log(shared[f]);
      num += w * s; den += w;
      parts.push([f, w, s]);
    }
    // Tolerant score: the same with the one field that lost most left out. A mutation usually
    // changes one thing about an element (its id, its text, its wrapper); another element differs
    // in several, so this keeps the target high and look-alikes low.
    // An input's role follows from its type: a dropped or changed type is one change, not two.
    const implicitRole = !(sig.attrs || {}).role;
    const roleSimW = parts.find((p) => p[0] === "role");
    let loo = den ? num / den : 0, looField = "", looSim = 1;
    for (const [f, w, s] of parts) {
      let wn = w * s, wd = w;
      if (f === "type" && implicitRole && roleSimW) { wn += roleSimW[1] * roleSimW[2]; wd += roleSimW[1]; }
      const without = den - wd > 0 ? (num - wn) / (den - wd) : 0;
      if (without > loo) { loo = without; looField = f; looSim = s; }
    }
    // Whether the field left out is an attribute the candidate no longer has (dropped) rather than
    // one it has with another value (another element's identity).
    const key = ATTR_OF[looField];
    const looAbsent = !!key && !(key === "testid" ? TEST_ID_ATTRS.some((k) => c.signature.attrs[k]) : c.signature.attrs[key]);
    return { element: c.element, signature: c.signature, score: den ? num / den : 0, loo, looField, looSim, looAbsent, distinctive, anchor, idAnchor,
      tagOk: c.signature.tag === sig.tag || (roleSim(sig.role, c.signature.role) ?? 0) >= 0.6 };
  }).sort((a, b) => b.score - a.score);
}

/** The attribute behind each attribute field. @type {Record<string, string>} */
const ATTR_OF = { id: "id", nameAttr: "name", type: "type", href: "href", placeholder: "placeholder", alt: "alt", title: "title", testid: "testid", value: "value" };

/** Fields whose exact, unique match names one element (see scoreCandidates). */
const ANCHORS = ["id", "testid"];

const NOT_SPACE = /\S/;

/**
 * Whether the element's own (direct child) text, normalised and lower case, is `text` (not
 * empty). Most elements' own text is only the whitespace between their children: that is told
 * without normalising it.
 * @param {Element} el @param {string} text
 */
function sameDirectText(el, text) {
  // Normalising only shortens: own text shorter than `text` (the whitespace between children, as
  // on most elements) cannot be it, and is told without building a string.
  let len = 0, one = null, many = false;
  for (let n = firstChildOf(el); n; n = nextSiblingOf(n)) {
    if (nodeTypeOf(n) !== 3) continue;
    len += /** @type {Text} */ (n).length;
    if (one) many = true; else one = n;
  }
  if (len < text.length || !one) return false;
  let t = "";
  if (!many) t = nodeValueOf(one) || "";
  else for (let n = firstChildOf(el); n; n = nextSiblingOf(n)) if (nodeTypeOf(n) === 3) t += nodeValueOf(n);
  return NOT_SPACE.test(t) && norm(t).toLowerCase() === text;
}

/**
 * Elements that could be the one a signature describes: interactive ones, those with the same tag,
 * and any element that carries the signature's test id, id, name or own text (a swapped tag).
 * Only rendered ones unless `rendered` is false (refind checks that for its shortlist alone: asking
 * thousands of elements whether they are visible is most of a big page's re-find).
 * A page of more than BIG_PAGE elements is not walked element by element: see gatherBig.
 * @param {Signature} sig @param {Document | Element | ShadowRoot} root @param {boolean} [rendered]
 * @param {Map<any, any>} [pass] see captureSignature
 */
export function collectCandidates(sig, root, rendered = true, pass) {
  const A = sig.attrs || {};
  const text = norm(sig.text).toLowerCase();
  /** @type {Element[]} */
  const out = [];
  const testIds = TEST_ID_ATTRS.filter((k) => A[k]);
  /** @param {Element} el */
  const visit = (el) => {
    const tag = tagOf(el);
    let maybe = tag === sig.tag;
    // An element without attributes is interactive by its tag alone, and carries no id, name or
    // test id: most of a page's elements are told with one question.
    if (!maybe && (INTERACTIVE_TAGS.has(tag) || hasAttrs(el))) {
      maybe = isInteractiveCheap(el) || (!!A.id && idOf(el) === A.id) || (!!A.name && attr(el, "name") === A.name)
        || testIds.some((k) => attr(el, k) === A[k]);
    }
    if (!maybe && text && firstChildOf(el) && sameDirectText(el, text)) maybe = true;
    if (maybe && tag !== "html" && tag !== "body" && (!rendered || isRendered(el))) out.push(el);
  };
  // Whether there is a BIG_PAGE-th element is asked of a live list, which walks no further than it.
  const big = "getElementsByTagName" in root ? !!byTagOf(root, "*").item(BIG_PAGE) : qsa(root, "*").length > BIG_PAGE;
  if (big) gatherBig(sig, root, visit, pass);
  else walkDeep(root, visit);
  return out;
}

/**
 * Elements past which a page's candidates are asked of the selector engine (see gatherBig). Below
 * it a walk over every element costs a few milliseconds; at 20,000 it costs more than a whole
 * re-find may (the first touch of each node from script makes an object for it).
 */
export const BIG_PAGE = 3000;

/** On a big page, the elements of the element's tag this many on either side of its old place in
 * the page's order are candidates (see gatherBig). */
export const AROUND = 100;

/** The same for the controls of another tag that a person uses alike, when the element's own tag is
 * not a control's (see gatherBig). */
export const AROUND_OTHER = 60;

/** At most this many nodes are walked between the element's neighbours of its tag (see gatherBig). */
const BETWEEN_NODES = 400;

/** Attributes whose captured value, carried by an element of another kind, brings it in on a big page. */
const CARRIED = ["id", "name", ...TEST_ID_ATTRS, "aria-label", "title", "placeholder", "href", "alt"];

/** The tags of controls, with the roles their markup can give them. @type {Array<[string, string[]]>} */
const ROLE_TAGS = [["a", ["link"]], ["area", ["link"]], ["button", ["button"]], ["summary", ["button"]],
  ["select", ["combobox", "listbox"]], ["textarea", ["textbox"]],
  ["input", ["textbox", "searchbox", "combobox", "button", "checkbox", "radio", "slider", "spinbutton"]]];

/**
 * The candidates of a big page, asked of the selector engine rather than walked: for an element of a
 * control's tag (a button, a link, a field), the elements of its tag around its old place in the
 * page's order (AROUND on either side: the k-th of n then is near the same share of the way through
 * the page now) and the controls of any other tag standing between its neighbours of its tag there
 * (the element redone as a link, or as a div with a role); for an element of a box's tag (a div, a
 * span), every box a role, a tab stop, a handler or editability marks as a control, and the controls
 * of other tags a person uses alike around the same share of the page; for either, every element
 * carrying one of its captured values (its id, form name, test id, data keys, label, link target) —
 * each then put to the same test as on any page (`visit`). Left out: an element far from its old
 * place in the page's order that carries none of its values, and one that kept its words but lost
 * every mark of a control. Either is refused rather than guessed at: re-finding abstains. Shadow
 * roots are entered along the element's own chain of hosts (a candidate in other components is
 * another element, see anotherElement), same-origin frames all.
 * @param {Signature} sig @param {Document | Element | ShadowRoot} root @param {(el: Element) => void} visit
 * @param {Map<any, any>} [pass] see captureSignature: the elements of the tag are asked for once
 */
function gatherBig(sig, root, visit, pass) {
  const A = sig.attrs || {};
  const tag = sig.tag.replace(/[^\w-]/g, "");
  const ofTag = !!tag && INTERACTIVE_TAGS.has(tag);
  // One query a kind: the engine answers a lone tag, or a short list of attributes, far faster than
  // a long list mixing both. Asking it for every marked box on a big page is a fifth of a re-find:
  // for an element of a control's tag, only those standing where it stood are walked (below).
  const carried = Object.keys(A).filter((k) => CARRIED.includes(k) || (k.startsWith("data-") && A[k].length <= 40))
    .map((k) => `,[${k}="${CSS.escape(A[k])}"]`).join("");
  const marked = ofTag ? carried.slice(1) : `[role],[tabindex],[onclick],[contenteditable]${carried}`;
  // The tags of other controls a person uses alike (a link for a button).
  const otherTags = ROLE_TAGS.filter(([t, roles]) => t !== tag && roles.some((x) => (roleSim(sig.role, x) ?? 0) > 0)).map(([t]) => t);
  const alike = (/** @type {Element} */ el) => otherTags.includes(tagOf(el)) && (roleSim(sig.role, roleOf(el)) ?? 0) > 0;
  const control = (/** @type {Element} */ el) => tagOf(el) !== tag && isInteractiveCheap(el);
  const share = sig.order ? sig.order.k / Math.max(1, sig.order.n) : 0;
  const hosts = (sig.shadow || []).map((x) => x.split(/[.#]/)[0]).reverse();
  const doc = "defaultView" in root ? root : docOf(root);
  // A window counts its frames: a document without any is not searched for them.
  const framed = !!(/** @type {Document | null} */ (doc)?.defaultView?.length);
  /** @type {Set<Element>} */
  const seen = new Set();
  /** @param {Element} el @param {(el: Element) => boolean} [keep] */
  const take = (el, keep) => { if (!seen.has(el) && (!keep || keep(el))) { seen.add(el); visit(el); } };
  /** @param {ArrayLike<Element>} list @param {number} at @param {number} w @param {(el: Element) => boolean} [keep] */
  const around = (list, at, w, keep) => {
    const from = list.length <= 2 * w ? 0 : Math.max(0, Math.min(at, list.length - w) - w);
    const to = list.length <= 2 * w ? list.length : Math.min(list.length, Math.max(at, w) + w);
    for (let i = from; i < to; i++) take(list[i], keep);
  };
  /**
   * The elements after `from` and before `to` in document order (the root's start and end when
   * null) that `keep` accepts, BETWEEN_NODES at most.
   * @param {Document | Element | ShadowRoot} r @param {Element | null} from @param {Element | null} to @param {(el: Element) => boolean} keep
   */
  const between = (r, from, to, keep) => {
    const w = (/** @type {Document} */ (docOf(r) || r)).createTreeWalker(r, NodeFilter.SHOW_ELEMENT);
    if (from) w.currentNode = from;
    for (let n = w.nextNode(), i = 0; n && n !== to && i < BETWEEN_NODES; n = w.nextNode(), i++) take(/** @type {Element} */ (n), keep);
  };
  /** @param {Document | Element | ShadowRoot} r @param {number} depth */
  const inRoot = (r, depth) => {
    if (depth === hosts.length) {
      if (ofTag) {
        const all = "tagName" in r ? qsa(r, tag) : tagQuery(/** @type {Document | ShadowRoot} */ (r), tag, pass);
        const at = Math.round(share * all.length);
        around(all, at, AROUND);
        between(r, all[at - 2] || null, all[at + 1] || null, control);
      } else if (otherTags.length) {
        const list = qsa(r, otherTags.join(","));
        around(list, Math.round(share * list.length), AROUND_OTHER, alike);
      }
      if (marked) for (const el of Array.from(qsa(r, marked))) take(el);
    } else {
      for (const h of Array.from(qsa(r, hosts[depth] || "*"))) if (shadowOf(h)) inRoot(shadowOf(h), depth + 1);
    }
    if (framed) for (const t of ["iframe", "frame"]) for (const f of Array.from(qsa(r, t))) { const d = frameDocument(f); if (d) inRoot(d, 0); }
  };
  inRoot(root, 0);
}

/** Full signatures (neighbour text, label, path, box) cost ~50 µs each: on big pages only the
 * candidates that resemble the target by their cheap fields get one. */
const SHORTLIST = 80;

/** Of the look-alikes tied with the last of the shortlist, the nearest this many stay with it: a
 * thousand "Add to cart" buttons are as common a look as a hundred and sixty, and those far off in
 * other cards are set aside by where they stand. */
const TIES = 40;

/** Of a longer run of look-alikes, this many on either side of its old place in the page's order
 * have their box read (see shortlist). */
const NEAR_RUN = 80;

/**
 * The candidates worth a full signature: the best SHORTLIST by tag, role, text and stable
 * attributes, plus every candidate tied with the last of them (twenty identical "Buy" links stay
 * together, so the full scoring still sees how common the target's look is).
 * @param {Signature} sig @param {Element[]} pool @param {boolean} [checkRendered] @param {Map<any, any>} [pass] see captureSignature
 */
export function shortlist(sig, pool, checkRendered = false, pass = new Map()) {
  if (pool.length <= SHORTLIST) return checkRendered ? pool.filter(isRendered) : pool;
  const A = sig.attrs || {};
  const text = sig.text || sig.name;
  const dataKeys = Object.keys(A).filter((k) => k.startsWith("data-") && !TEST_ID_ATTRS.includes(k));
  const keys = ["id", "name", "href", "placeholder", "aria-label", "title", "type", ...TEST_ID_ATTRS].filter((k) => A[k]);
  const box = sig.box && (sig.frame || []).length === 0 ? sig.box : null;
  const view = pool[0] ? docOf(pool[0]).defaultView : undefined;
  const sx = view ? view.scrollX : 0, sy = view ? view.scrollY : 0;
  // The score is summed in this order: tag, role, text, attributes, then label and box. The label
  // and the box (a layout read) are the dear parts: they are read only for the candidates that
  // could still reach the list — the rest, scored without them, fall short even with the most
  // they could add. The list (and its order) is the one scoring every candidate fully would give.
  const withLabel = !!sig.label;
  // A page repeats its words ("Add to cart" × 1,000): each is compared with the target's once.
  /** @type {Map<string, number>} */
  const textSims = new Map(), labelSims = new Map();
  /** @param {Map<string, number>} memo @param {string} a @param {string} b */
  const simOf = (memo, a, b) => { let v = memo.get(b); if (v === undefined) { v = textSim(a, b) || 0; memo.set(b, v); } return v; };
  /** @param {Element} el */
  const partial = (el) => {
    const tag = tagOf(el);
    let sc = (tag === sig.tag ? 1 : 0) + (roleSim(sig.role, roleOf(el)) || 0);
    sc += 2 * simOf(textSims, text, tag === "input" || tag === "textarea" ? (attr(el, "placeholder") || "") : visibleText(el, pass));
    for (const k of keys) if (attr(el, k) === A[k]) sc += k === "type" ? 0.5 : 2;
    for (const k of dataKeys) if (attr(el, k) === A[k]) sc += 2;
    return sc;
  };
  /** @param {Element} el @param {number} sc */
  const finish = (el, sc) => {
    if (withLabel && LABELABLE.has(tagOf(el))) sc += 2 * simOf(labelSims, sig.label, labelText(el, pass));
    // Where it was: a look-alike far away should not push the target itself off the list.
    if (box && !far.has(el)) { const r = rectOf(el); sc += 1.5 * Math.exp(-Math.hypot(r.left + sx - box.x, r.top + sy - box.y) / 150); }
    return sc;
  };
  /** @param {Element} el @param {number} sc */
  const most = (el, sc) => sc + (withLabel && LABELABLE.has(tagOf(el)) ? 2 : 0) + (box ? 1.5 : 0) + 1e-6;
  const bounded = pool.map((el, i) => { const p = partial(el); return { el, i, p, up: most(el, p), sc: NaN }; })
    .sort((a, b) => b.up - a.up || a.i - b.i);
  const far = box ? farInRuns(sig, bounded) : new Set();
  /** @type {Map<Element, boolean>} */
  const shown = new Map();
  /** @param {Element} el */
  const rendered = (el) => { let v = shown.get(el); if (v === undefined) { v = isRendered(el); shown.set(el, v); } return v; };
  // The list from the candidates scored so far (see pickList).
  const pick = (/** @type {number} */ n) => pickList(bounded.slice(0, n), checkRendered ? rendered : null);
  let n = 0;
  const scoreUpTo = (/** @type {number} */ m) => { for (; n < Math.min(m, bounded.length); n++) bounded[n].sc = finish(bounded[n].el, bounded[n].p); };
  let size = SHORTLIST * 2;
  for (;;) {
    scoreUpTo(size);
    const { last } = pick(n);
    if (last > -Infinity || n === bounded.length) {
      // Those not scored yet cannot reach the cut even with the most the label and box could add.
      while (n < bounded.length && bounded[n].up >= last - 1e-9) scoreUpTo(n + 1);
      break;
    }
    size *= 2;
  }
  // Scoring more can only raise the cut, so what is left out stays out.
  return pick(n).out;
}

/**
 * A run of look-alikes longer than the list can hold (a thousand "Add to cart" buttons) keeps only
 * the ones nearest the element, and reading a thousand boxes to find them is most of a big page's
 * re-find: those nearest it in the page's order are measured — around the place among its
 * look-alikes (or its tag) it held — and the rest count as far off (returned).
 * @param {Signature} sig @param {Array<{el: Element, i: number, p: number}>} bounded by bound, best first
 * @returns {Set<Element>}
 */
function farInRuns(sig, bounded) {
  /** @type {Set<Element>} */
  const far = new Set();
  for (let a = 0; a < bounded.length;) {
    let b = a + 1;
    while (b < bounded.length && Math.abs(bounded[b].p - bounded[a].p) < 1e-9) b++;
    if (b - a > SHORTLIST + TIES) {
      const run = bounded.slice(a, b).map((q) => q.i).sort((x, y) => x - y);
      const at = sig.twins || sig.order;
      const mid = at ? Math.round((at.k / Math.max(1, at.n)) * run.length) : 0;
      const near = new Set(run.slice(Math.max(0, mid - NEAR_RUN), mid + NEAR_RUN));
      for (let j = a; j < b; j++) if (!near.has(bounded[j].i)) far.add(bounded[j].el);
    }
    a = b;
  }
  return far;
}

/**
 * The list from the candidates scored so far: every one scored fully, in score order (ties in pool
 * order, as a stable sort of the whole pool leaves them), cut after SHORTLIST (and the ties with the
 * last, TIES at most); with `rendered`, those not rendered left out. `last` is the cut's score, or
 * -Infinity while the list is not full.
 * @param {Array<{el: Element, i: number, sc: number}>} done @param {((el: Element) => boolean) | null} rendered
 */
function pickList(done, rendered) {
  done.sort((a, b) => b.sc - a.sc || a.i - b.i);
  /** @type {Element[]} */
  const out = [];
  let last = -Infinity;
  for (const q of done) {
    if (out.length >= SHORTLIST && (q.sc < last - 1e-9 || out.length >= SHORTLIST + TIES)) break;
    if (rendered && !rendered(q.el)) continue;
    out.push(q.el);
    if (out.length === SHORTLIST) last = q.sc;
  }
  return { out, last: out.length >= SHORTLIST ? last : -Infinity };
}

/** Candidates set aside by where they stand that still get a full signature, to be reported. */
const REPORTED = 5;

/** Elements a <label> can name (others have no `labels`). */
const LABELABLE = new Set(["input", "select", "textarea", "button", "meter", "output", "progress"]);

/**
 * Finds the element a signature describes, or abstains.
 * @param {Signature} signature
 * @param {Document | Element | ShadowRoot} [root]
 * @param {Opts} [opts]
 * @returns {RefindResult}
 */
export function refind(signature, root = document, opts = {}) {
  const outer = simsMemo;
  simsMemo = new WeakMap();
  try { return decide(signature, root, opts); } finally { simsMemo = outer; }
}

/**
 * @typedef {{threshold?: number, margin?: number, candidates?: Element[], features?: boolean}} Opts
 * @typedef {{element: Element, context: Context, path: string[]}} Where
 * @typedef {{sig: Signature, threshold: number, margin: number, every: Scored[], left: Scored[],
 *   aside: Set<Element>, movedOut: Array<{signature: Signature, tagOk: boolean}>, placed: Array<Where | null>,
 *   standing: Set<string>, carriersFrom: Scored[], identity: Array<[string, string]>, unreadable: number,
 *   top: RefindResult["candidates"], vetoed: string}} Field
 *   what a re-find weighs: every candidate read and scored (`every`), those that nothing says are
 *   another element, scored among themselves (`left`), and why the last one the invariants turned
 *   down was turned down (`vetoed`)
 */

/**
 * The decision: the invariants in order (see the top of this file), each phase a function that
 * answers or passes — the element exactly as it was, then what identifies it, then its context
 * (`left` holds no candidate from another part of the page), then look-alikes by what tells them
 * apart. Every answer goes through `found`, which takes no candidate the invariants turn down.
 * @param {Signature} sig @param {Document | Element | ShadowRoot} root @param {Opts} opts @returns {RefindResult}
 */
function decide(sig, root, opts) {
  const f = field(sig, root, opts);
  return unchanged(f) ?? untouched(f) ?? ownIdentity(f) ?? byEvidence(f) ?? undecided(f);
}

/**
 * Gathers and reads the candidates. Where each stands comes first (a few container reads, shared by
 * a pass): one in another item or landmark is another element whatever the rest of it says, and a
 * full signature of each of a thousand look-alikes in other cards is most of a big page's
 * re-find. Such a one takes no part in the decision (only where it stands is read); the first few
 * still get a full signature, to be reported among the candidates. A candidate that cannot be read
 * (a read throws) is left out — and then nothing but the element unchanged to the letter is taken:
 * the one left out might have been it (a doubt abstains).
 * @param {Signature} sig @param {Document | Element | ShadowRoot} root @param {Opts} opts @returns {Field}
 */
function field(sig, root, opts) {
  const pass = new Map(); // one pass: nothing changes on the page while refind runs
  const pool = opts.candidates ? shortlist(sig, opts.candidates, false, pass) : shortlist(sig, collectCandidates(sig, root, false, pass), true, pass);
  let unreadable = 0;
  /** @template T @param {() => T} read @returns {T | null} */
  const guarded = (read) => { try { return read(); } catch { unreadable++; return null; } };
  const placed = pool.map((element) => guarded(() => ({ element, context: contextOf(element, pass), path: ancestorPath(element) })));
  let reported = 0;
  const signed = /** @type {Where[]} */ (placed.filter(Boolean)).filter((c) => !sig.context || !contextClash(sig, c) || reported++ < REPORTED);
  /** @param {Where[]} list */
  const signOf = (list) => /** @type {{element: Element, signature: Signature}[]} */ (list.map(({ element, context, path }) =>
    guarded(() => ({ element, signature: captureSignature(element, { place: false, context, path }, pass) }))).filter(Boolean));
  const all = signOf(signed);
  placeCandidates(sig, all, pass);
  const every = scoreCandidates(sig, all);
  // What carries the element's whole identity is read wherever it stands, for ownIdentity alone.
  const identity = identityKeys(sig);
  const far = identity.length ? /** @type {Where[]} */ (placed).filter((c) => c !== null && !signed.includes(c) && carriesAttrs(c.element, identity)) : [];
  const carriersFrom = far.length ? (() => { const more = [...all, ...signOf(far)]; placeCandidates(sig, more, pass); return scoreCandidates(sig, more); })() : every;
  if (opts.features) {
    /** @type {any} */ (opts).out = every.slice(0, 8).map((x) => ({ element: x.element, score: x.score, loo: x.loo,
      looField: x.looField, looSim: x.looSim, looAbsent: x.looAbsent, distinctive: x.distinctive, anchor: x.anchor, tagOk: x.tagOk }));
  }
  // Context: a candidate in another part of the page (the footer's "Blog" for the header's, the
  // sign-up e-mail field for the login one, Bob's row for Alice's, the other widget's star) is
  // another element, however well it matches; it stays among the candidates reported. How rare a
  // field's value is, and so what singles a candidate out, is judged among what is left in its
  // part of the page: the footer's "About" does not make the header's less itself.
  const standing = standingZones(/** @type {Placed[]} */ (placed.filter((p) => p !== null)));
  const outside = outsideItsHolders(sig, placed, root);
  const isAside = all.map((c) => outside.has(c.element) || anotherElement(sig, c.signature, standing));
  const aside = new Set(all.filter((_, i) => isAside[i]).map((c) => c.element));
  // Set aside only for leaving the group that told it from its look-alikes, a candidate may still be
  // the element moved out; set aside where it stands at the element's spot (another link target
  // there), it may be the element changed: either keeps a reworded copy from being taken in
  // its stead.
  const movedOut = all.filter((c, i) => isAside[i] && ((sig.twins && !anotherElement(sig, c.signature)) || atItsSpot(sig, c.signature)))
    .map((c) => ({ signature: c.signature, tagOk: c.signature.tag === sig.tag }));
  return { sig, threshold: opts.threshold ?? THRESHOLD, margin: opts.margin ?? MARGIN, every, left: scoreCandidates(sig, all.filter((_, i) => !isAside[i])),
    aside, movedOut, placed, standing, carriersFrom, identity, unreadable, vetoed: "",
    top: every.slice(0, 5).map((s) => ({ element: s.element, score: Math.round(s.score * 1000) / 1000, tag: s.signature.tag, name: s.signature.name, text: s.signature.text })) };
}

/**
 * Context is identity, read from the ids the page's author gave the element's containers (its
 * path's `tag#id` steps): while such a container still stands — a candidate stands in it, or the
 * page has it — a candidate outside it, standing in another named container of that kind that the
 * element never stood in, is in another part of the page, whatever its words and its form's
 * address say (a copy of the login form, its id grown a suffix, the field then deleted from the
 * original). One moved out of it and into none of its kind (up into its container's parent) may
 * still be the element.
 * @param {Signature} sig @param {Array<Where | null>} placed @param {Document | Element | ShadowRoot} root
 * @returns {Set<Element>}
 */
function outsideItsHolders(sig, placed, root) {
  const was = (sig.path || []).filter(isIdStep);
  if (!was.length) return new Set();
  const held = /** @type {Where[]} */ (placed.filter(Boolean)).map((c) => ({ c, holders: idHolders(c.element) }));
  const standing = was.filter((x) => held.some((h) => h.holders.has(x)) || pageHas(root, x));
  const kind = (/** @type {string} */ x) => x.slice(0, x.indexOf("#"));
  return new Set(held.filter(({ c, holders }) => standing.some((x) => !holders.has(x)
    && c.path.some((y) => isIdStep(y) && kind(y) === kind(x) && !was.includes(y)))).map(({ c }) => c.element));
}

/** Whether a path step names its container by an id (`form#log-in`, not `div.card`). @param {string} x */
function isIdStep(x) { return /^[a-z][\w-]*#./.test(x); }

/** Whether the page (the root's document or shadow root) has an element written as this path step. @param {Document | Element | ShadowRoot} root @param {string} x */
function pageHas(root, x) {
  const at = x.indexOf("#"), tag = x.slice(0, at), id = x.slice(at + 1);
  try {
    const scope = /** @type {Document | ShadowRoot} */ ("getElementById" in root ? root : docOf(root));
    const el = scope?.getElementById(id);
    return !!el && tagOf(el) === tag;
  } catch { return false; }
}

/**
 * The answer `s`, unless an invariant turns it down (then null, and `f.vetoed` says why): it stands
 * in another part of the page (unless `anywhere`: its own identity, whole, decided); it is of
 * another kind (otherKind: the words a button held, moved out of it); none of its classes is the
 * element's (a copy restyled); it carries a value that contradicts one the element
 * had while another candidate contradicts none and says its words, or a mark of another element;
 * it ties with another candidate on everything but its place, and is not standing in the
 * element's own place. A candidate that could not be read leaves any answer short of the
 * element to the letter in doubt.
 * @param {Field} f @param {Scored} s @param {number} confidence @param {string} why @param {{anywhere?: boolean}} [opts]
 * @returns {RefindResult | null}
 */
function found(f, s, confidence, why, opts = {}) {
  const veto = (!opts.anywhere && f.aside.has(s.element) ? "it stands in another part of the page" : "")
    || (otherKind(f.sig, s) ? "it is of another kind, no control, carrying nothing of the element's own" : "")
    || (restyled(f.sig, s.signature) ? "none of its classes is the element's" : "")
    || (lookOnlyElsewhere(f.sig, s.signature) ? "it keeps nothing of the element's own but its look, away from its place" : "")
    || iconLost(f, s)
    || swapped(f.sig, s.signature) || otherInstance(f.sig, s.signature) || contradictedBetter(f, s) || tiedButPlace(f, s);
  if (veto) { f.vetoed = `${why}, but ${veto}`; return null; }
  if (f.unreadable && confidence < 1) return { status: "ambiguous", element: null, confidence, candidates: f.top, why: `${why}, but a candidate could not be read` };
  return { status: "found", element: s.element, confidence, candidates: f.top, why };
}

/**
 * Gone is gone, where only the look is left: the element said who it was (a name, words, a label, a
 * form name, link or test id) and the candidate says none of it — its name's source gone too — so
 * only its tag and classes look like the element's; away from the element's place (see inPlace),
 * among more of its look than there were, that is a look-alike, not the element (a nameless copy
 * of a toolbar's button put lower down, the button itself deleted).
 * @param {Signature} sig @param {Signature} c
 */
function lookOnlyElsewhere(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  const said = !!(sig.name || sig.text || sig.label) || OWN_KEYS.some((k) => A[k] !== undefined);
  // Only where elements of its look came since (a copy put in, a record added): one moved or
  // stripped alone among as many look-alikes is still the element, and so is one standing in
  // the named row or card it stood in.
  const more = (/** @type {Twins | undefined} */ x, /** @type {Twins | undefined} */ y) => !!y && y.n > (x?.n ?? 1);
  if (!said || inPlace(sig, c) || !(more(sig.order, c.order) || more(sig.twins, c.twins)) || sameItem(sig, c)) return false;
  // Says them: the same, reworded, or every one of them kept among more ("★" in "★ rated").
  const says = (/** @type {string | undefined} */ a, /** @type {string | undefined} */ b) => {
    if (!a || !b) return false;
    const x = norm(a).toLowerCase(), y = norm(b).toLowerCase(), more = y.split(" ");
    return x === y || reworded(a, b) || x.split(" ").every((w) => more.includes(w));
  };
  const saysName = says(sig.name, c.name), saysText = says(sig.text, c.text), saysLabel = says(sig.label, c.label);
  return !saysName && !saysText && !saysLabel && !OWN_KEYS.some((k) => A[k] !== undefined && B[k] !== undefined);
}

/**
 * A nameless control's icon is its name: a candidate whose icon lost a word of the element's
 * ("text bold" → "text") while another candidate still shows that word is not told from it by
 * the classes it kept.
 * @param {Field} f @param {Scored} s
 */
function iconLost(f, s) {
  const sig = f.sig;
  if (sig.name || !sig.icon) return "";
  const has = (/** @type {Signature} */ x) => (x.icon || "").split(" ");
  const lost = has(sig).filter((w) => w && !has(s.signature).includes(w));
  const other = lost.length ? f.left.find((d) => d !== s && d.tagOk && lost.every((w) => has(d.signature).includes(w))) : undefined;
  return other ? `its icon lost "${lost.join(" ")}", which another candidate shows` : "";
}

/** What an element's author gave it to be known by, beside its words: the attributes a signature
 * keeps, less its type (every checkbox has one). */
const OWN_KEYS = STABLE_ATTRS.filter((k) => k !== "type");

/**
 * Whether a candidate is of another kind than the element — neither its tag nor a role standing in
 * for it, nothing marking it as a control — and carries none of the element's own attributes: the
 * words a button held, moved out of it, not the button redone as another tag.
 * @param {Signature} sig @param {Scored} s
 */
function otherKind(sig, s) {
  const A = sig.attrs || {}, B = s.signature.attrs || {};
  return !s.tagOk && !isInteractiveCheap(s.element) && !Object.keys(A).some((k) => B[k] === A[k]);
}

/**
 * A contradiction loses: `s` carries another value than the element had (another form name, link,
 * value, label, placeholder, data key) while a candidate that could be it carries none, says its
 * words and keeps every value `s` keeps — or a value where the element had none (a copy's mark)
 * while such a candidate, keeping less, stands beside it. A form name, link, test id or value
 * where the element had none marks another element on its own (see MARKS).
 * @param {Field} f @param {Scored} s
 */
function contradictedBetter(f, s) {
  const k = contradiction(f.sig, s.signature);
  if (!k) return "";
  const extra = f.sig.attrs?.[k] === undefined && k !== "label"; // a value where the element had none: a copy's mark
  if (extra && isMark(f.sig, k)) return `it carries a ${k} the element never had`;
  const other = f.left.find((d) => d !== s && d.element !== s.element && d.tagOk && !contradiction(f.sig, d.signature) && wordsAgree(f.sig, d.signature)
    && (extra || keepsAll(f.sig, s.signature, d.signature)));
  return other ? `it carries ${extra ? "a" : "another"} ${k} while another candidate carries none` : "";
}

/**
 * Whether `d` keeps every recorded value that `s` keeps (attributes, label, classes): it merely
 * lacks what it lacks — not a candidate that shares nothing with the element but an absence.
 * @param {Signature} sig @param {Signature} s @param {Signature} d
 */
function keepsAll(sig, s, d) {
  const A = sig.attrs || {}, S = s.attrs || {}, D = d.attrs || {};
  const classes = (/** @type {Signature} */ x) => (x.classes || []).join(" ");
  return Object.keys(A).every((k) => S[k] !== A[k] || D[k] === A[k]) && (s.label !== sig.label || d.label === sig.label)
    && (classes(s) !== classes(sig) || classes(d) === classes(sig) || !d.classes?.length);
}

/**
 * Gone is gone: a candidate that lacks an identifying value the element had and carries one it
 * never had (a title where it had an aria-label, a data key of its own) is another element — the
 * element's look-alike left behind when it went.
 * @param {Signature} sig @param {Signature} c
 */
function swapped(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  const identifying = (/** @type {string} */ k) => (IDENTIFYING.has(k) && k !== "value") || k.startsWith("data-");
  const lacks = Object.keys(A).some((k) => identifying(k) && B[k] === undefined);
  const extra = Object.keys(B).find((k) => identifying(k) && A[k] === undefined && !(k === "href" && /^(#|javascript:)/i.test(B[k])));
  return lacks && extra ? `it carries a ${extra} the element never had, and lacks one it had` : "";
}

/**
 * A changed element in another component of its kind: where the element's component had look-alikes
 * (two rating widgets, nothing naming either), a candidate that is not the element to the letter but
 * for its place, inside one of them at another place, may be the other one's: place can say "not
 * this one", never "this one".
 * @param {Signature} sig @param {Signature} c
 */
function otherInstance(sig, c) {
  const a = sig.hosts || [], b = c.hosts || [];
  return a.some((h, i) => !!h && h !== b[i]) && !sameButPlace(sig, c) ? "it changed, and stands in another component like the element's" : "";
}

/**
 * Position never decides alone: `s` ties with another candidate on everything but its place (its
 * box, order, ancestors and the words around it) and ids that are not the element's. Standing in
 * the element's own place settles it for one that still carries all it carried itself (the
 * element beside a copy of it, or out of a wrapper that named its item), and for one among
 * look-alikes that only their place told apart when it was captured — a change made to them all
 * alike (a rebuild's classes) tells nothing of which is which, so their places still do — unless
 * it lost what one of them keeps (lostInPlace). Only an element without a name of its own is
 * named by the words before it ("Apple" before a bare checkbox): those words then tell it apart.
 * @param {Field} f @param {Scored} s
 */
function tiedButPlace(f, s) {
  if (inPlace(f.sig, s.signature) && (placeWasAll(f.sig) || sameItself(f.sig, s.signature))) return lostInPlace(f, s);
  const before = f.sig.name ? null : aroundParts(s.signature.neighbor)[0];
  const mine = lessOtherId(f.sig, s.signature);
  return f.left.some((d) => d !== s && d.element !== s.element && sameButPlace(mine, lessOtherId(f.sig, d.signature)) && (before === null || aroundParts(d.signature.neighbor)[0] === before))
    ? "another candidate is the same but for its place" : "";
}

/**
 * Place tells look-alikes apart only while they are alike: the candidate in the element's place
 * lost a class or attribute the element carried, while a look-alike elsewhere in its part of the
 * page still carries all of it — the element may have moved and the one now in its place be
 * another, changed. A doubt, not a guess.
 * @param {Field} f @param {Scored} s
 */
function lostInPlace(f, s) {
  const sig = f.sig, c = s.signature, A = sig.attrs || {}, B = c.attrs || {};
  const lost = (sig.classes || []).some((k) => !(c.classes || []).includes(k)) || Object.keys(A).some((k) => B[k] === undefined);
  return lost && f.left.some((d) => d !== s && d.element !== s.element && d.tagOk && sameButPlace(sig, d.signature))
    ? "it lost what the element carried, which a look-alike elsewhere keeps" : "";
}

/**
 * A candidate's signature without its id when that is neither the element's nor the element's
 * grown a suffix ("code-r7k2" for "code"): an id the element never carried tells nothing of which
 * is the element.
 * @param {Signature} sig @param {Signature} c @returns {Signature}
 */
function lessOtherId(sig, c) {
  const id = c.attrs?.id, was = sig.attrs?.id || "";
  if (id === undefined || id === was || extendsId(id, was)) return c;
  const { id: _, ...attrs } = c.attrs;
  return { ...c, attrs };
}

/** 0. Nothing changed: one candidate is the captured element to the letter, in the same place. @param {Field} f @returns {RefindResult | null} */
function unchanged(f) {
  const same = f.every.filter((s) => sameToTheLetter(f.sig, s.signature));
  return same.length === 1 ? found(f, same[0], 1, "unchanged, in its place") : null;
}

/**
 * 1. An untouched original wins: the one candidate that still carries every attribute, class,
 *    word, label and context value the signature recorded — whatever was put, moved or copied
 *    around it — when it was the one such element when captured (see signature.js peersOf: a
 *    signature from before peers were counted says nothing of them).
 * @param {Field} f @returns {RefindResult | null}
 */
function untouched(f) {
  if (placeWasAll(f.sig)) return null;
  const exact = f.every.filter((s) => sameButPlace(f.sig, s.signature));
  return exact.length === 1 ? found(f, exact[0], 1, "untouched: it carries every value it had, and no other element does") : null;
}

/**
 * 2. Its own identity, whole (every key the page's author gave it: id, test id, link target, form
 *    name and a checkbox's value) on exactly one candidate, in the same component and the same row
 *    or card: that one is it, whatever its words or place now say (the page's language switched, a
 *    copy of it was put beside it). When its words say something else and another candidate still
 *    says them, the two disagree: abstain.
 * @param {Field} f @returns {RefindResult | null}
 */
function ownIdentity(f) {
  const { sig, identity, standing } = f;
  const carriers = identity.length ? f.carriersFrom.filter((s) => carries(s.signature, identity)) : [];
  if (carriers.length !== 1) return null;
  const c = carriers[0];
  const was = norm(sig.name || "").toLowerCase(), now = norm(c.signature.name || "").toLowerCase();
  // (a rival is one that could be the element: not another record, part of the page or target)
  const nearNow = textSim(sig.name || "", c.signature.name || "") ?? 0;
  const could = (/** @type {Scored} */ s) => s !== c && s.tagOk && !anotherElement(sig, s.signature, standing);
  const rival = was !== now && !!was && f.carriersFrom.some((s) => could(s) && norm(s.signature.name || "").toLowerCase() === was);
  // The element itself may have lost that attribute (it still says its words at least as well):
  // then identity decides nothing, and the phases after it do.
  const lost = was !== now && f.carriersFrom.some((s) => could(s) && identity.some(([k]) => (s.signature.attrs || {})[k] === undefined)
    && (textSim(sig.name || "", s.signature.name || "") ?? 0) >= nearNow);
  if (!sameComponent(sig, c.signature) || !(c.tagOk || c.signature.role === sig.role) || !itemAllows(f, c) || !zonesAllow(f, c)
    || numbers(was) !== numbers(now)) return null;
  if (rival) return { status: "ambiguous", element: null, confidence: c.score, candidates: f.top,
    why: `its identity (${identityText(identity)}) and its words ("${cut(sig.name, 40)}") point to different elements` };
  return lost ? null : found(f, c, Math.max(c.score, /** @type {number} */ (c.loo ?? 0)), `the only element with its identity (${identityText(identity)})`, { anywhere: true });
}

/**
 * Whether the carrier of the element's identity may stand in the row or card it stands in: another
 * one than the element's is another record's control while the element's own row still stands
 * elsewhere, or when all it has is an id with a number (a place in a list, which a re-render may
 * give to the next record); with its row's words gone everywhere (translated, reworded) a target
 * or a name keeps naming it. Not a copy put in a row when the element stood in none.
 * @param {Field} f @param {Scored} c
 */
function itemAllows(f, c) {
  const sig = f.sig;
  const itemStands = !!sig.context?.item && f.placed.some((p) => p !== null && p.element !== c.element && sameItem(sig, p));
  const strong = f.identity.some(([k, v]) => k !== "id" || !/\d/.test(v));
  const intoRow = !sig.context?.item && !!c.signature.context?.item?.startsWith("r:");
  return !intoRow && (!otherItem(sig, c.signature) || (!itemStands && strong));
}

/**
 * Likewise out of the parts of the page it stood in (the header's nav, a named section) while they
 * still stand — the footer's link to the same page is another link — and never into a kind of part
 * it was never in (a copy put in another section once it was gone): a page redone in another
 * language keeps the kinds of its parts, only their names change.
 * @param {Field} f @param {Scored} c
 */
function zonesAllow(f, c) {
  const zones = f.sig.context?.zones || [];
  const zonesStand = zones.some((_, i) => f.standing.has(zones.slice(i).join(ZONE_SEP)));
  const bare = (/** @type {Signature} */ x) => ({ ...x, context: x.context ? { zones: x.context.zones, item: "" } : undefined });
  const kindsOf = (/** @type {string[]} */ z) => z.map((x) => x.slice(0, x.indexOf(":")));
  const wasIn = kindsOf(zones);
  const newKind = kindsOf(c.signature.context?.zones || []).some((k) => !wasIn.includes(k));
  return !newKind && (!zonesStand || !contextClash(bare(f.sig), bare(c.signature), f.standing));
}

/**
 * 3. Look-alikes, by what tells them apart: among the candidates left in the element's part of the
 *    page, the first of these that the invariants admit — the whole signature; an anchor (its id or
 *    test id alone); one thing changed; its place among look-alikes where that place still holds;
 *    the one its form knows by name; the one whose own features lead; the one that says every word
 *    of it. A candidate whose name or words were tweaked is not taken while another one (its own
 *    look-alikes aside) still says them word for word.
 * @param {Field} f @returns {RefindResult | null}
 */
function byEvidence(f) {
  if (!f.left.length) return null;
  const e = evidence(f);
  for (const rule of [wholeSignature, anchored, oneThingChanged, placeAmongLookAlikes, placeAmongItsKind, knownByName, ownFeatures, everyWord]) {
    for (const [s, confidence, why] of rule(f, e)) {
      if (e.tweaked(s)) { f.vetoed = `${why}, but its words were tweaked while another candidate says them word for word`; continue; }
      const r = found(f, s, confidence, why);
      if (r) return r;
    }
  }
  return null;
}

/** 4. Nothing clear: not found (nothing close, or everything is another element) or ambiguous, with why. @param {Field} f @returns {RefindResult} */
function undecided(f) {
  const best = f.left[0], second = f.left[1];
  if (!best) return { status: "not_found", element: null, confidence: 0, candidates: f.top,
    why: f.every.length ? "every candidate is another element (another part of the page, record, name or target)" : "nothing like it on the page" };
  if (best.score < f.threshold) return { status: "not_found", element: null, confidence: best.score, candidates: f.top,
    why: `nothing matches well enough (best ${best.score.toFixed(2)} < ${f.threshold})` };
  return { status: "ambiguous", element: null, confidence: best.score, candidates: f.top,
    why: f.vetoed || (second ? `no candidate clearly beats the others (${best.score.toFixed(2)} and ${second.score.toFixed(2)})` : "its one candidate is not told apart by anything of its own") };
}

/**
 * Whether a candidate has classes and none of them is the element's (which may have had none): a
 * copy restyled, the element perhaps gone — told by nothing of its own but its look, it is not
 * taken for the element.
 * @param {Signature} sig @param {Signature} c
 */
function restyled(sig, c) {
  const a = sig.classes || [], b = c.classes || [];
  return b.length > 0 && !a.some((x) => b.includes(x));
}

/**
 * @typedef {Array<[Scored, number, string]>} Picks what a rule would take, in order: the candidate,
 *   the confidence, why
 * @typedef {{resized: (s: Scored) => boolean, tweaked: (s: Scored) => boolean, ownOf: (s: Scored) => number,
 *   eligible: Scored[]}} Evidence
 */

/**
 * What the look-alike rules share. The one look-alike left in the item it was captured in (its
 * copies in the other posts or rows set aside) is not refused for its size: no look-alike of that
 * item can have slid into its place, and moving it about its item may resize it. A candidate whose
 * words were tweaked is not taken while another one still says exactly what the element said (a
 * copy with a word tweaked put beside it, the element itself moved) — words that are gone (a dropped
 * aria-label leaves "×") are no such tweak, and those that keep the exact words are no rival when
 * they are the element's own look-alikes, all still there but one (five stars, one reworded: that
 * one is it). A container whose words are those of a candidate inside it that matches the element
 * better (a wrapper around it) is not the element.
 * @param {Field} f @returns {Evidence}
 */
function evidence(f) {
  const sig = f.sig, scored = f.left;
  const lookKeyWas = lookKeyOfSignature(sig);
  const alikeLeft = sig.context?.item ? scored.filter((s) => lookKeyOfSignature(s.signature) === lookKeyWas && sameItem(sig, s.signature)) : [];
  const soleInItem = alikeLeft.length === 1 ? alikeLeft[0] : null;
  const resized = (/** @type {Scored} */ s) => s !== soleInItem && otherTwin(sig, s);
  /** Whether those are exactly the element's look-alikes, all there, among themselves. @param {Array<{signature: Signature}>} list */
  const areItsTwins = (list) => !!sig.twins && list.length === sig.twins.n - 1
    && list.every((s) => lookKeyOfSignature(s.signature) === lookKeyWas && s.signature.twins?.n === list.length && (s.signature.hosts || []).join(" ") === (sig.hosts || []).join(" "));
  /** @param {"name" | "text"} k */
  const saidBy = (k) => {
    const exact = sig[k] ? [...scored, ...f.movedOut].filter((s) => s.signature[k] === sig[k] && s.tagOk) : [];
    return exact.length > 0 && !areItsTwins(exact);
  };
  // One set aside for its words alone — in the element's own item, carrying every attribute and
  // class the element carried — may be the element renamed ("Add to cart" → "Add to cart 2"): while
  // it stands, a look-alike whose words were tweaked (a copy's "Add to carts") is no better a guess.
  const renamedAside = !!sig.context?.item && f.every.some((c) => f.aside.has(c.element) && c.tagOk && sameItem(sig, c.signature)
    && JSON.stringify([sig.attrs, sig.classes]) === JSON.stringify([c.signature.attrs, c.signature.classes])
    && (c.signature.name !== sig.name || c.signature.text !== sig.text));
  const nameSaid = saidBy("name") || renamedAside, textSaid = saidBy("text") || renamedAside;
  const tweak = (/** @type {string} */ now, /** @type {string} */ was) => now !== was && (textSim(now, was) ?? 0) > NEAR * OTHER_NUMBER;
  /** @type {Map<Scored, number>} */ const owns = new Map();
  const ownOf = (/** @type {Scored} */ s) => owns.get(s) ?? owns.set(s, ownScore(sig, s, goneFields(sig, s.signature))).get(s) ?? 0;
  const holdsBetter = (/** @type {Scored} */ s) => scored.some((d) => d !== s && d.tagOk && d.element !== s.element && containsOf(s.element, d.element) && ownOf(d) > ownOf(s));
  return {
    resized,
    tweaked: (s) => (nameSaid && tweak(s.signature.name, sig.name)) || (textSaid && tweak(s.signature.text, sig.text)),
    ownOf,
    eligible: scored.filter((s) => s.tagOk && !clashes(sig, s.signature) && !fewerTwins(sig, s) && !resized(s) && !holdsBetter(s)),
  };
}

/**
 * The whole signature: a clear best that something singles out. Look-alikes that only their place
 * tells apart (twenty "Add to cart" buttons) are refused: the target may be gone and a neighbour
 * slid into its place. A best that is singled out over a runner-up that is not needs a smaller lead.
 * @param {Field} f @param {Evidence} e @returns {Picks}
 */
function wholeSignature(f, e) {
  const [best, second] = f.left;
  const lead = best.distinctive && second && !second.distinctive ? LEAD_MARGIN : f.margin;
  return best.score >= f.threshold && (!second || (best.score - second.score >= lead && best.distinctive)) && !e.resized(best) && !fewerTwins(f.sig, best)
    ? [[best, best.score, `its whole description matches best (${best.score.toFixed(2)}, next ${second ? second.score.toFixed(2) : "none"})`]] : [];
}

/**
 * An anchor: the only element on the page with the captured id / test id (or numbered data key, or
 * numbered link with the same name), of a compatible kind. A unique id the page's author gave it
 * names it even when it changed kind (a select redone as a custom dropdown); an id that now extends
 * the captured one ("email" → "email-x7a9") is taken when nothing but the id changed.
 * @param {Field} f @returns {Picks}
 */
function anchored(f) {
  /** @type {Picks} */ const out = [];
  const anchors = f.left.filter((s) => s.anchor && (s.tagOk || (s.idAnchor && isInteractiveCheap(s.element))));
  if (anchors.length === 1 && anchors[0].score >= ANCHOR_FLOOR) out.push([anchors[0], Math.max(anchors[0].score, /** @type {number} */ (anchors[0].loo)), "the only element with its id, test id or numbered key"]);
  const oldId = f.sig.attrs?.id || "";
  if (oldId && !isGeneratedId(oldId)) {
    const ext = f.left.filter((s) => extendsId(s.signature.attrs?.id || "", oldId));
    const e = ext[0];
    if (ext.length === 1 && e.tagOk && e.looField === "id" && /** @type {number} */ (e.loo) >= LOO_THRESHOLD) out.push([e, /** @type {number} */ (e.loo), "its id now extends the one it had, nothing else changed"]);
  }
  return out;
}

/**
 * One thing changed: the tolerant score (the field that lost most left out) of the best is high and
 * well ahead of everyone else's. Not when what changed is its place (box, neighbours, path: a twin
 * slides into a deleted element's place), nor when an identifying attribute now has another value
 * (another element) rather than being gone; a dropped attribute is trusted with a smaller lead. What
 * changed must still look like a change of the same thing: a tweaked text shares something with
 * the old one ("Submit" → "Submits"; not "1" → ">"), a renamed id keeps its stem or was a generated
 * one, a link that now points elsewhere kept its numbers (/buy/1750 is not /buy/1753).
 * @param {Field} f @returns {Picks}
 */
function oneThingChanged(f) {
  const byLoo = f.left.slice().sort((a, b) => /** @type {number} */ (b.loo) - /** @type {number} */ (a.loo));
  const b = byLoo[0], s2 = byLoo[1];
  const loo = /** @type {number} */ (b.loo), loo2 = s2 ? /** @type {number} */ (s2.loo) : 0;
  const field = b.looField || "";
  const oldId = f.sig.attrs?.id || "", newId = b.signature.attrs?.id || "";
  const oldHref = f.sig.attrs?.href || "", newHref = b.signature.attrs?.href || "";
  const sameThing = ATTR_FIELDS.has(field) && b.looAbsent ? true : TEXT_FIELDS.has(field) ? (b.looSim ?? 0) > NEAR * OTHER_NUMBER
    : field === "id" ? !newId || isGeneratedId(oldId) || extendsId(newId, oldId) || (textSim(oldId, newId) ?? 0) >= 0.5
    : field === "href" ? numbers(hrefKey(oldHref)) === numbers(hrefKey(newHref))
    : !IDENTITY_FIELDS.has(field);
  if (!b.tagOk || !sameThing || loo < LOO_THRESHOLD || b.score < LOO_FLOOR || PLACE_FIELDS.has(field)) return [];
  return (ATTR_FIELDS.has(field) && b.looAbsent ? loo - loo2 >= LOO_MARGIN_DROPPED : loo - loo2 >= LOO_MARGIN)
    ? [[b, loo, `one thing changed (${field}), the rest matches (${loo.toFixed(2)}, next ${loo2.toFixed(2)})`]] : [];
}

/**
 * Its place among look-alikes (a grid of bare checkboxes, a "Send review" button per form): the
 * element that looks the same and stands k-th of the same n as the target did — only when the count
 * is unchanged (a deleted look-alike makes it drop, and the next one slides into the place), when
 * nothing it has contradicts the target, when no other candidate matches the target's own features
 * (all but its place) better, when the words around it do not say something else, when no other
 * look-alike alone still has the words around the target, and when no other look-alike stands
 * clearly nearer its spot (inside a component's shadow root the look-alikes are its component's
 * alone: which stands nearer says nothing). Or the k-th of the same n with its tag standing in its
 * own spot, saying a reworded form of what it said ("★" → "★s": it has left its look-alikes, which
 * all stay). `found` still turns down one that ties with another but for a place it has left.
 * @param {Field} f @param {Evidence} ev @returns {Picks}
 */
function placeAmongLookAlikes(f, ev) {
  const sig = f.sig, scored = f.left;
  /** @type {Picks} */ const out = [];
  const t = sig.twins, hostsKey = (sig.hosts || []).join(" ");
  if (t) {
    const key = lookKeyOfSignature(sig);
    const alike = scored.filter((s) => s.signature.twins?.n === t.n && lookKeyOfSignature(s.signature) === key && (s.signature.hosts || []).join(" ") === hostsKey);
    const at = alike.filter((s) => s.signature.twins?.k === t.k);
    const e = at[0];
    if (at.length === 1) {
      const sameWords = aroundTells(sig) ? alike.filter((s) => (neighborSim(sig.neighbor, s.signature.neighbor) ?? 0) >= 0.9) : [];
      const closest = Math.max(...alike.map((s) => boxSim(sig.box, s.signature.box) ?? 0));
      const moved = (boxSim(sig.box, e.signature.box) ?? 0) < STILL;
      const gone = goneFields(sig, e.signature);
      if (!clashes(sig, e.signature) && !ev.resized(e) && wordsAroundClash(sig.neighbor, e.signature.neighbor) < (moved ? 1 : 2)
        && ownScore(sig, e, gone) >= bestOwnScore(sig, scored, gone) - TWIN_OWN_SLACK && !(sameWords.length === 1 && sameWords[0] !== e)
        && (!!sig.hosts?.length || (boxSim(sig.box, e.signature.box) ?? 0) >= closest - TWIN_BOX_SLACK)) {
        out.push([e, Math.max(e.score, /** @type {number} */ (e.loo)), "its place among its look-alikes, nothing contradicting it"]);
      }
    }
  }
  const ord = sig.order;
  if (ord && sig.name) {
    const spot = scored.filter((s) => s.tagOk && s.signature.order?.k === ord.k && s.signature.order?.n === ord.n
      && (s.signature.hosts || []).join(" ") === hostsKey && sameSpot(sig.box, s.signature.box));
    const e = spot[0];
    if (spot.length === 1 && e.signature.name !== sig.name && !clashes(sig, e.signature) && (textSim(e.signature.name, sig.name) ?? 0) > NEAR * OTHER_NUMBER) {
      out.push([e, Math.max(e.score, /** @type {number} */ (e.loo)), "its place among its look-alikes, its words reworded"]);
    }
  }
  return out;
}

/**
 * Its place among the elements with its tag, when the one thing about it that changed is gone (an
 * attribute dropped — a checkbox that lost its type): the k-th of the same n, with nothing else
 * matching the target's own features better.
 * @param {Field} f @returns {Picks}
 */
function placeAmongItsKind(f) {
  const sig = f.sig, o = sig.order;
  if (!o) return [];
  const at = f.left.filter((s) => s.signature.tag === sig.tag && s.signature.order?.n === o.n && s.signature.order?.k === o.k);
  const e = at[0];
  if (at.length !== 1) return [];
  const changed = [e.looField || "", ...(e.looField === "type" ? ["role"] : [])];
  const gone = e.looAbsent || (e.looField === "classes" && !e.signature.classes.length); // gone, not another value
  return gone && /** @type {number} */ (e.loo) >= LOO_THRESHOLD && !clashes(sig, e.signature)
    && ownScore(sig, e, changed) >= bestOwnScore(sig, f.left, changed) - TWIN_OWN_SLACK
    ? [[e, /** @type {number} */ (e.loo), "its place among the elements of its kind, the one change gone"]] : [];
}

/**
 * The one left in its part of the page that the form knows by the captured name (and value: a radio
 * of its group) — the only one there carrying it: two fields of one name (a copy of it put beside
 * it) are not told apart by it.
 * @param {Field} f @param {Evidence} e @returns {Picks}
 */
function knownByName(f, e) {
  if (!f.sig.attrs?.name) return [];
  const named = f.left.filter((s) => { const x = fieldSims(f.sig, s.signature); return x.nameAttr === 1 && x.value !== 0 && x.type !== 0; });
  return named.length === 1 && e.eligible.includes(named[0]) && /** @type {number} */ (named[0].loo) >= LOO_FLOOR
    ? [[named[0], /** @type {number} */ (named[0].loo), "the one its form knows by its name"]] : [];
}

/**
 * The one left in its part of the page whose own features (all but where it is) match and lead — a
 * checkbox moved out of its label, a logo out of its header — when it has features of its own to
 * match: a nameless, wordless icon whose classes are gone has nothing left that says it is the
 * element.
 * @param {Field} f @param {Evidence} e @returns {Picks}
 */
function ownFeatures(f, e) {
  const own = ranked(e);
  const a = own[0], b = own[1];
  return a && ownEvidence(f.sig, a.s, goneFields(f.sig, a.s.signature)) && a.own >= SOLE_OWN && (!b || a.own - b.own >= SOLE_MARGIN) && a.s.score >= LOO_FLOOR
    ? [[a.s, a.s.score, "its own features match and lead"]] : [];
}

/**
 * The one that still says every word of it, beside copies that differ from it by words alone (a
 * reworded copy put next to it, while it moved): what it is outweighs where it is. Not one whose
 * words are gone: it says none of them.
 * @param {Field} f @param {Evidence} e @returns {Picks}
 */
function everyWord(f, e) {
  const own = ranked(e);
  const a = own[0];
  const WORDS = ["name", "text", "label", "placeholder", "title", "alt"];
  return a && a.own >= 1 - 1e-9 && !lostWords(f.sig, a.s.signature) && ownEvidence(f.sig, a.s, goneFields(f.sig, a.s.signature)) && a.s.score >= LOO_FLOOR
    && own.slice(1).every((o) => o.own < 1 - 1e-9 && ownScore(f.sig, o.s, [...goneFields(f.sig, o.s.signature), ...WORDS]) >= 1 - 1e-9)
    ? [[a.s, a.s.score, "the one that still says every word of it"]] : [];
}

/**
 * Whether a candidate lost words the element had (its label, a naming attribute, the name that came
 * from them): it no longer says them, so it cannot be the one that says every word.
 * @param {Signature} sig @param {Signature} c
 */
function lostWords(sig, c) {
  return nameGone(sig, c) || (!!sig.label && !c.label) || ["aria-label", "title", "alt", "placeholder"].some((a) => sig.attrs?.[a] && !c.attrs?.[a]);
}

/** The eligible candidates by their own score, best first. @param {Evidence} e */
function ranked(e) { return e.eligible.map((s) => ({ s, own: e.ownOf(s) })).sort((a, b) => b.own - a.own); }

/**
 * Whether a candidate is the captured element with nothing changed: every field the same (its
 * state and focus aside), in the same place — and not one whose look-alikes became fewer (a twin
 * that slid into the place of a deleted one can look the same to the letter).
 * @param {Signature} sig @param {Signature} c
 */
function sameToTheLetter(sig, c) {
  if (sig.v !== c.v || sig.tag !== c.tag || sig.name !== c.name || sig.text !== c.text || sig.label !== c.label || sig.neighbor !== c.neighbor
    || (sig.icon || "") !== (c.icon || "") || (sig.shows || "") !== (c.shows || "")) return false;
  if (sig.twins && (!c.twins || c.twins.n < sig.twins.n)) return false;
  if (sig.order && c.order && c.order.n < sig.order.n) return false;
  const a = sig.box, b = c.box;
  if (!a || !b || a.x !== b.x || a.y !== b.y || a.w !== b.w || a.h !== b.h) return false;
  return JSON.stringify([sig.attrs, sig.classes, sig.path, sig.frame, sig.shadow, sig.hosts || [], sig.context || null])
    === JSON.stringify([c.attrs, c.classes, c.path, c.frame, c.shadow, c.hosts || [], c.context || null]);
}

/**
 * Whether two signatures say the same element but for its place: the same itself (sameItself) in
 * the same parts of the page, item and components. Its box, its order, its ancestors, the words
 * around it and its state are where and how it is, not what it is.
 * @param {Signature} a @param {Signature} b
 */
function sameButPlace(a, b) {
  return sameItself(a, b) && contextKey(a) === contextKey(b);
}

/** Each context as text, written once: a re-find compares the same candidates' contexts many times. @type {WeakMap<Context, string>} */
const contextKeys = new WeakMap();

/** @param {Signature} s */
function contextKey(s) {
  const c = s.context;
  if (!c) return "null";
  let k = contextKeys.get(c);
  if (k === undefined) { k = JSON.stringify(c); contextKeys.set(c, k); }
  return k;
}

/**
 * Whether two signatures say the same of the element itself: tag, role, name, words, label, icon,
 * every recorded attribute and class, its frames and shadow hosts.
 * @param {Signature} a @param {Signature} b
 */
function sameItself(a, b) {
  return a.tag === b.tag && a.role === b.role && a.name === b.name && a.text === b.text && a.label === b.label
    && (a.icon || "") === (b.icon || "") && (a.shows || "") === (b.shows || "") && sameRecord(a.attrs, b.attrs)
    && (a.classes || []).join(" ") === (b.classes || []).join(" ") && (a.frame || []).join(">") === (b.frame || []).join(">")
    && (a.shadow || []).join(">") === (b.shadow || []).join(">");
}

/** Whether two attribute records hold the same values. @param {Record<string, string>} a @param {Record<string, string>} b */
function sameRecord(a = {}, b = {}) {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/**
 * Whether a candidate stands in the element's own place, all of it: the same box and ancestors (a
 * build's classes aside) — or, with one wrapper put around it or taken from around it, the same
 * ancestors but that one and the k-th of as many look-alikes as it was (a block wrapper drops it to
 * the next line) — the same words around it (sameAround), in components at the same places, among
 * no fewer look-alikes (when one is gone, the next may have slid into its place).
 * @param {Signature} sig @param {Signature} c
 */
function inPlace(sig, c) {
  const a = sig.box, b = c.box;
  const kept = (/** @type {Twins | undefined} */ x, /** @type {Twins | undefined} */ y) => !x || (!!y && y.n >= x.n);
  if (!a || !b || !kept(sig.order, c.order) || !kept(sig.twins, c.twins) || (sig.hosts || []).join(" ") !== (c.hosts || []).join(" ")
    || !sameAround(sig, c)) return false;
  const p = (sig.path || []).map(stepTag), q = (c.path || []).map(stepTag);
  if (p.join(">") === q.join(">")) return Math.abs(a.x - b.x) <= 1 && Math.abs(a.y - b.y) <= 1 && Math.abs(a.w - b.w) <= 1 && Math.abs(a.h - b.h) <= 1;
  const same = (/** @type {Twins | undefined} */ x, /** @type {Twins | undefined} */ y) => !x === !y && (!x || (!!y && x.k === y.k && x.n === y.n));
  return (unwrapped(p, q) || unwrapped(q, p)) && same(sig.order, c.order) && same(sig.twins, c.twins);
}

/** Whether a candidate stands at the element's spot: its box where the element's was, under the
 * same ancestors (their classes aside). @param {Signature} sig @param {Signature} c */
function atItsSpot(sig, c) {
  return sameSpot(sig.box, c.box) && (sig.path || []).map(stepTag).join(">") === (c.path || []).map(stepTag).join(">");
}

/** A path step's tag ("div.stars" → "div"). @param {string} x */
function stepTag(x) { return x.split(/[.#]/)[0]; }

/**
 * Whether nothing but its place told the element from its look-alikes when it was captured (see
 * signature.js peersOf; a signature from before peers were counted says nothing of it).
 * @param {Signature} sig
 */
function placeWasAll(sig) { return (sig.v ?? 0) < 4 || (sig.peers ?? 1) > 1; }

/**
 * Whether the words around a candidate are the element's: the same before it, and the same after
 * it — or, after it, a near copy's words, not its own (a copy put right after the element leaves
 * it in its place; one put right before it takes the place, and then the element follows it,
 * saying its own words).
 * @param {Signature} sig @param {Signature} c
 */
function sameAround(sig, c) {
  if (sig.neighbor === c.neighbor) return true;
  const [b0, a0] = aroundParts(sig.neighbor), [b1, a1] = aroundParts(c.neighbor);
  const own = norm(c.text || c.name).split(" ");
  return b0 === b1 && !!own[0] && a1.split(" ").slice(0, own.length).join(" ") !== own.join(" ");
}

/** Keys a re-render does not give an element that had none (a form name, a link target, a test id,
 * a checkbox's value): one where the element had none marks another element, whatever else stands. */
const MARKS = new Set(["name", "href", "value", ...TEST_ID_ATTRS]);

/** A data- attribute named for a state the page flips as the user works (data-state, data-active,
 * data-focus-visible…): a re-render may add it to the element itself. */
const STATE_DATA = new RegExp(`^data-(.+-)?(${UI_STATES}|state|highlighted|pressed|invalid|valid|touched|dirty|placement|side|align|orientation|drag\\w*)$`, "i");

/**
 * Whether a key the element did not have, found on a candidate, marks another element: one of
 * MARKS, or a data- attribute that is no state (a record's key, a variant, a clone's tag) — when
 * the signature recorded every data- attribute the element had (it keeps the first DATA_KEPT).
 * @param {Signature} sig @param {string} k
 */
function isMark(sig, k) {
  if (MARKS.has(k)) return true;
  const kept = Object.keys(sig.attrs || {}).filter((a) => a.startsWith("data-")).length;
  return k.startsWith("data-") && !STATE_DATA.test(k) && kept < DATA_KEPT;
}

/** Attributes whose other value — or a value where the element had none — says another element. */
const IDENTIFYING = new Set(["name", "href", "value", "aria-label", "placeholder", "title", "alt", ...TEST_ID_ATTRS]);

/** Of those, the ones that hold words: reworded ("Email" → "Emails") is the same value. */
const WORD_ATTRS = new Set(["aria-label", "placeholder", "title", "alt"]);

/**
 * The identifying value a candidate carries that contradicts the element's, or "": another form
 * name, link, value (a checkbox's, a button's), label, placeholder, title, test id or data key than
 * it had — or one where it had none (a copy's marker). A value that is gone contradicts nothing.
 * @param {Signature} sig @param {Signature} c
 */
function contradiction(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  const valueNames = sig.tag === "button" || sig.tag === "option" || /^(checkbox|radio|submit|button|reset|image)$/i.test(A.type || "");
  for (const k of new Set([...Object.keys(A), ...Object.keys(B)])) {
    if (!(IDENTIFYING.has(k) || k.startsWith("data-")) || (k === "value" && !valueNames)) continue;
    const a = A[k], b = B[k];
    if (b === undefined || a === b) continue;
    if (a === undefined) { if (k === "href" && /^(#|javascript:)/i.test(b)) continue; return k; }
    if (WORD_ATTRS.has(k) ? !reworded(a, b) : k === "href" ? hrefKey(a) !== hrefKey(b) : k === "name" ? !extendsId(b, a) : true) return k;
  }
  return sig.label && c.label && !reworded(sig.label, c.label) ? "label" : "";
}

/**
 * Whether a candidate says the element's words: its name (or a rewording of it, or the name's
 * source is gone), its icon, words where it had words.
 * @param {Signature} sig @param {Signature} d
 */
function wordsAgree(sig, d) {
  const named = sig.name === d.name || (!!sig.name && !!d.name && reworded(sig.name, d.name)) || nameGone(sig, d);
  return named && (!sig.icon || !d.icon || sig.icon === d.icon) && !!sig.text === !!d.text;
}

/**
 * Whether a candidate stands in a component named otherwise than the element's ("Rate the author",
 * not "Rate this article"; "Rate the recipe 2", not "Rate the recipe"; or named where the element's
 * was not). Said only of signatures that
 * record what names their components.
 * @param {Signature} sig @param {Signature} c
 */
function otherComponent(sig, c) {
  const a = sig.context?.components, b = c.context?.components;
  if (!a || !b) return false;
  return a.length !== b.length || a.some((x, i) => x !== b[i] && !(!!x && !!b[i] && sameWords(x, b[i]) && numbers(x) === numbers(b[i])));
}

/**
 * Whether a candidate has an identifying value that contradicts the signature's: another id (not a
 * generated one), label, test id or data key, or only other classes. A value that is gone is not a
 * contradiction.
 * @param {Signature} sig @param {Signature} c
 */
function clashes(sig, c) {
  const A = sig.attrs || {}, B = c.attrs || {};
  if (A.id && B.id && A.id !== B.id && !isGeneratedId(A.id) && !extendsId(B.id, A.id)) return true;
  if (sig.label && c.label && !reworded(sig.label, c.label)) return true;
  for (const k of Object.keys(A)) if (k.startsWith("data-") && B[k] && B[k] !== A[k]) return true;
  return restyled(sig, c);
}

/**
 * Whether two texts say the same thing, perhaps reworded: nearly the same, or a word grown or
 * shrunk ("Email" → "Emails"), with the same numbers and no word replaced by another.
 * @param {string} a @param {string} b
 */
function reworded(a, b) {
  const x = norm(a).toLowerCase(), y = norm(b).toLowerCase();
  if (numbers(x) !== numbers(y)) return false;
  const sim = textSim(a, b) ?? 0;
  return sim >= 0.9 || (sim >= 0.7 && !replacedWord(x, y));
}

/**
 * Whether a candidate that looks just like the target (a look-alike of it) has another size: inputs
 * of different widths in a column, where one slides into the place of another that went away.
 * Re-rendering the same element seldom resizes it.
 * @param {Signature} sig @param {Scored} s
 */
function otherTwin(sig, s) {
  if (!sig.twins || !sig.box || !s.signature.box || lookKeyOfSignature(s.signature) !== lookKeyOfSignature(sig)) return false;
  const a = sig.box, b = s.signature.box;
  const off = (/** @type {number} */ x, /** @type {number} */ y) => Math.abs(x - y) > Math.max(4, 0.15 * Math.max(x, y));
  return off(a.w, b.w) || off(a.h, b.h);
}

/**
 * Whether a candidate is a look-alike of the target and there are fewer of them now: one was
 * removed, and the one in the target's old place may be its neighbour slid over.
 * @param {Signature} sig @param {Scored} s
 */
function fewerTwins(sig, s) {
  const t = sig.twins, c = s.signature.twins;
  return !!t && (!c || c.n < t.n) && lookKeyOfSignature(s.signature) === lookKeyOfSignature(sig);
}

/**
 * The attribute fields a candidate no longer has, or has with the captured id extended ("email" →
 * "email-x7a9"): gone rather than saying something else, so they do not count against it.
 * @param {Signature} sig @param {Signature} c
 */
function goneFields(sig, c) {
  const B = c.attrs || {};
  const out = Object.entries(ATTR_OF).filter(([, a]) => a !== "type" && (a === "testid" ? !TEST_ID_ATTRS.some((k) => B[k]) : !B[a])).map(([f]) => f);
  if (sig.attrs?.id && extendsId(B.id || "", sig.attrs.id)) out.push("id");
  if (nameGone(sig, c)) out.push("name");
  if (sig.label && !c.label) out.push("label");
  // Classes no longer readable (rehashed by a build) are gone, not other ones.
  if (sig.classes?.length && !c.classes?.length) out.push("classes");
  return out;
}

/**
 * Whether the captured name came from something the candidate no longer has: an attribute
 * (aria-label, title, alt, placeholder: "1 star" dropped leaves "★"), or its label (a renamed id
 * no longer matches the label's `for`) — gone, not another name.
 * @param {Signature} sig @param {Signature} c
 */
function nameGone(sig, c) {
  const B = c.attrs || {};
  if (c.name === sig.name) return false;
  if (sig.label && !c.label && norm(sig.label) === sig.name) return true;
  return ["aria-label", "title", "alt", "placeholder"].some((a) => sig.attrs?.[a] && !B[a] && norm(sig.attrs[a]) === sig.name);
}

/**
 * Whether something the element is, beyond its tag and where it is, matches in the candidate: a
 * name, words, a role, a type, another attribute, a label or classes, leaving out the fields in
 * `skip`.
 * @param {Signature} sig @param {Scored} s @param {string[]} skip
 */
function ownEvidence(sig, s, skip) {
  const f = fieldSims(sig, s.signature);
  return Object.keys(WEIGHTS).some((k) => k !== "tag" && k !== "frame" && !PLACE_FIELDS.has(k) && !skip.includes(k) && (f[k] ?? 0) >= 0.8);
}

/** The best own score (see ownScore) among the candidates. @param {Signature} sig @param {Scored[]} scored @param {string[]} [skip] */
function bestOwnScore(sig, scored, skip = []) { return Math.max(...scored.map((s) => ownScore(sig, s, skip))); }

/**
 * Whether the words around the element say something other than its own words (a row of stars
 * has only stars around each): only then can they tell it from its look-alikes.
 * @param {Signature} sig
 */
function aroundTells(sig) {
  const own = sig.text || sig.name;
  return aroundParts(sig.neighbor).some((p) => p && (textSim(p, own) ?? 0) < 0.9 && !p.split(/\s+/).every((w) => w === own));
}

/**
 * On how many sides (0, 1, 2) the words before and after an element now say something else — not
 * merely gone (a wrapper can put them out of reach). One side changes when something is put next to
 * an element that stayed where it was.
 * @param {string} a @param {string} b
 */
function wordsAroundClash(a, b) {
  const [pa, na] = aroundParts(a), [pb, nb] = aroundParts(b);
  const differ = (/** @type {string} */ x, /** @type {string} */ y) => (!!x && !!y && (textSim(x, y) ?? 0) < 0.5 ? 1 : 0);
  return differ(pa, pb) + differ(na, nb);
}

/**
 * The candidate's score on what the element is, leaving out where it is (box, neighbours, path) and
 * the fields in `skip`.
 * @param {Signature} sig @param {Scored} s @param {string[]} [skip]
 */
function ownScore(sig, s, skip = []) {
  const f = fieldSims(sig, s.signature);
  let num = 0, den = 0;
  for (const [k, w] of Object.entries(WEIGHTS)) {
    const v = f[k];
    if (v === null || v === undefined || PLACE_FIELDS.has(k) || skip.includes(k)) continue;
    num += w * v; den += w;
  }
  return den ? num / den : 1;
}

/** Whether an id extends another with a suffix ("email" → "email-x7a9", "q_3" → "q_3:r1"), or drops one. @param {string} id @param {string} old */
function extendsId(id, old) {
  if (!id || id === old) return false;
  const [long, short] = id.length > old.length ? [id, old] : [old, id];
  return long.startsWith(short) && /^[-_:.]/.test(long.slice(short.length));
}

/** Calibrated on the tune half of scripts/bench_refind.py (see refind()). */
export const TWIN_BOX_SLACK = 0.05, TWIN_OWN_SLACK = 0.02, STILL = 0.95;

/** Rule 6: how well the one left must match the element's own features, and by how much it leads. */
export const SOLE_OWN = 0.8, SOLE_MARGIN = 0.25;

export const LEAD_MARGIN = 0.07, ANCHOR_FLOOR = 0.3, LOO_THRESHOLD = 0.75, LOO_FLOOR = 0.3, LOO_MARGIN = 0.2, LOO_MARGIN_DROPPED = 0.02;

const PLACE_FIELDS = new Set(["box", "neighbor", "path"]);

const TEXT_FIELDS = new Set(["name", "text", "label", "placeholder", "alt", "title"]);

const ATTR_FIELDS = new Set(["nameAttr", "href", "testid", "placeholder", "alt", "title", "type", "value"]);

/** Attributes whose other value means another element. */
const IDENTITY_FIELDS = new Set(["nameAttr", "testid", "value", "data"]);
