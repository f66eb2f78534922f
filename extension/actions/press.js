// @ts-check
/** press: a key or combo, on the element or on whatever has focus. */
import { focusOn } from "../lib/dom_input.js";
import { pressKeys } from "../lib/dom_keys.js";
import { deepActiveElement } from "../lib/refind.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "press",
  needs: { page: { element: "optional", hit: false } },
  run: (el, args) => {
    if (el) focusOn(el); // keys go to what has focus: a person would click into it first
    return { pressed: pressKeys(el || deepActiveElement(document) || document.body, String(args.keys)) };
  },
};
