// @ts-check
/** screenshot: the visible part of the call's tab. */
import { screenshot } from "../background/tab_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "screenshot", needs: { tab: "required", reads: true }, run: screenshot };
