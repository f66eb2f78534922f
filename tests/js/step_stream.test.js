// The panel's step stream: a run grouped by subtask, built one event at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StepStream } from "../../extension/pages/panel/step_stream.js";
import { shownGroups } from "../../extension/pages/panel/stream_view.js";

const h = (seq, kind, data) => ({ seq, kind, at: 1000 + seq, data });
const PLAN = ["Find it", "Order it"];
const RUN = [
  h(0, "status", { status: "planning", goal: "Buy a kettle" }),
  h(1, "tool_call", { role: "scheduler", tool: "set_subtasks", kind: "plan", parameters: { subtasks: PLAN } }),
  h(2, "plan", { subtasks: PLAN, current: 0 }),
  h(3, "status", { status: "executing" }),
  h(4, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: { element_id: "e4" }, target: 'link "Blue Kettle"' }),
  h(5, "tool_result", { role: "worker", tool: "click", success: true, result: { url: "http://shop/k" }, expectation: { met: true, detail: "URL contains /k" } }),
  h(6, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: { element_id: "e9" }, target: 'button "Add"' }),
  h(7, "tool_result", { role: "worker", tool: "click", success: true, result: {}, expectation: { met: false, detail: "text 'In cart' appears" } }),
  h(8, "verdict", { decision: "continue_work", reason: "Cart still empty", confidence: 0.4, threshold: 0.7, accepted: false }),
  h(9, "plan", { subtasks: PLAN, current: 1 }),
  h(10, "status", { status: "paused", reason: "waiting for you: the order may have gone out", pause: "held" }),
  h(11, "message", { who: "user", text: "It did not, go on" }),
];

test("each subtask holds its actions with outcome and expectation, and its verdict", () => {
  const s = new StepStream("t1");
  s.addAll(RUN);
  assert.deepEqual(s.groups.map((g) => g.title), ["Planning", "Find it", "Order it"]);
  const find = s.groups[1];
  assert.deepEqual(find.lines.map((l) => l.text), [
    'click link "Blue Kettle" — now at http://shop/k',
    `click button "Add" (expected: text 'In cart' appears)`,
    "Verifier: needs a correction (model 40% sure, needs 70%; page: nothing checked; not taken: the model is not sure enough) — Cart still empty",
  ]);
  assert.deepEqual(find.lines[0].expect, { met: true, detail: "URL contains /k" });
  assert.equal(find.lines[1].expect.met, false);
  assert.deepEqual(find.lines[2].verdict, { confidence: 0.4, threshold: 0.7, accepted: false, page: 1, checks: 0, held_back: [] });
  assert.equal(find.actions, 2);
  // The question asked and the answer given sit with the subtask they were about.
  const order = s.groups[2];
  assert.deepEqual(order.lines.map((l) => [l.kind, l.text]), [
    ["question", "Paused — waiting for you: the order may have gone out"], ["user", "You: It did not, go on"]]);
});

test("live events count once; a result redraws only the group of its action", () => {
  const s = new StepStream("t1");
  s.addAll(RUN.slice(0, 5));
  const v = s.groups[1].version;
  const planningV = s.groups[0].version;
  assert.equal(s.groups[1].lines[0].ok, null); // still running
  assert.equal(s.add(RUN[5]), true);
  assert.equal(s.groups[1].lines[0].ok, true);
  assert.ok(s.groups[1].version > v);
  assert.equal(s.groups[0].version, planningV);
  assert.equal(s.add(RUN[5]), false, "an event seen again changes nothing");
  assert.equal(s.lastSeq, 5);
});

test("a failed action counts as failed in its subtask", () => {
  const s = new StepStream("t1");
  s.addAll([...RUN.slice(0, 4), h(4, "tool_call", { role: "worker", tool: "fill", kind: "browser", parameters: { element_id: "e2", value: "x" }, target: 'textbox "Q"' }),
    h(5, "tool_result", { role: "worker", tool: "fill", success: false, error: "Covered by a dialog" })]);
  assert.equal(s.groups[1].failed, 1);
  assert.match(s.groups[1].lines[0].text, /failed: Covered by a dialog$/);
});

test("subtasks not started yet follow as what comes next; the failing one is marked", () => {
  const s = new StepStream("t1");
  s.addAll(RUN.slice(0, 8));
  const plan = [{ text: "Find it", state: "current" }, { text: "Order it", state: "pending" }];
  assert.deepEqual(shownGroups(s, plan, "executing").map((g) => [g.group.title, g.state]),
    [["Planning", "done"], ["Find it", "current"], ["Order it", "pending"]]);
  assert.deepEqual(shownGroups(s, plan, "failed").map((g) => g.state), ["done", "failed", "pending"]);
  // Without the host's record (not reachable yet), the plan from the coordinator's state shows.
  assert.deepEqual(shownGroups(null, plan, "executing").map((g) => [g.group.title, g.state]),
    [["Find it", "current"], ["Order it", "pending"]]);
});

test("a replan keeps the old subtask where it was worked and adds the new ones", () => {
  const s = new StepStream("t1");
  s.addAll(RUN.slice(0, 6));
  s.addAll([h(6, "plan", { subtasks: ["Search instead", "Order it"], current: 0 }),
    h(7, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: {}, target: 'button "Search"' })]);
  assert.deepEqual(s.groups.map((g) => g.title), ["Planning", "Find it", "Search instead"]);
  assert.equal(s.groups[2].actions, 1);
});

test("an action the run stopped under reads as cut off, not as still running", () => {
  const s = new StepStream("t1");
  s.addAll([...RUN.slice(0, 4), h(4, "tool_call", { role: "worker", tool: "click", kind: "browser", parameters: {}, target: 'button "Place order"' }),
    h(5, "status", { status: "paused", reason: "interrupted: the heybro host stopped" })]);
  const line = s.groups[1].lines.find((l) => l.kind === "action");
  assert.equal(line.ok, false);
  assert.equal(line.text, 'click button "Place order" — cut off: it may or may not have happened');
  assert.equal(s.groups[1].failed, 1);
});

test("a task going on after a crash's pause says it resumed", () => {
  const s = new StepStream("t1");
  s.addAll([...RUN.slice(0, 4), h(4, "status", { status: "paused", reason: "interrupted: the heybro host stopped" }),
    h(5, "status", { status: "executing", reason: null })]);
  assert.deepEqual(s.groups[1].lines.map((l) => l.text), ["Paused — interrupted: the heybro host stopped", "Resumed"]);
});
