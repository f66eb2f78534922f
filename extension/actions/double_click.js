// @ts-check
/** double_click: two clicks in a row on the element, and the `dblclick` a person's would bring. */
import { clickOn } from "../content/dom_input.js";
import { dispatchOf, docOf, rectOf } from "../content/dom_native.js";
import { CLICK_IGNORED_AFTER_MS, clickReplayable, clickSteps, noChange } from "../content/dom_trusted.js";

/** @param {Element} el */
function doubleClickOn(el) {
  clickOn(el);
  clickOn(el);
  const view = docOf(el).defaultView;
  const r = rectOf(el);
  const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
  dispatchOf(el, new (view?.MouseEvent || MouseEvent)("dblclick", {
    bubbles: true, cancelable: true, composed: true, view, detail: 2, button: 0, ...at }));
}

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "double_click",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el) => { doubleClickOn(/** @type {Element} */ (el)); return {}; },
  // A handler that checks isTrusted ignores a script's double click: then the browser's own two
  // presses (it counts them, and fires dblclick), unless the page already reacted.
  trusted: { steps: (_, el) => clickSteps(el).map((s) => ({ ...s, clicks: 2 })), auto: true, noEffect: noChange, replayable: clickReplayable, lateMs: CLICK_IGNORED_AFTER_MS, pointer: true },
};
