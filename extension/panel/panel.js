// @ts-check
/** The side panel: the chat with heybro and the live window on what it does. */
import { CoordinatorClient } from "../lib/ui_protocol.js";
import { isLive } from "../background/state.js";
import { renderHostStatus } from "../lib/host_status_view.js";
import { FOCUS_REPLACEMENTS, renderChat, renderTask, STATUS_WORDS } from "./task_view.js";
import { keepingFocus } from "../lib/ui_focus.js";
import { historyLines, renderHistory } from "./history_view.js";

const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const els = {
  pill: byId("host-pill"), banner: byId("host-banner"), log: byId("log"), hint: byId("hint"),
  form: /** @type {HTMLFormElement} */ (byId("goal-form")), goal: /** @type {HTMLTextAreaElement} */ (byId("goal")),
  send: byId("send"), ping: byId("ping"), pingResult: byId("ping-result"),
};
/** @type {import("../background/state.js").HeybroState | null} */
let state = null;

/** A note from the panel itself (not part of the task's chat). @param {string} text */
function note(text) {
  const p = document.createElement("p");
  p.className = "msg error note";
  p.textContent = text;
  els.log.append(p);
  els.log.scrollTop = els.log.scrollHeight;
}

function live() {
  return !!state && isLive(state);
}

/** While a task is shown (running or finished), what is typed is a follow-up for that task. */
function following() { return !!state?.taskContext; }

function render() {
  if (!state) return;
  const s = state;
  keepingFocus(document, FOCUS_REPLACEMENTS, () => renderTask(s, { root: document.body, byId }));
  renderChat(state, els.log, els.hint);
  els.send.textContent = following() ? "Send" : "Start";
  byId("goal-label").textContent = following() ? "Message for this task" : "Goal";
  els.goal.placeholder = live() ? "Add information or correct heybro; it reaches the planner."
    : following() ? "Ask for more on this task, or press New task to start another."
      : "e.g. Find the cheapest NYC → LA flight under $400";
}

const client = new CoordinatorClient("panel", (push) => {
  if (push.kind === "host_status") {
    renderHostStatus(push.status, els);
    // A reconnect can take a blink; say it in the conversation so it is not missed.
    if (push.status.state === "disconnected" && live()) note("Host disconnected — heybro is restarting it; the task will wait, paused, for you to resume.");
  }
  else if (push.kind === "state") { state = push.state; render(); }
  else if (push.kind === "draft") { els.goal.value = push.text || els.goal.value; els.goal.focus(); }
});

/** @param {string} cmd @param {Record<string, any>} [args] */
async function run(cmd, args) {
  try { return await client.call(cmd, args); } catch (e) { note(/** @type {Error} */ (e).message); return undefined; }
}

els.ping.addEventListener("click", async () => {
  els.pingResult.textContent = "Measuring…";
  try {
    const r = await client.call("ping", {});
    els.pingResult.textContent = `Round trip ${r.rtt_ms.toFixed(1)} ms (host pid ${r.host_pid})`;
  } catch (e) {
    els.pingResult.textContent = `No answer: ${/** @type {Error} */ (e).message}`;
  }
});
byId("open-settings").addEventListener("click", () => { chrome.runtime.openOptionsPage(); });
byId("reconnect").addEventListener("click", () => { client.call("reconnect").catch(() => {}); });
byId("copy-fix").addEventListener("click", () => {
  navigator.clipboard.writeText(document.querySelector("[data-field=fix]")?.textContent || "")
    .then(() => { byId("copy-fix").textContent = "Copied"; }, () => {});
});
byId("pause").addEventListener("click", () => run("pause"));
byId("resume").addEventListener("click", () => run("resume"));
byId("stop").addEventListener("click", () => { if (byId("stop").getAttribute("aria-disabled") !== "true") run("stop"); });
byId("dismiss").addEventListener("click", async () => { await run("dismiss"); els.goal.focus(); });

els.form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = els.goal.value.trim();
  if (!text) return;
  els.goal.value = "";
  if (following()) await run("message", { text });
  else await run("start_task", { goal: text });
});
els.goal.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); els.form.requestSubmit(); }
});

// Past tasks, from the host's store, loaded when the list is opened.
const history = /** @type {HTMLDetailsElement} */ (byId("history"));
history.addEventListener("toggle", async () => {
  if (!history.open) return;
  const r = await run("list_tasks", { limit: 30 });
  const list = byId("history-list");
  list.replaceChildren(...(r?.tasks || []).map((/** @type {any} */ t) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.taskId = t.task_id;
    const when = new Date(t.created_at * 1000).toLocaleString();
    b.innerHTML = "<span></span><span class=muted></span>";
    /** @type {HTMLElement} */ (b.children[0]).textContent = t.goal;
    /** @type {HTMLElement} */ (b.children[1]).textContent = `${STATUS_WORDS[t.status] || t.status} · ${when}`;
    b.addEventListener("click", () => openTask(t.task_id));
    li.append(b);
    return li;
  }));
  if (!r?.tasks?.length) list.textContent = "No tasks yet.";
});

/** @param {string} taskId */
async function openTask(taskId) {
  const d = await run("get_task", { task_id: taskId });
  if (!d) return;
  const box = byId("history-detail");
  box.hidden = false;
  const t = d.task;
  /** @type {HTMLElement} */ (box.querySelector("[data-field=title]")).textContent = `${t.goal} — ${STATUS_WORDS[t.status] || t.status}${t.reason ? `: ${t.reason}` : ""}`;
  renderHistory(historyLines(d.history), /** @type {HTMLElement} */ (box.querySelector("[data-field=entries]")));
}

els.goal.focus();
// A goal drafted from the page's selection by the shortcut, if the panel opened after it was sent.
client.call("take_draft").then((r) => { if (r?.text && !els.goal.value) els.goal.value = r.text; }, () => {});
Object.assign(globalThis, { heybroPanel: { client } });
