// @ts-check
/**
 * Trusted input, the page's side: when the browser's own mouse and keyboard are needed, and what to
 * send. The coordinator plays the steps through chrome.debugger (background/trusted_input.js).
 *
 * When: the user's setting (`auto`, the default; `always`; `off`). In `auto` the synthetic action
 * runs first, and the browser's input follows only when it PROVABLY had no effect — so a page that
 * works with script events never sees the debugger, and no action is done twice:
 * - its module says it had none a person would notice (`noEffect`): a hover that changed nothing
 *   (a CSS `:hover` menu opens only under a real pointer); typing, or a key press in a text field,
 *   that left its text as it was (a rich editor that takes only real key presses); a click after
 *   which nothing changed during a longer wait than usual (a handler that checks `isTrusted`;
 *   the wait is there so a click whose effect comes late is not clicked twice);
 * - and the page did nothing else at all since the action began (`reaction`): no DOM change
 *   anywhere, attributes included, no navigation, no focus moved, no request started (answered or
 *   not), no dialog;
 * - and the coordinator, which hears the browser's own record of the tab's requests and answers
 *   its dialogs, finds none of them since the action began either: it refuses the replay itself
 *   (background/replay_gate.js), whatever this side concluded. The result then says why the
 *   browser's input was not used (`trusted_withheld`).
 * Whatever the browser's input does, it does under a guard: only the element chosen is pressed or
 * typed into (press_guard.js).
 */
import { actionError, codeOf, isEditable, keyCodeOf } from "./dom_input.js";
import { parseKeys } from "./dom_keys.js";
import { reaches } from "./dom_locate.js";
import { aimOf, aimedHit, deepElementFromPoint } from "./dom_roots.js";
import { deepActiveElement } from "./dom_roots.js";
import { containsDeep } from "./dom_roots.js";
import { requestsStartedSince } from "./dom_requests.js";
import { closestOf, docOf, matchesOf, rectOf, tagOf, textOf } from "./dom_native.js";

/** @typedef {import("../background/trusted_input.js").InputStep} InputStep */

/** Extra quiet time before a click counts as ignored (ms). */
export const CLICK_IGNORED_AFTER_MS = 400;

/**
 * What a person would see change on the element itself (besides the DOM): its value, checked state
 * and editable text; and its caret.
 * @param {Element | null} el
 */
export function fieldState(el) {
  return JSON.stringify([valueState(el), caretState(el)]);
}

/** @param {Element | null} el */
function valueState(el) {
  if (!el) return "";
  const any = /** @type {any} */ (el);
  const control = tagOf(el) === "label" ? /** @type {HTMLLabelElement} */ (el).control : null;
  return JSON.stringify([any.value, any.checked, control ? /** @type {any} */ (control).checked : "", isEditable(el) ? textOf(el) : ""]);
}

/** @param {Element | null} el */
function caretState(el) {
  if (!el) return "";
  const any = /** @type {any} */ (el);
  /** @type {unknown[]} */
  let caret = [];
  try { caret = [any.selectionStart, any.selectionEnd]; } catch { /* no selection API (email, number) */ }
  if (isEditable(el)) {
    const sel = docOf(el).getSelection();
    caret = sel ? [sel.anchorOffset, sel.focusOffset, (sel.anchorNode ? textOf(sel.anchorNode) : undefined)?.length] : [];
  }
  return JSON.stringify(caret);
}

/**
 * @typedef {{mutations: {summary: string}, url_changed?: boolean, navigating?: boolean, dialog?: any}} Changes
 * @typedef {(el: Element | null, changes: Changes, before: string) => boolean} NoEffect whether the
 *   synthetic action had no effect a person would notice (`before`: fieldState before it)
 */

/** @param {Changes} changes */
function left(changes) { return !!(changes.navigating || changes.url_changed || changes.dialog); }

/**
 * Typing: typing focuses the field first, which moves the caret, so only its text tells — or what
 * the page made of it (a recipients box turns "bob@example.com, " into a chip and empties itself).
 * @type {NoEffect}
 */
export const noTextChange = (el, changes, before) => !left(changes) && valueState(el) === JSON.parse(before)[0] && !madeElements(changes);

/**
 * A key press: a caret key (Home, an arrow) has its effect on the caret alone; Tab, on the focus
 * (it left the field).
 * @type {NoEffect}
 */
export const noKeyEffect = (el, changes, before) => {
  const [value, caret] = JSON.parse(before);
  const active = deepActiveElement(document);
  return !left(changes) && !!el && isTextEntry(el) && valueState(el) === value && caretState(el) === caret && changes.mutations.summary === "no change"
    && !!active && containsDeep(el, active);
};

/** A pointer's act: nothing changed (a click into a text field has done its job once it has focus). @type {NoEffect} */
export const noChange = (el, changes, before) => {
  if (left(changes) || (el && isTextEntry(el) && matchesOf(el, ":focus"))) return false;
  return changes.mutations.summary === "no change" && valueState(el) === JSON.parse(before)[0];
};

/**
 * What the page did since the action began, anything at all, when its module saw no effect: why
 * the browser's input must not do the action again (null: provably nothing). The coordinator
 * checks the requests and dialogs once more from its own records (background/replay_gate.js).
 * @param {Changes} changes what the watch since the action saw
 * @param {{focus: Element | null, el: Element | null, since: number}} at the focus before the action, its
 *   element, and when it began (performance.now())
 * @returns {string | null}
 */
export function reaction(changes, at) {
  if (changes.navigating || changes.url_changed) return "it navigated";
  if (changes.dialog) return "it opened a dialog";
  if (changes.mutations.summary !== "no change") return `it changed the page (${changes.mutations.summary})`;
  if (requestsStartedSince(at.since)) return "it started a request";
  const now = deepActiveElement(document);
  // (Where the action itself put the focus is no reaction: on the element, in it, around it, or
  // — a label's — on its control.)
  const el = at.el;
  const ours = (/** @type {Element | null} */ f) => !!f && !!el && (containsDeep(el, f) || containsDeep(f, el)
    || (tagOf(el) === "label" && /** @type {HTMLLabelElement} */ (el).control === f));
  if (now !== at.focus && !ours(now)) return "it moved the focus";
  return null;
}

/** Whether the page added or removed elements (not only attribute or text changes) meanwhile. @param {{mutations: {summary: string}}} changes */
export function madeElements(changes) {
  return /\belements? (added|removed)\b/.test(changes.mutations.summary) || /\d+ removed/.test(changes.mutations.summary);
}

/** @param {Element} el */
function isTextEntry(el) {
  return isEditable(el) || tagOf(el) === "textarea" || (tagOf(el) === "input" && /^(text|search|url|tel|email|password|number|)$/.test(/** @type {HTMLInputElement} */ (el).type));
}

/** Clicks on these open the browser's own pop-ups (a select's list): never replayed. @param {Element} el */
export function clickReplayable(el) {
  return !closestOf(el, "select, option, input[type=file], input[type=color], input[type=date]");
}

/**
 * The point a pointer would use on the element, in the top frame's viewport of this agent (same-
 * origin frames' offsets added): the point given (`aim`: fractions of its box; refused when
 * something else lies over it), else the first sampled point where the element (or what it holds,
 * or a label of it) is what a pointer hits; else where what it hits there stands for it (a box of
 * its size around it: dom_locate.js's reaches). The caller has scrolled it into view (prepare).
 * @param {Element} el @param {import("./dom_roots.js").Aim | null} [aim] @returns {{x: number, y: number}}
 */
export function pointerPoint(el, aim) {
  const doc = docOf(el);
  if (aim) {
    const { x, y } = aimedHit(el, aim);
    return toTop(doc, x, y);
  }
  const r = rectOf(el);
  const points = [[0.5, 0.5], [0.3, 0.5], [0.7, 0.5], [0.5, 0.3], [0.5, 0.7], [0.2, 0.2], [0.8, 0.8]].map(([fx, fy]) => {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    return { x, y, hit: deepElementFromPoint(doc, x, y) };
  });
  /** @param {Element} hit */
  const on = (hit) => containsDeep(el, hit) || closestOf(hit, "label") !== null && /** @type {HTMLLabelElement} */ (closestOf(hit, "label")).control === el;
  const at = points.find((p) => p.hit && on(p.hit)) || points.find((p) => p.hit && reaches(p.hit, el));
  if (at) return toTop(doc, at.x, at.y);
  throw actionError("covered", "No point of the element can be reached by the pointer.");
}

/** @param {Document} doc @param {number} x @param {number} y */
function toTop(doc, x, y) {
  for (let view = doc.defaultView; view && view !== view.top;) {
    const frame = view.frameElement;
    if (!frame) break; // a cross-origin parent: the coordinator refuses such frames
    const fr = rectOf(frame);
    const cs = getComputedStyle(frame);
    x += fr.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
    y += fr.top + parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop);
    view = docOf(frame).defaultView;
  }
  return { x, y };
}

/** The pointer moved over the element. @param {Element} el @returns {InputStep[]} */
export function moveSteps(el) { return [{ type: "move", ...pointerPoint(el) }]; }

/**
 * A click on the element — at the point the action's arguments give (`x`, `y`), with the keys its
 * `modifiers` name held, with the button given — as the browser's own input.
 * @param {Element} el @param {Record<string, any>} [args] @param {"left" | "right"} [button]
 * @returns {InputStep[]}
 */
export function clickSteps(el, args = {}, button = "left") {
  const names = Array.isArray(args.modifiers) ? args.modifiers.map(String) : [];
  const modifiers = (names.includes("Alt") ? 1 : 0) | (names.includes("Control") ? 2 : 0) | (names.includes("Meta") ? 4 : 0) | (names.includes("Shift") ? 8 : 0);
  return [{ type: "click", ...pointerPoint(el, aimOf(args)), ...(button !== "left" ? { button } : {}), ...(modifiers ? { modifiers } : {}) }];
}

/**
 * Whether a pointer's act is the browser's own input from the start: at a point of the element
 * (a canvas draws where it is clicked and shows no change a script could see, so a script's click
 * that seemed ignored could not be told from one that drew), or with keys held (what a link does
 * on Ctrl+click is the browser's, not the page's). Where that input cannot be used, the script's.
 * @param {Record<string, any>} args
 */
export const byHand = (args) => !!aimOf(args) || (Array.isArray(args.modifiers) && args.modifiers.length > 0);

/** Text typed at the caret, a line break as Enter. @param {string} text @returns {InputStep[]} */
export function typeSteps(text) {
  /** @type {InputStep[]} */ const steps = [];
  text.split("\n").forEach((line, i) => {
    if (i > 0) steps.push(keyStep("Enter", 0));
    if (line) steps.push({ type: "text", text: line });
  });
  return steps;
}

/** Text of more than one line, to be pasted (see page.js `paste`); none for one line. @param {string} text @param {boolean} select */
export function lines(text, select) { return text.includes("\n") ? { text, select } : null; }

/** All of the field selected, then replaced by the value (or removed, for none). @param {string} value @returns {InputStep[]} */
export function fillSteps(value) {
  return [keyStep("a", 2), ...(value ? typeSteps(value) : [keyStep("Backspace", 0)])];
}

/** A key or combo ("Control+Enter"). @param {string} keys @returns {InputStep[]} */
export function pressSteps(keys) {
  const { key, mods } = parseKeys(keys);
  return [keyStep(key, (mods.alt ? 1 : 0) | (mods.ctrl ? 2 : 0) | (mods.meta ? 4 : 0) | (mods.shift ? 8 : 0))];
}

/** @param {string} key @param {number} modifiers @returns {InputStep} */
function keyStep(key, modifiers) {
  const text = key === "Enter" ? "\r" : key.length === 1 && !(modifiers & 7) ? key : undefined;
  return { type: "key", key, code: codeOf(key), keyCode: keyCodeOf(key), modifiers, ...(text ? { text } : {}) };
}

/**
 * Asks the coordinator to play the steps (it attaches the debugger for them and detaches after).
 * A replay says when its action began (`since`, Date.now()): the coordinator refuses it with
 * `reacted` when the page made a request or opened a dialog since.
 * @param {InputStep[]} steps @param {{since?: number}} [opts]
 */
export async function sendTrusted(steps, opts = {}) {
  /** @type {any} */
  const reply = await chrome.runtime.sendMessage({ kind: "trusted.input", steps, ...(opts.since !== undefined ? { since: opts.since } : {}) });
  if (!reply) throw actionError("unsupported", "The coordinator did not answer the request for the browser's own input.");
  if (!reply.ok) throw actionError(reply.error.code, reply.error.message, reply.error.detail);
}
