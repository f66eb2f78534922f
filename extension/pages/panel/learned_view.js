// @ts-check
/**
 * The panel's "Learned" list: the notes heybro kept about sites (experience.list), given to the
 * planner and the worker on their next tasks there — those of the site the user is looking at
 * first, then the others by site, each with the page it was learned on, when, and Forget.
 *
 * A learning is a model's note of what pages said, so a page can shape it: it is only ever put in
 * the panel as text (textContent), never as markup, and its page address is shown, not linked.
 *
 * @typedef {{id: number, site: string, text: string, page?: string | null, task_id?: string | null,
 *   created_at: number}} Learning  one learning as the host lists it (shared_schema/experiences.py)
 * @typedef {{site: string, all: Learning[], here: number[]}} LearnedAnswer
 *   the coordinator's `learnings`: the site (origin) of the page the user looks at ("" when none),
 *   every learning, and the ids of those a page there is given
 * @typedef {{id: number, text: string, where: string, when: string, label: string}} LearnedLine
 * @typedef {{site: string, here: boolean, heading: string, forgetAll: string, lines: LearnedLine[]}} LearnedGroup
 * @typedef {{note: string, groups: LearnedGroup[]}} LearnedModel
 * @typedef {{forget: (id: number, text: string) => void, forgetSite: (site: string, count: number) => void}} LearnedActions
 */
import { EVENT } from "../../shared/vocabulary.js";

const LABEL_CHARS = 60;

/** @param {string} text @param {number} max */
function short(text, max) { return text.length <= max ? text : `${text.slice(0, max - 1)}…`; }

/**
 * One learning as a person reads it. @param {Learning} e @param {(at: number) => string} [dated]
 * @returns {LearnedLine}
 */
export function learnedLine(e, dated = (at) => new Date(at * 1000).toLocaleString()) {
  return {
    id: e.id, text: e.text,
    where: e.page ? `on ${e.page}` : "page not recorded",
    when: dated(e.created_at),
    label: `Forget: ${short(e.text, LABEL_CHARS)}`,
  };
}

/**
 * What the list shows: the learnings the page the user looks at is given first (under "This
 * site"), then every other site's, sites in the host's order, each site's newest first.
 * @param {LearnedAnswer} answer @param {(at: number) => string} [dated]
 * @returns {LearnedModel}
 */
export function learnedModel(answer, dated) {
  const here = new Set(answer.here);
  /** @type {Map<string, Learning[]>} */
  const bySite = new Map();
  for (const e of answer.all) bySite.set(e.site, [...(bySite.get(e.site) || []), e]);
  /** @type {LearnedGroup[]} */
  const groups = [...bySite].map(([site, items]) => {
    const isHere = items.some((e) => here.has(e.id));
    return {
      site, here: isHere, heading: isHere ? `This site · ${site}` : site,
      forgetAll: `Forget all ${items.length} learned about ${site}`,
      lines: [...items].sort((a, b) => b.created_at - a.created_at).map((e) => learnedLine(e, dated)),
    };
  });
  groups.sort((a, b) => Number(b.here) - Number(a.here)); // (stable: the host's order otherwise)
  let note = "";
  if (!answer.all.length) note = "Nothing learned yet. When a task finds something about a site that saves steps next time (“search is in the menu”), heybro keeps it here.";
  else if (answer.site && !groups.some((g) => g.here)) note = `Nothing learned about ${answer.site} yet.`;
  return { note, groups };
}

/**
 * The newest learning the shown task kept ("" when none): when it changes, a learning was just
 * kept, and an open list is read again.
 * @param {import("../../shared/state.js").HeybroState} state
 */
export function learnedMark(state) {
  const last = state.actionHistory.findLast((h) => h.kind === EVENT.experience);
  return last && state.taskContext ? `${state.taskContext.taskId}#${last.seq}` : "";
}

/** @param {string} tag @param {string} [className] @param {string} [text] */
function el(tag, className = "", text = "") {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/**
 * Draws the list into `box` (every word a page could have shaped as text).
 * @param {HTMLElement} box @param {LearnedModel} model @param {LearnedActions} act
 */
export function renderLearned(box, model, act) {
  const parts = [];
  if (model.note) parts.push(el("p", "muted learned-note", model.note));
  model.groups.forEach((g, i) => parts.push(groupSection(g, i, act)));
  box.replaceChildren(...parts);
}

/** @param {LearnedGroup} g @param {number} n @param {LearnedActions} act */
function groupSection(g, n, act) {
  const section = el("div", "learned-site");
  section.setAttribute("role", "group"); // named by its heading: "This site · …" or the site
  section.dataset.site = g.site;
  if (g.here) section.dataset.here = "true";
  const head = el("div", "learned-head");
  const title = el("h3", "", g.heading);
  title.id = `learned-site-${n}`;
  section.setAttribute("aria-labelledby", title.id);
  const all = /** @type {HTMLButtonElement} */ (el("button", "", "Forget all"));
  all.type = "button";
  all.dataset.act = "forget-site";
  all.setAttribute("aria-label", g.forgetAll);
  const calm = () => { all.dataset.confirm = "false"; all.textContent = "Forget all"; all.setAttribute("aria-label", g.forgetAll); };
  all.addEventListener("click", () => {
    if (all.dataset.confirm === "true") { act.forgetSite(g.site, g.lines.length); return; }
    all.dataset.confirm = "true";
    all.textContent = `Forget all ${g.lines.length}?`;
    all.setAttribute("aria-label", `${g.forgetAll}? Press again to forget them`);
  });
  all.addEventListener("blur", calm);
  head.append(title, all);
  const list = el("ul", "learned-items");
  list.replaceChildren(...g.lines.map((l) => lineItem(l, act)));
  section.append(head, list);
  return section;
}

/** @param {LearnedLine} l @param {LearnedActions} act */
function lineItem(l, act) {
  const li = el("li", "learning");
  li.dataset.learning = String(l.id);
  const text = el("p", "learned-text", l.text);
  text.dataset.field = "text";
  const facts = el("p", "muted small learned-facts");
  const where = el("span", "learned-page", l.where);
  where.dataset.field = "page";
  const when = el("span", "", l.when);
  when.dataset.field = "when";
  facts.append(where, " · ", when);
  const forget = /** @type {HTMLButtonElement} */ (el("button", "", "Forget"));
  forget.type = "button";
  forget.dataset.act = "forget";
  forget.setAttribute("aria-label", l.label);
  forget.addEventListener("click", () => act.forget(l.id, l.text));
  li.append(text, facts, forget);
  return li;
}
