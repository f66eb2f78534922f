// @ts-check
/** click: a click on the element (refused when covered or disabled). */
import { clickOn } from "../lib/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "click",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el) => { clickOn(/** @type {Element} */ (el)); return {}; },
};
