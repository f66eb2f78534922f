// @ts-check
/** check: ticks a checkbox, radio or switch. */
import { setChecked } from "../content/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "check",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el) => ({ checked: setChecked(/** @type {Element} */ (el), true) }),
};
