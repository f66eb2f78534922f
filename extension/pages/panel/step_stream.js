// @ts-check
/**
 * A task's run as a stream grouped by subtask: each subtask of the plan with the actions taken for
 * it (the element's name, the outcome, the expectation met or not), the verdicts, the questions
 * asked and answers given. Built one history entry at a time (the host's record first, then live
 * events), so a live run costs one step per event; each group carries a version that changes when
 * its lines do, so a view redraws only the groups that changed.
 */
import { RunReader } from "./history_view.js";
import { RUNNING_STATUSES } from "../../shared/vocabulary.js";

/**
 * @typedef {import("./history_view.js").HistoryEntry} HistoryEntry
 * @typedef {import("./history_view.js").HistoryLine} HistoryLine
 * @typedef {{key: string, index: number, title: string, lines: HistoryLine[], version: number,
 *            actions: number, failed: number}} StepGroup
 */

/** The status badge says a running status; in the stream it would only repeat it between the steps. */
const BUSY = RUNNING_STATUSES;

/** Lines the group's header already says (the plan moving on), or the panel says elsewhere. */
const HIDDEN = (/** @type {HistoryLine} */ l) => l.kind === "thought" || (l.kind === "plan" && l.next === true)
  || (l.kind === "status" && BUSY.has(l.status || ""));

export class StepStream {
  /** @param {string} taskId */
  constructor(taskId) {
    this.taskId = taskId;
    this.reader = new RunReader();
    /** @type {StepGroup[]} in the order they were first worked on */
    this.groups = [];
    /** @type {Map<string, StepGroup>} */
    this.byKey = new Map();
    /** @type {Map<HistoryLine, StepGroup>} where each action's line lives (its result comes later) */
    this.home = new Map();
    this.lastSeq = -1;
    /** @type {StepGroup | null} */
    this.active = null;
  }

  /**
   * The group lines go to now: the plan's current subtask ("Planning" before a plan; once the
   * plan is done, its last subtask, where the closing verdict and the result belong).
   */
  target() {
    const r = this.reader;
    const index = r.plan.length && r.current >= r.plan.length ? r.plan.length - 1 : r.current;
    const title = r.plan[index];
    const key = title === undefined ? "plan" : `${index}:${title}`;
    let g = this.byKey.get(key);
    if (!g) {
      g = { key, index: title === undefined ? -1 : index, lines: [], version: 0, actions: 0, failed: 0, title: title ?? "Planning" };
      this.byKey.set(key, g);
      this.groups.push(g);
    }
    return g;
  }

  /**
   * Adds one entry; an entry already read (seq not newer) is ignored.
   * @param {HistoryEntry} h @returns {boolean} whether anything shown changed
   */
  add(h) {
    if (h.seq <= this.lastSeq) return false;
    this.lastSeq = h.seq;
    // A plan's lines belong where it was made; the subtask it starts gets what follows.
    const planned = h.kind === "plan" ? this.active || this.target() : null;
    const { added, changed } = this.reader.read(h);
    let touched = false;
    for (const line of changed) {
      const g = this.home.get(line);
      if (!g) continue;
      if (line.ok === false) g.failed += 1;
      g.version += 1;
      touched = true;
    }
    const shown = added.filter((l) => !HIDDEN(l));
    if (shown.length || planned) {
      const g = planned || this.target();
      this.active = planned ? this.target() : g;
      for (const l of shown) {
        g.lines.push(l);
        if (l.kind === "action") { g.actions += 1; this.home.set(l, g); }
      }
      g.version += 1;
      touched = true;
    }
    return touched;
  }

  /** @param {HistoryEntry[]} entries */
  addAll(entries) {
    let touched = false;
    for (const h of entries) touched = this.add(h) || touched;
    return touched;
  }

  /** Subtasks of the current plan not started yet (shown after the groups, as what comes next). */
  pending() {
    const r = this.reader;
    return r.plan.map((title, index) => ({ title, index }))
      .filter((p) => p.index > r.current && !this.byKey.has(`${p.index}:${p.title}`));
  }

  /** The model use summed up so far. */
  usageLine() { return this.reader.usageLine(); }
}
