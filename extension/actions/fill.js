// @ts-check
/** fill: replaces the field's value. */
import { fillIn } from "../lib/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "fill",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el, args) => { fillIn(/** @type {Element} */ (el), String(args.value ?? "")); return {}; },
};
