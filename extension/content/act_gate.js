// @ts-check
/**
 * The last look before an action, on the element the agent is about to act on, with what the host
 * decided before (the call's `gate`, shared_schema/effects.py). Whatever changed since the host
 * looked is judged as it is now — so a yes, or the host's "nothing of the user's leaves here",
 * holds only for the page, the control and the effect it was given for:
 *
 * - **origin**: the document is still of the origin the host judged the action for (a page that
 *   navigated meanwhile gets nothing: `origin_changed`, the origin it is on as detail);
 * - **secrets**: a value carrying the user's secret goes only into a field for it (a password
 *   into a password field, a code into a code field): `not_allowed` otherwise;
 * - **effect**: what a press sets off — the control's own words, where it leads (a link's target,
 *   its form's action and method), what its form carries (hidden fields too), the small print
 *   beside it and the item it is in (the row, list item or card: which feed an "Unsubscribe"
 *   removes). A risky one (spending, sending, deleting: effect_rules.js) needs the user's yes; one
 *   that leads to a site the user never named, carrying data, needs the host's look at that data.
 *   Either is `needs_approval` with the effect and its digest, until the call names the digest
 *   among the approved. A control whose words, target or fields changed has another digest: it is
 *   asked about again, not pressed.
 *
 * Nothing here runs in the page's world or leaves a trace in its document.
 *
 * @typedef {import("../shared/effect_judge.js").Gate} Gate
 * @typedef {import("../shared/effect_judge.js").Field} Field
 * @typedef {import("../shared/effect_judge.js").Effect} Effect
 */
import { AMOUNT, CHARGE, CLICKERS, SECRET_VALUE } from "../shared/effect_rules.js";
import { cut, digestOf, reasonsOf } from "../shared/effect_judge.js";
import { actionError } from "./dom_input.js";
import { isSecretField } from "./dom_secret.js";
import { accessibleName, labelText, roleOf } from "./accessible_name.js";
import { norm } from "./norm.js";
import { attr, closestOf, docOf, formActionOf, formElementsOf, formMethodOf, formOwnerOf, innerTextOf, linkTargetOf, parentElOf, qsa, tagOf } from "./dom_native.js";

const MONEY = new RegExp(AMOUNT, "i"), RECURS = new RegExp(CHARGE, "i");

/** An address without its fragment. @param {string} url */
const bare = (url) => url.split("#", 1)[0];

/** Controls a click only puts the caret into: text is typed there, nothing is sent. */
const TYPED_INTO = new Set(["textbox", "searchbox", "spinbutton", "textarea", "input"]);

/** Where the words beside a control end: the page's big parts are not its small print. */
const BEYOND = new Set(["body", "html", "main"]);

/** The controls a click on something inside them activates. */
const ACTIVATES = "a[href], area[href], button, input[type=submit], input[type=image], input[type=button], input[type=reset], [role=button], [role=link], [role=menuitem], [role=tab], [role=option], [role=switch], [role=checkbox], [role=radio], summary, label";

/** @param {Element} el */
function kindOf(el) {
  const tag = tagOf(el);
  if (tag === "input") {
    const t = (attr(el, "type") || "").toLowerCase();
    if (t === "submit" || t === "image") return "submit";
    if (t === "button" || t === "reset") return "button";
  }
  if (tag === "button" && (attr(el, "type") || "submit").toLowerCase() === "submit" && formOwnerOf(el)) return "submit";
  return roleOf(el) || tag;
}

/**
 * A control's own words: its name and what it shows (a page's trap may be in either) — for a list,
 * its name and the option chosen, not every option it offers.
 * @param {Element} el @param {string} [chosen] the option a choice picks
 */
function wordsOf(el, chosen = "") {
  const list = tagOf(el) === "select" || attr(el, "role") === "listbox" || attr(el, "role") === "combobox";
  const parts = [accessibleName(el), list ? chosen : innerTextOf(el), tagOf(el) === "input" ? /** @type {HTMLInputElement} */ (el).value : "", attr(el, "aria-label"), attr(el, "title")];
  return cut(norm([...new Set(parts.map((p) => norm(p || "")).filter(Boolean))].join(" ")), 300);
}

/**
 * The form's fields as a submission carries them: named controls with a value (a secret field's
 * value never: only that one is filled), hidden ones included.
 * @param {HTMLFormElement} form @returns {Field[]}
 */
function fieldsOf(form) {
  /** @type {Field[]} */ const out = [];
  for (const f of Array.from(formElementsOf(form)).slice(0, 60)) {
    const tag = tagOf(f);
    if (tag !== "input" && tag !== "select" && tag !== "textarea") continue;
    const type = tag === "input" ? (attr(f, "type") || "text").toLowerCase() : tag;
    if (["submit", "button", "reset", "image", "file"].includes(type)) continue;
    const any = /** @type {HTMLInputElement} */ (f);
    if ((type === "checkbox" || type === "radio") && !any.checked) continue;
    const value = String(any.value ?? "");
    if (!value) continue;
    const secret = type !== "hidden" && isSecretField(f);
    out.push({ name: cut(attr(f, "name") || "", 60), label: type === "hidden" ? "" : cut(labelText(f) || accessibleName(f), 60), type, value: secret ? SECRET_VALUE : cut(value, 200) });
  }
  return out;
}

/**
 * The fields of this document's form that sends to `target` by `method` (null: no such form): what
 * a request the browser is about to send for a form carries, as the form itself says it — which
 * fields are the page's own (hidden), which a person fills or ticks. The coordinator asks while the
 * request waits (background/request_gate.js); a form a script made and sent is here too.
 * @param {string} target @param {string} method
 * @returns {Field[] | null}
 */
export function formFieldsFor(target, method) {
  // (the address as its request goes: absolute, no fragment, and for a GET no query of its own)
  const sentTo = (/** @type {string} */ u) => { try { const x = new URL(u, location.href); x.hash = ""; if (method === "get") x.search = ""; return x.href; } catch { return u; } };
  const want = sentTo(target);
  for (const form of Array.from(qsa(document, "form")).slice(0, 200)) {
    const f = /** @type {HTMLFormElement} */ (form);
    if (formMethodOf(f, null) === method && sentTo(formActionOf(f, null)) === want) return fieldsOf(f);
  }
  return null;
}

/**
 * The words beside a control that say what it costs: the nearest text around it (up to its form,
 * or a few levels up) where an amount of money stands with words of a charge.
 * @param {Element} el @param {HTMLFormElement | null} form
 */
function besideOf(el, form) {
  let at = parentElOf(el);
  for (let i = 0; at && i < 4 && !BEYOND.has(tagOf(at)); i++, at = parentElOf(at)) {
    const text = norm(innerTextOf(at));
    if (text.length > 600) break;
    const money = MONEY.exec(text);
    if (money && RECURS.test(text)) {
      const from = Math.max(0, money.index - 80);
      return cut(text.slice(from, money.index + 120), 200);
    }
    if (at === form) break;
  }
  return "";
}

/**
 * The parts of a page that hold one item each — a row, a list item, a card: a press inside one acts
 * on that item, named by its words — and the parts that hold a whole (a form, a dialog, a
 * section), named only by their title: the words of a form's fields name nothing.
 */
const ITEMS = new Set(["tr", "li", "article"]);
const ITEM_ROLES = new Set(["row", "listitem", "article", "treeitem", "option"]);
const WHOLES = new Set(["fieldset", "section", "form", "dialog", "details"]);
const WHOLE_ROLES = new Set(["group", "dialog", "alertdialog", "region"]);
const TITLES = "h1, h2, h3, h4, h5, h6, legend, caption, summary, [role=heading]";

/**
 * The item a control is in, in the words a person reads there — the feed a row's "Unsubscribe"
 * removes, the post a "Delete" deletes: the row, list item or card around it (its label, heading,
 * or its words beside the control's own), or the titled part it is in. "" when none says more.
 * @param {Element} control
 */
function placeOf(control) {
  const own = norm(innerTextOf(control) || accessibleName(control));
  let at = parentElOf(control);
  for (let i = 0; at && i < 6 && !BEYOND.has(tagOf(at)); i++, at = parentElOf(at)) {
    const role = attr(at, "role") || "";
    const item = ITEMS.has(tagOf(at)) || ITEM_ROLES.has(role);
    const whole = !item && (WHOLES.has(tagOf(at)) || WHOLE_ROLES.has(role));
    const named = item || whole ? norm(attr(at, "aria-label") || "") : "";
    if (named) return cut(named, 80);
    const heading = item || whole ? qsa(at, TITLES)[0] : null;
    const title = heading && heading !== control ? norm(innerTextOf(heading)) : "";
    if (whole) { if (title) return cut(title, 80); continue; }
    const lines = innerTextOf(at).split("\n").map((l) => norm(own ? norm(l).replace(own, " ") : l)).filter(Boolean);
    const rest = lines.join(" · ");
    if (rest && (rest.length <= 160 || item)) return cut(title || rest, 80);
    if (item || rest.length > 600) break;
  }
  return "";
}

/**
 * What a press on `el` would set off, as far as the page says before it: null for an element whose
 * press leads nowhere (plain text, a field).
 * @param {Element} el @param {"press" | "submit"} how "submit": Enter in a field, its form's implicit submission
 * @param {string} [chosen] the option a choice picks (its words are the choice's)
 * @returns {Effect | null}
 */
export function effectOf(el, how, chosen = "") {
  const field = how === "submit";
  // (A field is itself what is clicked, not the label around it.)
  const control = field || TYPED_INTO.has(kindOf(el)) ? el : closestOf(el, ACTIVATES) || el;
  const form = formOwnerOf(control) || /** @type {HTMLFormElement | null} */ (closestOf(control, "form"));
  const kind = field ? "submit" : kindOf(control);
  if (field && !form) return null;
  const link = linkTargetOf(control) || (tagOf(control) === "a" ? "" : linkTargetOf(closestOf(control, "a[href]") || control));
  // Any control of a form may send it (a "button" or a checkbox whose script submits, a select
  // that sends on change): judged by what the form would send, where.
  // (A click into a field to type sends nothing: its form goes when a control sends it.)
  const submits = kind === "submit" || field || (!!form && !link && kind !== "reset" && !TYPED_INTO.has(kind));
  const target = link || (submits && form ? formActionOf(form, kind === "submit" ? control : null) : "") || null;
  // A link to another page is judged by where it leads, and by what the page sends as it is
  // followed: its words are mostly the title of what it opens ("Buy cheap bike parts here!!!").
  // A link that leads nowhere but its own page ("#", none) is a command its script carries out:
  // judged by its words as well.
  const away = kind === "link" && !!link && !/^javascript:/i.test(link) && bare(link) !== bare(docOf(control).URL);
  return {
    words: field ? cut(norm(`Enter in ${accessibleName(el) || "a field"}`), 300) : wordsOf(control, chosen),
    kind: away ? "navigation" : kind, target: target && !/^javascript:/i.test(target) ? cut(target, 2000) : null,
    method: submits && form ? formMethodOf(form, kind === "submit" ? control : null) : link ? "get" : null,
    fields: submits && form ? fieldsOf(form) : [], beside: submits || CLICKERS.has(kind) ? besideOf(control, form) : "",
    place: placeOf(control),
  };
}

/**
 * What keys do to the element they go to: Enter or Space on a control presses it (a button, a link,
 * a menu item: its own effect); Enter in a field submits its form; other keys neither.
 * @param {Element} el @param {string} keys @returns {"press" | "submit" | null}
 */
function keysEffect(el, keys) {
  const last = keys.split("+").pop() ?? "";
  const key = last === " " ? " " : last.trim().toLowerCase();
  if (key !== "enter" && key !== " " && key !== "space" && key !== "spacebar") return null;
  const tag = tagOf(el), type = (attr(el, "type") || "").toLowerCase();
  const field = tag === "textarea" || tag === "select" || (tag === "input" && !["submit", "button", "image", "reset", "checkbox", "radio"].includes(type));
  if (field) return key === "enter" ? "submit" : null;
  return CLICKERS.has(kindOf(el)) || tag === "summary" ? "press" : null;
}

/** The origin of the element's document (an opaque one is "null"). @param {Element} el */
function originOf(el) {
  try { return docOf(el).defaultView?.origin || "null"; } catch { return "null"; }
}

/**
 * Whether a field is one for the user's secret of this kind: a password into a password field
 * (type, autocomplete, or a name that says so), a code into a code field.
 * @param {Element} el @param {"password" | "code" | "any"} kind
 */
export function takesSecret(el, kind) {
  if (!isSecretField(el, () => labelText(el))) return false;
  if (kind === "any") return true;
  const type = (attr(el, "type") || "").toLowerCase();
  const ac = (attr(el, "autocomplete") || "").toLowerCase();
  const said = `${attr(el, "name") || ""} ${attr(el, "id") || ""} ${labelText(el)}`.toLowerCase();
  const code = ac.includes("one-time-code") || /\b(code|otp|pin|token|2fa|mfa|verification)\b|(otp|pin|code)/.test(said);
  return kind === "code" ? code || type === "password" : type === "password" || /password/.test(ac) || (!code && /pass/.test(said));
}

/**
 * What each element's effect was at the last look, for the press itself to check again: the
 * browser's own input reaches the page a moment after the look (through the coordinator), and a
 * page can relabel or re-point the control in between.
 * @type {WeakMap<Element, {how: "press" | "submit", digest: string, gate: Gate, origin: string, action: string, chosen: string}>}
 */
const looked = new WeakMap();

/**
 * Whether the element's effect is still the one the last look judged, read at the moment the
 * browser's own press or key lands on it (press_guard.js): null when it is (or was not judged),
 * else the refusal — `needs_approval` with the effect as it is now, so the host judges it again
 * (and asks again when it needs the user's yes) before anything is pressed.
 * @param {Element} el
 */
export function changedSinceLook(el) {
  const seen = looked.get(el);
  if (!seen) return null;
  const effect = effectOf(el, seen.how, seen.chosen);
  if (!effect) return null;
  const digest = digestOf(effect);
  if (digest === seen.digest) return null;
  const reasons = [...reasonsOf(effect, seen.gate, seen.origin), { kind: "changed", from: seen.digest }];
  return actionError("needs_approval", `The control changed as heybro was about to ${seen.action} it (its words, where it leads, what its form sends or the item it is in): nothing was pressed, and it is judged again.`, { effect, digest, reasons });
}

/**
 * Checks the gate on the element right before the action: resolves with the effect's digest (what
 * a trusted press re-checks at the moment of the press), or throws the typed refusal.
 * @param {string} action @param {"press" | "keys" | undefined} judged how the action's effect is judged (its definition)
 * @param {Element | null} el @param {Record<string, any>} args
 * @returns {{digest: string | null, effect: Effect | null}}
 */
export function passGate(action, judged, el, args) {
  /** @type {Gate | undefined} */ const gate = args.gate;
  if (!gate || !el) return { digest: null, effect: null };
  const origin = originOf(el);
  if (gate.origin && gate.origin !== origin) {
    throw actionError("origin_changed", `The page is now on ${origin}, not ${gate.origin} where heybro decided to ${action}: nothing was done.`, { origin });
  }
  if (gate.secret && !takesSecret(el, gate.secret)) {
    throw actionError("not_allowed", `This field is not one for the user's ${gate.secret === "code" ? "code" : "password"} (heybro types a secret only into a field for it): nothing was typed.`);
  }
  const how = judged === "press" ? "press" : judged === "keys" ? keysEffect(el, String(args.keys || "")) : null;
  const effect = how ? effectOf(el, how, String(args.value ?? "")) : null;
  if (!effect) return { digest: null, effect: null };
  const digest = digestOf(effect);
  const reasons = reasonsOf(effect, gate, origin);
  if (reasons.length && !(gate.approved || []).includes(digest)) {
    throw actionError("needs_approval", `Before heybro can ${action} this, it must be approved: ${reasons.map((r) => (r.kind === "risk" ? `it may ${r.what} (${r.said})` : r.kind === "leaves" ? `it leads to ${r.site}` : "it changed")).join("; ")}.`, { effect, digest, reasons });
  }
  looked.set(el, { how, digest, gate, origin, action, chosen: String(args.value ?? "") });
  return { digest, effect };
}
