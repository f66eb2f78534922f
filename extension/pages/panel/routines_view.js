// @ts-check
/**
 * The panel's routines: the list (name, last run, result, heals, time) with Run — the
 * parameters' recorded values shown, editable, before the run starts — and Delete (asked twice:
 * it cannot be undone, though the routine's runs stay in the history).
 */
import { STATUS_WORDS } from "./task_view.js";

/**
 * @typedef {{name: string, goal: string, steps: number, parameters: Record<string, string>,
 *   heals: number, created_at: number, updated_at: number, runs: number, last_task?: string | null,
 *   last_status?: string | null, last_run_at?: number | null, last_seconds?: number | null,
 *   last_heals?: number | null, last_model_calls?: number | null}} RoutineSummary
 * @typedef {{run: (name: string, params: Record<string, string>) => void, remove: (name: string) => void}} RoutineActions
 */

/** The host's rule for a routine's name (shared_schema.routines.ROUTINE_NAME). */
export const ROUTINE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * A routine's line as a person reads it.
 * @param {RoutineSummary} r
 * @returns {{title: string, lastRun: string, result: string, heals: string, time: string}}
 */
export function routineWords(r) {
  const params = Object.keys(r.parameters || {});
  return {
    title: `${r.steps} step${r.steps === 1 ? "" : "s"}` + (params.length ? ` · takes ${params.join(", ")}` : ""),
    lastRun: r.last_run_at ? `last run ${new Date(r.last_run_at * 1000).toLocaleString()}` : "never run",
    result: r.last_status ? STATUS_WORDS[r.last_status] || r.last_status : "",
    heals: `${r.heals} heal${r.heals === 1 ? "" : "s"}`,
    time: typeof r.last_seconds === "number" ? `${r.last_seconds.toFixed(1)} s` : "",
  };
}

/**
 * A name to offer for a task's routine: the goal's first words, as the host accepts names.
 * @param {string} goal
 */
export function suggestName(goal) {
  const words = goal.toLowerCase().match(/[a-z0-9]+/g) || [];
  const name = words.slice(0, 4).join("-").slice(0, 40).replace(/-+$/, "");
  return ROUTINE_NAME.test(name) ? name : "routine";
}

/**
 * Why a name is refused before asking the host, or "" when it is fine.
 * @param {string} name
 */
export function nameProblem(name) {
  if (!name) return "Give the routine a name.";
  if (!ROUTINE_NAME.test(name)) return "A name is letters, digits, '.', '_' and '-' (no spaces), starting with a letter or digit, at most 64 characters.";
  return "";
}

/**
 * Draws the list into `list`.
 * @param {HTMLElement} list @param {RoutineSummary[]} routines @param {RoutineActions} act
 */
export function renderRoutines(list, routines, act) {
  if (!routines.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "No routines yet: save a completed task with “Save as routine”.";
    list.replaceChildren(li);
    return;
  }
  list.replaceChildren(...routines.map((r) => routineItem(r, act)));
}

/** @param {string} tag @param {string} [className] @param {string} [text] */
function el(tag, className = "", text = "") {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/** @param {RoutineSummary} r @param {RoutineActions} act */
function routineItem(r, act) {
  const w = routineWords(r);
  const li = el("li", "routine");
  li.dataset.routine = r.name;
  const head = el("div", "routine-head");
  head.append(el("strong", "", r.name), el("span", "muted", w.title));
  const facts = el("p", "muted routine-facts");
  facts.dataset.field = "facts";
  facts.textContent = [w.lastRun, w.result, w.heals, w.time].filter(Boolean).join(" · ");
  const run = /** @type {HTMLButtonElement} */ (el("button", "", "Run"));
  run.type = "button";
  run.dataset.act = "run";
  const del = /** @type {HTMLButtonElement} */ (el("button", "", "Delete"));
  del.type = "button";
  del.dataset.act = "delete";
  const buttons = el("div", "routine-actions");
  buttons.append(run, del);
  const form = paramsForm(r, act);
  run.addEventListener("click", () => {
    if (!Object.keys(r.parameters || {}).length) { act.run(r.name, {}); return; }
    form.hidden = !form.hidden;
    if (!form.hidden) /** @type {HTMLInputElement | null} */ (form.querySelector("input"))?.focus();
  });
  del.addEventListener("click", () => {
    if (del.dataset.confirm === "true") { act.remove(r.name); return; }
    del.dataset.confirm = "true";
    del.textContent = "Delete for good?";
  });
  del.addEventListener("blur", () => { del.dataset.confirm = "false"; del.textContent = "Delete"; });
  li.append(head, facts, buttons, form);
  return li;
}

/** The parameters, each with its recorded value to keep or change, and the button that runs. @param {RoutineSummary} r @param {RoutineActions} act */
function paramsForm(r, act) {
  const form = /** @type {HTMLFormElement} */ (el("form", "routine-params"));
  form.hidden = true;
  form.setAttribute("aria-label", `Parameters of ${r.name}`);
  for (const [name, value] of Object.entries(r.parameters || {})) {
    const label = el("label", "", name);
    const input = /** @type {HTMLInputElement} */ (el("input"));
    input.name = name;
    input.value = value;
    label.append(input);
    form.append(label);
  }
  const go = /** @type {HTMLButtonElement} */ (el("button", "primary", "Start run"));
  go.type = "submit";
  form.append(go);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    /** @type {Record<string, string>} */
    const params = {};
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input"))) params[input.name] = input.value;
    act.run(r.name, params);
  });
  return form;
}
