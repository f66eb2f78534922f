// @ts-check
/**
 * Choosing an option by the words it shows: in a native <select>, in an ARIA listbox, and in the
 * selects widget toolkits draw (Dojo's dijit, Select2, jQuery UI's selectmenu, MUI, Ant Design) —
 * a button or field (role combobox, listbox or button with a popup) whose options exist only once
 * it is opened, often elsewhere in the page (a popup at the end of the body) and a moment later (a
 * framework's next render). Those are opened as a person opens them, their options waited for, and
 * the one named clicked. Where none is named, the error lists the options there.
 */
import { actionError, clickOn, fire, focusOn, setNativeValue } from "./dom_input.js";
import { norm } from "./norm.js";
import { attr, checkVisibilityOf, containsOf, docOf, hasAttr, parentElOf, qsa, rectOf, tagOf, textOf } from "./dom_native.js";

/** How long a toolkit's options are waited for after it is opened. */
const OPEN_WAIT_MS = 1500;
/** What toolkits draw their options as, besides ARIA's option role (Select2's and Ant Design's results, dijit's menu rows).
 * (Ant Design's class prefix is a setting — design systems built on it rename "ant" — so its option
 * is any "…-select-item-option" class.) */
const OPTIONS = "[role=option],.select2-results__option,[class$='-select-item-option'],[class*='-select-item-option '],.dijitMenuItem,.ui-menu-item-wrapper";
const SHOWN = { checkVisibilityCSS: true };

/**
 * The option `wanted` names: one whose label or value is exactly it (any case, spacing aside),
 * else the only one whose label contains it. Several that contain it are not guessed between
 * ("Korea": North or South?): a typed `ambiguous` error lists them; none, a `not_found` that lists
 * what there is.
 * @template {Element} T
 * @param {T[]} items @param {string} wanted @param {(o: T) => string} label @param {(o: T) => string} value
 * @returns {T}
 */
export function pickOption(items, wanted, label, value) {
  const w = norm(wanted).toLowerCase();
  const exact = items.find((o) => norm(label(o)).toLowerCase() === w) || items.find((o) => value(o).toLowerCase() === w);
  if (exact) return exact;
  const partial = w ? items.filter((o) => norm(label(o)).toLowerCase().includes(w)) : [];
  if (partial.length === 1) return partial[0];
  if (partial.length > 1) {
    const names = partial.slice(0, 30).map((o) => norm(label(o)));
    throw actionError("ambiguous", `"${wanted}" could be any of ${names.map((n) => `"${n}"`).join(", ")}; name one exactly.`, { options: names });
  }
  const names = items.slice(0, 30).map((o) => norm(label(o)));
  throw actionError("not_found", `No option "${wanted}"; options: ${names.join(", ")}${items.length > 30 ? ` (+${items.length - 30})` : ""}`, { options: names });
}

/** @param {HTMLSelectElement} sel @param {string} wanted */
function nativeSelect(sel, wanted) {
  const opt = pickOption(Array.from(sel.options), wanted, (o) => o.textContent || "", (o) => o.value);
  if (opt.disabled) throw actionError("not_interactable", `The option "${wanted}" is disabled.`);
  focusOn(sel);
  if (sel.multiple) opt.selected = true; else setNativeValue(sel, opt.value);
  fire(sel, "input");
  fire(sel, "change");
  return { value: opt.value, label: norm(opt.textContent) };
}

/**
 * The options a person sees for the control: in what it names as its popup (aria-controls,
 * aria-owns), in itself (a listbox shown open), else in any open popup of the page — shown ones,
 * not a closed select's kept in the page.
 * @param {Element} el
 */
function optionsFor(el) {
  const doc = docOf(el);
  const ids = `${attr(el, "aria-controls") || ""} ${attr(el, "aria-owns") || ""}`.split(/\s+/).filter(Boolean);
  const named = ids.map((id) => doc.getElementById(id)).filter((n) => !!n);
  /** @param {ParentNode} scope */
  const shown = (scope) => Array.from(qsa(scope, OPTIONS)).filter((o) => checkVisibilityOf(o, SHOWN) && !qsa(o, OPTIONS).length && !inNoBox(o));
  for (const scope of [...named, el]) {
    const found = shown(/** @type {Element} */ (scope));
    if (found.length) return found;
  }
  return shown(doc).filter((o) => !containsOf(el, o));
}

/**
 * Whether an option lies in a box of no size (Ant Design keeps a copy of a few options for screen
 * readers in a listbox of 0×0 beside the list a person sees). A few levels up.
 * @param {Element} o
 */
function inNoBox(o) {
  let n = 0;
  for (let p = parentElOf(o); p && n < 6; p = parentElOf(p), n++) {
    const r = rectOf(p);
    if (r.width < 2 || r.height < 2) return true;
  }
  return false;
}

/** @param {number} ms */
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A toolkit's select: its options, opened as a person opens it (a click; MUI opens on the press,
 * which the click carries) and waited for.
 * @param {Element} el @returns {Promise<Element[]>}
 */
async function openOptions(el) {
  let options = optionsFor(el);
  // A listbox shown open holds its options; a closed one (dijit's select) opens like a button.
  if (!options.length || (attr(el, "role") !== "listbox" && !options.some((o) => containsOf(el, o)) && attr(el, "aria-expanded") !== "true")) {
    clickOn(el);
    const until = performance.now() + OPEN_WAIT_MS;
    await pause(0);
    while (!(options = optionsFor(el)).length && performance.now() < until) await pause(30);
  }
  return options;
}

/**
 * Chooses an option by its shown words (or value): a native select's directly; a listbox's or a
 * toolkit select's by opening it and clicking the option.
 * @param {Element} el @param {string} wanted
 * @returns {Promise<{value: string, label: string}>}
 */
export async function selectOption(el, wanted) {
  if (tagOf(el) === "select") return nativeSelect(/** @type {HTMLSelectElement} */ (el), wanted);
  const options = await openOptions(el);
  if (!options.length) throw actionError("not_found", `No options appeared when this control was opened; it may not be a list (try click).`, { options: [] });
  const opt = pickOption(options, wanted, (o) => textOf(o) || "", (o) => attr(o, "data-value") || "");
  if (attr(opt, "aria-disabled") === "true" || hasAttr(opt, "disabled")) throw actionError("not_interactable", `The option "${wanted}" is disabled.`);
  clickOn(opt);
  return { value: attr(opt, "data-value") || norm(textOf(opt)), label: norm(textOf(opt)) };
}
