// @ts-check
/**
 * Key presses: the key events, then the default action a real key press has, which a synthetic
 * key event does not get from the browser — Enter submits a form or activates a button/link, Space
 * toggles, Tab moves focus, Ctrl+A selects, Escape closes a dialog, and in a text field the editing
 * itself: Backspace/Delete (Ctrl: a word), Enter in a textarea, a printable key, the caret keys
 * (arrows, Home/End; Shift extends the selection, Ctrl moves by word).
 *
 * Edits go the way typing goes, so frameworks see them: a cancelable `beforeinput`, the value set
 * under any value tracker, then `input` with the matching inputType. Editable regions
 * (contenteditable) use the browser's own editing commands and selection, which fire those events
 * themselves.
 */
import { clickOn, fire, isEditable, keyEvent, setNativeValue, textEdge } from "./dom_input.js";
import { attr, closestOf, docOf, focusOf, qsa, rectsOf, requestSubmitOf, tabIndexOf, tagOf } from "./dom_native.js";

/** @param {string} combo e.g. "Enter", "Control+A", "Shift+Tab" */
export function parseKeys(combo) {
  const parts = combo.split("+").map((p) => p.trim()).filter(Boolean);
  const mods = { ctrl: false, shift: false, alt: false, meta: false };
  let key = "";
  for (const p of parts) {
    const l = p.toLowerCase();
    if (l === "control" || l === "ctrl") mods.ctrl = true;
    else if (l === "shift") mods.shift = true;
    else if (l === "alt" || l === "option") mods.alt = true;
    else if (l === "meta" || l === "cmd" || l === "command") mods.meta = true;
    else key = p.length === 1 ? p : ({ esc: "Escape", return: "Enter", space: " ", up: "ArrowUp", down: "ArrowDown", left: "ArrowLeft", right: "ArrowRight", del: "Delete" })[l] || p[0].toUpperCase() + p.slice(1);
  }
  if (!key && parts.length) key = parts[parts.length - 1];
  return { key, mods };
}

/** @typedef {{ctrl: boolean, shift: boolean, alt: boolean, meta: boolean}} Mods */

/** Every focusable element in tab order (simplified: document order, tabindex ≥ 0). @param {Document} doc */
function tabbables(doc) {
  return Array.from(qsa(doc, "a[href],button,input:not([type=hidden]),select,textarea,[tabindex],[contenteditable=true]"))
    .filter((e) => tabIndexOf(/** @type {HTMLElement} */ (e)) >= 0 && !(/** @type {any} */ (e).disabled) && rectsOf(e).length > 0);
}

// --- text fields ---------------------------------------------------------------------------------

const TEXT_TYPES = new Set(["text", "search", "url", "tel", "email", "password", "number"]);

/** The element as a text field (textarea or text-like input), or null. @param {Element} el */
function textField(el) {
  if (tagOf(el) === "textarea") return /** @type {HTMLTextAreaElement} */ (el);
  if (tagOf(el) === "input" && TEXT_TYPES.has(/** @type {HTMLInputElement} */ (el).type)) return /** @type {HTMLInputElement} */ (el);
  return null;
}

/** Selection as [anchor, focus]; fields without the selection API (email, number): the end. @param {HTMLInputElement | HTMLTextAreaElement} f */
function selectionOf(f) {
  try {
    if (f.selectionStart !== null && f.selectionEnd !== null) {
      return f.selectionDirection === "backward" ? [f.selectionEnd, f.selectionStart] : [f.selectionStart, f.selectionEnd];
    }
  } catch { /* no selection API */ }
  return [f.value.length, f.value.length];
}

/** @param {HTMLInputElement | HTMLTextAreaElement} f @param {number} anchor @param {number} focus */
function select(f, anchor, focus) {
  try { f.setSelectionRange(Math.min(anchor, focus), Math.max(anchor, focus), focus < anchor ? "backward" : "forward"); } catch { /* see selectionOf */ }
}

/**
 * Replaces [a, b) of the value with `text` as typing does. Nothing when the page cancels
 * `beforeinput`, the field is read-only, or the text would pass maxlength.
 * @param {HTMLInputElement | HTMLTextAreaElement} f @param {number} a @param {number} b @param {string} text @param {string} inputType
 */
function edit(f, a, b, text, inputType) {
  if (f.readOnly || f.disabled) return;
  if (!fire(f, "beforeinput", { inputType, data: text || null })) return;
  const v = f.value;
  if (text && f.maxLength >= 0 && v.length - (b - a) + text.length > f.maxLength) return;
  setNativeValue(f, v.slice(0, a) + text + v.slice(b));
  select(f, a + text.length, a + text.length);
  fire(f, "input", { inputType, data: text || null });
}

/** One character back/forward from i (a surrogate pair is one character). @param {string} v @param {number} i @param {number} dir */
function charStep(v, i, dir) {
  if (dir < 0) return i <= 0 ? 0 : i >= 2 && /[\uDC00-\uDFFF]/.test(v[i - 1]) && /[\uD800-\uDBFF]/.test(v[i - 2]) ? i - 2 : i - 1;
  return i >= v.length ? v.length : /[\uD800-\uDBFF]/.test(v[i]) && /[\uDC00-\uDFFF]/.test(v[i + 1] || "") ? i + 2 : i + 1;
}

/** One word back/forward from i. @param {string} v @param {number} i @param {number} dir */
function wordStep(v, i, dir) {
  if (dir < 0) { while (i > 0 && /\s/.test(v[i - 1])) i--; while (i > 0 && !/\s/.test(v[i - 1])) i--; return i; }
  while (i < v.length && /\s/.test(v[i])) i++;
  while (i < v.length && !/\s/.test(v[i])) i++;
  return i;
}

/** The same column on the line above/below i (a textarea's logical lines). @param {string} v @param {number} i @param {number} dir */
function lineStep(v, i, dir) {
  const start = v.lastIndexOf("\n", i - 1) + 1, col = i - start;
  if (dir < 0) {
    if (start === 0) return 0;
    const prev = v.lastIndexOf("\n", start - 2) + 1;
    return Math.min(prev + col, start - 1);
  }
  const end = v.indexOf("\n", i);
  if (end < 0) return v.length;
  const next = v.indexOf("\n", end + 1);
  return Math.min(end + 1 + col, next < 0 ? v.length : next);
}

/**
 * The editing a key does in a text field. Returns whether the key was one it handles.
 * @param {HTMLInputElement | HTMLTextAreaElement} f @param {string} key @param {Mods} mods
 */
function editField(f, key, mods) {
  const v = f.value, multi = f.localName === "textarea";
  const [anchor, focus] = selectionOf(f);
  const a = Math.min(anchor, focus), b = Math.max(anchor, focus);
  if (f.type === "number" && (key === "ArrowUp" || key === "ArrowDown")) {
    if (f.readOnly) return true;
    try { if (key === "ArrowUp") /** @type {HTMLInputElement} */ (f).stepUp(); else /** @type {HTMLInputElement} */ (f).stepDown(); } catch { return true; }
    fire(f, "input");
    fire(f, "change");
    return true;
  }
  switch (key) {
    case "Backspace": case "Delete": {
      const back = key === "Backspace";
      let s = a, e = b;
      if (s === e) {
        if (back) s = mods.ctrl || mods.alt ? wordStep(v, s, -1) : charStep(v, s, -1);
        else e = mods.ctrl || mods.alt ? wordStep(v, e, 1) : charStep(v, e, 1);
      }
      if (s !== e) edit(f, s, e, "", back ? (mods.ctrl || mods.alt ? "deleteWordBackward" : "deleteContentBackward") : (mods.ctrl || mods.alt ? "deleteWordForward" : "deleteContentForward"));
      return true;
    }
    case "Enter":
      if (!multi || mods.ctrl || mods.meta) return false; // a single-line field: Enter submits
      edit(f, a, b, "\n", "insertLineBreak");
      return true;
    case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown": case "Home": case "End": {
      const dir = key === "ArrowLeft" || key === "ArrowUp" || key === "Home" ? -1 : 1;
      let to;
      if (key === "Home" || key === "End") {
        to = !multi || mods.ctrl ? (dir < 0 ? 0 : v.length) : dir < 0 ? v.lastIndexOf("\n", focus - 1) + 1 : (v.indexOf("\n", focus) + 1 || v.length + 1) - 1;
      } else if (key === "ArrowUp" || key === "ArrowDown") {
        to = multi ? lineStep(v, focus, dir) : dir < 0 ? 0 : v.length;
      } else if (!mods.shift && a !== b) {
        to = dir < 0 ? a : b; // a selection collapses to its side
      } else to = mods.ctrl || mods.alt ? wordStep(v, focus, dir) : charStep(v, focus, dir);
      if (mods.shift) select(f, anchor, to); else select(f, to, to);
      return true;
    }
  }
  if (key.length === 1 || (key.length === 2 && /[\uD800-\uDBFF]/.test(key[0]))) {
    if (mods.ctrl || mods.meta || mods.alt) return false; // a shortcut, not text
    edit(f, a, b, key, "insertText");
    return true;
  }
  return false;
}

/**
 * The editing a key does in an editable region, through the browser's own commands.
 * @param {Element} el @param {string} key @param {Mods} mods
 */
function editRegion(el, key, mods) {
  const doc = docOf(el);
  const word = mods.ctrl || mods.alt;
  const commands = /** @type {Record<string, string>} */ ({ Backspace: "delete", Delete: "forwardDelete", Enter: mods.shift ? "insertLineBreak" : "insertParagraph" });
  if (commands[key] && !mods.meta) {
    const sel = doc.getSelection();
    // Ctrl+Backspace/Delete: take the word first, then delete what is selected.
    if (word && key !== "Enter" && sel && sel.isCollapsed) sel.modify("extend", key === "Backspace" ? "backward" : "forward", "word");
    if (editing(el, INPUT_TYPES[commands[key]].replace("Content", word ? "Word" : "Content"))) doc.execCommand(commands[key]);
    return true;
  }
  const moves = /** @type {Record<string, [string, string]>} */ ({
    ArrowLeft: ["backward", word ? "word" : "character"], ArrowRight: ["forward", word ? "word" : "character"],
    ArrowUp: ["backward", "line"], ArrowDown: ["forward", "line"],
    Home: ["backward", mods.ctrl ? "documentboundary" : "lineboundary"], End: ["forward", mods.ctrl ? "documentboundary" : "lineboundary"],
  });
  if (moves[key]) {
    doc.getSelection()?.modify(mods.shift ? "extend" : "move", moves[key][0], moves[key][1]);
    return true;
  }
  if (key.length === 1 && !mods.ctrl && !mods.meta && !mods.alt) { if (editing(el, "insertText", key)) doc.execCommand("insertText", false, key); return true; }
  return false;
}

/** The `beforeinput` type of each editing command. */
const INPUT_TYPES = /** @type {Record<string, string>} */ ({
  delete: "deleteContentBackward", forwardDelete: "deleteContentForward", insertParagraph: "insertParagraph", insertLineBreak: "insertLineBreak",
});

/**
 * The `beforeinput` a key's edit starts with (execCommand fires none): an editor with a model of its
 * own takes the edit there and cancels it. Whether the browser should still make the edit.
 * @param {Element} el @param {string} inputType @param {string} [data]
 */
function editing(el, inputType, data) {
  return fire(el, "beforeinput", { inputType, ...(data === undefined ? {} : { data }) });
}

/**
 * Presses a key or combination on the element (or whatever has focus) and performs the default
 * action a real key press would have (see the top of this module).
 * @param {Element} target @param {string} combo
 */
export function pressKeys(target, combo) {
  const { key, mods } = parseKeys(combo);
  const go = keyEvent(target, "keydown", key, mods);
  if (go && key.length === 1 && !mods.ctrl && !mods.meta) keyEvent(target, "keypress", key, mods);
  if (go) {
    const tag = tagOf(target);
    const inp = /** @type {HTMLInputElement} */ (target);
    const field = textField(target);
    if (field ? editField(field, key, mods) : isEditable(target) && editRegion(target, key, mods)) {
      // edited
    } else if (key === "Enter" && !mods.ctrl) {
      if (tag === "input" && inp.form && !["checkbox", "radio", "button", "submit", "reset"].includes(inp.type)) requestSubmitOf(inp.form);
      else if (tag === "button" || tag === "a" || attr(target, "role") === "button" || attr(target, "role") === "link" || (tag === "input" && ["submit", "button"].includes(inp.type))) clickOn(target);
    } else if (key === " " && (tag === "button" || (tag === "input" && ["checkbox", "radio", "button", "submit"].includes(inp.type)) || ["button", "checkbox", "switch"].includes(attr(target, "role") || ""))) {
      clickOn(target);
    } else if (key === "Tab") {
      const list = tabbables(docOf(target));
      const i = list.indexOf(target);
      const next = list[(i + (mods.shift ? -1 : 1) + list.length) % list.length];
      if (next) focusOf(/** @type {HTMLElement} */ (next));
    } else if ((key === "a" || key === "A") && (mods.ctrl || mods.meta)) {
      if (tag === "input" || tag === "textarea") inp.select(); else {
        if (isEditable(target)) { const [from, at] = textEdge(target, "start"), [to, end] = textEdge(target, "end"); docOf(target).getSelection()?.setBaseAndExtent(from, at, to, end); }
        else docOf(target).getSelection()?.selectAllChildren(docOf(target).body);
      }
    } else if (key === "Escape") {
      const dlg = closestOf(target, "dialog[open]");
      if (dlg) /** @type {HTMLDialogElement} */ (dlg).close();
    }
  }
  keyEvent(target, "keyup", key, mods);
  return { key, ...mods };
}
