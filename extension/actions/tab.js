// @ts-check
/**
 * The actions the coordinator (service worker) carries out itself on tabs and whole pages, one
 * module each. `needs.tab`: whether the call must name its tab ("required"), may ("optional": the
 * action has a default, such as a new tab), or names its tab in its arguments ("none");
 * `reads`: the action reads or acts on the tab's page, which must then be a web page
 * (background/reach.js).
 *
 * @typedef {{tab: "required" | "optional" | "none", reads: boolean}} TabNeeds
 * @typedef {{name: string, needs: TabNeeds, run: import("../background/tools.js").ToolFn}} TabAction
 */
import { action as observe } from "./observe.js";
import { action as highlight } from "./highlight.js";
import { action as navigate } from "./navigate.js";
import { action as back } from "./back.js";
import { action as newTab } from "./new_tab.js";
import { action as switchTab } from "./switch_tab.js";
import { action as listTabs } from "./list_tabs.js";
import { action as screenshot } from "./screenshot.js";

/** @type {TabAction[]} */
export const TAB_ACTIONS = [observe, highlight, navigate, back, newTab, switchTab, listTabs, screenshot];
