// @ts-check
/**
 * The coordinator: the extension's state authority and message router (MV3 service worker).
 * It owns the line to the host, serves the side panel and popup over ports, answers the host's
 * tool calls, and opens the panel from the keyboard shortcut.
 */
// First: the tabs made from now on are heard (when, and from which tab: what a task adopts a tab by).
import { taskStart } from "./tab_births.js";
import { HostLink } from "./host_link.js";
import { runTool } from "./tools.js";
import { confine, reachedTabs, withheld } from "./reach.js";
import { siteOf, siteRefusal, siteVerdict } from "../shared/site_rules.js";
import { standDown } from "./dialog_answers.js";
import { addressProblem } from "../shared/web_address.js";
import "./trusted_input.js"; // the browser's own input for the DOM agent (chrome.debugger)
import { hideOutline } from "./outline.js"; // the outline on the element acted on (chrome.debugger)
import { makeMessage } from "../shared/messages.js";
import { loadPrefs } from "../shared/prefs.js";
import { Notifier } from "./notify.js";
import { StateStore, addRelevantTab, applyEvent, applyRecord, isLive, meaningOf, newTaskContext, FINAL_STATUSES } from "../shared/state.js";
import { STATUS } from "../shared/vocabulary.js";

/** @typedef {import("../shared/ui_protocol.js").UiRequest} UiRequest */

/** A connection test may wait on a slow server for each model (the host times each out). */
const SETTINGS_TEST_MS = 60000;

/** @type {Set<chrome.runtime.Port>} */
const uiPorts = new Set();

/** @param {import("../shared/ui_protocol.js").UiPush} push */
function broadcast(push) {
  for (const p of uiPorts) {
    try { p.postMessage(push); } catch { uiPorts.delete(p); }
  }
}

/** Recent host states, newest last (for the panel's history and for diagnosing). @type {import("./host_link.js").HostStatus[]} */
const statusLog = [];

const link = new HostLink({
  extensionVersion: chrome.runtime.getManifest().version,
  onStatus: (status) => {
    statusLog.push({ ...status });
    if (statusLog.length > 50) statusLog.shift();
    broadcast({ kind: "host_status", status });
    if (status.state === "connected") catchUp();
  },
  onMessage: (message) => onHostMessage(message),
});

const store = new StateStore();
store.subscribe((state) => broadcast({ kind: "state", state }));

// A task that ends or waits for the person says so (notification + badge), unless turned off.
const notifier = new Notifier(() => loadPrefs());
let shownTask = /** @type {import("../shared/state.js").TaskContext | null} */ (null);
store.loaded.then(() => { shownTask = store.state.taskContext; });
store.subscribe((state) => {
  const before = shownTask;
  shownTask = state.taskContext;
  notifier.changed(before, shownTask).catch((e) => console.warn("heybro: notification", e));
});

/** Keeps the host connected while a task is live (running or paused), from any wake-up. */
function holdHostForTask() {
  if (isLive(store.state)) link.want("task");
  else link.release("task");
}
store.loaded.then(holdHostForTask);
store.subscribe(holdHostForTask);

/**
 * Brings the stored state up to date with the host's record (events missed while the service
 * worker or the host was down), after every (re)connection.
 */
async function catchUp() {
  await store.loaded;
  const ctx = store.state.taskContext;
  if (!ctx || link.status.state !== "connected") return;
  try {
    const reply = await link.call("task.get", { task_id: ctx.taskId, after_seq: ctx.lastSeq });
    const { task, history } = reply.payload;
    await store.update((s) => applyRecord(s, task, history, ctx.lastSeq));
  } catch (e) {
    const err = /** @type {any} */ (e);
    if (err.code === "task_not_found") await store.update((s) => (s.taskContext ? { ...s, taskContext: { ...s.taskContext, status: STATUS.failed, error: "The host has no record of this task." } } : s));
    else console.warn("heybro: catch-up failed", e);
  }
}

/** @param {import("./host_link.js").Message} message */
async function onHostMessage(message) {
  if (message.type === "event") {
    const ev = /** @type {any} */ (message.payload);
    await store.loaded;
    if (store.state.taskContext?.taskId !== ev.task_id && !isLive(store.state)) {
      // A task started elsewhere (`heybro run` in a terminal): the panel follows it too.
      // (The tabs its first calls reached, before this first word of it, stay its own.)
      await store.update((s) => ({ ...s, taskContext: newTaskContext(ev.task_id, ev.data?.goal || "Task from the terminal"), actionHistory: [],
        tabRegistry: s.tabRegistry.filter((t) => t.taskId === ev.task_id) }));
      if (ev.seq > 0) await catchUp();
    }
    // (The host's record holds the event: written with the step's others, not one write each.)
    await store.update((s) => applyEvent(s, ev), { lazy: true });
    // The task ended (or waits paused for the user): heybro is no longer at work in its tabs.
    const status = store.state.taskContext?.taskId === ev.task_id ? store.state.taskContext.status : null;
    const meaning = meaningOf(status);
    if (meaning && (meaning.final || meaning.resumable)) for (const id of taskTabs(ev.task_id)) { hideOutline(id); standDown(id); }
    return; // the pages read it from the state pushed with the change

  }
  if (message.type === "tool.call") {
    const payload = /** @type {import("./tools.js").ToolCallPayload} */ (/** @type {unknown} */ (message.payload));
    const result = await runConfined(payload);
    try { link.post(makeMessage("tool.result", result, message.id)); } catch (e) { console.warn("heybro: tool result lost", e); }
  }
}

/**
 * Tab ids start again with each browser session: the task tabs kept from an earlier one are
 * forgotten (an id from then may now be one of the user's own tabs) before any call is checked
 * against them. `chrome.storage.session` lives as long as the browser: empty, this is a new one.
 */
const sessionChecked = (async () => {
  await store.loaded;
  const key = "heybro_browser_session";
  if ((await chrome.storage.session.get(key))[key]) return;
  await chrome.storage.session.set({ [key]: true });
  if (store.state.tabRegistry.length) await store.update((s) => ({ ...s, tabRegistry: [] }));
})().catch((e) => console.warn("heybro: browser session check", e));

/**
 * A start in progress hands its tab over before the host's first call can arrive (the host may
 * act before the start's reply is read here), and started when it was asked for.
 * @type {number | undefined}
 */
let handingOver;
/** @type {number | undefined} */
let startingAt;

/**
 * A task's tabs: those it works in, opened, or was handed (the state's registry, each entry kept
 * with its task: a task's first calls may come before the word that it started).
 * @param {string | undefined} taskId
 */
function taskTabs(taskId) {
  const tabs = new Set(store.state.tabRegistry.filter((t) => t.taskId === taskId).map((t) => t.tabId));
  if (handingOver !== undefined) tabs.add(handingOver);
  return tabs;
}

/**
 * Runs a host's tool call within the task's reach (reach.js): refused, with the reason the model
 * and the user read, when it names another tab or a page that is no web page; the tabs it worked
 * in or opened become the task's.
 * @param {import("./tools.js").ToolCallPayload} call
 */
async function runConfined(call) {
  await sessionChecked;
  /** @type {import("./tools.js").ToolCallPayload} */ let allowed;
  try { allowed = await confine(call, taskTabs(call.task_id)); } catch (e) {
    const err = /** @type {any} */ (e);
    return { ok: false, error: { code: String(err.code || "not_allowed"), message: String(err.message || err), ...(err.detail ? { detail: err.detail } : {}) } };
  }
  // (A task heybro has not heard start — one from a terminal — started at its first call at the latest.)
  const since = call.task_id ? await taskStart(call.task_id, startingAt) : undefined;
  const result = await runTool({ ...allowed, task_tabs: [...taskTabs(call.task_id)], ...(since !== undefined ? { task_since: since } : {}) });
  if (!result.ok || !result.result) return result;
  for (const id of reachedTabs(allowed, result.result)) await trackTab(id, call.task_id);
  return { ...result, result: withheld(allowed, result.result) };
}

/** Commands the extension's pages may send. @type {Record<string, (args: Record<string, any>) => Promise<any>>} */
const commands = {
  async host_status() { return link.status; },
  async reconnect() {
    link.drop();
    link.attempt = 0;
    return link.ensure();
  },
  async ping({ data = "" }) {
    const started = performance.now();
    const reply = await link.call("ping", { nonce: String(Date.now()), data });
    return { rtt_ms: performance.now() - started, host_pid: reply.payload.host_pid, echoed: reply.payload.data.length };
  },
  async state() { await store.loaded; return store.state; },
  async take_draft() { const text = pendingDraft; pendingDraft = ""; return { text }; },
  async start_task({ goal, url, tab_id }) {
    return startTask("task.start", { goal, ...(url ? { url } : {}) }, goal, tab_id);
  },
  // Routines: a completed task saved to replay; the list with their last runs; a run is a task.
  async routine_save({ task_id, name, replace = false }) { return (await link.call("routine.save", { task_id, name, replace })).payload; },
  async routine_list() { return (await link.call("routine.list", {})).payload; },
  async routine_delete({ name }) { return (await link.call("routine.delete", { name })).payload; },
  async routine_run({ name, params = {}, url }) {
    return startTask("routine.run", { name, params, ...(url ? { url } : {}) }, `Routine ${name}`);
  },
  // Learnings: what heybro learned about sites, those of the page the user looks at marked (the
  // host says which a page there is given); forgetting one, or all of a site, at once.
  async learnings() {
    const site = await pageOrigin();
    const [all, here] = await Promise.all([link.call("experience.list", {}),
      site ? link.call("experience.list", { site }) : null]);
    return { site, all: all.payload.experiences, here: here ? here.payload.experiences.map((/** @type {any} */ e) => e.id) : [] };
  },
  async learning_forget({ id, site }) {
    return (await link.call("experience.forget", typeof id === "number" ? { id } : { site })).payload;
  },
  async pause() { return control("task.pause"); },
  async resume() { return control("task.resume"); },
  async stop() { return control("task.stop"); },
  async message({ text }) {
    // The host records the message and sends it back as an event: the chat shows what it kept.
    // A paused task stays paused; the planner reads the message when the user resumes.
    const ctx = await currentTask();
    await link.call("task.message", { task_id: ctx.taskId, text });
    await catchUp();
    return { ok: true };
  },
  async list_tasks({ limit = 50 }) { return (await link.call("task.list", { limit })).payload; },
  async get_task({ task_id, after_seq = -1 }) { return (await link.call("task.get", { task_id, after_seq })).payload; },
  // The options page: the host keeps the settings; the key passes through here once, never kept.
  async settings_get() { return (await link.call("settings.get", {})).payload; },
  async settings_set(form) { return (await link.call("settings.set", form)).payload; },
  async settings_test(form) { return (await link.call("settings.test", form, SETTINGS_TEST_MS)).payload; },
  /** The page the user is looking at, when it is a web page the task does not have yet: what "Hand over this tab" offers. */
  async hand_over_candidate() {
    await store.loaded;
    const ctx = store.state.taskContext;
    const tabId = await pageTabId();
    if (!ctx || !isLive(store.state) || tabId === undefined || taskTabs(ctx.taskId).has(tabId)) return null;
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    const url = tab?.url || "";
    if (!tab || addressProblem(url) || url === "about:blank") return null;
    return { tab_id: tabId, url, title: tab.title || "", site: siteOf(url) };
  },
  /**
   * The user hands a tab to the live task: it becomes one of the task's tabs (every call to it is
   * allowed from now on), and the host is told by the tab's number and site (never its title: the
   * page chose that), so the model may use it. A site the user's settings keep heybro off cannot
   * be handed over.
   */
  async hand_over({ tab_id }) {
    const ctx = await currentTask();
    if (!isLive(store.state)) throw Object.assign(new Error(`The task is already ${ctx.status}.`), { code: "invalid_state" });
    const tab = await chrome.tabs.get(tab_id).catch(() => null);
    if (!tab) throw Object.assign(new Error("That tab is closed."), { code: "no_tab" });
    const url = tab.url || "";
    const why = addressProblem(url);
    if (why) throw Object.assign(new Error(why), { code: "not_allowed" });
    const settings = (await link.call("settings.get", {})).payload;
    const verdict = siteVerdict(url, settings.sites || {});
    if (verdict?.rule === "never") throw Object.assign(new Error(siteRefusal(verdict)), { code: "not_allowed", detail: verdict });
    await trackTab(tab_id, ctx.taskId);
    await link.call("task.hand_tab", { task_id: ctx.taskId, tab_id, site: siteOf(url) });
    await catchUp();
    return { ok: true, tab_id };
  },
  async dismiss() {
    // Clears a finished task from the panel (it stays in the host's history).
    await store.update((s) => (isLive(s) ? s : { ...s, taskContext: null, actionHistory: [] }));
    return { ok: true };
  },
};

/**
 * Starts a task (a goal, or a routine's replay) in the page the user is looking at, and shows it.
 * @param {"task.start" | "routine.run"} type @param {Record<string, any>} payload
 * @param {string} goal shown until the host's first event names it @param {number} [tab_id]
 */
async function startTask(type, payload, goal, tab_id) {
  await store.loaded;
  const live = store.state.taskContext;
  if (live && isLive(store.state)) {
    throw Object.assign(new Error(`A task is already ${live.status}: "${live.goal}". Stop it (or let it finish) before starting another.`), { code: "busy" });
  }
  const tabId = tab_id ?? (await pageTabId());
  /** @type {any} */
  let reply;
  handingOver = tabId;
  startingAt = Date.now();
  try {
    reply = await link.call(type, { ...payload, ...(tabId !== undefined ? { tab_id: tabId } : {}) });
  } catch (e) {
    handingOver = undefined;
    startingAt = undefined;
    // One task at a time: the host names the task in the way (e.g. one a crash paused, started
    // from a terminal). Shown here, so its Resume and Stop are at hand; the refusal says why.
    const err = /** @type {any} */ (e);
    if (err.code === "busy" && typeof err.detail?.task_id === "string") await adoptTask(err.detail.task_id).catch(() => {});
    throw e;
  }
  const { task_id } = reply.payload;
  await taskStart(task_id, startingAt);
  // (Tabs the host's first calls reached meanwhile stay the task's.)
  await store.update((s) => ({ ...s, taskContext: newTaskContext(task_id, goal), actionHistory: [],
    tabRegistry: s.tabRegistry.filter((t) => t.taskId === task_id) }));
  if (tabId !== undefined) await trackTab(tabId, task_id);
  handingOver = undefined;
  startingAt = undefined;
  return reply.payload;
}

/**
 * Makes a task the host knows (and the panel does not) the one shown, from its record.
 * @param {string} taskId
 */
async function adoptTask(taskId) {
  await store.loaded;
  if (store.state.taskContext?.taskId === taskId || isLive(store.state)) return;
  const { task, history } = (await link.call("task.get", { task_id: taskId })).payload;
  await store.update((s) => applyRecord({ ...s, taskContext: newTaskContext(taskId, task.goal), actionHistory: [],
    tabRegistry: s.tabRegistry.filter((t) => t.taskId === taskId) }, task, history, -1));
}

/**
 * The page the user is looking at: the active tab, or (when heybro's own page is active, as when
 * the panel is open in a tab) the most recently used web page.
 */
async function pageTabId() {
  const own = chrome.runtime.getURL("");
  const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (active?.id !== undefined && !(active.url || "").startsWith(own)) return active.id;
  const tabs = (await chrome.tabs.query({})).filter((t) => t.id !== undefined && /^(https?|file):/.test(t.url || ""));
  tabs.sort((a, b) => (b.lastAccessed || 0) - (a.lastAccessed || 0));
  return tabs[0]?.id;
}

/** The origin of the page the user is looking at, when it is a web page ("" otherwise). */
async function pageOrigin() {
  const tabId = await pageTabId();
  const tab = tabId === undefined ? null : await chrome.tabs.get(tabId).catch(() => null);
  const url = tab?.url || "";
  if (!/^https?:/i.test(url) || addressProblem(url)) return "";
  try { return new URL(url).origin; } catch { return ""; }
}

async function currentTask() {
  await store.loaded;
  const ctx = store.state.taskContext;
  if (!ctx) throw Object.assign(new Error("No task to control."), { code: "task_not_found" });
  return ctx;
}

/** @param {"task.pause" | "task.resume" | "task.stop"} type */
async function control(type) {
  const ctx = await currentTask();
  if (FINAL_STATUSES.has(ctx.status)) throw Object.assign(new Error(`The task is already ${ctx.status}.`), { code: "invalid_state" });
  const reply = await link.call(type, { task_id: ctx.taskId });
  await catchUp();
  return reply.payload;
}

/**
 * TASK_ADD_RELEVANT_TAB: remembers a tab a task works in.
 * @param {number} tabId @param {string | undefined} [taskId] the task it is a tab of (the one shown, by default)
 */
async function trackTab(tabId, taskId = store.state.taskContext?.taskId) {
  await sessionChecked;
  const known = store.state.tabRegistry.some((t) => t.tabId === tabId && t.taskId === taskId);
  const noted = (async () => {
    const tab = await chrome.tabs.get(tabId);
    const url = tab.url || "", last = store.state.tabRegistry.at(-1);
    // (Every call reaches its tab: the most recent one, unchanged, needs no write.)
    if (last && last.tabId === tabId && last.taskId === taskId && last.url === url && last.title === tab.title) return;
    await store.update((s) => addRelevantTab(s, { tabId, url, title: tab.title, addedAt: Date.now(), ...(taskId ? { taskId } : {}) }));
  })().catch(() => { /* the tab closed */ });
  // A tab new to the task is the task's once that is written (a call the host makes next may name
  // it, after a service worker restart too); a known tab's new address and title are only shown,
  // and are not waited for.
  if (!known) await noted;
}

// The seed's runtime-message API, for content scripts and other extension code.
chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (msg?.type === "GET_STATE") { store.loaded.then(() => sendResponse(store.state)); return true; }
  if (msg?.type === "TASK_ADD_RELEVANT_TAB") {
    const tabId = msg.tabId ?? sender.tab?.id;
    if (typeof tabId === "number") trackTab(tabId).then(() => sendResponse({ ok: true }));
    return typeof tabId === "number";
  }
  return false;
});

chrome.runtime.onConnect.addListener((port) => {
  if (!port.name.startsWith("ui:")) return;
  const reason = `${port.name}#${Math.random().toString(36).slice(2)}`;
  uiPorts.add(port);
  port.postMessage({ kind: "host_status", status: link.status });
  store.loaded.then(() => { try { port.postMessage({ kind: "state", state: store.state }); } catch { /* closed */ } });
  link.want(reason);
  port.onDisconnect.addListener(() => { uiPorts.delete(port); link.release(reason); });
  port.onMessage.addListener(async (/** @type {UiRequest} */ req) => {
    const fn = commands[req.cmd];
    try {
      if (!fn) throw Object.assign(new Error(`Unknown command ${req.cmd}`), { code: "unsupported" });
      port.postMessage({ kind: "reply", id: req.id, ok: true, result: await fn(req.args || {}) });
    } catch (e) {
      const err = /** @type {any} */ (e);
      try { port.postMessage({ kind: "reply", id: req.id, ok: false, error: { code: err.code || "internal", message: err.message || String(err), ...(err.detail ? { detail: err.detail } : {}) } }); } catch { /* page closed */ }
    }
  });
});

/** Text selected on the page when the shortcut was pressed, waiting for the panel to take it. */
let pendingDraft = "";

// Shortcuts. start-task opens the panel (inside the user gesture) with the goal box focused and
// prefilled with the page's selection; pause-resume toggles a live task; stop-task ends it.
chrome.commands.onCommand.addListener((command, tab) => {
  if (command === "start-task") {
    const windowId = tab?.windowId;
    if (windowId !== undefined) chrome.sidePanel.open({ windowId }).catch((e) => console.warn("heybro: side panel", e));
    if (tab?.id !== undefined) {
      chrome.scripting.executeScript({ target: { tabId: tab.id }, func: () => String(getSelection() || "").trim() })
        .then(([r]) => {
          const text = typeof r?.result === "string" ? r.result.slice(0, 2000) : "";
          if (!text) return;
          pendingDraft = text;
          broadcast({ kind: "draft", text });
        }, () => { /* pages the extension may not script (chrome://, the Web Store) */ });
    }
  } else if (command === "pause-resume") {
    store.loaded.then(() => {
      const ctx = store.state.taskContext;
      if (meaningOf(ctx?.status)?.resumable || ctx?.pending === "pausing") return control("task.resume");
      if (isLive(store.state)) return control("task.pause");
      return undefined;
    }).catch((e) => console.warn("heybro: pause-resume", e));
  } else if (command === "stop-task") {
    store.loaded.then(() => (isLive(store.state) ? control("task.stop") : undefined))
      .catch((e) => console.warn("heybro: stop-task", e));
  }
});

// Exposed for the end-to-end tests and benchmarks (service-worker evaluate), not for pages.
Object.assign(globalThis, { heybro: { link, commands, statusLog, store, runTool, runConfined } });
