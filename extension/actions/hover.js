// @ts-check
/** hover: the pointer over the element. */
import { hoverOn } from "../content/dom_input.js";
import { moveSteps, noChange } from "../content/dom_trusted.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "hover",
  needs: { page: { element: "required", hit: true } },
  run: (el) => { hoverOn(/** @type {Element} */ (el)); return {}; },
  // A CSS :hover menu opens only under the browser's own pointer.
  trusted: { steps: (_, el) => moveSteps(el), auto: true, noEffect: noChange, pointer: true },
};
