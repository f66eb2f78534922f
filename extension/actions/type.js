// @ts-check
/** type: text key by key at the caret; lines of it pasted into an editor that takes pastes. */
import { typeInto } from "../content/dom_input.js";
import { lines, noTextChange, typeSteps } from "../content/dom_trusted.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "type",
  needs: { page: { element: "required", enabled: true, hit: true } },
  run: (el, args) => { typeInto(/** @type {Element} */ (el), String(args.text ?? "")); return {}; },
  // A rich editor may take only real key presses.
  trusted: { steps: (args) => typeSteps(String(args.text ?? "")), auto: true, noEffect: noTextChange, keys: true, text: true,
    paste: (args) => lines(String(args.text ?? ""), false) },
};
