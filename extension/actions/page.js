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
 * `settle`: how long the page is let settle after it (content/dom_changes.js) and `judged`: what
 * the gate (content/act_gate.js) judges of it right before it runs — a "press" (the element's
 * effect: its words, where it leads, what its form carries), or "keys" (Enter in a field submits
 * its form): both from the tool's declaration (shared_schema: `settle`, `risk`), added by the
 * generated page_actions.js (a module's own `settle` refines it).
 *
 * `trusted`: how the browser's own input (content/dom_trusted.js) does it — `steps`; `first`: for
 * these arguments that input from the start (the script's events only where it cannot be used); `auto`: in the
 * default mode it follows the script's action when that had no effect a person would notice
 * (`noEffect`), unless `replayable` says no, after `lateMs` more of watching; `keys`: its input goes
 * to the keyboard's focus (a code editor's hidden field takes only these); `pointer`: done where a
 * person points (on a code editor, its visible box); `text`: writes text (an editable region gets
 * the browser's keys from the start); `done`: what it reports when the browser's input did it.
 * `paste`: text it writes whole as a paste, where an editor takes pastes (lines of code: typed,
 * the editor would indent each new line on top of the text's own), after selecting all it holds
 * when `select`.
 * `verify`: a check of its outcome on the element, after the page settled. `waits`: it waits up to
 * its `seconds` (kept within the call's), and for an address (`url_contains`) the coordinator
 * waits on the tab itself.
 *
 * `to: "required"`: it ends on a second element (`to_element_id`), found like the first, in view
 * with it, and passed to the module as `args.to`.
 *
 * @typedef {{element: "required" | "optional" | "own", enabled?: boolean, hit?: boolean, inView?: boolean, to?: "required"}} PageNeeds
 * @typedef {{steps: (args: Record<string, any>, el: Element) => import("../content/dom_trusted.js").InputStep[],
 *   first?: (args: Record<string, any>) => boolean, auto?: boolean, noEffect?: import("../content/dom_trusted.js").NoEffect, replayable?: (el: Element) => boolean, lateMs?: number,
 *   keys?: boolean, pointer?: boolean, text?: boolean, paste?: (args: Record<string, any>) => {text: string, select: boolean} | null,
 *   done?: (args: Record<string, any>) => Record<string, any>}} TrustedInput
 * @typedef {{name: string, needs: {page: PageNeeds}, run: (el: Element | null, args: Record<string, any>, registry: import("../content/dom_scan.js").Registry) => any,
 *   settle?: import("../content/dom_changes.js").SettleOpts, trusted?: TrustedInput, judged?: "press" | "keys",
 *   verify?: (el: Element, args: Record<string, any>, changes: any) => void, waits?: boolean}} PageAction
 */
import { DECLARED_PAGE } from "./page_actions.js";

/** @type {PageAction[]} the action module of every tool declared to run in the page (generated list) */
export const PAGE_ACTIONS = DECLARED_PAGE;
