// @ts-check
/** back: history back in the call's tab. */
import { back } from "../background/tab_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "back", needs: { tab: "required", reads: false }, run: back };
