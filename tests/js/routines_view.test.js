// The panel's routine list and "Save as routine": what a person reads, and the names offered.
import { test } from "node:test";
import assert from "node:assert/strict";
import { nameProblem, routineWords, suggestName } from "../../extension/pages/panel/routines_view.js";

const routine = (extra = {}) => ({ name: "kettle", goal: "Buy one {{param:search}}", steps: 7,
  parameters: { search: "blue kettle", email: "ann@example.com" }, heals: 0, created_at: 1, updated_at: 1,
  runs: 0, ...extra });

test("a routine never run says so; after a run its result, heals and time are shown", () => {
  assert.deepEqual(routineWords(routine()), { title: "7 steps · takes search, email", lastRun: "never run",
    result: "", heals: "0 heals", time: "" });
  const ran = routineWords(routine({ runs: 2, heals: 1, last_status: "completed", last_run_at: 1_700_000_000, last_seconds: 3.26 }));
  assert.equal(ran.result, "Completed");
  assert.equal(ran.heals, "1 heal");
  assert.equal(ran.time, "3.3 s");
  assert.match(ran.lastRun, /^last run /);
  assert.equal(routineWords(routine({ steps: 1, parameters: {} })).title, "1 step");
});

test("the name offered is the goal's first words as the host accepts them; bad names are explained", () => {
  assert.equal(suggestName("Buy one Blue Kettle for Ann Lee (ann@example.com)"), "buy-one-blue-kettle");
  assert.equal(suggestName("Überweisung 250 € an Bob"), "berweisung-250-an-bob");
  assert.equal(suggestName("!!!"), "routine");
  assert.equal(nameProblem("buy-one-blue-kettle"), "");
  assert.match(nameProblem("my routine"), /no spaces/);
  assert.match(nameProblem(""), /Give the routine a name/);
  assert.match(nameProblem("x".repeat(65)), /at most 64/);
});
