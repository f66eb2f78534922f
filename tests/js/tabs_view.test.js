// The task's tabs in the side panel, and the one-click hand-over of the page the user looks at.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tabsModel } from "../../extension/pages/panel/tabs_view.js";

const ctx = (status) => ({ taskId: "t1", goal: "g", status });
const registry = [
  { tabId: 4, url: "http://127.0.0.1:8080/wp-admin/", title: "Dashboard", addedAt: 1, taskId: "t1" },
  { tabId: 5, url: "https://mail.example/inbox", title: "Inbox", addedAt: 2, taskId: "t0" },
  { tabId: 6, url: "https://shop.example/cart", title: " ", addedAt: 3, taskId: "t1" },
];
const offer = { tab_id: 9, url: "https://docs.example/", title: "Docs", site: "docs.example" };

test("only the shown task's tabs are listed, by title and site", () => {
  const m = tabsModel({ taskContext: ctx("executing"), actionHistory: [], tabRegistry: registry }, null);
  assert.deepEqual(m.tabs, [{ tabId: 4, title: "Dashboard", site: "127.0.0.1:8080" }, { tabId: 6, title: "shop.example", site: "shop.example" }]);
  assert.equal(m.offer, null);
});

test("a live task is offered the tab the user looks at, unless it has it already", () => {
  const live = { taskContext: ctx("executing"), actionHistory: [], tabRegistry: registry };
  assert.deepEqual(tabsModel(live, offer).offer, offer);
  assert.equal(tabsModel(live, { ...offer, tab_id: 4 }).offer, null);
  assert.deepEqual(tabsModel({ ...live, taskContext: ctx("paused") }, offer).offer, offer);
  assert.equal(tabsModel({ ...live, taskContext: ctx("completed") }, offer).offer, null);
  assert.deepEqual(tabsModel({ taskContext: null, actionHistory: [], tabRegistry: registry }, offer), { tabs: [], offer: null });
});
