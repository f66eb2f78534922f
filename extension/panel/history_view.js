// @ts-check
/**
 * A past task's whole run, from the host's append-only history, as lines a person reads: each
 * action once with what it did, the plan as it changed, verdicts in words, what the user said,
 * and the model use summed up instead of one raw line per call.
 */
import { STATUS_WORDS, describeAction } from "./task_view.js";

/**
 * @typedef {{seq: number, kind: string, at: number, data: Record<string, any>}} HistoryEntry
 * @typedef {{kind: "status" | "plan" | "action" | "verdict" | "message" | "user" | "error" | "thought" | "usage",
 *            text: string, at: number, ok?: boolean | null}} HistoryLine
 */

/** Tools whose effect another entry already tells (the plan, the verdict). */
const SAID_ELSEWHERE = new Set(["set_subtasks", "add_subtask", "insert_subtask", "delete_subtask",
  "update_subtask", "start_work", "mark_complete", "continue_work", "request_reschedule"]);

const VERDICT_WORDS = /** @type {Record<string, string>} */ ({
  mark_complete: "done", continue_work: "needs a correction", request_reschedule: "replanning",
});

/** @param {unknown} v @param {number} [max] */
function short(v, max = 120) {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * What an action's result says worth reading: a value read or kept, the page it led to.
 * @param {string} tool @param {Record<string, any> | null | undefined} r @param {string | undefined} urlBefore
 */
export function resultWords(tool, r, urlBefore) {
  if (!r || typeof r !== "object") return "";
  if (tool === "extract" && r.saved) return `kept as ${r.saved}`;
  if (tool === "recall_history" || tool === "wait") return "";
  /** @type {string[]} */
  const parts = [];
  if (typeof r.text === "string" && tool !== "fill" && tool !== "type") parts.push(`read "${short(r.text, 80)}"`);
  if (typeof r.value === "string" && tool === "select") parts.push(`chose "${short(r.value, 60)}"`);
  if (typeof r.url === "string" && r.url && r.url !== urlBefore) parts.push(`now at ${short(r.url, 90)}`);
  if (Array.isArray(r.candidates)) parts.push(`${r.candidates.length} close matches, refused to guess`);
  return parts.join("; ");
}

/** @param {Record<string, any>} d */
function usageTotals(d, /** @type {{calls: number, tokens: number, cost: number}} */ t) {
  t.calls += 1;
  t.tokens += (d.prompt_tokens || 0) + (d.completion_tokens || 0);
  t.cost += d.cost_usd || 0;
}

/**
 * @param {HistoryEntry[]} history oldest first
 * @returns {HistoryLine[]}
 */
export function historyLines(history) {
  /** @type {HistoryLine[]} */
  const lines = [];
  /** @type {{tool: string, line: HistoryLine}[]} actions waiting for their result */
  const open = [];
  let lastStatus = "";
  /** @type {string[]} */
  let plan = [];
  let current = -1;
  /** @type {string | undefined} */
  let url;
  const usage = { calls: 0, tokens: 0, cost: 0 };
  for (const h of history) {
    const d = h.data || {};
    const at = h.at;
    switch (h.kind) {
      case "status": {
        if (d.goal && lines.length === 0) { lines.push({ kind: "status", at, text: `Started: ${d.goal}` }); lastStatus = d.status; url = d.url || undefined; break; }
        if (d.status === lastStatus && !d.reason) break; // the same status said again
        lastStatus = d.status;
        if (d.reason === "resumed") { lines.push({ kind: "status", at, text: "Resumed" }); break; }
        const word = STATUS_WORDS[d.status] || d.status;
        lines.push({ kind: "status", at, text: d.reason && d.reason !== d.result ? `${word} — ${d.reason}` : word });
        if (d.result) lines.push({ kind: "message", at, text: `Result: ${d.result}` });
        break;
      }
      case "plan": {
        const subtasks = /** @type {string[]} */ (d.subtasks || []);
        const changed = subtasks.join("\n") !== plan.join("\n");
        if (changed) {
          lines.push({ kind: "plan", at, text: `Plan: ${subtasks.map((s, i) => `${i + 1}. ${s}`).join("  ")}` });
        } else if ((d.current ?? 0) !== current) {
          const now = subtasks[d.current ?? 0];
          lines.push({ kind: "plan", at, text: now ? `Next: ${now}` : "All steps of the plan done." });
        }
        plan = subtasks;
        current = d.current ?? 0;
        break;
      }
      case "tool_call": {
        if (SAID_ELSEWHERE.has(d.tool)) break;
        const line = /** @type {HistoryLine} */ ({ kind: "action", at, ok: null,
          text: d.tool === "mark_done" ? `Reported done: ${d.parameters?.summary || ""}`.trim()
            : describeAction({ tool: d.tool, parameters: d.parameters || {}, role: d.role, target: d.target }) });
        lines.push(line);
        open.push({ tool: d.tool, line });
        break;
      }
      case "tool_result": {
        const i = open.map((o) => o.tool).lastIndexOf(d.tool);
        if (i < 0) break;
        const [{ line }] = open.splice(i, 1);
        line.ok = !!d.success;
        if (!d.success) line.text += ` — failed: ${d.error || d.error_code || "unknown error"}`;
        else {
          const words = resultWords(d.tool, d.result, url);
          if (words) line.text += ` — ${words}`;
        }
        if (d.expectation && d.expectation.met === false) line.text += ` (expected: ${d.expectation.detail})`;
        if (d.result && typeof d.result.url === "string" && d.result.url) url = d.result.url;
        break;
      }
      case "verdict":
        lines.push({ kind: "verdict", at, ok: !!d.accepted,
          text: d.by === "host" ? `Checked by heybro: done — ${d.reason}`
            : `Verifier: ${VERDICT_WORDS[d.decision] || d.decision} (${Math.round((d.confidence || 0) * 100)}% sure, needs ${Math.round((d.threshold || 0) * 100)}%) — ${d.reason}` });
        break;
      case "iteration":
        if (d.reasoning && d.reasoning !== "scripted") lines.push({ kind: "thought", at, text: `${d.role} thought: ${short(d.reasoning, 200)}` });
        break;
      case "usage":
        usageTotals(d, usage);
        break;
      case "message":
        if (!d.text) break;
        lines.push(d.who === "user" ? { kind: "user", at, text: `You: ${d.text}` } : { kind: "message", at, text: d.text });
        break;
      case "error":
        lines.push({ kind: "error", at, text: `Error: ${d.text || d.message || "something went wrong"}` });
        break;
      default:
        break;
    }
  }
  if (usage.calls) {
    const last = history.length ? history[history.length - 1].at : 0;
    lines.push({ kind: "usage", at: last,
      text: `Model use: ${usage.calls} call${usage.calls === 1 ? "" : "s"}, ${usage.tokens.toLocaleString("en-US")} tokens` +
        (usage.cost > 0 ? `, about $${usage.cost.toFixed(4)}` : "") });
  }
  return lines;
}

/**
 * Renders the lines into `list` (an <ol>): each line an <li> with its kind and outcome as data.
 * @param {HistoryLine[]} lines @param {HTMLElement} list
 */
export function renderHistory(lines, list) {
  list.replaceChildren(...lines.map((l) => {
    const li = document.createElement("li");
    li.dataset.kind = l.kind;
    if (l.ok === true || l.ok === false) li.dataset.ok = String(l.ok);
    const mark = l.ok === false ? "✗ " : l.kind === "action" && l.ok ? "✓ " : "";
    li.textContent = mark + l.text;
    const when = new Date(l.at * 1000);
    li.title = Number.isFinite(when.getTime()) ? when.toLocaleTimeString() : "";
    return li;
  }));
}
