// @ts-check
/** navigate: a URL in the call's tab; a new tab when the call names none. */
import { navigate } from "../background/tab_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "navigate", needs: { tab: "optional", reads: false }, run: navigate };
