// @ts-check
/** select: an option by its label or value. */
import { selectOption } from "../content/dom_input.js";
import { SETTLE_ASYNC } from "../content/dom_changes.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "select",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el, args) => ({ selected: selectOption(/** @type {Element} */ (el), String(args.value)) }),
  settle: { ...SETTLE_ASYNC, graceMs: 20 }, // (its declared settle, with a shorter grace)
};
