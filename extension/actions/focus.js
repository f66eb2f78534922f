// @ts-check
/** focus: focuses the element. */
import { focusOn } from "../content/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "focus",
  needs: { page: { element: "required", enabled: true, hit: false } },
  run: (el) => { focusOn(/** @type {Element} */ (el)); return {}; },
};
