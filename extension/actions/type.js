// @ts-check
/** type: text key by key at the caret. */
import { typeInto } from "../lib/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "type",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el, args) => { typeInto(/** @type {Element} */ (el), String(args.text ?? "")); return {}; },
};
