// What the side panel says about the action being taken.
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeAction } from "../../extension/pages/panel/task_view.js";

test("an action names the element as the page names it, not by its id", () => {
  assert.equal(describeAction({ tool: "click", parameters: { element_id: "e14" }, role: "worker", target: 'link "Blue Kettle"' }),
    'click link "Blue Kettle"');
  assert.equal(describeAction({ tool: "fill", parameters: { element_id: "e3", value: "Ann", expect: { value: "Ann" } }, role: "worker", target: 'textbox "Full name"' }),
    'fill textbox "Full name" (value="Ann")');
});

test("without a known element the arguments are shown; other roles say who acts", () => {
  assert.equal(describeAction({ tool: "navigate", parameters: { url: "https://x.test/" }, role: "worker", target: null }),
    'navigate(url="https://x.test/")');
  assert.equal(describeAction({ tool: "set_subtasks", parameters: { subtasks: ["a"] }, role: "scheduler" }),
    'scheduler: set_subtasks(subtasks=["a"])');
});

// A tiny stand-in for the few DOM calls renderChat makes.
class FakeEl {
  constructor(tag) { Object.assign(this, { tag, dataset: {}, children: [], parent: null, className: "", textContent: "", hidden: false, scrollTop: 0, scrollHeight: 0 }); }
  append(c) { c.parent = this; this.children.push(c); }
  remove() { if (this.parent) this.parent.children = this.parent.children.filter((x) => x !== this); this.parent = null; }
  querySelectorAll(sel) {
    assert.equal(sel, ".msg[data-n]");
    return this.children.filter((c) => c.className.split(" ").includes("msg") && c.dataset.n !== undefined);
  }
}

test("the chat keeps updating after its 200 newest entries are all that is kept", async () => {
  globalThis.document = { createElement: (t) => new FakeEl(t) };
  const { renderChat } = await import("../../extension/pages/panel/task_view.js");
  const { applyEvent, newTaskContext, emptyState, MAX_CHAT } = await import("../../extension/shared/state.js");
  const log = new FakeEl("main");
  const note = new FakeEl("p");
  note.className = "msg error note";  // the panel's own notes stay where they are
  log.append(note);
  const hint = new FakeEl("p");
  let s = { ...emptyState(), taskContext: newTaskContext("t1", "goal", 1) };
  for (let i = 1; i <= 250; i++) {
    s = applyEvent(s, { task_id: "t1", seq: i, kind: "message", at: i, data: { text: `m${i}` } });
    if (i % 7 === 0 || i > 240) renderChat(s, log, hint);
  }
  const shown = log.querySelectorAll(".msg[data-n]");
  assert.equal(s.taskContext.chat.length, MAX_CHAT);
  assert.equal(shown.length, MAX_CHAT);
  assert.equal(shown.at(-1).textContent, "m250");
  assert.deepEqual(shown.map((m) => m.textContent), s.taskContext.chat.map((m) => m.text));
  assert.ok(log.children.includes(note));
  // Another task starts a fresh conversation.
  const next = { ...emptyState(), taskContext: newTaskContext("t2", "other", 2) };
  renderChat(next, log, hint);
  assert.deepEqual(log.querySelectorAll(".msg[data-n]").map((m) => m.textContent), ["other"]);
  renderChat(emptyState(), log, hint);
  assert.equal(log.querySelectorAll(".msg[data-n]").length, 0);
  assert.equal(hint.hidden, false);
});
