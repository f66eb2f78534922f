// @ts-check
/** The side panel: the chat with heybro and the live window on what it does. */
import { CoordinatorClient } from "../../shared/ui_protocol.js";
import { FINAL_STATUSES, isLive, planView } from "../../shared/state.js";
import { renderHostStatus } from "../common/host_status_view.js";
import { FOCUS_REPLACEMENTS, renderChat, renderTask, STATUS_WORDS } from "./task_view.js";
import { keepingFocus } from "../common/ui_focus.js";
import { StepStream } from "./step_stream.js";
import { StreamView } from "./stream_view.js";
import { nameProblem, renderRoutines, suggestName } from "./routines_view.js";
import { renderTabs, tabsModel } from "./tabs_view.js";
import { learnedMark, learnedModel, renderLearned } from "./learned_view.js";

const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const els = {
  pill: byId("host-pill"), banner: byId("host-banner"), log: byId("log"), hint: byId("hint"),
  form: /** @type {HTMLFormElement} */ (byId("goal-form")), goal: /** @type {HTMLTextAreaElement} */ (byId("goal")),
  send: byId("send"), ping: byId("ping"), pingResult: byId("ping-result"),
};
/** @type {import("../../shared/state.js").HeybroState | null} */
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

/**
 * The shown task's run, step by step, drawn from the coordinator's state (its `actionHistory`, the
 * run's entries): the one reduction of the task's events, caught up by the coordinator after any
 * reconnect or restart, so the panel reads no event and asks the host for nothing of its own.
 */
const steps = { stream: /** @type {StepStream | null} */ (null), view: new StreamView(byId("plan")) };

function followSteps() {
  const ctx = state?.taskContext;
  if (!state || !ctx) { steps.stream = null; return; }
  if (steps.stream?.taskId !== ctx.taskId) steps.stream = new StepStream(ctx.taskId);
  steps.stream.addAll(state.actionHistory);
}

function drawSteps() {
  const ctx = state?.taskContext;
  steps.view.render(ctx ? steps.stream : null, ctx?.subtasks || [], ctx?.status || "");
}

function render() {
  if (!state) return;
  const s = state;
  if (s.taskContext?.taskId !== savingFor) { // another task shown: its own name, its own note
    saveForm.hidden = true;
    nameInput.value = "";
    sayRoutine("");
    savingFor = s.taskContext?.taskId || "";
  }
  // A run that just ended changes its routine's last run: an open list shows it.
  const ended = !!s.taskContext && FINAL_STATUSES.has(s.taskContext.status);
  if (ended && !wasEnded && routines.open) loadRoutines();
  wasEnded = ended;
  // A learning the task just kept: an open "Learned" list shows it.
  const mark = learnedMark(s);
  if (mark !== learnedSeen) { learnedSeen = mark; if (mark && learned.open) loadLearned(); }
  keepingFocus(document, FOCUS_REPLACEMENTS, () => renderTask(s, { root: document.body, byId }));
  drawTabs();
  followSteps();
  drawSteps();
  renderChat(state, els.log, els.hint);
  els.send.textContent = following() ? "Send" : "Start";
  byId("goal-label").textContent = following() ? "Message for this task" : "Goal";
  els.goal.placeholder = live() ? "Add information or correct heybro; it reaches the planner."
    : following() ? "Ask for more on this task, or press New task to start another."
      : "e.g. Find the cheapest NYC → LA flight under $400";
}

/** The tab the user looks at, when the running task could be handed it. @type {import("./tabs_view.js").Candidate | null} */
let candidate = null;
function drawTabs() { if (state) renderTabs(tabsModel(state, candidate), { byId }); }
async function refreshCandidate() {
  candidate = state && live() ? await client.call("hand_over_candidate").catch(() => null) : null;
  drawTabs();
}
/** Another page looked at: the hand-over offer, and (when open) which learnings are its site's. */
function lookedElsewhere() {
  refreshCandidate();
  if (learned.open) loadLearned();
}
chrome.tabs.onActivated.addListener(() => { lookedElsewhere(); });
chrome.tabs.onUpdated.addListener((_id, change) => { if (change.url) lookedElsewhere(); else if (change.status === "complete") refreshCandidate(); });
chrome.windows.onFocusChanged.addListener(() => { lookedElsewhere(); });

const client = new CoordinatorClient("panel", (push) => {
  if (push.kind === "host_status") {
    renderHostStatus(push.status, els);
    // A reconnect can take a blink; say it in the conversation so it is not missed.
    if (push.status.state === "disconnected" && live()) note("Host disconnected — heybro is restarting it; the task will wait, paused, for you to resume.");
  }
  else if (push.kind === "state") { state = push.state; render(); refreshCandidate(); }
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
byId("hand-over").addEventListener("click", async () => {
  const tab = Number(byId("hand-over").dataset.tab);
  if (Number.isInteger(tab)) await run("hand_over", { tab_id: tab });
  refreshCandidate();
});

// Answers to heybro's question: a choice's button, or the secret field (never kept in the page).
byId("question").addEventListener("click", (ev) => {
  const b = /** @type {HTMLElement} */ (ev.target).closest("button[data-answer]");
  if (b) run("message", { text: /** @type {HTMLElement} */ (b).dataset.answer });
});
byId("question").querySelector("[data-field=secret]")?.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const field = /** @type {HTMLInputElement} */ (byId("secret-input"));
  const text = field.value;
  field.value = "";
  if (text) run("message", { text });
});

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

/** A past task, shown as the same stream (every subtask open when the run is short). */
const pastView = new StreamView(/** @type {HTMLElement} */ (byId("history-detail").querySelector("[data-field=entries]")));
const OPEN_ALL_UP_TO = 150;

/** @param {string} taskId */
async function openTask(taskId) {
  const d = await run("get_task", { task_id: taskId });
  if (!d) return;
  const box = byId("history-detail");
  box.hidden = false;
  const t = d.task;
  /** @type {HTMLElement} */ (box.querySelector("[data-field=title]")).textContent = `${t.goal} — ${STATUS_WORDS[t.status] || t.status}${t.reason ? `: ${t.reason}` : ""}`;
  const stream = new StepStream(taskId);
  stream.addAll(d.history);
  const r = stream.reader;
  pastView.render(stream, planView(r.plan, r.current), t.status, { openAll: stream.reader.lines.length <= OPEN_ALL_UP_TO });
  /** @type {HTMLElement} */ (box.querySelector("[data-field=usage]")).textContent = stream.usageLine()?.text || "";
}

// Routines: "Save as routine" on a completed task asks for a name; the list runs and deletes.
const saveForm = /** @type {HTMLFormElement} */ (byId("routine-save"));
const nameInput = /** @type {HTMLInputElement} */ (byId("routine-name"));
const routineNote = byId("routine-note");
/** @param {string} text @param {boolean} [bad] */
function sayRoutine(text, bad = false) {
  routineNote.textContent = text;
  routineNote.dataset.tone = bad ? "bad" : "ok";
  routineNote.hidden = !text;
}
let savingFor = "";
byId("save-routine").addEventListener("click", () => {
  const ctx = state?.taskContext;
  if (!ctx) return;
  savingFor = ctx.taskId;
  nameInput.value = nameInput.value || suggestName(ctx.goal);
  saveForm.hidden = false;
  sayRoutine("");
  nameInput.focus();
  nameInput.select();
});
byId("routine-save-cancel").addEventListener("click", () => { saveForm.hidden = true; sayRoutine(""); });
saveForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = nameInput.value.trim();
  const problem = nameProblem(name);
  if (problem) { sayRoutine(problem, true); return; }
  try {
    const r = (await client.call("routine_save", { task_id: savingFor, name })).routine;
    saveForm.hidden = true;
    const params = Object.keys(r.parameters || {});
    sayRoutine(`Saved routine “${r.name}”: ${r.steps} steps` + (params.length ? `, takes ${params.join(", ")}.` : ".") + " Run it from Routines below.");
    if (routines.open) loadRoutines();
  } catch (e) {
    sayRoutine(/** @type {Error} */ (e).message, true);
  }
});

const routines = /** @type {HTMLDetailsElement} */ (byId("routines"));
let wasEnded = true;
/** What the list's buttons do. @type {import("./routines_view.js").RoutineActions} */
const routineActions = {
  run: async (name, params) => { if (await run("routine_run", { name, params })) els.goal.focus(); },
  remove: async (name) => { await run("routine_delete", { name }); loadRoutines(); },
};
async function loadRoutines() {
  const r = await run("routine_list");
  if (r) renderRoutines(byId("routine-list"), r.routines || [], routineActions);
}
routines.addEventListener("toggle", () => { if (routines.open) loadRoutines(); });

// Learned: what heybro noted about sites, the site of the page the user looks at first; Forget
// removes a learning from the host's store at once (no task is given it again).
const learned = /** @type {HTMLDetailsElement} */ (byId("learned"));
const learnedList = byId("learned-list");
let learnedSeen = "";
/** @param {string} text */
function sayLearned(text) { byId("learned-status").textContent = text; }
let learnedLoads = 0;
async function loadLearned() {
  const mine = ++learnedLoads;
  const r = await run("learnings");
  if (r && mine === learnedLoads) renderLearned(learnedList, learnedModel(r), learnedActions); // (the latest answer only)
}
/**
 * Forgets, then draws the list again with the focus on the next learning's Forget (or the one
 * before it, or the list's own summary), so a keyboard user goes on where they were.
 * @param {Record<string, any>} what @param {string} said
 */
async function forgetting(what, said) {
  const buttons = () => [...learnedList.querySelectorAll("button[data-act=forget]")];
  const at = Math.max(0, buttons().indexOf(/** @type {Element} */ (document.activeElement)));
  const done = await run("learning_forget", what);
  await loadLearned();
  if (done) sayLearned(said);
  const left = buttons();
  const next = /** @type {HTMLElement | undefined} */ (left[Math.min(at, left.length - 1)]);
  (next || /** @type {HTMLElement} */ (learned.querySelector("summary"))).focus();
}
/** @type {import("./learned_view.js").LearnedActions} */
const learnedActions = {
  forget: (id, text) => forgetting({ id }, `Forgot “${text}”.`),
  forgetSite: (site, count) => forgetting({ site }, `Forgot ${count === 1 ? "the learning" : `all ${count} learnings`} about ${site}.`),
};
learned.addEventListener("toggle", () => { sayLearned(""); if (learned.open) loadLearned(); });

els.goal.focus();
// A goal drafted from the page's selection by the shortcut, if the panel opened after it was sent.
client.call("take_draft").then((r) => { if (r?.text && !els.goal.value) els.goal.value = r.text; }, () => {});
Object.assign(globalThis, { heybroPanel: { client } });
