// @ts-check
/** list_tabs: the task's tabs, and how many others the user has. */
import { listTabs } from "../background/tab_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "list_tabs", needs: { tab: "optional", reads: false }, run: listTabs };
