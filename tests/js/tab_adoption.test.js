// Which tabs a task adopts without the user handing them over (extension/background/tab_adoption.js):
// those its tabs opened while it ran — never one by its opener alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { adoptedTabs, openedDuringTask } from "../../extension/background/tab_adoption.js";

const START = 1_000_000;
const tab = (id, url = `https://shop.example/${id}`) => ({ id, url, title: `tab ${id}`, active: false });
const births = new Map([
  [10, { opener: 1, at: START - 5_000 }], // the user opened it from the task's page, before the task
  [11, { opener: 1, at: START + 2_000 }], // the task's page opened it (window.open, target=_blank)
  [12, { opener: 11, at: START + 3_000 }], // …and that page one more
  [13, { opener: 10, at: START + 4_000 }], // the user's early tab opened one during the task
  [14, { opener: 1, at: START + 5_000 }], // a browser page opened beside the task's
  [15, { opener: null, at: START + 6_000 }], // the user's new tab (no opener)
]);
const ALL = [tab(1), tab(10), tab(11), tab(12), tab(13), { ...tab(14), url: "chrome://settings" }, tab(15), tab(16)];

test("a tab the task's page opened while the task ran is the task's, however deep", () => {
  assert.deepEqual([...adoptedTabs(ALL, [1], START, births)].sort(), [11, 12]);
});

test("a tab the user opened from the task's page before the task started is not, nor what it opens", () => {
  const mine = new Set([1]);
  assert.equal(openedDuringTask(tab(10), mine, START, births), false);
  assert.equal(adoptedTabs(ALL, [1], START, births).has(13), false);
});

test("a tab with no record of its birth (made before heybro heard it) is never adopted", () => {
  assert.equal(openedDuringTask({ ...tab(16), openerTabId: 1 }, new Set([1]), START, births), false);
});

test("without a task start, nothing is adopted by its opener", () => {
  assert.equal(adoptedTabs(ALL, [1], undefined, births).size, 0);
});

test("browser pages and tabs with no opener stay out", () => {
  const got = adoptedTabs(ALL, [1], START, births);
  assert.equal(got.has(14), false);
  assert.equal(got.has(15), false);
});

test("the opener as the browser told it at the tab's birth counts, not one set on the tab later", () => {
  assert.equal(openedDuringTask({ ...tab(10), openerTabId: 11 }, new Set([11]), START, births), false);
});
