// @ts-check
/** drag: the element carried onto another (at a point of it) with the browser's own pointer, and dropped. */
import { dragOnto } from "../content/dom_input.js";
import { aimOf } from "../content/dom_roots.js";
import { pointerPoint } from "../content/dom_trusted.js";

/** Where the element is taken (`from_x`: a fraction of its width, at its middle height), or null. @param {any} args */
const grabOf = (args) => typeof args.from_x === "number" ? { x: args.from_x, y: 0.5 } : null;

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "drag",
  needs: { page: { element: "required", enabled: true, hit: true, to: "required" } },
  // Where the browser's input cannot be used: the events a drag brings, dispatched by script.
  run: (el, args) => { dragOnto(/** @type {Element} */ (el), args.to, aimOf(args), grabOf(args)); return {}; },
  // A drag is the browser's own press, moves and release (HTML5 drag and drop answers no other).
  trusted: { steps: (args, el) => [{ type: "drag", from: pointerPoint(el, grabOf(args)), to: pointerPoint(args.to, aimOf(args)) }], first: () => true, pointer: true },
};
