// @ts-check
/** Renders the coordinator's heybro_state into the panel's task section and chat. */

import { meaningOf, pauseMeaningOf } from "../../shared/state.js";
import { DECISION, PAUSE_MEANING, STATUS, STATUS_MEANING } from "../../shared/vocabulary.js";

/** @typedef {import("../../shared/state.js").HeybroState} HeybroState */

/** A pause or stop the person asked for, shown at once before the task reaches it. */
const PENDING = {
  pausing: { label: "Pausing…", busy: "Pausing at the next safe point, between actions…" },
  stopping: { label: "Stopping…", busy: "Stopping…" },
};

/**
 * The word a person sees for a status (the vocabulary's label) or a pending pause or stop.
 * @type {Readonly<Record<string, string>>}
 */
export const STATUS_WORDS = Object.freeze(Object.fromEntries([...Object.entries(STATUS_MEANING), ...Object.entries(PENDING)]
  .map(([status, m]) => [status, m.label])));

/** What heybro is busy with, while no action of its own is shown. @type {Readonly<Record<string, string>>} */
export const PROGRESS_WORDS = Object.freeze(Object.fromEntries([...Object.entries(STATUS_MEANING), ...Object.entries(PENDING)]
  .filter(([, m]) => m.busy).map(([status, m]) => [status, m.busy])));

/**
 * The status a person should see: a pause or stop asked for shows at once, before the task
 * reaches it. @param {import("../../shared/state.js").TaskContext} ctx
 */
export function shownStatus(ctx) {
  return ctx.pending && !meaningOf(ctx.status)?.final ? ctx.pending : ctx.status;
}

/** Where keyboard focus goes when the focused control is replaced by a re-render. */
export const FOCUS_REPLACEMENTS = {
  pause: ["resume", "stop", "dismiss", "goal"],
  resume: ["pause", "stop", "dismiss", "goal"],
  stop: ["dismiss", "resume", "pause", "goal"],
  dismiss: ["goal"],
};

/**
 * What a person can do about a failure, by what it says, or about a pause, by why it was made.
 * @param {string} text @param {string} status @param {string | null} [pause]
 */
export function adviceFor(text, status, pause = null) {
  if (meaningOf(status)?.resumable) return (pauseMeaningOf({ status, pause }) || PAUSE_MEANING.cut_off).advice;
  if (/llm|model|api key|base url|401|429|quota/i.test(text)) return "Check the model settings (`heybro doctor`), then start the task again.";
  if (/guardrail|limit|too many|loop/i.test(text)) return "Try a more specific goal, or split it into smaller tasks.";
  if (/host|disconnect/i.test(text)) return "heybro restarts its host by itself; Resume when it says Host connected.";
  if (status === STATUS.failed) return "You can start it again, rephrased, or do the remaining step yourself.";
  return "heybro will try another way; you can pause or stop it.";
}

/** The host's reasons as they read to a person. @type {Record<string, string>} */
const REASON_WORDS = {
  "paused by the user": "You paused the task.",
  "stopped by the user": "You stopped the task.",
};

/**
 * A reason (the host's words) as a sentence: known ones said for a person, others capitalised and
 * ended with a full stop. @param {string} reason
 */
export function reasonText(reason) {
  const text = reason.trim();
  if (REASON_WORDS[text]) return REASON_WORDS[text];
  const s = text.startsWith("heybro ") ? text : text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…)]$/.test(s) ? s : `${s}.`;
}

/** @param {Record<string, any>} params @param {string[]} [skip] */
function describeParams(params, skip = []) {
  return Object.entries(params || {}).filter(([k]) => !skip.includes(k))
    .map(([k, v]) => `${k}=${JSON.stringify(v).slice(0, 60)}`).join(", ");
}

/** The verifier's decision in words. */
export const DECISION_WORDS = /** @type {Record<string, string>} */ ({
  [DECISION.mark_complete]: "done", [DECISION.continue_work]: "needs a correction",
  [DECISION.request_reschedule]: "replanning", [DECISION.fail_task]: "the goal cannot be met",
});

/**
 * A verdict's two numbers, each said as what it is, and why it was not taken: "model 95% sure,
 * needs 70%; page: 2 of 2 checks hold" — or "…; not taken: text:Saved NOT MET (…)".
 * @param {{confidence: number, threshold: number, accepted: boolean, page?: number, checks?: number, held_back?: string[], overruled?: string | null}} v
 */
export function verdictNumbers(v) {
  const pct = (/** @type {number} */ x) => `${Math.round((x || 0) * 100)}%`;
  const checks = v.checks || 0;
  const held = Math.round((v.page ?? 1) * checks);
  let out = `model ${pct(v.confidence)} sure, needs ${pct(v.threshold)}; ` +
    (checks ? `page: ${held} of ${checks} check${checks === 1 ? "" : "s"} hold` : "page: nothing checked");
  if (v.overruled) out += `; a check overruled: ${v.overruled}`;
  if (!v.accepted) out += `; not taken: ${(v.held_back || []).length ? (v.held_back || []).slice(0, 4).join("; ") : "the model is not sure enough"}`;
  return out;
}

/**
 * The action in words: the tool and the element it acts on as the page named it (`click link
 * "Blue Kettle"`), with its other arguments; the raw id only when the element is not known.
 * @param {NonNullable<import("../../shared/state.js").TaskContext["currentAction"]>} a
 */
export function describeAction(a) {
  const who = a.role && a.role !== "worker" ? `${a.role}: ` : "";
  if (!a.target) return `${who}${a.tool}(${describeParams(a.parameters, ["expect"])})`;
  const rest = describeParams(a.parameters, ["element_id", "expect"]);
  return `${who}${a.tool} ${a.target}${rest ? ` (${rest})` : ""}`;
}

/** @param {number} n */
const fmt = (n) => n.toLocaleString("en-US");

/**
 * @param {HeybroState} state
 * @param {{root: HTMLElement, byId: (id: string) => HTMLElement}} ui
 */
export function renderTask(state, ui) {
  const ctx = state.taskContext;
  const section = ui.byId("task");
  section.hidden = !ctx;
  if (!ctx) return;
  ui.byId("task-goal").textContent = ctx.goal;
  const shown = shownStatus(ctx);
  const badge = ui.byId("task-status");
  badge.dataset.status = shown;
  badge.textContent = STATUS_WORDS[shown] || shown;
  const meaning = meaningOf(ctx.status);
  const final = !!meaning?.final;
  const stopping = shown === "stopping";
  const paused = !!meaning?.resumable || shown === "pausing";
  ui.byId("pause").hidden = final || paused || stopping;
  ui.byId("resume").hidden = final || !paused || stopping;
  const stop = ui.byId("stop");
  stop.hidden = final;
  // Kept in place (and focusable) while the stop is under way; pressing it again does nothing.
  stop.setAttribute("aria-disabled", String(stopping));
  ui.byId("dismiss").hidden = !final;
  ui.byId("save-routine").hidden = ctx.status !== STATUS.completed;

  const progress = ui.byId("progress");
  const words = final || meaning?.resumable ? "" : PROGRESS_WORDS[shown] || (!ctx.currentAction ? PROGRESS_WORDS[ctx.status] || "" : "");
  progress.hidden = !words;
  /** @type {HTMLElement} */ (progress.querySelector("[data-field=text]")).textContent = words;

  // The plan with every step taken is the step stream (stream_view.js), drawn by the panel.

  renderAnswer(ctx, ui);
  renderQuestion(ctx, ui);

  const action = ui.byId("current-action");
  action.textContent = ctx.currentAction ? describeAction(ctx.currentAction) : "";
  action.title = ctx.currentAction?.reason || "";
  action.hidden = !ctx.currentAction;

  const verdict = ui.byId("verdict");
  verdict.hidden = !ctx.lastVerdict;
  if (ctx.lastVerdict) {
    const v = ctx.lastVerdict;
    /** @type {HTMLElement} */ (verdict.querySelector("[data-field=decision]")).textContent = `Verifier: ${DECISION_WORDS[v.decision] || v.decision}`;
    const meter = /** @type {HTMLMeterElement} */ (verdict.querySelector("[data-field=meter]"));
    meter.value = v.confidence;
    meter.high = v.threshold;
    /** @type {HTMLElement} */ (verdict.querySelector("[data-field=confidence]")).textContent = verdictNumbers(v);
    /** @type {HTMLElement} */ (verdict.querySelector("[data-field=reason]")).textContent = v.reason;
  }

  const errorBox = ui.byId("task-error");
  const problem = ctx.status === STATUS.failed ? (ctx.reason || ctx.error) : meaning?.resumable ? ctx.reason
    : ctx.status === STATUS.waiting ? null : ctx.error;
  errorBox.hidden = !problem;
  if (problem) {
    /** @type {HTMLElement} */ (errorBox.querySelector("[data-field=text]")).textContent = reasonText(problem);
    /** @type {HTMLElement} */ (errorBox.querySelector("[data-field=advice]")).textContent = adviceFor(problem, ctx.status, ctx.pause);
    errorBox.setAttribute("role", ctx.status === STATUS.failed ? "alert" : "status");
    errorBox.dataset.tone = meaning?.resumable ? "warn" : "bad";
  }

  const u = ctx.usage;
  const tokens = u.promptTokens + u.completionTokens;
  const usage = ui.byId("usage");
  usage.hidden = !u.calls;
  usage.textContent = u.calls
    ? `${fmt(tokens)} tokens in ${u.calls} model call${u.calls === 1 ? "" : "s"}` + (u.costUsd > 0 ? ` · about $${u.costUsd.toFixed(4)}` : " · no cost recorded (local model or unknown price)")
    : "";
}

/** The answer to the person's question, first of all. @param {import("../../shared/state.js").TaskContext} ctx @param {{byId: (id: string) => HTMLElement}} ui */
function renderAnswer(ctx, ui) {
  const box = ui.byId("answer");
  box.hidden = !ctx.answer;
  /** @type {HTMLElement} */ (box.querySelector("[data-field=text]")).textContent = ctx.answer || "";
}

/** What each kind of question tells the person about answering it. @type {Record<string, string>} */
export const QUESTION_HINTS = {
  text: "Type your answer below and press Send.",
  choice: "Pick one, or type another answer below.",
  confirm: "heybro does nothing until you answer.",
  secret: "It goes to the page only: never to the model, the record or the logs.",
};

/**
 * heybro's question while the task waits: its text, a button per choice (Yes / No for a risky
 * action), a password field for a secret. The panel sends the answer as the task's next message.
 * @param {import("../../shared/state.js").TaskContext} ctx @param {{byId: (id: string) => HTMLElement}} ui
 */
function renderQuestion(ctx, ui) {
  const box = ui.byId("question");
  const q = ctx.status === STATUS.waiting ? ctx.question : null;
  box.hidden = !q;
  if (!q) return;
  /** @type {HTMLElement} */ (box.querySelector("[data-field=text]")).textContent = q.text;
  // A question the model asked after reading a page may have been shaped by that page: said so.
  const page = /** @type {HTMLElement} */ (box.querySelector("[data-field=page]"));
  page.textContent = q.page ? `Asked while reading ${q.page}.` : "";
  page.hidden = !q.page;
  /** @type {HTMLElement} */ (box.querySelector("[data-field=hint]")).textContent = QUESTION_HINTS[q.kind] || "";
  /** @type {HTMLElement} */ (box.querySelector("[data-field=secret]")).hidden = q.kind !== "secret";
  const choices = /** @type {HTMLElement} */ (box.querySelector("[data-field=choices]"));
  if (choices.dataset.question === q.id) return;  // drawn already: keep focus where it is
  choices.dataset.question = q.id;
  choices.replaceChildren(...q.choices.map((c, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = c;
    b.dataset.answer = c;
    if (i === 0 && q.kind !== "confirm") b.className = "primary";
    return b;
  }));
}

/**
 * Brings the chat log up to date: appends the entries it has not shown yet (entries are numbered
 * as they come, so this keeps working once the stored chat is trimmed to its newest entries),
 * drops the ones trimmed away, and starts over for another task.
 * @param {HeybroState} state @param {HTMLElement} log @param {HTMLElement} hint
 */
export function renderChat(state, log, hint) {
  const ctx = state.taskContext;
  const chat = ctx?.chat || [];
  hint.hidden = chat.length > 0;
  const number = (/** @type {{n?: number}} */ m, /** @type {number} */ i) => m.n ?? i;
  /** @type {HTMLElement[]} */
  let shown = Array.from(log.querySelectorAll(".msg[data-n]"));
  if ((log.dataset.task || "") !== (ctx?.taskId || "")) {
    shown.forEach((m) => m.remove());
    shown = [];
    log.dataset.task = ctx?.taskId || "";
  }
  const first = chat.length ? number(chat[0], 0) : Infinity;
  for (const m of shown) if (Number(m.dataset.n) < first) m.remove();
  const last = shown.length ? Number(shown[shown.length - 1].dataset.n) : -1;
  let added = 0;
  chat.forEach((m, i) => {
    const n = number(m, i);
    if (n <= last) return;
    const p = document.createElement("p");
    p.className = `msg ${m.who}`;
    p.dataset.n = String(n);
    p.textContent = m.text;
    log.append(p);
    added += 1;
  });
  if (added) log.scrollTop = log.scrollHeight;
}
