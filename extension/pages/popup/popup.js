// @ts-check
/**
 * The toolbar popup: host status (with the command that fixes it), the task and what it is doing
 * or how it ended, pause/resume/stop, and a way into the panel.
 */
import { CoordinatorClient } from "../../shared/ui_protocol.js";
import { meaningOf } from "../../shared/state.js";
import { renderHostStatus } from "../common/host_status_view.js";
import { keepingFocus } from "../common/ui_focus.js";
import { FOCUS_REPLACEMENTS, PROGRESS_WORDS, STATUS_WORDS, adviceFor, reasonText, shownStatus } from "../panel/task_view.js";
import { STATUS } from "../../shared/vocabulary.js";

const byId = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
const FOCUS = { ...FOCUS_REPLACEMENTS, pause: ["resume", "stop", "open-panel"], resume: ["pause", "stop", "open-panel"], stop: ["open-panel"] };

/** @param {import("../../shared/state.js").HeybroState} state */
function render(state) {
  const ctx = state.taskContext;
  const status = ctx ? shownStatus(ctx) : "";
  const meaning = meaningOf(ctx?.status);
  const final = !ctx || !!meaning?.final;
  const resumable = !!meaning?.resumable;
  byId("task-line").textContent = ctx ? `${STATUS_WORDS[status] || status}: ${ctx.goal}` : "No task is running.";

  // What it is doing now: only while the task is live (a stopped task has no "now").
  const current = ctx?.subtasks.find((s) => s.state === "current");
  const busy = !final && !resumable ? PROGRESS_WORDS[status] || (!current ? PROGRESS_WORDS[ctx?.status || ""] : "") : "";
  const now = final ? "" : busy || (current ? `${resumable ? "Next" : "Now"}: ${current.text}` : "");
  const line = byId("subtask-line");
  line.hidden = !now;
  /** @type {HTMLElement} */ (line.querySelector("[data-field=text]")).textContent = now;
  /** @type {HTMLElement} */ (line.querySelector(".spinner")).hidden = !busy;

  // How it ended, or why it waits: the failure's reason and what to do, the result, the pause.
  const outcome = byId("outcome");
  let text = "";
  let advice = "";
  let tone = "";
  if (ctx?.status === STATUS.failed) {
    const why = ctx.reason || ctx.error || "The task failed.";
    text = reasonText(why);
    advice = adviceFor(why, STATUS.failed);
    tone = "bad";
  } else if (ctx?.status === STATUS.completed) text = ctx.answer ? `Answer: ${ctx.answer}` : ctx.result || ctx.reason || "";
  else if (ctx?.status === STATUS.waiting) { text = ctx.question?.text || reasonText(ctx.reason || "heybro has a question."); advice = "Answer in heybro's side panel."; tone = "warn"; }
  else if (ctx?.status === STATUS.stopped) { text = reasonText(ctx.reason || "Stopped."); tone = "warn"; }
  else if (resumable && ctx?.reason) { text = reasonText(ctx.reason); advice = adviceFor(ctx.reason, ctx.status, ctx.pause); tone = "warn"; }
  outcome.hidden = !text;
  /** @type {HTMLElement} */ (outcome.querySelector("[data-field=text]")).textContent = text;
  /** @type {HTMLElement} */ (outcome.querySelector("[data-field=advice]")).textContent = advice;
  outcome.dataset.tone = tone;

  keepingFocus(document, FOCUS, () => {
    const paused = resumable || status === "pausing";
    const stopping = status === "stopping";
    byId("controls").hidden = final;
    byId("pause").hidden = paused || stopping;
    byId("resume").hidden = !paused || stopping;
    byId("stop").setAttribute("aria-disabled", String(stopping));
  });
}

const client = new CoordinatorClient("popup", (push) => {
  if (push.kind === "host_status") renderHostStatus(push.status, { pill: byId("host-pill"), banner: byId("host-banner") });
  else if (push.kind === "state") render(push.state);
});

for (const cmd of ["pause", "resume", "stop"]) {
  byId(cmd).addEventListener("click", async () => {
    if (byId(cmd).getAttribute("aria-disabled") === "true") return;
    const err = byId("popup-error");
    err.hidden = true;
    try { await client.call(cmd); } catch (e) { err.textContent = /** @type {Error} */ (e).message; err.hidden = false; }
  });
}
byId("reconnect").addEventListener("click", () => { client.call("reconnect").catch(() => {}); });
byId("copy-fix").addEventListener("click", () => {
  const fix = document.querySelector("#host-banner [data-field=fix]")?.textContent || "";
  navigator.clipboard.writeText(fix).then(() => { byId("copy-fix").textContent = "Copied"; }, () => {});
});

// sidePanel.open must run inside the click's user gesture, so the window id is looked up first.
/** @type {number | undefined} */
let windowId;
chrome.windows.getCurrent().then((w) => { windowId = w.id; });
byId("open-panel").addEventListener("click", () => {
  if (windowId === undefined) return;
  chrome.sidePanel.open({ windowId }).then(() => window.close(), (e) => console.warn("heybro: side panel", e));
});
// Exposed for the end-to-end tests (the page's own connection), not for pages.
Object.assign(globalThis, { heybroPopup: { client } });
