// @ts-check
/** double_click: two clicks in a row on the element (at a point of it), and the `dblclick` a person's would bring. */
import { clickOn } from "../content/dom_input.js";
import { aimOf, pointerHit } from "../content/dom_roots.js";
import { dispatchOf, docOf } from "../content/dom_native.js";
import { CLICK_IGNORED_AFTER_MS, byHand, clickReplayable, clickSteps, noChange } from "../content/dom_trusted.js";

/** @param {Element} el @param {import("../content/dom_roots.js").Aim | null} aim */
function doubleClickOn(el, aim) {
  clickOn(el, { aim });
  clickOn(el, { aim });
  const view = docOf(el).defaultView;
  const { target, x, y } = pointerHit(el, aim);
  dispatchOf(target, new (view?.MouseEvent || MouseEvent)("dblclick", {
    bubbles: true, cancelable: true, composed: true, view, detail: 2, button: 0, clientX: x, clientY: y }));
}

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "double_click",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el, args) => { doubleClickOn(/** @type {Element} */ (el), aimOf(args)); return {}; },
  // A handler that checks isTrusted ignores a script's double click: then the browser's own two
  // presses (it counts them, and fires dblclick), unless the page already reacted.
  trusted: { steps: (args, el) => clickSteps(el, args).map((s) => ({ ...s, clicks: 2 })), first: byHand, auto: true, noEffect: noChange, replayable: clickReplayable, lateMs: CLICK_IGNORED_AFTER_MS, pointer: true },
};
