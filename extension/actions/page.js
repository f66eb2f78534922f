// @ts-check
/**
 * The actions the DOM agent (content script) carries out on a page, one module each. The
 * coordinator forwards them to the right frame's agent (background/dom_tools.js); the agent finds
 * the element as `needs.page` says, then calls `run`.
 *
 * `needs.page.element`: "required" (an element_id or signature), "optional", or "own" (the action
 * finds its elements itself, as wait_for does); `enabled`/`hit`: the element must be enabled /
 * not covered; `inView: false`: not scrolled into view first (scroll, extract read it where it is).
 *
 * @typedef {{element: "required" | "optional" | "own", enabled?: boolean, hit?: boolean, inView?: boolean}} PageNeeds
 * @typedef {{name: string, needs: {page: PageNeeds}, run: (el: Element | null, args: Record<string, any>, registry: import("../lib/dom_scan.js").Registry) => any}} PageAction
 */
import { action as click } from "./click.js";
import { action as fill } from "./fill.js";
import { action as type } from "./type.js";
import { action as select } from "./select.js";
import { action as check } from "./check.js";
import { action as uncheck } from "./uncheck.js";
import { action as press } from "./press.js";
import { action as hover } from "./hover.js";
import { action as scroll } from "./scroll.js";
import { action as focus } from "./focus.js";
import { action as upload } from "./upload.js";
import { action as extract } from "./extract.js";
import { action as waitFor } from "./wait_for.js";

/** @type {PageAction[]} */
export const PAGE_ACTIONS = [click, fill, type, select, check, uncheck, press, hover, scroll, focus, upload, extract, waitFor];
