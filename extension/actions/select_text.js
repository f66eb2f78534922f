// @ts-check
/** select_text: the first place an element's text holds the words, selected (an editor's command then acts on it). */
import { selectWords } from "../content/dom_input.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "select_text",
  needs: { page: { element: "required", enabled: true, hit: false } },
  run: (el, args) => ({ selected: selectWords(/** @type {Element} */ (el), String(args.text)) }),
};
