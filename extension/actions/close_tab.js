// @ts-check
/** close_tab: closes a tab the task opened (never one of the user's), and says where the task works after. */
import { closeTab } from "../background/tab_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "close_tab", needs: { tab: "none", reads: false }, run: closeTab };
