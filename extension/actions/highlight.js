// @ts-check
/** highlight: numbered boxes over the page's elements on the tab's screenshots (shot.js), on or off. */
import { highlight } from "../background/dom_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "highlight", needs: { tab: "optional", reads: true }, run: highlight };
