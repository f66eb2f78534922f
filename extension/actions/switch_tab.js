// @ts-check
/** switch_tab: activates the tab the arguments name. */
import { switchTab } from "../background/tab_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "switch_tab", needs: { tab: "none", reads: false }, run: switchTab };
