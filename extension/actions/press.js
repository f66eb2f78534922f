// @ts-check
/** press: a key or combo, on the element or on whatever has focus. */
import { focusOn } from "../content/dom_input.js";
import { parseKeys, pressKeys } from "../content/dom_keys.js";
import { deepActiveElement } from "../content/dom_roots.js";
import { noKeyEffect, pressSteps } from "../content/dom_trusted.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "press",
  needs: { page: { element: "optional", hit: false } },
  run: (el, args) => {
    if (el) focusOn(el); // keys go to what has focus: a person would click into it first
    return { pressed: pressKeys(el || deepActiveElement(document) || document.body, String(args.keys)) };
  },
  trusted: { steps: (args) => pressSteps(String(args.keys)), auto: true, noEffect: noKeyEffect, keys: true,
    done: (args) => { const { key, mods } = parseKeys(String(args.keys)); return { pressed: { key, ...mods } }; } },
};
