// @ts-check
/** hover: the pointer over the element. */
import { hoverOn } from "../lib/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "hover",
  needs: { page: { element: "required", hit: true } },
  run: (el) => { hoverOn(/** @type {Element} */ (el)); return {}; },
};
