// @ts-check
/**
 * Which tabs are a task's without the user handing them over: those its own tabs opened while it
 * ran — a link with target=_blank, window.open — and, in turn, those they opened. A tab is never
 * the task's by its opener alone: one the user opened from the task's page before the task
 * started (a bank's one-time code, a document) is the user's. So the rule reads when each tab was
 * made and from which (tab_births.js, as the browser said it when it happened), against when the
 * task started; a tab made before heybro heard of it has no record and is not adopted. Web pages
 * only: a browser or extension page opened beside them is none a task may use.
 *
 * @typedef {{opener: number | null, at: number}} Birth  what the browser said as the tab was made
 */
import { addressProblem } from "../shared/web_address.js";

/**
 * Whether `tab` was made by one of `mine` after the task started (`since`, ms since the epoch).
 * @param {chrome.tabs.Tab} tab @param {Set<number>} mine @param {number | undefined} since
 * @param {Map<number, Birth>} births
 */
export function openedDuringTask(tab, mine, since, births) {
  if (tab.id === undefined || since === undefined || mine.has(tab.id)) return false;
  const b = births.get(tab.id);
  return !!b && b.opener !== null && mine.has(b.opener) && b.at >= since
    && !addressProblem(tab.url || tab.pendingUrl || "about:blank");
}

/**
 * The tabs among `all` that `mine` opened during the task, however deep (a page that opens a page
 * that opens a page).
 * @param {chrome.tabs.Tab[]} all @param {Iterable<number>} mine @param {number | undefined} since
 * @param {Map<number, Birth>} births
 * @returns {Set<number>}
 */
export function adoptedTabs(all, mine, since, births) {
  const have = new Set(mine);
  /** @type {Set<number>} */ const out = new Set();
  for (let grew = true; grew;) {
    grew = false;
    for (const t of all) {
      if (openedDuringTask(t, have, since, births)) { have.add(/** @type {number} */ (t.id)); out.add(/** @type {number} */ (t.id)); grew = true; }
    }
  }
  return out;
}
