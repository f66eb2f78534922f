// @ts-check
/** extract: the text of the page or an element, or a table as rows. */
import { extractFrom } from "../content/dom_extract.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "extract",
  needs: { page: { element: "optional", hit: false, inView: false } },
  run: (el, args, r) => extractFrom(el, args, el ? r.surfaces.get(el) : undefined),
};
