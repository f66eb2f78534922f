// @ts-check
/**
 * The task's tabs in the side panel: the only tabs heybro may use (the coordinator refuses every
 * other), and "Hand over this tab" for the page the user is looking at when the running task does
 * not have it — one click, and it is the task's too.
 *
 * @typedef {import("../../shared/state.js").HeybroState} HeybroState
 * @typedef {{tab_id: number, url: string, title: string, site: string}} Candidate
 * @typedef {{tabId: number, title: string, site: string}} TabLine
 */
import { isLive } from "../../shared/state.js";
import { siteOf } from "../../shared/site_rules.js";

/**
 * What the panel shows: the shown task's tabs, most recent last, and the tab it may hand over.
 * @param {HeybroState} state @param {Candidate | null} candidate
 * @returns {{tabs: TabLine[], offer: Candidate | null}}
 */
export function tabsModel(state, candidate) {
  const ctx = state.taskContext;
  if (!ctx) return { tabs: [], offer: null };
  const tabs = state.tabRegistry.filter((t) => t.taskId === ctx.taskId)
    .map((t) => ({ tabId: t.tabId, title: (t.title || "").trim() || siteOf(t.url) || t.url, site: siteOf(t.url) }));
  const offer = isLive(state) && candidate && !tabs.some((t) => t.tabId === candidate.tab_id) ? candidate : null;
  return { tabs, offer };
}

/**
 * @param {{tabs: TabLine[], offer: Candidate | null}} model
 * @param {{byId: (id: string) => HTMLElement}} ui
 */
export function renderTabs(model, ui) {
  const box = ui.byId("task-tabs");
  box.hidden = !model.tabs.length && !model.offer;
  const list = /** @type {HTMLElement} */ (box.querySelector("[data-field=list]"));
  list.replaceChildren(...model.tabs.map((t) => {
    const li = document.createElement("li");
    li.textContent = t.title;
    if (t.site && t.site !== t.title) li.append(Object.assign(document.createElement("span"), { className: "muted", textContent: ` — ${t.site}` }));
    li.dataset.tab = String(t.tabId);
    return li;
  }));
  const button = /** @type {HTMLButtonElement} */ (ui.byId("hand-over"));
  button.hidden = !model.offer;
  if (model.offer) {
    button.dataset.tab = String(model.offer.tab_id);
    button.textContent = `Hand over this tab (${model.offer.site})`;
    button.title = `Let the task use the tab you are looking at: ${model.offer.title || model.offer.url}`;
  }
}
