// @ts-check
/**
 * A past task's whole run, from the host's append-only history, as lines a person reads: each
 * action once with what it did, the plan as it changed, verdicts in words, what the user said,
 * and the model use summed up instead of one raw line per call.
 */
import { DECISION_WORDS, STATUS_WORDS, describeAction, verdictNumbers } from "./task_view.js";
import { EVENT, OWN_MOVES, STATUS } from "../../shared/vocabulary.js";
import { meaningOf, pauseMeaningOf } from "../../shared/state.js";

/**
 * @typedef {{seq: number, kind: string, at: number, data: Record<string, any>}} HistoryEntry
 * @typedef {{kind: "status" | "plan" | "action" | "verdict" | "message" | "user" | "error" | "thought" | "usage" | "question",
 *            text: string, at: number, ok?: boolean | null, seq?: number, status?: string, next?: boolean,
 *            expect?: {met: boolean, detail: string}, verdict?: {confidence: number, threshold: number, accepted: boolean, page?: number, checks?: number, held_back?: string[]}}} HistoryLine
 */


/** @param {unknown} v @param {number} [max] */
function short(v, max = 120) {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * What an action's result says worth reading: what its definition says of it (a value kept, read
 * or chosen: `said`, from the host), the page it led to, a refusal to guess.
 * @param {{said?: string | null, result?: any}} d the tool_result's data @param {string | undefined} urlBefore
 */
export function resultWords(d, urlBefore) {
  const r = d.result;
  /** @type {string[]} */
  const parts = d.said ? [d.said] : [];
  if (!r || typeof r !== "object") return parts.join("; ");
  if (typeof r.url === "string" && r.url && r.url !== urlBefore) parts.push(`now at ${short(r.url, 90)}`);
  if (Array.isArray(r.candidates)) parts.push(`${r.candidates.length} close matches, refused to guess`);
  return parts.join("; ");
}

/** @param {Record<string, any>} d */
function usageTotals(d, /** @type {{calls: number, tokens: number, cost: number, last: number}} */ t) {
  t.calls += 1;
  t.tokens += (d.prompt_tokens || 0) + (d.completion_tokens || 0);
  t.cost += d.cost_usd || 0;
}

/**
 * Reads a run's history one entry at a time (so a live run costs one step per event): each entry
 * adds lines, and an action's result (or the run stopping under it) completes the line its call
 * added (`changed`).
 */
export class RunReader {
  constructor() {
    /** @type {HistoryLine[]} */
    this.lines = [];
    /** @type {{tool: string, line: HistoryLine}[]} actions waiting for their result */
    this.open = [];
    this.lastStatus = "";
    /** @type {string[]} */
    this.plan = [];
    this.current = -1;
    /** @type {string | undefined} */
    this.url = undefined;
    this.usage = { calls: 0, tokens: 0, cost: 0, last: 0 };
  }

  /**
   * @param {HistoryEntry} h
   * @returns {{added: HistoryLine[], changed: HistoryLine[]}}
   */
  read(h) {
    const d = h.data || {};
    const at = h.at;
    /** @type {HistoryLine[]} */
    const added = [];
    /** @type {HistoryLine[]} */
    const changed = [];
    const add = (/** @type {HistoryLine} */ line) => { line.seq = h.seq; added.push(line); this.lines.push(line); };
    switch (h.kind) {
      case EVENT.status: {
        // Actions still waiting for their result when the run stops (a crash, a stop) were cut
        // off: they may or may not have happened, and no result will come.
        const meaning = meaningOf(d.status);
        const halted = !!meaning && (meaning.final || meaning.resumable);  // the run stopped here
        if (halted) {
          for (const { line } of this.open.splice(0)) {
            line.ok = false;
            line.text += " — cut off: it may or may not have happened";
            changed.push(line);
          }
        }
        if (d.goal && this.lines.length === 0) { add({ kind: "status", at, text: `Started: ${d.goal}` }); this.lastStatus = d.status; this.url = d.url || undefined; break; }
        if (d.status === this.lastStatus && !d.reason) break; // the same status said again
        const wasPaused = !!meaningOf(this.lastStatus)?.resumable;
        this.lastStatus = d.status;
        // Resumed by the person, or a task restored after a crash going on.
        if (d.reason === "resumed" || (wasPaused && !halted)) {
          add({ kind: "status", at, text: "Resumed" });
          break;
        }
        const word = STATUS_WORDS[d.status] || d.status;
        if (d.status === STATUS.waiting) break;  // the question event says it
        add({ kind: pauseMeaningOf({ status: d.status, pause: d.pause })?.asks ? "question" : "status", at, status: d.status, text: d.reason && d.reason !== d.result ? `${word} — ${d.reason}` : word });
        if (d.answer) add({ kind: "message", at, text: `Answer: ${d.answer}` });
        if (d.result) add({ kind: "message", at, text: `Result: ${d.result}` });
        break;
      }
      case EVENT.plan: {
        const subtasks = /** @type {string[]} */ (d.subtasks || []);
        const changedPlan = subtasks.join("\n") !== this.plan.join("\n");
        if (changedPlan) {
          add({ kind: "plan", at, text: `Plan: ${subtasks.map((s, i) => `${i + 1}. ${s}`).join("  ")}` });
        } else if ((d.current ?? 0) !== this.current) {
          const now = subtasks[d.current ?? 0];
          add({ kind: "plan", at, next: true, text: now ? `Next: ${now}` : "All steps of the plan done." });
        }
        this.plan = subtasks;
        this.current = d.current ?? 0;
        break;
      }
      case EVENT.tool_call: {
        // The roles' own moves are told by the plan and the verdict; a report is its own line.
        if (OWN_MOVES.has(d.kind) && typeof d.report !== "string") break;
        const line = /** @type {HistoryLine} */ ({ kind: "action", at, ok: null,
          text: typeof d.report === "string" ? `Reported done: ${d.report}`
            : describeAction({ tool: d.tool, parameters: d.parameters || {}, role: d.role, target: d.target }) });
        add(line);
        this.open.push({ tool: d.tool, line });
        break;
      }
      case EVENT.tool_result: {
        const i = this.open.map((o) => o.tool).lastIndexOf(d.tool);
        if (i < 0) break;
        const [{ line }] = this.open.splice(i, 1);
        line.ok = !!d.success;
        if (!d.success) line.text += ` — failed: ${d.error || d.error_code || "unknown error"}`;
        else {
          const words = resultWords(d, this.url);
          if (words) line.text += ` — ${words}`;
          if (d.no_effect) line.text += " — the page showed no change after it";
        }
        if (d.decided) line.text += ` — ${d.decided}`; // the user's word on it (asked first, answered)
        // Its element was gone and heybro found it again by its description: why that one.
        if (d.success && d.result && typeof d.result.found_why === "string" && d.result.found_by !== "id") {
          line.text += ` — found again: ${d.result.found_why}`;
        }
        if (d.expectation && typeof d.expectation.met === "boolean") {
          line.expect = { met: d.expectation.met, detail: String(d.expectation.detail || "") };
          if (!d.expectation.met) line.text += ` (expected: ${d.expectation.detail})`;
        }
        if (d.result && typeof d.result.url === "string" && d.result.url) this.url = d.result.url;
        changed.push(line);
        break;
      }
      case EVENT.verdict:
        add({ kind: "verdict", at, ok: !!d.accepted,
          verdict: { confidence: d.confidence || 0, threshold: d.threshold || 0, accepted: !!d.accepted, page: d.dom_confidence ?? 1, checks: d.checks || 0, held_back: d.held_back || [] },
          text: d.by === "host" ? `Checked by heybro: done — ${d.reason}`
            : `Verifier: ${DECISION_WORDS[d.decision] || d.decision} (${verdictNumbers({ confidence: d.confidence || 0, threshold: d.threshold || 0, accepted: !!d.accepted, page: d.dom_confidence ?? 1, checks: d.checks || 0, held_back: d.held_back || [], overruled: d.overruled || null })}) — ${d.reason}` });
        break;
      case EVENT.question:
        add({ kind: "question", at, text: `heybro asks: ${d.text}` + (d.choices?.length ? ` (${d.choices.join(" / ")})` : "") });
        break;
      case EVENT.answer:
        add({ kind: "message", at, text: `${d.role === "analyst" ? "Analyst's answer" : "Answer"}: ${d.text}` });
        break;
      case EVENT.experience:
        add({ kind: "message", at, text: `Learned about ${d.site}: ${d.text}` });
        break;
      case EVENT.iteration:
        if (d.reasoning && d.reasoning !== "scripted") add({ kind: "thought", at, text: `${d.role} thought: ${short(d.reasoning, 200)}` });
        break;
      case EVENT.usage:
        usageTotals(d, this.usage);
        this.usage.last = at;
        break;
      case EVENT.control:
        if (d.text) add({ kind: "message", at, text: d.text });
        break;
      case EVENT.message:
        if (!d.text) break;
        add(d.who === "user" ? { kind: "user", at, text: `You: ${d.text}` } : { kind: "message", at, text: d.text });
        break;
      case EVENT.error:
        add({ kind: "error", at, text: `Error: ${d.text || d.message || "something went wrong"}` });
        break;
      default:
        break;
    }
    return { added, changed };
  }

  /** The model use summed up, or null before the first call. @returns {HistoryLine | null} */
  usageLine() {
    const u = this.usage;
    if (!u.calls) return null;
    return { kind: "usage", at: u.last,
      text: `Model use: ${u.calls} call${u.calls === 1 ? "" : "s"}, ${u.tokens.toLocaleString("en-US")} tokens` +
        (u.cost > 0 ? `, about $${u.cost.toFixed(4)}` : "") };
  }
}

/**
 * @param {HistoryEntry[]} history oldest first
 * @returns {HistoryLine[]}
 */
export function historyLines(history) {
  const reader = new RunReader();
  for (const h of history) reader.read(h);
  const usage = reader.usageLine();
  return usage ? [...reader.lines, usage] : reader.lines;
}
