// @ts-check
/** The toolbar popup: host status, the running task, pause/resume/stop, and a way into the panel. */
import { CoordinatorClient } from "../lib/ui_protocol.js";
import { renderHostStatus } from "../lib/host_status_view.js";
import { STATUS_WORDS } from "../panel/task_view.js";

const byId = (/** @type {string} */ id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
const pill = byId("host-pill");

/** @param {import("../background/state.js").HeybroState} state */
function render(state) {
  const ctx = state.taskContext;
  const status = ctx?.status || "";
  const final = !ctx || ["completed", "failed", "stopped"].includes(status);
  byId("task-line").textContent = ctx ? `${STATUS_WORDS[status] || status}: ${ctx.goal}` : "No task is running.";
  const current = ctx?.subtasks.find((s) => s.state === "current");
  byId("subtask-line").textContent = current ? `Now: ${current.text}` : (ctx?.reason && !final ? ctx.reason : "");
  byId("pause").disabled = final || status === "paused";
  byId("resume").disabled = status !== "paused";
  byId("stop").disabled = final;
}

const client = new CoordinatorClient("popup", (push) => {
  if (push.kind === "host_status") renderHostStatus(push.status, { pill });
  else if (push.kind === "state") render(push.state);
});

for (const cmd of ["pause", "resume", "stop"]) {
  byId(cmd).addEventListener("click", async () => {
    const err = byId("popup-error");
    err.hidden = true;
    try { await client.call(cmd); } catch (e) { err.textContent = /** @type {Error} */ (e).message; err.hidden = false; }
  });
}

// sidePanel.open must run inside the click's user gesture, so the window id is looked up first.
/** @type {number | undefined} */
let windowId;
chrome.windows.getCurrent().then((w) => { windowId = w.id; });
byId("open-panel").addEventListener("click", () => {
  if (windowId === undefined) return;
  chrome.sidePanel.open({ windowId }).then(() => window.close(), (e) => console.warn("heybro: side panel", e));
});
