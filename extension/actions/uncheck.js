// @ts-check
/** uncheck: unticks a checkbox or switch. */
import { setChecked } from "../content/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "uncheck",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el) => ({ checked: setChecked(/** @type {Element} */ (el), false) }),
};
