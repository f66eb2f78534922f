// When heybro tells the person (notification + badge): a task completes, fails or waits for them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { alertFor, badgeCleared } from "../../extension/background/notify.js";
import { newTaskContext } from "../../extension/shared/state.js";

const ctx = (status, over = {}) => ({ ...newTaskContext("t1", "Order the blue kettle", 0), status, ...over });

test("a completed task tells its result; a failed one its reason", () => {
  const done = alertFor(ctx("verifying"), ctx("completed", { result: "Order HB-1042 placed." }));
  assert.equal(done.kind, "completed");
  assert.equal(done.title, "heybro finished: Order the blue kettle");
  assert.equal(done.message, "Order HB-1042 placed.");
  assert.equal(done.badge.text, "✓");
  const failed = alertFor(ctx("executing"), ctx("failed", { reason: "guardrail: 3 consecutive actions failed" }));
  assert.equal(failed.kind, "failed");
  assert.equal(failed.message, "Guardrail: 3 consecutive actions failed.");
});

test("a task waiting for the person asks; a pause they asked for does not", () => {
  const q = alertFor(ctx("executing"), ctx("paused", { reason: "waiting for you: click Place order was cut off and may have happened", pause: "held" }));
  assert.equal(q.kind, "waiting");
  assert.match(q.message, /^Waiting for you: click Place order .* Open heybro to resume or stop it\.$/);
  assert.equal(alertFor(ctx("executing"), ctx("paused", { reason: "paused by the user", pause: "asked" })), null);
  // Why it paused is the pause's word, never its reason's: the same words with a fault say so.
  assert.equal(alertFor(ctx("executing"), ctx("paused", { reason: "paused by the user", pause: "cut_off" })).kind, "waiting");
});

test("nothing is said twice, nor for a task shown again after a restart", () => {
  const done = ctx("completed", { result: "ok" });
  assert.equal(alertFor(done, { ...done, updatedAt: 5 }), null);
  assert.equal(alertFor(ctx("executing"), ctx("executing")), null);
  assert.ok(badgeCleared(ctx("executing")) && badgeCleared(null) && !badgeCleared(done));
});
