// @ts-check
/** hover: the pointer over the element. */
import { hoverOn } from "../content/dom_input.js";
import { moveSteps, noChange } from "../content/dom_trusted.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "hover",
  needs: { page: { element: "required", hit: true } },
  run: (el) => { hoverOn(/** @type {Element} */ (el)); return {}; },
  // The browser's own pointer from the start, as a person's: a CSS :hover menu opens only under it,
  // and a page whose script answered a script's mouseover (a tooltip, a class) may still keep its
  // submenu for the real pointer. Moving the pointer onto an element does nothing twice.
  trusted: { steps: (_, el) => moveSteps(el), first: () => true, auto: true, noEffect: noChange, pointer: true },
};
