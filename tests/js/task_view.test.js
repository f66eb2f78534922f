// What the side panel says about the action being taken.
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeAction } from "../../extension/panel/task_view.js";

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
