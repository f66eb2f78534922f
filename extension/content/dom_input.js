// @ts-check
/**
 * Acting on one element like a user would: the events a real click, key press or text entry fires,
 * in the order the browser fires them, so page handlers and frameworks react as they do for people.
 *
 * Values are set through the prototype's native setter, not `el.value = …`: React (and others)
 * shadow the instance's `value` property to track the last value they rendered, and ignore an
 * `input` event whose value matches that tracker. The native setter changes the value underneath the
 * tracker, so the following `input` event is seen as the user's change.
 */
import { norm } from "./norm.js";
import { secretField } from "./signature.js";
import { SECRET_SHOWN } from "./dom_secret.js";
import { deepElementFromPoint, pointerHit } from "./dom_roots.js";
import { appendTo, attr, canFocus, closestOf, childNodesOf, dispatchOf, docOf, focusOf, hasAttr, innerTextOf, isConnectedOf, matchesOf, nodeTypeOf, nodeValueOf, parentElOf, parentNodeOf, qs, qsa, rectOf, rootOf, tabIndexOf, tagOf, textOf } from "./dom_native.js";

/** A typed error the tool protocol carries to the host. @param {string} code @param {string} msg @param {Record<string, any>} [detail] */
export function actionError(code, msg, detail) {
  return Object.assign(new Error(msg), { code, ...(detail ? { detail } : {}) });
}

/** @typedef {{x: number, y: number}} Point */

/** @param {Element} el @param {string} type @param {Point} at (extra fields ignored) @param {Record<string, any>} [extra] */
function mouse(el, type, at, extra = {}) {
  const view = docOf(el).defaultView;
  /** @type {PointerEventInit} */
  const init = { bubbles: true, cancelable: true, composed: true, clientX: at.x, clientY: at.y, view, button: 0, buttons: type.endsWith("down") ? 1 : 0, ...extra };
  // Chrome's click is a PointerEvent too.
  const pointer = type.startsWith("pointer") || type === "click" || type === "auxclick" || type === "contextmenu";
  const Ctor = pointer ? (view?.PointerEvent || PointerEvent) : (view?.MouseEvent || MouseEvent);
  return dispatchOf(el, new Ctor(type, pointer ? { ...init, pointerId: 1, pointerType: "mouse", isPrimary: true } : init));
}

/** The pointer arrives at a point: over/enter/move on what it hits there. @param {Element} hit @param {Point} at */
function arrive(hit, at) {
  for (const t of ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"]) mouse(hit, t, at, t.endsWith("enter") ? { bubbles: false } : {});
}

/** Pointer enters and moves over the element (what a hover menu listens for). @param {Element} el */
export function hoverOn(el) {
  const { target, ...at } = pointerHit(el);
  arrive(target, at);
}

/**
 * The keys held during a pointer's act, as its events carry them.
 * @typedef {{ctrlKey?: boolean, shiftKey?: boolean, altKey?: boolean, metaKey?: boolean}} Held
 * @typedef {{aim?: import("./dom_roots.js").Aim | null, held?: Held}} PointerOpts where in the element (fractions of its box), with which keys held
 */

/** The keys an action's `modifiers` name, as events carry them. @param {unknown} modifiers @returns {Held} */
export function heldOf(modifiers) {
  const names = Array.isArray(modifiers) ? modifiers.map(String) : [];
  return { ctrlKey: names.includes("Control"), shiftKey: names.includes("Shift"), altKey: names.includes("Alt"), metaKey: names.includes("Meta") };
}

/**
 * A person's click: every event goes to what the pointer hits at a visible point of the element —
 * the deepest element there (the link inside a tab item, the icon inside a button), so handlers on
 * children and delegated handlers run as for a user — in the order a browser fires them: arrive,
 * press, focus, release, click. At a point of its box, with keys held, when `opts` says so.
 * @param {Element} el @param {PointerOpts} [opts]
 */
export function clickOn(el, opts = {}) {
  const held = opts.held || {};
  const { target, ...at } = pointerHit(el, opts.aim);
  arrive(target, at);
  const down = mouse(target, "pointerdown", at, held) && mouse(target, "mousedown", at, held);
  if (down) focusOn(target);
  // A control that moves as it is pressed: the release and the click follow it (where it is now).
  const up = opts.aim ? { target, ...at } : pointerHit(el);
  mouse(up.target, "pointerup", up, held);
  mouse(up.target, "mouseup", up, held);
  // A dispatched click runs the activation behaviour of the nearest activatable element on its path
  // (follow a link, toggle a checkbox through its label, submit a form) as a user's does, and —
  // unlike HTMLElement.click(), which says (0, 0) — carries the point, which pages that place
  // things by the pointer read.
  mouse(up.target, "click", up, { detail: 1, ...held });
}

/**
 * A person's right click: the secondary button pressed and released where the pointer hits the
 * element, and the `contextmenu` a page opens its own menu on (a script's event never opens the
 * browser's menu), then `auxclick`, in the order Chrome fires them on Linux.
 * @param {Element} el @param {PointerOpts} [opts]
 */
export function rightClickOn(el, opts = {}) {
  const right = { button: 2, ...(opts.held || {}) };
  const { target, ...at } = pointerHit(el, opts.aim);
  arrive(target, at);
  const down = mouse(target, "pointerdown", at, { ...right, buttons: 2 }) && mouse(target, "mousedown", at, { ...right, buttons: 2 });
  if (down) focusOn(target);
  mouse(target, "contextmenu", at, { ...right, buttons: 2 });
  mouse(target, "pointerup", at, { ...right, buttons: 0 });
  mouse(target, "mouseup", at, { ...right, buttons: 0 });
  mouse(target, "auxclick", at, { ...right, detail: 1 });
}

/**
 * A drag by script events, where the browser's own pointer cannot be used: the press on the
 * element, the pointer carried in a few moves to the point of `to` (a pointer-driven sortable
 * follows them), the HTML5 drag's events when the element is draggable (the drop only where the
 * page's dragover said it takes it), and the release there.
 * @param {Element} el @param {Element} to @param {import("./dom_roots.js").Aim | null} aim
 * @param {import("./dom_roots.js").Aim | null} [grab] where the element is taken (default: its middle)
 */
export function dragOnto(el, to, aim, grab) {
  const view = docOf(el).defaultView;
  const from = pointerHit(el, grab), at = pointerHit(to, aim);
  const data = new (view?.DataTransfer || DataTransfer)();
  /** @param {Element} t @param {string} type @param {Point} p */
  const drag = (t, type, p) => dispatchOf(t, new (view?.DragEvent || DragEvent)(type, { bubbles: true, cancelable: true, composed: true, clientX: p.x, clientY: p.y, dataTransfer: data }));
  arrive(from.target, from);
  mouse(from.target, "pointerdown", from);
  mouse(from.target, "mousedown", from);
  const html5 = !!closestOf(from.target, "[draggable=true]") && drag(from.target, "dragstart", from);
  for (let i = 1; i <= 5; i++) {
    const p = { x: from.x + ((at.x - from.x) * i) / 5, y: from.y + ((at.y - from.y) * i) / 5 };
    const hit = deepElementFromPoint(docOf(el), p.x, p.y) || at.target;
    mouse(hit, "pointermove", p, { buttons: 1 });
    mouse(hit, "mousemove", p, { buttons: 1 });
    if (html5) drag(hit, "dragover", p);
  }
  if (html5) {
    drag(at.target, "dragenter", at);
    if (!drag(at.target, "dragover", at)) drag(at.target, "drop", at);
    drag(from.target, "dragend", at);
  }
  mouse(at.target, "pointerup", at);
  mouse(at.target, "mouseup", at);
}

/**
 * Focuses the element (or its nearest focusable ancestor). A text field that gets focus this way
 * has its caret after its text, as after a click into it (focus() alone leaves it at the start, so
 * typed text would land before "Smith"); one that had focus keeps the caret where keys put it.
 * @param {Element} el
 */
export function focusOn(el) {
  /** @type {Element | null} */
  let t = el;
  while (t && canFocus(t) && tabIndexOf(t) < 0
    && !matchesOf(t, "input,select,textarea,button,a[href],[contenteditable]")) t = parentElOf(t);
  const target = t || el;
  const had = /** @type {Document | ShadowRoot} */ (rootOf(target)).activeElement === target;
  if (canFocus(target)) focusOf(target, { preventScroll: true });
  if (!had && (tagOf(target) === "input" || tagOf(target) === "textarea" || isEditable(target))) caretToEnd(target);
}

/** @param {Element} el */
export function isEditable(el) {
  const ce = attr(el, "contenteditable");
  return ce !== null && ce !== "false";
}

/** Sets a form control's value under any framework's value tracker. @param {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} el @param {string} value */
export function setNativeValue(el, value) {
  const view = el.ownerDocument.defaultView || window;
  const proto = el.localName === "textarea" ? view.HTMLTextAreaElement.prototype
    : el.localName === "select" ? view.HTMLSelectElement.prototype : view.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  if (setter) setter.call(el, value); else el.value = value;
}

/** @param {Element} el @param {string} type @param {Record<string, any>} [init] */
export function fire(el, type, init = {}) {
  const view = docOf(el).defaultView || window;
  const ev = type === "input" || type === "beforeinput"
    ? new view.InputEvent(type, { bubbles: true, cancelable: type === "beforeinput", composed: true, ...init })
    : new view.Event(type, { bubbles: true, cancelable: false, composed: true });
  return dispatchOf(el, ev);
}

/** @param {Element} el */
function assertTextControl(el) {
  const tag = tagOf(el);
  if (tag === "textarea" || isEditable(el)) return;
  if (tag === "input") {
    const t = /** @type {HTMLInputElement} */ (el).type;
    if (["checkbox", "radio", "file", "submit", "button", "reset", "image", "range", "color"].includes(t)) {
      throw actionError("not_interactable", `This is a ${t} input, which takes no typed text; use ${t === "file" ? "upload" : t === "checkbox" || t === "radio" ? "check/uncheck" : "click"}.`);
    }
    if (/** @type {HTMLInputElement} */ (el).readOnly) throw actionError("not_interactable", "This field is read-only.");
    return;
  }
  throw actionError("not_interactable", `A <${tag}> takes no text; fill needs an input, textarea or editable region.`);
}

/** Replaces the whole value and fires input + change. @param {Element} el @param {string} value */
export function fillIn(el, value) {
  assertTextControl(el);
  focusOn(el);
  if (isEditable(el)) {
    const sel = docOf(el).getSelection();
    const [from, at] = textEdge(el, "start"), [to, end] = textEdge(el, "end");
    sel?.setBaseAndExtent(from, at, to, end);
    // An editor with a model of its own takes the edit from `beforeinput` (execCommand fires
    // none) and cancels it; else execCommand keeps the editor's undo stack and its own input
    // events; else the text is set.
    if (!fire(el, "beforeinput", { inputType: "insertReplacementText", data: value })) return;
    if (!docOf(el).execCommand("insertText", false, value)) {
      el.textContent = value;
      fire(el, "input", { inputType: "insertText", data: value });
    }
    return;
  }
  const inp = /** @type {HTMLInputElement} */ (el);
  fire(el, "beforeinput", { inputType: "insertReplacementText", data: value });
  setNativeValue(inp, value);
  fire(el, "input", { inputType: "insertReplacementText", data: value });
  fire(el, "change");
}

/**
 * Where an editable region's text starts or ends, as deep as its text goes: inside its first or
 * last text node, or before the <br> that holds an empty line open. Editors that keep their own
 * model (Draft.js, Lexical, ProseMirror) map the DOM caret into it, and a caret on the region
 * itself, between its blocks, maps to no block: the edit is lost or the editor throws.
 * @param {Element} el @param {"start" | "end"} edge
 * @returns {[Node, number]}
 */
export function textEdge(el, edge) {
  const doc = docOf(el);
  const walker = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (n) => nodeTypeOf(n) === 3 ? (/\S|\u00a0/.test(nodeValueOf(n) || "") ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP)
      : tagOf(/** @type {Element} */ (n)) === "br" ? NodeFilter.FILTER_ACCEPT
        : attr(/** @type {Element} */ (n), "contenteditable") === "false" ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP,
  });
  const n = edge === "start" ? walker.firstChild() : walker.lastChild();
  if (!n) return [el, edge === "start" ? 0 : childNodesOf(el).length];
  if (nodeTypeOf(n) === 3) return [n, edge === "start" ? 0 : (nodeValueOf(n) || "").length];
  const parent = /** @type {Node} */ (parentNodeOf(n));
  return [parent, Array.prototype.indexOf.call(childNodesOf(parent), n)];
}

/** Puts the caret after the field's (or editable region's) content. @param {Element} el */
function caretToEnd(el) {
  if (isEditable(el)) {
    const sel = docOf(el).getSelection();
    const [node, offset] = textEdge(el, "end");
    sel?.setBaseAndExtent(node, offset, node, offset);
    return;
  }
  const inp = /** @type {HTMLInputElement} */ (el);
  try { inp.setSelectionRange(inp.value.length, inp.value.length); } catch { /* email/number inputs have no selection API: typing appends */ }
}

/** Same text, as far as a person reading the field would tell (case, spacing, punctuation aside). @param {string} s */
const loose = (s) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/**
 * After a fill has settled: the field must hold the value, or the same characters as a mask or a
 * formatter would write them ("5551234" → "(555) 123-4"). A field that refused it (a number field
 * given words, a date in the wrong format, a framework that rejected it) is a typed error saying
 * what the field now holds, not a success.
 * @param {Element} el @param {string} value @param {boolean} [consumed] the page made elements meanwhile
 */
export function checkFilled(el, value, consumed = false) {
  if (!isConnectedOf(el)) return; // re-rendered away: nothing to read
  const editable = isEditable(el);
  const inp = /** @type {HTMLInputElement} */ (el);
  const single = tagOf(el) === "input";
  const now = editable ? innerTextOf(/** @type {HTMLElement} */ (el)) : inp.value;
  // What the browser itself does to a value: line breaks dropped from one-line fields, CRLF → LF.
  const want = single ? value.replace(/[\r\n]/g, "") : value.replace(/\r\n?/g, "\n");
  if (now === want || loose(now) === loose(want)) return;
  // A field the page empties as it takes what was typed into elements of its own (a recipients
  // box's chips) took it.
  if (consumed && !now) return;
  const secret = secretField(el);
  const hint = single && ["number", "date", "time", "datetime-local", "month", "week", "email", "url", "color", "range"].includes(inp.type)
    ? ` (a ${inp.type} field${inp.type === "date" ? ", which takes YYYY-MM-DD" : inp.type === "number" ? ", which takes digits" : ""})` : "";
  throw actionError("not_accepted", secret ? `The field did not take the value${hint}.`
    : `The field did not take "${value.slice(0, 80)}"${hint}: it now holds "${now.slice(0, 80)}".`,
  secret ? { value: now ? SECRET_SHOWN : "" } : { value: now.slice(0, 200) });
}

/**
 * Punctuation's keys on a US keyboard: [keyCode, code]. A character's own code is not its key's:
 * "." is 46, which is Delete's keyCode, and "&" is 38 (ArrowUp) — editors that read keyCode
 * (the block editor, CodeMirror) would delete or move instead of typing.
 * @type {Record<string, [number, string]>}
 */
const PUNCTUATION_KEYS = {
  ";": [186, "Semicolon"], ":": [186, "Semicolon"], "=": [187, "Equal"], "+": [187, "Equal"],
  ",": [188, "Comma"], "<": [188, "Comma"], "-": [189, "Minus"], "_": [189, "Minus"],
  ".": [190, "Period"], ">": [190, "Period"], "/": [191, "Slash"], "?": [191, "Slash"],
  "`": [192, "Backquote"], "~": [192, "Backquote"], "[": [219, "BracketLeft"], "{": [219, "BracketLeft"],
  "\\": [220, "Backslash"], "|": [220, "Backslash"], "]": [221, "BracketRight"], "}": [221, "BracketRight"],
  "'": [222, "Quote"], '"': [222, "Quote"], "!": [49, "Digit1"], "@": [50, "Digit2"], "#": [51, "Digit3"],
  "$": [52, "Digit4"], "%": [53, "Digit5"], "^": [54, "Digit6"], "&": [55, "Digit7"], "*": [56, "Digit8"],
  "(": [57, "Digit9"], ")": [48, "Digit0"], " ": [32, "Space"],
};

/** @param {string} key */
export function keyCodeOf(key) {
  if (key.length === 1) {
    const c = key.toUpperCase();
    // Letters and digits are their own keys; other characters (é, ß, 中) have no key of their own.
    return /[A-Z0-9]/.test(c) ? c.charCodeAt(0) : (PUNCTUATION_KEYS[key]?.[0] ?? 0);
  }
  return ({ Enter: 13, Tab: 9, Escape: 27, Backspace: 8, Delete: 46, ArrowUp: 38, ArrowDown: 40, ArrowLeft: 37, ArrowRight: 39, Space: 32, Home: 36, End: 35, PageUp: 33, PageDown: 34 })[key] || 0;
}

/** @param {string} key */
export function codeOf(key) {
  if (key.length !== 1) return key;
  return /[a-z]/i.test(key) ? `Key${key.toUpperCase()}` : /\d/.test(key) ? `Digit${key}` : (PUNCTUATION_KEYS[key]?.[1] ?? "");
}

/** @param {Element} el @param {string} type @param {string} key @param {{ctrl?: boolean, shift?: boolean, alt?: boolean, meta?: boolean}} mods */
export function keyEvent(el, type, key, mods) {
  const view = docOf(el).defaultView || window;
  return dispatchOf(el, new view.KeyboardEvent(type, { key, code: codeOf(key), bubbles: true, cancelable: true, composed: true,
    keyCode: keyCodeOf(key), which: keyCodeOf(key), charCode: type === "keypress" ? (key === "Enter" ? 13 : key.charCodeAt(0)) : 0,
    ctrlKey: !!mods.ctrl, shiftKey: !!mods.shift, altKey: !!mods.alt, metaKey: !!mods.meta }));
}

/** Types text key by key at the caret (keydown, keypress, beforeinput, input, keyup per character). @param {Element} el @param {string} text */
export function typeInto(el, text) {
  assertTextControl(el);
  const doc = docOf(el);
  focusOn(el); // the caret after the text, unless the field had focus already
  if (text.includes("\n") && pasteText(el, text)) return; // lines: pasted where an editor takes them
  for (const ch of Array.from(text)) {
    // A new line is the Enter key, as a person types it: an editor handles it itself (its indent);
    // else it breaks the paragraph, adds a line to a text area, and adds nothing to a one-line field.
    const key = ch === "\n" ? "Enter" : ch;
    const go = keyEvent(el, "keydown", key, {});
    if (key === "Enter") {
      if (go && keyEvent(el, "keypress", key, {})) {
        if (isEditable(el)) {
          if (fire(el, "beforeinput", { inputType: "insertParagraph" })) doc.execCommand("insertParagraph", false);
        } else if (tagOf(el) === "textarea" && fire(el, "beforeinput", { inputType: "insertLineBreak" })) insertChar(/** @type {HTMLInputElement} */ (el), "\n");
      }
    } else if (go && keyEvent(el, "keypress", ch, {}) && fire(el, "beforeinput", { inputType: "insertText", data: ch })) {
      if (isEditable(el)) {
        if (!doc.execCommand("insertText", false, ch)) { appendTo(el, ch); fire(el, "input", { inputType: "insertText", data: ch }); }
      } else insertChar(/** @type {HTMLInputElement} */ (el), ch);
    }
    keyEvent(el, "keyup", key, {});
  }
  if (!isEditable(el)) fire(el, "change");
}

/**
 * Text pasted where `el` takes it, as a person puts a block of code into an editor: a paste
 * event carrying it, which an editor that takes pastes itself (a code editor, a rich text editor)
 * inserts whole. Typed line by line instead, each Enter would bring the editor's own indentation
 * and the text's own would be added to it. True when the page took the paste (a field it leaves
 * alone is typed into).
 * @param {Element} el @param {string} text
 */
export function pasteText(el, text) {
  const view = docOf(el).defaultView || window;
  const data = new view.DataTransfer();
  data.setData("text/plain", text);
  return !dispatchOf(el, new view.ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true, composed: true }));
}

/** One character into a field at its caret (its length limit kept), and the input event. @param {HTMLInputElement} inp @param {string} ch */
function insertChar(inp, ch) {
  let start = inp.value.length, end = start;
  try { start = inp.selectionStart ?? start; end = inp.selectionEnd ?? end; } catch { /* email/number inputs have no selection API */ }
  const maxLen = inp.maxLength > 0 ? inp.maxLength : Infinity;
  if (inp.value.length - (end - start) >= maxLen) return;
  setNativeValue(inp, inp.value.slice(0, start) + ch + inp.value.slice(end));
  try { inp.setSelectionRange(start + 1, start + 1); } catch { /* see above */ }
  fire(inp, "input", { inputType: ch === "\n" ? "insertLineBreak" : "insertText", data: ch === "\n" ? null : ch });
}

/** Current checked state of a checkbox/radio/switch, native or ARIA. @param {Element} el */
export function checkedState(el) {
  if (tagOf(el) === "input") return /** @type {HTMLInputElement} */ (el).checked;
  if (tagOf(el) === "label") { const c = /** @type {HTMLLabelElement} */ (el).control; return c ? /** @type {HTMLInputElement} */ (c).checked : false; }
  return attr(el, "aria-checked") === "true" || attr(el, "aria-pressed") === "true";
}

/** Sets a checkbox/radio/switch to `want` by clicking it when needed. @param {Element} el @param {boolean} want */
export function setChecked(el, want) {
  const ok = (tagOf(el) === "input" && ["checkbox", "radio"].includes(/** @type {HTMLInputElement} */ (el).type))
    || tagOf(el) === "label" || ["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio", "option"].includes(attr(el, "role") || "")
    || hasAttr(el, "aria-checked") || hasAttr(el, "aria-pressed");
  if (!ok) throw actionError("not_interactable", "This element is not a checkbox, radio button or switch.");
  if (!want && tagOf(el) === "input" && /** @type {HTMLInputElement} */ (el).type === "radio" && checkedState(el)) {
    throw actionError("not_interactable", "A radio button cannot be unchecked; check another option of its group instead.");
  }
  if (checkedState(el) !== want) clickOn(el);
  if (checkedState(el) !== want) throw actionError("not_interactable", `Clicking did not ${want ? "check" : "uncheck"} it (the page blocked the change).`);
  return want;
}

/** @param {Element | null | undefined} el @returns {el is HTMLInputElement} */
const isFileInput = (el) => !!el && tagOf(el) === "input" && /** @type {HTMLInputElement} */ (el).type === "file";

/**
 * The file input an upload control stands for. Pages hide the real input behind a styled button:
 * inside it, behind its label, laid invisibly over it (plupload, many "Select Files" widgets), or
 * as the one file input of the button's form or section, which the button's script clicks.
 * @param {Element} el @returns {HTMLInputElement | null}
 */
function fileInputFor(el) {
  if (isFileInput(el)) return el;
  if (tagOf(el) === "label") {
    const control = /** @type {HTMLLabelElement} */ (el).control;
    if (isFileInput(control)) return control;
  }
  const inside = qs(el, "input[type=file]");
  if (isFileInput(inside)) return inside;
  const r = rectOf(el);
  const root = /** @type {Document | ShadowRoot} */ (rootOf(el));
  if (r.width > 0 && r.height > 0 && "elementsFromPoint" in root) {
    const over = root.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2).find(isFileInput);
    if (over) return over;
  }
  for (let up = parentElOf(el); up; up = parentElOf(up)) {
    const found = qsa(up, "input[type=file]");
    if (found.length === 1 && isFileInput(found[0])) return found[0];
    if (found.length > 1) return null; // several: which one this control means is not known
  }
  return null;
}

/**
 * Puts a file the host passed in into a file input (through DataTransfer, the only way a page
 * script can set `input.files`), or drops it on a drop zone.
 * @param {Element} el @param {{name: string, mime: string, data_base64: string}} file
 */
export function uploadFile(el, file) {
  const view = docOf(el).defaultView || window;
  const bytes = Uint8Array.from(atob(file.data_base64), (c) => c.charCodeAt(0));
  const f = new view.File([bytes], file.name, { type: file.mime || "application/octet-stream" });
  const dt = new view.DataTransfer();
  dt.items.add(f);
  const input = fileInputFor(el);
  if (input) {
    input.files = dt.files;
    fire(input, "input");
    fire(input, "change");
    return { name: f.name, size: f.size, via: "input" };
  }
  dropFiles(el, dt);
  return { name: f.name, size: f.size, via: "drop" };
}

/**
 * The events a person's drop of files brings, at the point of the drop zone a pointer would reach
 * (what is drawn there gets them, and they bubble to the zone's listeners): dragenter, dragover,
 * and the drop only where the page's dragover said it takes it (it cancelled the event), as the
 * browser does — else dragleave, and the drop is refused.
 * @param {Element} el @param {DataTransfer} dt
 */
function dropFiles(el, dt) {
  const view = docOf(el).defaultView || window;
  const { target, ...at } = pointerHit(el);
  /** @param {string} type */
  const drag = (type) => dispatchOf(target, new view.DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: at.x, clientY: at.y, dataTransfer: dt }));
  arrive(target, at);
  drag("dragenter");
  if (drag("dragover")) { // (not cancelled: the page takes no files there)
    drag("dragleave");
    throw actionError("not_interactable", "That element takes no dropped file (the page did not accept the drop there): look for its file input or a button that opens one.");
  }
  drag("drop");
}

/**
 * A pattern finding these words in a text whatever the spaces between them (a line break in an
 * editor's text, two spaces), case kept: a person selects the words they see.
 * @param {string} words
 */
function wordsPattern(words) {
  return new RegExp(norm(words).split(" ").map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"));
}

/**
 * Selects the first place the element's text holds these words, as a person's pointer dragged
 * over them does: in a text field its selection (focused, as a drag leaves it); elsewhere (an
 * editable region, an editor's text) the document's selection, the editable region focused first.
 * An editor's command (Bold, Link) then acts on it. The words as the element holds them.
 * @param {Element} el @param {string} words @returns {string}
 */
export function selectWords(el, words) {
  const pattern = wordsPattern(words);
  const tag = tagOf(el);
  if (tag === "textarea" || (tag === "input" && /^(text|search|url|tel|email|)$/.test(/** @type {HTMLInputElement} */ (el).type))) {
    const field = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (el);
    const m = pattern.exec(field.value);
    if (!m) throw actionError("not_found", `That field's text does not hold the words "${norm(words).slice(0, 80)}".`);
    focusOf(field);
    field.setSelectionRange(m.index, m.index + m[0].length, "forward");
    fire(field, "select");
    return m[0];
  }
  const doc = docOf(el);
  /** @type {Text[]} */ const nodes = [];
  const walk = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) nodes.push(/** @type {Text} */ (n));
  const whole = nodes.map((n) => nodeValueOf(n) || "").join("");
  const m = pattern.exec(whole);
  if (!m) throw actionError("not_found", `That element's text does not hold the words "${norm(words).slice(0, 80)}".`);
  /** @param {number} at @param {boolean} end @returns {[Text, number]} the text node and offset of a place in `whole` (a start in the node after a boundary, an end in the one before) */
  const place = (at, end) => {
    let start = 0;
    for (const n of nodes) {
      const len = (nodeValueOf(n) || "").length;
      if (end ? at <= start + len : at < start + len) return [n, at - start];
      start += len;
    }
    const last = nodes[nodes.length - 1];
    return [last, (nodeValueOf(last) || "").length];
  };
  const editable = closestOf(el, "[contenteditable]:not([contenteditable=false])");
  if (editable) focusOf(/** @type {HTMLElement} */ (editable), { preventScroll: true });
  const range = doc.createRange();
  range.setStart(...place(m.index, false));
  range.setEnd(...place(m.index + m[0].length, true));
  const sel = doc.getSelection();
  if (!sel) throw actionError("not_interactable", "The page has no selection to set.");
  sel.removeAllRanges();
  sel.addRange(range);
  return m[0];
}
