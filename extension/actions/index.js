// @ts-check
/**
 * Every action the browser side runs for the host's `tool.call`, one module each, named for its
 * tool (shared_schema/tools.py): the DOM agent's page actions (page.js) and the coordinator's tab
 * actions (tab.js). The coordinator's tool table is made from this list; the content script reads
 * the page half (it cannot load the service worker's code). A new tool: its declaration in
 * shared_schema and its module here, named for it (the lists page_actions.js and tab_actions.js
 * are generated from the declarations); tests/test_tool_definitions.py checks the module against
 * its declaration.
 *
 * @typedef {import("./page.js").PageAction | import("./tab.js").TabAction} Action
 */
import { PAGE_ACTIONS } from "./page.js";
import { TAB_ACTIONS } from "./tab.js";

/** @type {Action[]} */
export const ACTIONS = [...PAGE_ACTIONS, ...TAB_ACTIONS];
