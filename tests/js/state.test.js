// The coordinator's heybro_state: events folded into what the panel shows, persisted and restored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LAZY_WRITE_MS, STATE_KEY, StateStore, addRelevantTab, applyEvent, applyRecord, emptyState, isLive, newTaskContext, MAX_ENTRIES } from "../../extension/shared/state.js";
import { StepStream } from "../../extension/pages/panel/step_stream.js";

const ev = (seq, kind, data) => ({ task_id: "t1", seq, kind, at: 1000 + seq, data });
const started = () => ({ ...emptyState(), taskContext: newTaskContext("t1", "Order a kettle", 5) });

test("a run's events become plan, current action, verdict, usage and outcome", () => {
  let s = started();
  s = applyEvent(s, ev(0, "status", { status: "planning" }));
  s = applyEvent(s, ev(1, "plan", { subtasks: ["Find it", "Order it"], current: 0 }));
  s = applyEvent(s, ev(2, "status", { status: "executing" }));
  s = applyEvent(s, ev(3, "tool_call", { role: "worker", tool: "click", parameters: { element_id: "e4" }, target: 'button "Buy"' }));
  assert.deepEqual(s.taskContext.currentAction, { tool: "click", parameters: { element_id: "e4" }, reason: undefined, role: "worker", target: 'button "Buy"' });
  s = applyEvent(s, ev(4, "tool_result", { role: "worker", tool: "click", success: false, error: "Covered by a cookie banner" }));
  assert.equal(s.taskContext.error, "Covered by a cookie banner");
  assert.deepEqual(s.actionHistory.map((h) => [h.seq, h.kind]), [[0, "status"], [1, "plan"], [2, "status"], [3, "tool_call"], [4, "tool_result"]]);
  s = applyEvent(s, ev(5, "usage", { prompt_tokens: 1000, completion_tokens: 50 }));
  s = applyEvent(s, ev(6, "plan", { subtasks: ["Find it", "Order it"], current: 1 }));
  assert.deepEqual(s.taskContext.subtasks.map((x) => x.state), ["done", "current"]);
  s = applyEvent(s, ev(7, "verdict", { decision: "mark_complete", reason: "Order HB-1 shown", confidence: 0.93, threshold: 0.7, accepted: true }));
  s = applyEvent(s, ev(8, "status", { status: "completed", result: "Order HB-1 placed." }));
  assert.equal(s.taskContext.status, "completed");
  assert.equal(s.taskContext.currentAction, null);
  assert.equal(s.taskContext.lastVerdict.confidence, 0.93);
  assert.deepEqual(s.taskContext.usage, { promptTokens: 1000, completionTokens: 50, calls: 1, costUsd: 0 });
  assert.match(s.taskContext.chat.at(-1).text, /Order HB-1 placed/);
  assert.equal(isLive(s), false);
});

test("old, repeated and foreign events change nothing", () => {
  let s = applyEvent(started(), ev(3, "status", { status: "executing" }));
  assert.equal(applyEvent(s, ev(3, "status", { status: "failed" })), s);
  assert.equal(applyEvent(s, ev(1, "status", { status: "failed" })), s);
  assert.equal(applyEvent(s, { ...ev(9, "status", { status: "failed" }), task_id: "other" }), s);
});

test("catching up applies missed events, and the record's status only when nothing newer came in live", () => {
  let s = applyEvent(started(), ev(2, "status", { status: "executing" }));
  // Missed while the service worker slept: the record brings them, and its status.
  const caught = applyRecord(s, { task_id: "t1", status: "paused", reason: "interrupted" },
    [{ seq: 3, kind: "tool_call", at: 1003, data: { role: "worker", tool: "click", parameters: {} } }], 2);
  assert.equal(caught.taskContext.lastSeq, 3);
  assert.equal(caught.taskContext.status, "paused");
  // Stop asked while the task still ran: the record was read as "executing", and the "stopped"
  // event arrived live before the reply. The stale word must not undo the stop.
  const live = applyEvent(s, ev(3, "status", { status: "stopped" }));
  const after = applyRecord(live, { task_id: "t1", status: "executing" }, [], 2);
  assert.equal(after.taskContext.status, "stopped");
  assert.equal(after, live);
});

test("history stays bounded, keeping the run's start and its plan; tabs are tracked once each", () => {
  let s = started();
  s = applyEvent(s, ev(0, "status", { status: "planning", goal: "Order a kettle" }));
  s = applyEvent(s, ev(1, "plan", { subtasks: ["Scroll"], current: 0 }));
  for (let i = 2; i < MAX_ENTRIES + 30; i++) s = applyEvent(s, ev(i, "tool_call", { role: "worker", tool: "scroll", kind: "browser", parameters: {} }));
  assert.equal(s.actionHistory.length, MAX_ENTRIES);
  assert.deepEqual(s.actionHistory.slice(0, 3).map((h) => h.seq), [0, 1, 32]);
  assert.equal(s.actionHistory.at(-1).seq, MAX_ENTRIES + 29);
  const stream = new StepStream("t1");
  stream.addAll(s.actionHistory);
  assert.deepEqual(stream.groups.map((g) => [g.title, g.actions]), [["Planning", 0], ["Scroll", MAX_ENTRIES - 2]],
    "the run still starts with its goal, and the actions left still sit under their subtask");
  s = addRelevantTab(s, { tabId: 3, url: "a", addedAt: 1 });
  s = addRelevantTab(s, { tabId: 4, url: "b", addedAt: 2 });
  s = addRelevantTab(s, { tabId: 3, url: "a2", addedAt: 3 });
  assert.deepEqual(s.tabRegistry.map((t) => [t.tabId, t.url]), [[4, "b"], [3, "a2"]]);
});

test("every change is saved under heybro_state and restored by a new store", async () => {
  const disk = {};
  const storage = { get: async (k) => ({ [k]: disk[k] }), set: async (v) => Object.assign(disk, structuredClone(v)) };
  const a = new StateStore(storage);
  await a.update(() => started());
  await a.update((s) => applyEvent(s, ev(0, "status", { status: "executing" })));
  assert.equal(disk[STATE_KEY].taskContext.status, "executing");
  const b = new StateStore(storage); // the service worker woke up again
  await b.loaded;
  assert.equal(b.state.taskContext.goal, "Order a kettle");
  assert.equal(isLive(b.state), true);
});

test("a burst of events is saved by few writes, each update resolving once its change is on disk", async () => {
  const disk = {};
  let writes = 0;
  /** @type {Array<() => void>} */ const pending = [];
  const storage = {
    get: async (k) => ({ [k]: disk[k] }),
    // A slow disk: each write completes only when the test lets it.
    set: (v) => new Promise((resolve) => { writes++; pending.push(() => { Object.assign(disk, structuredClone(v)); resolve(); }); }),
  };
  const store = new StateStore(storage);
  await store.loaded;
  let state = started();
  const done = [store.update(() => state)];
  await new Promise((r) => setTimeout(r, 0));
  for (let i = 0; i < 5; i++) {
    state = applyEvent(state, ev(i, "tool_call", { role: "worker", tool: "click", parameters: {} }));
    const mine = state;
    done.push(store.update(() => mine).then(() => assert.ok(disk[STATE_KEY].actionHistory.length >= mine.actionHistory.length)));
  }
  while (pending.length) { pending.shift()(); await new Promise((r) => setTimeout(r, 0)); }
  await Promise.all(done);
  assert.equal(writes, 2); // the first change, then the five that came while it was being written
  assert.equal(disk[STATE_KEY].actionHistory.length, 5);
});

test("a step's events are written together a moment later, and a change that must last is written at once with them", async () => {
  const disk = {};
  let writes = 0;
  const storage = { get: async (k) => ({ [k]: disk[k] }), set: async (v) => { writes++; Object.assign(disk, structuredClone(v)); } };
  const store = new StateStore(storage);
  await store.update(() => started());
  assert.equal(writes, 1);
  const heard = [];
  store.subscribe((s) => heard.push(s.actionHistory.length));
  for (let i = 0; i < 4; i++) await store.update((s) => applyEvent(s, ev(i, "tool_call", { role: "worker", tool: "click", parameters: {} })), { lazy: true });
  assert.deepEqual(heard, [1, 2, 3, 4], "the panel hears each at once");
  assert.equal(writes, 1, "none written yet");
  await new Promise((r) => setTimeout(r, LAZY_WRITE_MS + 50));
  assert.equal(writes, 2, "the four in one write");
  assert.equal(disk[STATE_KEY].actionHistory.length, 4);
  await store.update((s) => applyEvent(s, ev(4, "tool_call", { role: "worker", tool: "click", parameters: {} })), { lazy: true });
  await store.update((s) => addRelevantTab(s, { tabId: 7, url: "https://shop.test/", title: "Shop", addedAt: 1 }));
  assert.equal(writes, 3, "the tab, and the event before it, written before the update resolved");
  assert.equal(disk[STATE_KEY].actionHistory.length, 5);
  await new Promise((r) => setTimeout(r, LAZY_WRITE_MS + 50));
  assert.equal(writes, 3, "nothing left to write");
});

test("a pause or stop asked for shows at once and clears when the task gets there", () => {
  let s = started();
  s = applyEvent(s, ev(0, "status", { status: "executing" }));
  s = applyEvent(s, ev(1, "control", { text: "Pausing at the next safe point…", what: "pausing" }));
  assert.equal(s.taskContext.pending, "pausing");
  assert.equal(s.taskContext.status, "executing");
  s = applyEvent(s, ev(2, "status", { status: "verifying" }));
  assert.equal(s.taskContext.pending, "pausing", "still on its way to the pause");
  s = applyEvent(s, ev(3, "status", { status: "paused", reason: "paused by the user" }));
  assert.equal(s.taskContext.pending, null);
  s = applyEvent(s, ev(4, "control", { text: "Stopping…", what: "stopping" }));
  assert.equal(s.taskContext.pending, "stopping");
  s = applyEvent(s, ev(5, "status", { status: "stopped" }));
  assert.equal(s.taskContext.pending, null);
  // Resumed before the pause took effect.
  let r = applyEvent(started(), ev(0, "control", { text: "Pausing…", what: "pausing" }));
  r = applyEvent(r, ev(1, "control", { text: "Going on", what: "resume" }));
  assert.equal(r.taskContext.pending, null);
});

test("what the user said comes back from the host as the user's line", () => {
  const s = applyEvent(started(), ev(0, "message", { text: "Use gift wrap", who: "user" }));
  assert.deepEqual(s.taskContext.chat.at(-1), { who: "user", text: "Use gift wrap", at: 1000000, n: 1 });
});

test("a question holds the task as waiting until the status moves on; the answer is kept and said first", () => {
  let s = started();
  s = applyEvent(s, ev(0, "question", { id: "q1", text: "About to click button \"Pay\" — Go ahead?", kind: "confirm", choices: ["Yes", "No"] }));
  s = applyEvent(s, ev(1, "status", { status: "waiting", reason: "Waiting for you: About to click" }));
  assert.deepEqual(s.taskContext.question, { id: "q1", text: "About to click button \"Pay\" — Go ahead?", kind: "confirm", choices: ["Yes", "No"] });
  assert.equal(isLive(s), true);
  s = applyEvent(s, ev(2, "status", { status: "executing", reason: "answered" }));
  assert.equal(s.taskContext.question, null);
  s = applyEvent(s, ev(3, "experience", { id: 1, site: "shop.test", text: "Search is in the menu" }));
  s = applyEvent(s, ev(4, "answer", { role: "analyst", text: "Two kettles cost $48.00." }));
  s = applyEvent(s, ev(5, "status", { status: "completed", result: "2 × $24.00", answer: "Two kettles cost $48.00." }));
  assert.equal(s.taskContext.answer, "Two kettles cost $48.00.");
  const said = s.taskContext.chat.map((c) => c.text);
  assert.ok(said.includes("Learned about shop.test: Search is in the menu"));
  assert.equal(said.at(-1), "Answer: Two kettles cost $48.00.");
});

// The host's golden event of every kind (shared_schema/examples/events) changes what the panel shows.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
const eventsDir = fileURLToPath(new URL("../../shared_schema/examples/events/", import.meta.url));
const goldenEvents = readdirSync(eventsDir).filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(eventsDir + f, "utf8")).payload);

test("every kind of event the host sends is read by the panel's state", () => {
  const unseen = new Set(["iteration"]);  // the model's thinking shows in the history view only
  assert.ok(goldenEvents.length >= 13);
  for (const e of goldenEvents) {
    const s0 = started();
    const before = e.kind === "tool_result" ? applyEvent(s0, ev(0, "tool_call", { role: "worker", tool: e.data.tool, parameters: {} })) : s0;
    const after = applyEvent(before, { ...e, task_id: "t1", seq: 1 });
    const strip = (/** @type {any} */ st) => ({ ...st, taskContext: { ...st.taskContext, lastSeq: 0, updatedAt: 0 } });
    if (unseen.has(e.kind)) assert.deepEqual(strip(after), strip(before), e.kind);
    else assert.notDeepEqual(strip(after), strip(before), `${e.kind} changes nothing`);
  }
});

test("the state is the panel's one source: its entries draw the same steps as the record, a page's text left out", () => {
  const run = [
    ev(0, "status", { status: "planning", goal: "Order a kettle" }),
    ev(1, "iteration", { role: "scheduler", reasoning: "Two steps", tools: ["set_subtasks"] }),
    ev(2, "tool_call", { role: "scheduler", tool: "set_subtasks", kind: "plan", parameters: { subtasks: ["Find it"] } }),
    ev(3, "plan", { subtasks: ["Find it"], current: 0 }),
    ev(4, "usage", { prompt_tokens: 10, completion_tokens: 2 }),
    ev(5, "tool_call", { role: "worker", tool: "extract", kind: "local", parameters: { element_id: "e3" }, target: 'cell "Total"' }),
    ev(6, "tool_result", { role: "worker", tool: "extract", success: true, said: 'read "$48"',
      result: { text: "x".repeat(5000), url: "http://shop/cart", found_by: "signature", found_why: "same text" } }),
  ];
  let s = started();
  for (const e of run) s = applyEvent(s, e);
  assert.ok(JSON.stringify(s.actionHistory).length < 2000, "a page's text is not kept in the state");
  const fromState = new StepStream("t1");
  fromState.addAll(s.actionHistory);
  const fromRecord = new StepStream("t1");
  fromRecord.addAll(run);
  const lines = (/** @type {StepStream} */ st) => st.groups.flatMap((g) => g.lines.map((l) => l.text));
  assert.deepEqual(lines(fromState), lines(fromRecord));
  assert.match(lines(fromState).at(-1), /read "\$48"; now at http:\/\/shop\/cart — found again: same text/);
});
