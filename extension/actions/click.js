// @ts-check
/** click: a click on the element (refused when covered or disabled), at a point of it, with keys held. */
import { clickOn, heldOf } from "../content/dom_input.js";
import { aimOf } from "../content/dom_roots.js";
import { CLICK_IGNORED_AFTER_MS, byHand, clickReplayable, clickSteps, noChange } from "../content/dom_trusted.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "click",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el, args) => { clickOn(/** @type {Element} */ (el), { aim: aimOf(args), held: heldOf(args.modifiers) }); return {}; },
  // A handler that checks isTrusted ignores a script's click: then the browser's own, unless the
  // click opens the browser's own pop-up; late effects are waited for first (never clicked twice).
  // A point given, or keys held (Ctrl+click: a new tab), are the browser's own click from the start.
  trusted: { steps: (args, el) => clickSteps(el, args), first: byHand, auto: true, noEffect: noChange, replayable: clickReplayable, lateMs: CLICK_IGNORED_AFTER_MS, pointer: true },
};
