// @ts-check
/** new_tab: a URL in a new active tab. */
import { newTab } from "../background/tab_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "new_tab", needs: { tab: "none", reads: false }, run: newTab };
