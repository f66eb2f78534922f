// @ts-check
/** fill: replaces the field's value. */
import { checkFilled, fillIn } from "../content/dom_input.js";
import { fillSteps, lines, madeElements } from "../content/dom_trusted.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "fill",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el, args) => { fillIn(/** @type {Element} */ (el), String(args.value ?? "")); return {}; },
  trusted: { steps: (args) => fillSteps(String(args.value ?? "")), keys: true, text: true, paste: (args) => lines(String(args.value ?? ""), true) },
  // A field may refuse or rewrite the value — or take it into elements of its own and empty itself.
  verify: (el, args, changes) => checkFilled(el, String(args.value ?? ""), madeElements(changes)),
};
