// @ts-check
/**
 * Draws a StepStream: one collapsible entry per subtask (the current one open), its lines inside.
 * The DOM stays bounded however long the run: a closed subtask holds no lines (they are drawn
 * when it is opened), an open one draws its newest MAX_LINES with a button for the earlier ones,
 * and only groups whose version changed are redrawn.
 */
import { STATUS } from "../../shared/vocabulary.js";
import { meaningOf } from "../../shared/state.js";
import { verdictNumbers } from "./task_view.js";

/**
 * @typedef {import("./step_stream.js").StepGroup} StepGroup
 * @typedef {import("./step_stream.js").StepStream} StepStream
 * @typedef {import("./history_view.js").HistoryLine} HistoryLine
 * @typedef {{text: string, state: "pending" | "current" | "done"}} PlanItem
 * @typedef {"done" | "current" | "pending" | "failed" | "stopped"} GroupState
 * @typedef {{li: HTMLLIElement, details: HTMLDetailsElement, drawn: number, state: string, limit: number, group: StepGroup}} GroupNode
 */

export const MAX_LINES = 40;
const STATE_WORDS = { done: "done", current: "now", pending: "next", failed: "where it failed", stopped: "where it stopped" };
const MARK = { done: "✓", current: "●", pending: "○", failed: "✗", stopped: "■" };

/**
 * The groups to show, in order: those worked on (in the order they were), then the plan's
 * subtasks not started yet, each with its state.
 * @param {StepStream | null} stream @param {PlanItem[]} plan @param {string} status the task's status
 * @returns {{group: StepGroup, state: GroupState}[]}
 */
export function shownGroups(stream, plan, status) {
  const groups = stream?.groups || [];
  const planState = new Map(plan.map((p, i) => [`${i}:${p.text}`, p.state]));
  const final = !!meaningOf(status)?.final;
  /** @type {GroupState} where an ended run's current subtask stands */
  const ended = status === STATUS.completed ? "done" : status === STATUS.failed ? "failed" : "stopped";
  /** @type {{group: StepGroup, state: GroupState}[]} */
  const out = groups.filter((g) => g.lines.length || planState.has(g.key)).map((g) => {
    /** @type {GroupState} */
    let state = planState.get(g.key) || (g === stream?.active && !final ? "current" : "done");
    if (state === "current" && final) state = ended;
    return { group: g, state };
  });
  const have = new Set(groups.map((g) => g.key));
  plan.forEach((p, index) => {
    const key = `${index}:${p.text}`;
    if (have.has(key)) return;
    /** @type {GroupState} */
    let state = p.state;
    if (state === "current" && final) state = ended;
    out.push({ group: { key, index, title: p.text, lines: [], version: 0, actions: 0, failed: 0 }, state });
  });
  return out;
}

/** @param {StepGroup} g */
function countWords(g) {
  if (!g.actions) return "";
  const n = `${g.actions} action${g.actions === 1 ? "" : "s"}`;
  return g.failed ? `${n} · ${g.failed} failed` : n;
}

/** @param {HistoryLine} l */
function lineElement(l) {
  const li = document.createElement("li");
  li.dataset.kind = l.kind;
  if (l.ok === true || l.ok === false) li.dataset.ok = String(l.ok);
  if (l.kind === "action" && l.ok === null) li.dataset.ok = "running";
  // A verdict's chip says how sure it was; the mark is for what was done.
  const mark = l.kind === "verdict" ? "" : l.ok === false ? "✗ " : l.kind === "action" && l.ok ? "✓ " : l.kind === "action" ? "… " : "";
  const text = document.createElement("span");
  text.textContent = mark + l.text;
  li.append(text);
  if (l.expect?.met) {
    const chip = document.createElement("span");
    chip.className = "chip ok";
    chip.textContent = "as expected";
    chip.title = l.expect.detail;
    li.append(" ", chip);
  }
  if (l.verdict) {
    const chip = document.createElement("span");
    chip.className = `chip ${l.verdict.accepted ? "ok" : "warn"}`;
    chip.textContent = `${Math.round(l.verdict.confidence * 100)}%`;
    chip.title = verdictNumbers(l.verdict);
    li.prepend(chip, " ");
  }
  const when = new Date(l.at * 1000);
  li.title = Number.isFinite(when.getTime()) ? when.toLocaleTimeString() : "";
  return li;
}

export class StreamView {
  /** @param {HTMLElement} list the <ol> that holds one <li> per subtask */
  constructor(list) {
    this.list = list;
    /** @type {Map<string, GroupNode>} */
    this.nodes = new Map();
    /** @type {Map<string, boolean>} groups the person opened or closed themselves */
    this.chosen = new Map();
    /** @type {StepStream | null} */
    this.stream = null;
    this.openAll = false;
    /** The group the run is in (or ended in): open unless the person closed it. */
    this.activeKey = "";
    /** @type {WeakMap<HistoryLine, {el: HTMLElement, stamp: string}>} each line's element, while it reads the same */
    this.drawnLines = new WeakMap();
  }

  /** Starts over (another task). */
  reset() {
    this.nodes.clear();
    this.chosen.clear();
    this.list.replaceChildren();
  }

  /**
   * @param {StepStream | null} stream @param {PlanItem[]} plan @param {string} status
   * @param {{openAll?: boolean}} [opts] openAll: every subtask open (a short past run)
   */
  render(stream, plan, status, opts = {}) {
    if (stream !== this.stream) { this.reset(); this.stream = stream; }
    this.openAll = !!opts.openAll;
    this.activeKey = stream?.active?.key ?? "";
    const follow = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    const shown = shownGroups(stream, plan, status);
    const keep = new Set(shown.map((s) => s.group.key));
    for (const [key, node] of this.nodes) if (!keep.has(key)) { node.li.remove(); this.nodes.delete(key); }
    let before = /** @type {ChildNode | null} */ (this.list.firstChild);
    for (const { group, state } of shown) {
      const node = this.node(group);
      if (node.li !== before) this.list.insertBefore(node.li, before);
      before = node.li.nextSibling;
      this.update(node, group, state);
    }
    this.list.hidden = shown.length === 0;
    if (follow) this.list.scrollTop = this.list.scrollHeight;
  }

  /** @param {StepGroup} g */
  node(g) {
    let node = this.nodes.get(g.key);
    if (node) return node;
    const li = document.createElement("li");
    li.className = "subtask";
    li.dataset.index = String(g.index);
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.innerHTML = '<span class="mark" aria-hidden="true"></span><span class="title"></span><span class="count"></span>';
    details.append(summary, document.createElement("ol"));
    li.append(details);
    /** @type {GroupNode} */
    const n = { li, details, drawn: -1, state: "", limit: MAX_LINES, group: g };
    details.addEventListener("toggle", () => {
      // A person's choice sticks; opening a group drawn while closed brings its lines up to date.
      if (details.open !== this.wantOpen(g.key, n.state)) this.chosen.set(g.key, details.open);
      if (details.open && n.drawn !== n.group.version) this.drawLines(n);
      else if (!details.open) this.clearLines(n);
    });
    node = n;
    this.nodes.set(g.key, node);
    return node;
  }

  /** @param {string} key @param {string} state */
  wantOpen(key, state) {
    const chosen = this.chosen.get(key);
    return chosen ?? (this.openAll || state === "current" || state === "failed" || key === this.activeKey);
  }

  /** @param {GroupNode} node @param {StepGroup} g @param {GroupState} state */
  update(node, g, state) {
    node.group = g;
    const summary = /** @type {HTMLElement} */ (node.details.firstElementChild);
    if (node.state !== state) {
      node.state = state;
      node.li.dataset.state = state;
      /** @type {HTMLElement} */ (summary.querySelector(".mark")).textContent = MARK[state];
      if (state === "current") node.li.setAttribute("aria-current", "step"); else node.li.removeAttribute("aria-current");
      summary.setAttribute("aria-label", `${g.title} (${STATE_WORDS[state]})`);
    }
    /** @type {HTMLElement} */ (summary.querySelector(".title")).textContent = g.title;
    /** @type {HTMLElement} */ (summary.querySelector(".count")).textContent = countWords(g);
    const open = this.wantOpen(g.key, state);
    if (node.details.open !== open) node.details.open = open;
    node.li.dataset.empty = String(g.lines.length === 0);
    if (open && node.drawn !== g.version) this.drawLines(node);
    else if (!open && node.drawn !== -1) this.clearLines(node);
  }

  /**
   * Draws the group's newest lines, touching only what changed: a line's element is kept while
   * its text and outcome stay the same, so a new step costs one element, not the whole list.
   * @param {GroupNode} node
   */
  drawLines(node) {
    const g = node.group;
    const ol = /** @type {HTMLElement} */ (node.details.lastElementChild);
    const hidden = Math.max(0, g.lines.length - node.limit);
    /** @type {Element[]} */
    const want = g.lines.slice(hidden).map((l) => this.lineNode(l));
    if (hidden) want.unshift(this.earlierButton(node, hidden));
    const keep = new Set(want);
    for (const el of [...ol.children]) if (!keep.has(el)) el.remove();
    want.forEach((el, i) => { if (ol.children[i] !== el) ol.insertBefore(el, ol.children[i] || null); });
    node.drawn = g.version;
  }

  /** Empties a closed group: its lines are drawn again when it is opened. @param {GroupNode} node */
  clearLines(node) {
    /** @type {HTMLElement} */ (node.details.lastElementChild).replaceChildren();
    node.drawn = -1;
  }

  /** @param {HistoryLine} l */
  lineNode(l) {
    const stamp = `${l.ok}|${l.text}|${l.expect?.met}`;
    const had = this.drawnLines.get(l);
    if (had && had.stamp === stamp) return had.el;
    const el = lineElement(l);
    this.drawnLines.set(l, { el, stamp });
    return el;
  }

  /** @param {GroupNode} node @param {number} hidden */
  earlierButton(node, hidden) {
    const li = document.createElement("li");
    li.className = "earlier";
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Show ${Math.min(hidden, MAX_LINES)} earlier step${hidden === 1 ? "" : "s"} (${hidden} hidden)`;
    b.addEventListener("click", () => { node.limit += MAX_LINES; this.drawLines(node); });
    li.append(b);
    return li;
  }
}
