// A past task's run as a person reads it, from the host's append-only history.
import { test } from "node:test";
import assert from "node:assert/strict";
import { historyLines, resultWords } from "../../extension/pages/panel/history_view.js";

const h = (seq, kind, data) => ({ seq, kind, at: 1000 + seq, data });

test("each action is one line with what it did; statuses are not repeated; usage is summed", () => {
  const lines = historyLines([
    h(0, "status", { status: "planning", goal: "Buy a kettle", url: "http://shop/" }),
    h(1, "status", { status: "planning", reason: null }),
    h(2, "usage", { prompt_tokens: 900, completion_tokens: 20, cost_usd: 0.001 }),
    h(3, "tool_call", { role: "scheduler", tool: "set_subtasks", kind: "plan", parameters: { subtasks: ["Find it", "Order it"] } }),
    h(4, "plan", { subtasks: ["Find it", "Order it"], current: 0 }),
    h(5, "status", { status: "executing", reason: null }),
    h(6, "tool_call", { role: "worker", tool: "fill", kind: "browser", parameters: { element_id: "e3", value: "kettle" }, target: 'textbox "Search"' }),
    h(7, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: { element_id: "e4" }, target: 'button "Search"' }),
    h(8, "tool_result", { role: "worker", tool: "fill", success: true, result: { url: "http://shop/", value: "kettle" } }),
    h(9, "tool_result", { role: "worker", tool: "click", success: true, result: { url: "http://shop/search?q=kettle" } }),
    h(10, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: { element_id: "e9" }, target: 'link "Blue Kettle"' }),
    h(11, "tool_result", { role: "worker", tool: "click", success: false, error: "Covered by a dialog" }),
    h(12, "tool_call", { role: "worker", tool: "extract", kind: "local", parameters: { name: "order", value: "KC1" } }),
    h(13, "tool_result", { role: "worker", tool: "extract", success: true, result: { saved: "order" }, said: "kept as order" }),
    h(14, "usage", { prompt_tokens: 1000, completion_tokens: 30, cost_usd: 0.002 }),
    h(15, "verdict", { decision: "mark_complete", reason: "Order shown", confidence: 0.95, threshold: 0.7, accepted: true }),
    h(15.5, "verdict", { decision: "mark_complete", by: "host", reason: "the page shows it: URL contains '/done'", confidence: 1, threshold: 0.7, accepted: true, llm_confidence: null }),
    h(16, "plan", { subtasks: ["Find it", "Order it"], current: 1 }),
    h(17, "message", { text: "Also gift wrap", who: "user" }),
    h(18, "plan", { subtasks: ["Find it", "Order it"], current: 2 }),
    h(19, "status", { status: "completed", reason: "Order KC1 placed", result: "Order KC1 placed" }),
  ]);
  const text = lines.map((l) => l.text);
  assert.deepEqual(text, [
    "Started: Buy a kettle",
    "Plan: 1. Find it  2. Order it",
    "Working",
    'fill textbox "Search" (value="kettle")',
    'click button "Search" — now at http://shop/search?q=kettle',
    'click link "Blue Kettle" — failed: Covered by a dialog',
    'extract(name="order", value="KC1") — kept as order',
    "Verifier: done (model 95% sure, needs 70%; page: nothing checked) — Order shown",
    "Checked by heybro: done — the page shows it: URL contains '/done'",
    "Next: Order it",
    "You: Also gift wrap",
    "All steps of the plan done.",
    "Completed",
    "Result: Order KC1 placed",
    "Model use: 2 calls, 1,950 tokens, about $0.0030",
  ]);
  assert.deepEqual(lines.filter((l) => l.kind === "action").map((l) => l.ok), [true, true, false, true]);
  assert.ok(!text.some((t) => t.includes("{")), "no raw JSON");
});

test("a paused then resumed task says so once; control requests read as words", () => {
  const text = historyLines([
    h(0, "status", { status: "planning", goal: "g" }),
    h(1, "status", { status: "executing" }),
    h(2, "control", { text: "Pausing at the next safe point (between actions)…", what: "pausing" }),
    h(3, "status", { status: "paused", reason: "paused by the user" }),
    h(4, "status", { status: "executing", reason: "resumed" }),
    h(5, "control", { text: "Stopping…", what: "stopping" }),
    h(6, "status", { status: "stopped", reason: "stopped by the user" }),
  ]).map((l) => l.text);
  assert.deepEqual(text, ["Started: g", "Working", "Pausing at the next safe point (between actions)…",
    "Paused — paused by the user", "Resumed", "Stopping…", "Stopped — stopped by the user"]);
});

test("a result names what was read or where the page went, never a dump", () => {
  assert.equal(resultWords({ result: { url: "http://a/" } }, "http://a/"), "");
  assert.equal(resultWords({ result: { text: "KC123", saved: "order" }, said: 'read "KC123"' }, undefined), 'read "KC123"');
  assert.equal(resultWords({ result: { value: "Ann", url: "http://a/" } }, "http://a/"), "");
  assert.equal(resultWords({ result: { url: "http://a/b" }, said: 'chose "Blue"' }, "http://a/"), 'chose "Blue"; now at http://a/b');
  assert.equal(resultWords({ result: { candidates: [1, 2] } }, undefined), "2 close matches, refused to guess");
});

test("the roles' own moves are told by the plan and the verdict; a report is its own line", () => {
  const text = historyLines([
    h(0, "status", { status: "planning", goal: "g" }),
    h(1, "tool_call", { role: "scheduler", tool: "set_subtasks", kind: "plan", parameters: { subtasks: ["a"] } }),
    h(2, "tool_call", { role: "scheduler", tool: "start_work", kind: "transition", parameters: {} }),
    h(3, "tool_call", { role: "worker", tool: "calculate", kind: "host", parameters: { expression: "1+1" } }),
    h(4, "tool_call", { role: "worker", tool: "mark_done", kind: "transition", parameters: { summary: "Done it" }, report: "Done it" }),
    h(5, "tool_call", { role: "verifier", tool: "mark_complete", kind: "transition", parameters: { confidence: 0.9 } }),
  ]).map((l) => l.text);
  assert.deepEqual(text, ["Started: g", 'calculate(expression="1+1")', "Reported done: Done it"]);
});

// The host's golden event of every kind (shared_schema/examples/events): each says something.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
const eventsDir = fileURLToPath(new URL("../../shared_schema/examples/events/", import.meta.url));
const goldenEvents = readdirSync(eventsDir).filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(eventsDir + f, "utf8")).payload);

test("every kind of event the host sends reads as a line of the history", () => {
  assert.ok(goldenEvents.length >= 13);
  const start = h(0, "status", { status: "planning", goal: "Order the blue kettle" });
  for (const ev of goldenEvents) {
    const entry = { seq: 1, kind: ev.kind, at: ev.at, data: ev.data };
    // A tool's result completes the line of its call.
    const before = ev.kind === "tool_result" ? [h(1, "tool_call", { role: "worker", tool: ev.data.tool, parameters: {} })] : [];
    const lines = historyLines([start, ...before, entry]);
    assert.ok(lines.length > 1 + before.length || (before.length && lines[1].text.includes("—")), `${ev.kind} says nothing`);
  }
});

test("what the user decided about an action is on its line: heybro asked first, the answer", () => {
  const text = historyLines([
    h(0, "status", { status: "executing", goal: "Delete my account" }),
    h(1, "question", { text: 'About to click button "Delete account" … Go ahead?', kind: "confirm", choices: ["Yes", "No"] }),
    h(2, "message", { text: "Yes", who: "user", answers: "q1" }),
    h(3, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: { element_id: "e5" }, target: 'button "Delete account"' }),
    h(4, "tool_result", { role: "worker", tool: "click", success: true, result: {}, decided: "heybro asked first (delete); the user said yes" }),
  ]).map((l) => l.text);
  assert.ok(text.includes('click button "Delete account" — heybro asked first (delete); the user said yes'), text.join("\n"));
});

test("an element found again by its description says why that one", () => {
  const text = historyLines([
    h(0, "status", { status: "executing", goal: "Delete the kettle page" }),
    h(1, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: { element_id: "e5" }, target: 'link "Delete"' }),
    h(2, "tool_result", { role: "worker", tool: "click", success: true,
      result: { found_by: "signature", found_why: "the only element with its identity (href=/wiki?title=Kettles&action=delete)" } }),
    h(3, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: { element_id: "e6" }, target: 'link "Edit"' }),
    h(4, "tool_result", { role: "worker", tool: "click", success: true, result: { found_by: "id" } }),
  ]).map((l) => l.text);
  assert.ok(text.some((t) => t.includes('link "Delete" — found again: the only element with its identity (href=')), text.join("\n"));
  assert.ok(!text.some((t) => t.includes('link "Edit"') && t.includes("found again")), text.join("\n"));
});
