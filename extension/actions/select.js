// @ts-check
/** select: an option by its shown words or value, in a native select or a toolkit's (dom_select.js). */
import { selectOption } from "../content/dom_select.js";
import { SETTLE_ASYNC } from "../content/dom_changes.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "select",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: async (el, args) => ({ selected: await selectOption(/** @type {Element} */ (el), String(args.value)) }),
  settle: { ...SETTLE_ASYNC, graceMs: 20 }, // (its declared settle, with a shorter grace)
};
