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

/** A typed error the tool protocol carries to the host. @param {string} code @param {string} msg @param {Record<string, any>} [detail] */
export function actionError(code, msg, detail) {
  return Object.assign(new Error(msg), { code, ...(detail ? { detail } : {}) });
}

/** @param {Element} el */
function center(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** @param {Element} el @param {string} type @param {Record<string, any>} [extra] */
function mouse(el, type, extra = {}) {
  const { x, y } = center(el);
  const view = el.ownerDocument.defaultView;
  const init = { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, view, button: 0, buttons: type.endsWith("down") ? 1 : 0, ...extra };
  const Ctor = type.startsWith("pointer") ? (view?.PointerEvent || PointerEvent) : (view?.MouseEvent || MouseEvent);
  return el.dispatchEvent(new Ctor(type, type.startsWith("pointer") ? { ...init, pointerId: 1, pointerType: "mouse", isPrimary: true } : init));
}

/** Pointer enters and moves over the element (what a hover menu listens for). @param {Element} el */
export function hoverOn(el) {
  for (const t of ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"]) mouse(el, t, t.endsWith("enter") ? { bubbles: false } : {});
}

/** A full click: hover, press, focus, release, click. @param {Element} el */
export function clickOn(el) {
  hoverOn(el);
  const down = mouse(el, "pointerdown") && mouse(el, "mousedown");
  if (down) focusOn(el);
  mouse(el, "pointerup");
  mouse(el, "mouseup");
  // HTMLElement.click() runs the element's activation behaviour (follow a link, toggle a checkbox,
  // submit a form) exactly like a user's click; dispatching a bare MouseEvent would not for some.
  if (el instanceof (el.ownerDocument.defaultView?.HTMLElement || HTMLElement)) /** @type {HTMLElement} */ (el).click();
  else mouse(el, "click");
}

/** Focuses the element (or its nearest focusable ancestor). @param {Element} el */
export function focusOn(el) {
  /** @type {Element | null} */
  let t = el;
  while (t && typeof (/** @type {any} */ (t).focus) === "function" && /** @type {HTMLElement} */ (t).tabIndex < 0
    && !t.matches("input,select,textarea,button,a[href],[contenteditable]")) t = t.parentElement;
  (/** @type {HTMLElement} */ (t || el)).focus?.({ preventScroll: true });
}

/** @param {Element} el */
function isEditable(el) {
  const ce = el.getAttribute("contenteditable");
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
function fire(el, type, init = {}) {
  const view = el.ownerDocument.defaultView || window;
  const ev = type === "input" || type === "beforeinput"
    ? new view.InputEvent(type, { bubbles: true, cancelable: type === "beforeinput", composed: true, ...init })
    : new view.Event(type, { bubbles: true, cancelable: false, composed: true });
  return el.dispatchEvent(ev);
}

/** @param {Element} el */
function assertTextControl(el) {
  const tag = el.localName;
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
    const sel = el.ownerDocument.getSelection();
    sel?.selectAllChildren(el);
    // execCommand keeps the editor's undo stack and its own input events; fall back to text.
    if (!el.ownerDocument.execCommand("insertText", false, value)) {
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

/** @param {string} key */
function keyCodeOf(key) {
  if (key.length === 1) { const c = key.toUpperCase(); return /[A-Z0-9]/.test(c) ? c.charCodeAt(0) : key.charCodeAt(0); }
  return ({ Enter: 13, Tab: 9, Escape: 27, Backspace: 8, Delete: 46, ArrowUp: 38, ArrowDown: 40, ArrowLeft: 37, ArrowRight: 39, " ": 32, Space: 32, Home: 36, End: 35, PageUp: 33, PageDown: 34 })[key] || 0;
}

/** @param {Element} el @param {string} type @param {string} key @param {{ctrl?: boolean, shift?: boolean, alt?: boolean, meta?: boolean}} mods */
function keyEvent(el, type, key, mods) {
  const view = el.ownerDocument.defaultView || window;
  const code = key.length === 1 ? (/[a-z]/i.test(key) ? `Key${key.toUpperCase()}` : /\d/.test(key) ? `Digit${key}` : key === " " ? "Space" : "") : key;
  return el.dispatchEvent(new view.KeyboardEvent(type, { key, code, bubbles: true, cancelable: true, composed: true,
    keyCode: keyCodeOf(key), which: keyCodeOf(key), charCode: type === "keypress" ? key.charCodeAt(0) : 0,
    ctrlKey: !!mods.ctrl, shiftKey: !!mods.shift, altKey: !!mods.alt, metaKey: !!mods.meta }));
}

/** Types text key by key at the caret (keydown, keypress, beforeinput, input, keyup per character). @param {Element} el @param {string} text */
export function typeInto(el, text) {
  assertTextControl(el);
  focusOn(el);
  const doc = el.ownerDocument;
  for (const ch of Array.from(text)) {
    const go = keyEvent(el, "keydown", ch, {});
    if (go && keyEvent(el, "keypress", ch, {}) && fire(el, "beforeinput", { inputType: "insertText", data: ch })) {
      if (isEditable(el)) {
        if (!doc.execCommand("insertText", false, ch)) { el.append(ch); fire(el, "input", { inputType: "insertText", data: ch }); }
      } else {
        const inp = /** @type {HTMLInputElement} */ (el);
        let start = inp.value.length, end = start;
        try { start = inp.selectionStart ?? start; end = inp.selectionEnd ?? end; } catch { /* email/number inputs have no selection API */ }
        const maxLen = inp.maxLength > 0 ? inp.maxLength : Infinity;
        if (inp.value.length - (end - start) < maxLen) {
          setNativeValue(inp, inp.value.slice(0, start) + ch + inp.value.slice(end));
          try { inp.setSelectionRange(start + 1, start + 1); } catch { /* see above */ }
          fire(el, "input", { inputType: "insertText", data: ch });
        }
      }
    }
    keyEvent(el, "keyup", ch, {});
  }
  if (!isEditable(el)) fire(el, "change");
}

/**
 * Chooses an option of a <select> (or an ARIA listbox) by its visible label or its value.
 * @param {Element} el @param {string} wanted
 * @returns {{value: string, label: string}}
 */
export function selectOption(el, wanted) {
  const w = wanted.trim().toLowerCase();
  if (el.localName === "select") {
    const sel = /** @type {HTMLSelectElement} */ (el);
    const opts = Array.from(sel.options);
    const opt = opts.find((o) => (o.textContent || "").trim().toLowerCase() === w) || opts.find((o) => o.value.toLowerCase() === w)
      || opts.find((o) => (o.textContent || "").trim().toLowerCase().includes(w));
    if (!opt) throw actionError("not_found", `No option "${wanted}" in this list.`, { options: opts.slice(0, 30).map((o) => (o.textContent || "").trim()) });
    if (opt.disabled) throw actionError("not_interactable", `The option "${wanted}" is disabled.`);
    focusOn(sel);
    if (sel.multiple) opt.selected = true; else setNativeValue(sel, opt.value);
    fire(sel, "input");
    fire(sel, "change");
    return { value: opt.value, label: (opt.textContent || "").trim() };
  }
  // A custom listbox/combobox: open it, then click the option whose text matches.
  const doc = el.ownerDocument;
  const controls = el.getAttribute("aria-controls") || el.getAttribute("aria-owns");
  if (el.getAttribute("role") !== "listbox") clickOn(el);
  const scope = (controls && doc.getElementById(controls)) || (el.getAttribute("role") === "listbox" ? el : doc);
  const options = Array.from(scope.querySelectorAll("[role=option]"));
  const opt = options.find((o) => (o.textContent || "").trim().toLowerCase() === w) || options.find((o) => (o.getAttribute("data-value") || "").toLowerCase() === w)
    || options.find((o) => (o.textContent || "").trim().toLowerCase().includes(w));
  if (!opt) throw actionError("not_found", `No option "${wanted}" in this list.`, { options: options.slice(0, 30).map((o) => (o.textContent || "").trim()) });
  clickOn(opt);
  return { value: opt.getAttribute("data-value") || (opt.textContent || "").trim(), label: (opt.textContent || "").trim() };
}

/** Current checked state of a checkbox/radio/switch, native or ARIA. @param {Element} el */
export function checkedState(el) {
  if (el.localName === "input") return /** @type {HTMLInputElement} */ (el).checked;
  if (el.localName === "label") { const c = /** @type {HTMLLabelElement} */ (el).control; return c ? /** @type {HTMLInputElement} */ (c).checked : false; }
  return el.getAttribute("aria-checked") === "true" || el.getAttribute("aria-pressed") === "true";
}

/** Sets a checkbox/radio/switch to `want` by clicking it when needed. @param {Element} el @param {boolean} want */
export function setChecked(el, want) {
  const ok = (el.localName === "input" && ["checkbox", "radio"].includes(/** @type {HTMLInputElement} */ (el).type))
    || el.localName === "label" || ["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio", "option"].includes(el.getAttribute("role") || "")
    || el.hasAttribute("aria-checked") || el.hasAttribute("aria-pressed");
  if (!ok) throw actionError("not_interactable", "This element is not a checkbox, radio button or switch.");
  if (!want && el.localName === "input" && /** @type {HTMLInputElement} */ (el).type === "radio" && checkedState(el)) {
    throw actionError("not_interactable", "A radio button cannot be unchecked; check another option of its group instead.");
  }
  if (checkedState(el) !== want) clickOn(el);
  if (checkedState(el) !== want) throw actionError("not_interactable", `Clicking did not ${want ? "check" : "uncheck"} it (the page blocked the change).`);
  return want;
}

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

/** Every focusable element in tab order (simplified: document order, tabindex ≥ 0). @param {Document} doc */
function tabbables(doc) {
  return Array.from(doc.querySelectorAll("a[href],button,input:not([type=hidden]),select,textarea,[tabindex],[contenteditable=true]"))
    .filter((e) => /** @type {HTMLElement} */ (e).tabIndex >= 0 && !(/** @type {any} */ (e).disabled) && e.getClientRects().length > 0);
}

/**
 * Presses a key or combination on the element (or whatever has focus) and performs the default
 * action a real key press would have, which synthetic key events do not get from the browser:
 * Enter submits a form or activates a button/link, Space toggles, Tab moves focus, Ctrl+A selects.
 * @param {Element} target @param {string} combo
 */
export function pressKeys(target, combo) {
  const { key, mods } = parseKeys(combo);
  const go = keyEvent(target, "keydown", key, mods);
  if (go && key.length === 1 && !mods.ctrl && !mods.meta) keyEvent(target, "keypress", key, mods);
  if (go) {
    const tag = target.localName;
    const inp = /** @type {HTMLInputElement} */ (target);
    if (key === "Enter" && !mods.ctrl) {
      if (tag === "input" && inp.form && !["checkbox", "radio", "button", "submit", "reset"].includes(inp.type)) inp.form.requestSubmit();
      else if (tag === "button" || tag === "a" || target.getAttribute("role") === "button" || target.getAttribute("role") === "link" || (tag === "input" && ["submit", "button"].includes(inp.type))) clickOn(target);
    } else if (key === " " && (tag === "button" || (tag === "input" && ["checkbox", "radio", "button", "submit"].includes(inp.type)) || ["button", "checkbox", "switch"].includes(target.getAttribute("role") || ""))) {
      clickOn(target);
    } else if (key === "Tab") {
      const list = tabbables(target.ownerDocument);
      const i = list.indexOf(target);
      const next = list[(i + (mods.shift ? -1 : 1) + list.length) % list.length];
      if (next) /** @type {HTMLElement} */ (next).focus();
    } else if ((key === "a" || key === "A") && (mods.ctrl || mods.meta)) {
      if (tag === "input" || tag === "textarea") inp.select(); else target.ownerDocument.getSelection()?.selectAllChildren(isEditable(target) ? target : target.ownerDocument.body);
    } else if (key === "Escape") {
      const dlg = target.closest("dialog[open]");
      if (dlg) /** @type {HTMLDialogElement} */ (dlg).close();
    }
  }
  keyEvent(target, "keyup", key, mods);
  return { key, ...mods };
}

/**
 * Puts a file the host passed in into a file input (through DataTransfer, the only way a page
 * script can set `input.files`), or drops it on a drop zone.
 * @param {Element} el @param {{name: string, mime: string, data_base64: string}} file
 */
export function uploadFile(el, file) {
  const view = el.ownerDocument.defaultView || window;
  const bytes = Uint8Array.from(atob(file.data_base64), (c) => c.charCodeAt(0));
  const f = new view.File([bytes], file.name, { type: file.mime || "application/octet-stream" });
  const dt = new view.DataTransfer();
  dt.items.add(f);
  /** @type {Element | null} */
  let input = el.localName === "input" && /** @type {HTMLInputElement} */ (el).type === "file" ? el
    : el.localName === "label" ? /** @type {HTMLLabelElement} */ (el).control : el.querySelector("input[type=file]");
  if (input && /** @type {HTMLInputElement} */ (input).type === "file") {
    /** @type {HTMLInputElement} */ (input).files = dt.files;
    fire(input, "input");
    fire(input, "change");
    return { name: f.name, size: f.size, via: "input" };
  }
  for (const type of ["dragenter", "dragover", "drop"]) {
    el.dispatchEvent(new view.DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: dt }));
  }
  return { name: f.name, size: f.size, via: "drop" };
}
