// @ts-check
/** click: a click on the element (refused when covered or disabled). */
import { clickOn } from "../content/dom_input.js";
import { CLICK_IGNORED_AFTER_MS, clickReplayable, clickSteps, noChange } from "../content/dom_trusted.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "click",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el) => { clickOn(/** @type {Element} */ (el)); return {}; },
  // A handler that checks isTrusted ignores a script's click: then the browser's own, unless the
  // click opens the browser's own pop-up; late effects are waited for first (never clicked twice).
  trusted: { steps: (_, el) => clickSteps(el), auto: true, noEffect: noChange, replayable: clickReplayable, lateMs: CLICK_IGNORED_AFTER_MS, pointer: true },
};
