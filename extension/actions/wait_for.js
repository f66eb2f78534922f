// @ts-check
/** wait_for: an element (by id, or role/name not there yet), text, or a quiet DOM; it finds its own element as it waits. The coordinator waits for a URL itself. */
import { waitFor } from "../content/dom_wait.js";

/** @type {import("./page.js").PageAction} */
export const action = {
  name: "wait_for",
  needs: { page: { element: "own" } },
  waits: true,
  run: (_el, args, registry) => waitFor(args, registry), // (a dialog while waiting: the coordinator answers it)
};
