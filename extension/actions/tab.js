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
import { DECLARED_TAB } from "./tab_actions.js";

/** @type {TabAction[]} the action module of every tool declared to run on the tab (generated list) */
export const TAB_ACTIONS = DECLARED_TAB;
