// @ts-check
/** right_click: the secondary button on the element (at a point of it): the page's own context menu, never the browser's. */
import { rightClickOn } from "../content/dom_input.js";
import { aimOf } from "../content/dom_roots.js";
import { CLICK_IGNORED_AFTER_MS, byHand, clickSteps, noChange } from "../content/dom_trusted.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "right_click",
  needs: { page: { element: "required", hit: true } },
  run: (el, args) => { rightClickOn(/** @type {Element} */ (el), { aim: aimOf(args) }); return {}; },
  // A page whose menu answers only a person's right click (isTrusted): the browser's own press of
  // the right button, unless the page already reacted; its `contextmenu` never opens the
  // browser's menu (press_guard.js).
  trusted: { steps: (args, el) => clickSteps(el, args, "right"), first: byHand, auto: true, noEffect: noChange, lateMs: CLICK_IGNORED_AFTER_MS, pointer: true },
};
