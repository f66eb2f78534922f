// @ts-check
/** Renders the coordinator's heybro_state into the panel's task section and chat. */

/** @typedef {import("../background/state.js").HeybroState} HeybroState */

/** @type {Record<string, string>} */
export const STATUS_WORDS = {
  planning: "Planning", executing: "Working", verifying: "Checking its work", correcting: "Correcting",
  paused: "Paused", completed: "Completed", failed: "Failed", stopped: "Stopped",
};

/** What a person can do about a failure, by what it says. @param {string} text @param {string} status */
export function adviceFor(text, status) {
  if (status === "paused") return "Press Resume to continue from where it stopped.";
  if (/llm|model|api key|base url|401|429|quota/i.test(text)) return "Check the model settings (`heybro doctor`), then start the task again.";
  if (/guardrail|limit|too many|loop/i.test(text)) return "Try a more specific goal, or split it into smaller tasks.";
  if (/host|disconnect/i.test(text)) return "heybro restarts its host by itself; Resume when it says Host connected.";
  if (status === "failed") return "You can start it again, rephrased, or do the remaining step yourself.";
  return "heybro will try another way; you can pause or stop it.";
}

/** @param {Record<string, any>} params @param {string[]} [skip] */
function describeParams(params, skip = []) {
  return Object.entries(params || {}).filter(([k]) => !skip.includes(k))
    .map(([k, v]) => `${k}=${JSON.stringify(v).slice(0, 60)}`).join(", ");
}

/**
 * The action in words: the tool and the element it acts on as the page named it (`click link
 * "Blue Kettle"`), with its other arguments; the raw id only when the element is not known.
 * @param {NonNullable<import("../background/state.js").TaskContext["currentAction"]>} a
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
  const badge = ui.byId("task-status");
  badge.dataset.status = ctx.status;
  badge.textContent = STATUS_WORDS[ctx.status] || ctx.status;
  const final = ["completed", "failed", "stopped"].includes(ctx.status);
  ui.byId("pause").hidden = final || ctx.status === "paused";
  ui.byId("resume").hidden = ctx.status !== "paused";
  ui.byId("stop").hidden = final;
  ui.byId("dismiss").hidden = !final;

  const plan = ui.byId("plan");
  plan.replaceChildren(...ctx.subtasks.map((s) => {
    const li = document.createElement("li");
    li.dataset.state = s.state;
    li.textContent = s.text;
    if (s.state === "current") li.setAttribute("aria-current", "step");
    return li;
  }));

  const action = ui.byId("current-action");
  action.textContent = ctx.currentAction ? describeAction(ctx.currentAction) : "";
  action.title = ctx.currentAction?.reason || "";

  const verdict = ui.byId("verdict");
  verdict.hidden = !ctx.lastVerdict;
  if (ctx.lastVerdict) {
    const v = ctx.lastVerdict;
    const words = { mark_complete: "Verifier: done", continue_work: "Verifier: needs a correction", request_reschedule: "Verifier: replanning" };
    /** @type {HTMLElement} */ (verdict.querySelector("[data-field=decision]")).textContent = /** @type {any} */ (words)[v.decision] || v.decision;
    const meter = /** @type {HTMLMeterElement} */ (verdict.querySelector("[data-field=meter]"));
    meter.value = v.confidence;
    meter.high = v.threshold;
    /** @type {HTMLElement} */ (verdict.querySelector("[data-field=confidence]")).textContent = `confidence ${Math.round(v.confidence * 100)}% (needs ${Math.round(v.threshold * 100)}%)`;
    /** @type {HTMLElement} */ (verdict.querySelector("[data-field=reason]")).textContent = v.reason;
  }

  const errorBox = ui.byId("task-error");
  const problem = ctx.status === "failed" ? (ctx.reason || ctx.error) : ctx.status === "paused" ? ctx.reason : ctx.error;
  errorBox.hidden = !problem;
  if (problem) {
    /** @type {HTMLElement} */ (errorBox.querySelector("[data-field=text]")).textContent = problem;
    /** @type {HTMLElement} */ (errorBox.querySelector("[data-field=advice]")).textContent = adviceFor(problem, ctx.status);
    errorBox.setAttribute("role", ctx.status === "failed" ? "alert" : "status");
    errorBox.dataset.tone = ctx.status === "paused" ? "warn" : "bad";
  }

  const u = ctx.usage;
  const tokens = u.promptTokens + u.completionTokens;
  ui.byId("usage").textContent = u.calls
    ? `${fmt(tokens)} tokens in ${u.calls} model call${u.calls === 1 ? "" : "s"}` + (u.costUsd > 0 ? ` · about $${u.costUsd.toFixed(4)}` : " · no cost recorded (local model or unknown price)")
    : "";
}

/**
 * Re-renders the chat when it changed (messages are only ever appended).
 * @param {HeybroState} state @param {HTMLElement} log @param {HTMLElement} hint
 */
export function renderChat(state, log, hint) {
  const chat = state.taskContext?.chat || [];
  hint.hidden = chat.length > 0;
  const msgs = () => log.querySelectorAll(".msg:not(.note)");
  if (msgs().length > chat.length) msgs().forEach((m) => m.remove());
  const start = msgs().length;
  for (const m of chat.slice(start)) {
    const p = document.createElement("p");
    p.className = `msg ${m.who}`;
    p.textContent = m.text;
    log.append(p);
  }
  if (chat.length > start) log.scrollTop = log.scrollHeight;
}
