// The coordinator's gate on the browser's own input replaying an action the page seemed to ignore
// (extension/background/replay_gate.js): anything the page did since the action began — a request
// started (answered or not), a page loading, a dialog — refuses it; what came before does not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pageReaction } from "../../extension/background/replay_gate.js";

const since = 1_000_000;

test("nothing since the action began: the replay may go", () => {
  assert.equal(pageReaction({ requests: [{ at: since - 5, type: "xmlhttprequest" }], dialogs: [{ at: since - 1, kind: "alert" }] }, since), null);
  assert.equal(pageReaction({ requests: [], dialogs: [] }, since), null);
});

test("a request started since, answered or not, refuses it and says which kind", () => {
  assert.match(pageReaction({ requests: [{ at: since, type: "xmlhttprequest" }], dialogs: [] }, since), /started a request \(fetch\)/);
  assert.match(pageReaction({ requests: [{ at: since + 3, type: "image" }, { at: since + 9, type: "ping" }], dialogs: [] }, since), /2 requests \(image, ping\)/);
});

test("a page or frame loading, or a dialog opened, refuses it", () => {
  assert.match(pageReaction({ requests: [{ at: since + 1, type: "main_frame" }], dialogs: [] }, since), /loading a page/);
  assert.match(pageReaction({ requests: [], dialogs: [{ at: since + 40, kind: "confirm" }] }, since), /dialog \(confirm\)/);
});
