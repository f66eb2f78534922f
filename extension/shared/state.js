// @ts-check
/**
 * The coordinator's UI-facing state, `heybro_state` in chrome.storage.local:
 * `{taskContext, actionHistory, tabRegistry}`. It is rebuilt from the host's events, saved on every
 * change and restored when the service worker wakes, so the panel and popup survive restarts.
 * It is the one reduction of the task's events: the panel draws its step stream from
 * `actionHistory` (the run's entries as recorded), never from events of its own, so what it shows
 * is caught up whenever the coordinator is. The full record stays in the host's store; this copy
 * is bounded.
 */
import { EVENT, FINAL_STATUSES, PAUSE_MEANING, RUNNING_STATUSES, STATUS, STATUS_MEANING } from "./vocabulary.js";

export const STATE_KEY = "heybro_state";
export const MAX_ENTRIES = 400;
export const MAX_CHAT = 200;

/**
 * @typedef {{text: string, state: "pending" | "current" | "done"}} Subtask
 * @typedef {{who: "user" | "agent" | "error", text: string, at: number, n?: number}} ChatEntry
 * @typedef {{decision: string, reason: string, confidence: number, threshold: number, accepted: boolean, by?: string, page?: number, checks?: number, held_back?: string[]}} VerdictView
 * @typedef {{id: string, text: string, kind: "text" | "choice" | "secret" | "confirm", choices: string[], page?: string}} QuestionView
 *   what heybro asks while the task waits for the person (answered by the task's next message)
 * @typedef {{
 *   taskId: string, goal: string, status: string, reason: string | null, pause?: string | null,
 *   subtasks: Subtask[], currentSubtask: number,
 *   currentAction: {tool: string, parameters: Record<string, any>, reason?: string, role?: string, target?: string | null} | null,
 *   lastVerdict: VerdictView | null, error: string | null, result: string | null,
 *   usage: {promptTokens: number, completionTokens: number, calls: number, costUsd: number},
 *   chat: ChatEntry[], pending?: "pausing" | "stopping" | null,
 *   question?: QuestionView | null, answer?: string | null,
 *   lastSeq: number, startedAt: number, updatedAt: number,
 * }} TaskContext
 * @typedef {{seq: number, at: number, kind: string, data: Record<string, any>}} ActionEntry
 *   one entry of the run as the host recorded it (its event), less what no view reads
 * @typedef {{tabId: number, url: string, title?: string, addedAt: number, taskId?: string}} TabEntry  taskId: the task it is a tab of
 * @typedef {{taskContext: TaskContext | null, actionHistory: ActionEntry[], tabRegistry: TabEntry[]}} HeybroState
 */

export { FINAL_STATUSES, RUNNING_STATUSES };

/**
 * What a status means (the vocabulary's, generated from shared_schema/status.py); undefined for a
 * word that is no status (a pending "pausing", a newer host's word).
 * @param {string | null | undefined} status
 * @returns {import("./vocabulary.js").StatusMeaning | undefined}
 */
export function meaningOf(status) {
  return status && Object.hasOwn(STATUS_MEANING, status) ? STATUS_MEANING[/** @type {import("./vocabulary.js").TaskStatus} */ (status)] : undefined;
}

/**
 * What a pause means, by why it was made; undefined when the status is no pause or says no why.
 * @param {{status: string, pause?: string | null}} t
 * @returns {import("./vocabulary.js").PauseMeaning | undefined}
 */
export function pauseMeaningOf(t) {
  const why = meaningOf(t.status)?.resumable ? t.pause : null;
  return why && Object.hasOwn(PAUSE_MEANING, why) ? PAUSE_MEANING[/** @type {import("./vocabulary.js").Pause} */ (why)] : undefined;
}

/**
 * Whether the task waits for the person: its status says so (a question), or its pause does (a
 * fault, an action held for their word), never the words of its reason.
 * @param {{status: string, pause?: string | null}} t
 */
export function awaitsUser(t) {
  return !!(pauseMeaningOf(t)?.awaitsUser ?? meaningOf(t.status)?.awaitsUser);
}

/** @returns {HeybroState} */
export function emptyState() {
  return { taskContext: null, actionHistory: [], tabRegistry: [] };
}

/**
 * @param {string} taskId @param {string} goal @param {number} [at]
 * @returns {TaskContext}
 */
export function newTaskContext(taskId, goal, at = Date.now()) {
  return {
    taskId, goal, status: STATUS.planning, reason: null, subtasks: [], currentSubtask: 0,
    currentAction: null, lastVerdict: null, error: null, result: null,
    usage: { promptTokens: 0, completionTokens: 0, calls: 0, costUsd: 0 },
    chat: [{ who: "user", text: goal, at, n: 0 }], pending: null, question: null, answer: null,
    lastSeq: -1, startedAt: at, updatedAt: at,
  };
}

/** A plan as the panel shows it: each subtask done, current or still to come. @param {string[]} texts @param {number} current @returns {Subtask[]} */
export function planView(texts, current) {
  return texts.map((text, i) => ({ text, state: /** @type {Subtask["state"]} */ (i < current ? "done" : i === current ? "current" : "pending") }));
}

/**
 * The number of the next chat entry: entries are numbered as they come, so a view can tell which
 * ones it has shown even after the oldest were trimmed. @param {ChatEntry[]} chat
 */
export function nextChatNumber(chat) {
  const last = chat[chat.length - 1];
  return last ? (last.n ?? chat.length - 1) + 1 : 0;
}

/** @template T @param {T[]} list @param {number} max */
function bounded(list, max) { return list.length > max ? list.slice(list.length - max) : list; }

/** Entries no view of the run reads from the state (a model call's thoughts, its token count). */
const UNSHOWN = new Set([EVENT.iteration, EVENT.usage]);
/** What a view reads of a result (where the page went, a refusal, why an element was found again). */
const RESULT_KEYS = ["url", "candidates", "found_by", "found_why"];

/**
 * The entry an event leaves in the run's history, or null: a result keeps only what a view reads
 * (a page's text or a list would fill the stored state).
 * @param {{seq: number, kind: string, at: number, data: Record<string, any>}} ev @returns {ActionEntry | null}
 */
function entryOf(ev) {
  if (UNSHOWN.has(ev.kind)) return null;
  const d = ev.data || {};
  if (ev.kind !== EVENT.tool_result || !d.result || typeof d.result !== "object") return { seq: ev.seq, at: ev.at, kind: ev.kind, data: d };
  const result = Object.fromEntries(RESULT_KEYS.filter((k) => k in d.result).map((k) => [k, d.result[k]]));
  return { seq: ev.seq, at: ev.at, kind: ev.kind, data: { ...d, result } };
}

/**
 * The run's newest entries; when the oldest go, its start and its latest plan among them stay, so
 * a view built from what is left still knows the goal and which subtask each action served.
 * @param {ActionEntry[]} list @returns {ActionEntry[]}
 */
function boundedRun(list) {
  if (list.length <= MAX_ENTRIES) return list;
  const cut = list.length - MAX_ENTRIES + 2;
  const gone = list.slice(0, cut);
  const plan = gone.findLast((h) => h.kind === EVENT.plan);
  return [...(gone[0].kind === EVENT.status ? [gone[0]] : []), ...(plan ? [plan] : []), ...list.slice(cut)];
}

/**
 * Applies one host `event` payload to the state (pure: returns a new state).
 * Events of another task, or already applied (seq not newer), leave the state unchanged.
 * @param {HeybroState} state
 * @param {{task_id: string, seq: number, kind: string, at: number, data: Record<string, any>}} ev
 * @returns {HeybroState}
 */
export function applyEvent(state, ev) {
  const ctx0 = state.taskContext;
  if (!ctx0 || ctx0.taskId !== ev.task_id || ev.seq <= ctx0.lastSeq) return state;
  /** @type {TaskContext} */
  const ctx = { ...ctx0, lastSeq: ev.seq, updatedAt: Math.round(ev.at * 1000) };
  const entry = entryOf(ev);
  const actions = entry ? boundedRun([...state.actionHistory, entry]) : state.actionHistory;
  const d = ev.data || {};
  const say = (/** @type {ChatEntry["who"]} */ who, /** @type {string} */ text) => {
    ctx.chat = bounded([...ctx.chat, { who, text, at: ctx.updatedAt, n: nextChatNumber(ctx.chat) }], MAX_CHAT);
  };
  switch (ev.kind) {
    case EVENT.status:
      ctx.status = d.status;
      // A pause or stop asked for is done once the task is paused or has ended.
      if (FINAL_STATUSES.has(d.status) || (d.status === STATUS.paused && ctx.pending === "pausing")) ctx.pending = null;
      ctx.reason = d.reason ?? null;
      ctx.pause = d.pause ?? null;
      if (d.status !== STATUS.waiting) ctx.question = null;
      if (d.result) ctx.result = d.result;
      if (d.answer) ctx.answer = d.answer;
      if (FINAL_STATUSES.has(d.status)) ctx.currentAction = null;
      if (d.status === STATUS.completed && d.answer) say("agent", `Answer: ${d.answer}`);
      else if (d.status === STATUS.completed) say("agent", `Done. ${d.result || d.reason || ""}`.trim());
      else if (d.status === STATUS.failed) { ctx.error = d.reason || "The task failed."; say("error", `Failed: ${ctx.error}`); }
      else if (d.status === STATUS.stopped) say("agent", "Stopped.");
      else if (d.status === STATUS.paused) say("agent", d.reason ? `Paused (${d.reason}).` : "Paused.");
      break;
    case EVENT.plan:
      ctx.currentSubtask = d.current ?? 0;
      ctx.subtasks = planView(d.subtasks || [], ctx.currentSubtask);
      break;
    case EVENT.tool_call:
      ctx.currentAction = { tool: d.tool, parameters: d.parameters || {}, reason: d.reason, role: d.role, target: d.target ?? null };
      break;
    case EVENT.tool_result: {
      if (!d.success && d.error) ctx.error = d.error;
      else ctx.error = null;
      break;
    }
    case EVENT.verdict:
      ctx.lastVerdict = { decision: d.decision, reason: d.reason, confidence: d.confidence, threshold: d.threshold, accepted: d.accepted, by: d.by,
        page: d.dom_confidence ?? 1, checks: d.checks || 0, held_back: d.held_back || [] };
      break;
    case EVENT.question:
      ctx.question = { id: d.id, text: d.text, kind: d.kind || "text", choices: d.choices || [], ...(d.page ? { page: d.page } : {}) };
      say("agent", `heybro asks: ${d.text}`);
      break;
    case EVENT.answer:
      ctx.answer = d.text;
      say("agent", `Answer: ${d.text}`);
      break;
    case EVENT.experience:
      say("agent", `Learned about ${d.site}: ${d.text}`);
      break;
    case EVENT.usage:
      ctx.usage = {
        promptTokens: ctx.usage.promptTokens + (d.prompt_tokens || 0),
        completionTokens: ctx.usage.completionTokens + (d.completion_tokens || 0),
        calls: ctx.usage.calls + 1,
        costUsd: ctx.usage.costUsd + (d.cost_usd || 0),
      };
      break;
    case EVENT.control:
      if (d.what === "pausing" || d.what === "stopping") ctx.pending = d.what;
      else if (d.what === "resume" && ctx.pending === "pausing") ctx.pending = null;
      if (d.text) say("agent", d.text);
      break;
    case EVENT.message:
      if (d.text) say(d.who === "user" ? "user" : "agent", d.text);
      break;
    case EVENT.error:
      ctx.error = d.text || d.message || "Something went wrong.";
      say("error", /** @type {string} */ (ctx.error));
      break;
    default:
      break;
  }
  return { ...state, taskContext: ctx, actionHistory: actions };
}

/**
 * Brings the state up to date with the host's record of its task (`task.get` answered with the
 * events after `sentSeq`): the missed events are applied, then the record's status where no newer
 * event has come in live since the record was read. (A stop answered while the task still ran
 * reads "executing"; the "stopped" event that follows must not be overwritten by that stale word.
 * The host reads the events before the row, so the row is never older than the events it sent.)
 * @param {HeybroState} state
 * @param {{task_id: string, status: string, reason?: string | null, pause?: string | null}} task
 * @param {{seq: number, kind: string, at: number, data: Record<string, any>}[]} history
 * @param {number} sentSeq the context's lastSeq when the record was asked for
 * @returns {HeybroState}
 */
export function applyRecord(state, task, history, sentSeq) {
  const upTo = history.reduce((m, h) => Math.max(m, h.seq), sentSeq);
  const s = history.reduce((acc, h) => applyEvent(acc, { task_id: task.task_id, ...h }), state);
  const ctx = s.taskContext;
  if (!ctx || ctx.taskId !== task.task_id || ctx.lastSeq > upTo || ctx.status === task.status) return s;
  return { ...s, taskContext: { ...ctx, status: task.status, reason: task.reason ?? null, pause: task.pause ?? null } };
}

/**
 * Adds a tab the task touched (TASK_ADD_RELEVANT_TAB), most recent last, no duplicates.
 * @param {HeybroState} state @param {TabEntry} tab @returns {HeybroState}
 */
export function addRelevantTab(state, tab) {
  const rest = state.tabRegistry.filter((t) => t.tabId !== tab.tabId);
  return { ...state, tabRegistry: bounded([...rest, tab], 20) };
}

/** A task is running when its context exists and its status is not final or paused. @param {HeybroState} s */
export function isRunning(s) {
  return !!s.taskContext && RUNNING_STATUSES.has(s.taskContext.status);
}

/** A task is live (running or paused): a new one may not start. @param {HeybroState} s */
export function isLive(s) {
  return !!s.taskContext && !FINAL_STATUSES.has(s.taskContext.status);
}

/** How long a lazy change may wait to be written together with the next ones. */
export const LAZY_WRITE_MS = 100;

/**
 * Holds the state, persists every change and restores on wake. One write at a time: changes that
 * arrive while a write is in flight are saved together by the next one (newest wins), and a lazy
 * change waits up to LAZY_WRITE_MS for others, so a burst of events costs one storage write instead
 * of one each, and no change is left unsaved.
 */
export class StateStore {
  /** @param {{get: (k: string) => Promise<Record<string, any>>, set: (v: Record<string, any>) => Promise<void>}} [storage] */
  constructor(storage) {
    this.storage = storage || chrome.storage.local;
    /** @type {HeybroState} */
    this.state = emptyState();
    /** @type {Promise<void> | null} the write loop, while one runs */
    this.writing = null;
    /** @type {ReturnType<typeof setTimeout> | null} a lazy write waiting */
    this.later = null;
    this.dirty = false;
    /** @type {Set<(s: HeybroState) => void>} */
    this.listeners = new Set();
    this.loaded = this.load();
  }

  async load() {
    const got = await this.storage.get(STATE_KEY);
    const saved = got?.[STATE_KEY];
    if (saved && typeof saved === "object") this.state = { ...emptyState(), ...saved };
  }

  /**
   * Changes the state: the listeners hear it at once; it is written before this resolves, or —
   * `lazy`, for what the host's record also holds (its events: a change lost with a stopped
   * service worker comes back with the catch-up) — with whatever else changes within
   * LAZY_WRITE_MS (a step's events come in a burst, and each write serializes the whole state).
   * @param {(s: HeybroState) => HeybroState} fn @param {{lazy?: boolean}} [opts]
   */
  async update(fn, { lazy = false } = {}) {
    await this.loaded;
    const next = fn(this.state);
    if (next === this.state) return this.state;
    this.state = next;
    this.dirty = true;
    for (const l of this.listeners) l(next);
    if (lazy) {
      if (!this.writing && this.later === null) this.later = setTimeout(() => this.write(), LAZY_WRITE_MS);
      return next;
    }
    await this.write(); // resolves once a write that includes this change is done
    return next;
  }

  /** Writes what changed now (a lazy write waiting is done with it). */
  write() {
    clearTimeout(this.later ?? undefined);
    this.later = null;
    if (!this.writing) this.writing = this.flush();
    return this.writing;
  }

  async flush() {
    try {
      while (this.dirty) {
        this.dirty = false;
        try { await this.storage.set({ [STATE_KEY]: this.state }); } catch (e) { console.warn("heybro: state not saved", e); }
      }
    } finally {
      this.writing = null;
    }
  }

  /** @param {(s: HeybroState) => void} fn */
  subscribe(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }
}
