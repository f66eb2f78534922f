// @ts-check
/** observe: the page as the host reads it (every frame merged); the active tab when the call names none. */
import { observe } from "../background/dom_tools.js";

/** @type {import("./tab.js").TabAction} */
export const action = { name: "observe", needs: { tab: "optional", reads: true }, run: observe };
