// @ts-check
/** scroll: the page or an element, or an element into view (so it is not brought into view first). */
import { doScroll } from "../content/dom_scroll.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "scroll",
  needs: { page: { element: "optional", hit: false, inView: false } },
  run: (el, args) => ({ scroll: doScroll(args, el) }),
};
