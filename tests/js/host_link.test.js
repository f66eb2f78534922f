// The coordinator's host link with a fake native port: handshake, chunk joining, failure words.
import { test } from "node:test";
import assert from "node:assert/strict";

class FakeEvent {
  constructor() { this.fns = []; }
  addListener(fn) { this.fns.push(fn); }
  fire(...a) { for (const f of this.fns) f(...a); }
}
class FakePort {
  constructor(onPost) { this.onMessage = new FakeEvent(); this.onDisconnect = new FakeEvent(); this.onPost = onPost; this.sent = []; }
  postMessage(m) { this.sent.push(m); this.onPost?.(m, this); }
  disconnect() {}
}
globalThis.chrome = { runtime: { lastError: undefined } };

const { HostLink, classifyDisconnect } = await import("../../extension/background/host_link.js");

const helloOk = (re) => ({ v: 1, id: "h0", type: "hello_ok", re, payload: { protocol: 1, host_version: "9.9.9", pid: 77, log_file: "/x", max_message_bytes: 1048576 } });

test("handshake connects and reports the host version", async () => {
  const statuses = [];
  const link = new HostLink({
    extensionVersion: "t",
    connectNative: () => new FakePort((m, port) => queueMicrotask(() => port.onMessage.fire(helloOk(m.id)))),
    onStatus: (s) => statuses.push(s.state),
  });
  const s = await link.ensure();
  assert.equal(s.state, "connected");
  assert.equal(s.hostVersion, "9.9.9");
  assert.deepEqual(statuses, ["connecting", "connected"]);
});

test("a chunked reply is joined back into one message", async () => {
  let port;
  const link = new HostLink({
    extensionVersion: "t",
    connectNative: () => (port = new FakePort((m, p) => {
      if (m.type === "hello") queueMicrotask(() => p.onMessage.fire(helloOk(m.id)));
      if (m.type === "ping") {
        const whole = JSON.stringify({ v: 1, id: "big1", type: "pong", re: m.id, payload: { data: "é".repeat(5000), host_pid: 1 } });
        const bytes = new TextEncoder().encode(whole);
        const cut = [bytes.slice(0, 3001), bytes.slice(3001, 7000), bytes.slice(7000)]; // cuts inside a UTF-8 sequence
        const b64 = (u) => btoa(String.fromCharCode(...u));
        cut.reverse().forEach((part, i) => queueMicrotask(() => p.onMessage.fire({ v: 1, id: `c${i}`, type: "chunk", payload: { message_id: "big1", index: 2 - i, count: 3, data: b64(part) } })));
      }
    })),
  });
  const reply = await link.call("ping", { data: "" });
  assert.equal(reply.type, "pong");
  assert.equal(reply.payload.data, "é".repeat(5000));
  assert.equal(port.sent.filter((m) => m.type === "error").length, 0);
});

test("an invalid host message is refused with a schema_violation error", async () => {
  let port;
  const seen = [];
  const link = new HostLink({
    extensionVersion: "t",
    connectNative: () => (port = new FakePort((m, p) => { if (m.type === "hello") queueMicrotask(() => p.onMessage.fire(helloOk(m.id))); })),
    onMessage: (m) => seen.push(m),
  });
  await link.ensure();
  port.onMessage.fire({ v: 1, id: "bad1", type: "event", payload: { task_id: "t", seq: -1, kind: "status", at: 0 } });
  assert.equal(seen.length, 0);
  const err = port.sent.find((m) => m.type === "error");
  assert.equal(err.re, "bad1");
  assert.equal(err.payload.code, "schema_violation");
  assert.equal(link.invalidFromHost, 1);
});

const UPDATE = "git pull && .venv/bin/pip install -e . && .venv/bin/heybro install";

/** A host of protocol 2: answers the hello with `reply(hello)` in its own envelope version. */
const newerHost = (reply) => () => new FakePort((m, p) => { if (m.type === "hello") queueMicrotask(() => p.onMessage.fire(reply(m))); });

const cases = {
  "a typed version_mismatch error in v2": (m) => ({ v: 2, id: "e", type: "error", re: m.id, payload: { code: "version_mismatch", message: "Protocol 2 here.", detail: { host_protocol: 2 } } }),
  "a v2 hello_ok that says protocol 2": (m) => ({ v: 2, id: "h", type: "hello_ok", re: m.id, payload: { protocol: 2, host_version: "2.0.0", pid: 1, log_file: "/x", max_message_bytes: 1048576 } }),
  "a v2 hello_ok this version cannot read": (m) => ({ v: 2, id: "h", type: "hello_ok", re: m.id, payload: { protocol: 2, host_version: "2.0.0", pid: 1, log_file: "/x", max_message_bytes: 1048576, features: ["x"] } }),
};
for (const [what, reply] of Object.entries(cases)) {
  test(`a newer host's answer (${what}) is a version mismatch with the update command, not retried`, async () => {
    const statuses = [];
    const link = new HostLink({ extensionVersion: "t", connectNative: newerHost(reply), onStatus: (s) => statuses.push(s.state) });
    link.demand.add("test");
    await assert.rejects(link.ensure());
    assert.equal(link.status.state, "wrong_version");
    assert.match(link.status.message, /host speaks protocol 2; this extension speaks 1/);
    assert.match(link.status.message, /reload the extension/);
    assert.equal(link.status.fix, UPDATE);
    assert.equal(link.retryTimer, null);
    assert.ok(!statuses.includes("not_responding"));
  });
}

test("while retrying after a problem the status keeps that problem, so the banner stays", async () => {
  let calls = 0;
  const statuses = [];
  const link = new HostLink({
    extensionVersion: "t",
    connectNative: () => {
      calls += 1;
      const port = new FakePort((m, p) => { if (calls > 1 && m.type === "hello") queueMicrotask(() => p.onMessage.fire(helloOk(m.id))); });
      if (calls === 1) queueMicrotask(() => { globalThis.chrome.runtime.lastError = { message: "Specified native messaging host not found." }; port.onDisconnect.fire(); globalThis.chrome.runtime.lastError = undefined; });
      return port;
    },
    onStatus: (s) => statuses.push(structuredClone(s)),
  });
  await assert.rejects(link.ensure());
  assert.equal(link.status.state, "not_installed");
  await link.ensure();
  const retry = statuses.filter((s) => s.state === "connecting")[1];
  assert.deepEqual(retry.problem, { state: "not_installed", message: "The heybro host is not installed for this browser.", fix: "heybro install" });
  assert.equal(link.status.state, "connected");
  assert.equal(link.status.problem, undefined);
  const { shownProblem } = await import("../../extension/pages/common/host_status_view.js");
  assert.equal(shownProblem(retry).state, "not_installed");
  assert.equal(shownProblem(link.status), undefined);
});

test("Chrome's disconnect reasons become states a person can act on", () => {
  assert.equal(classifyDisconnect("Specified native messaging host not found.", false).state, "not_installed");
  assert.equal(classifyDisconnect("Access to the specified native messaging host is forbidden.", false).state, "not_installed");
  assert.equal(classifyDisconnect("Native host has exited.", false).state, "not_responding");
  assert.equal(classifyDisconnect("Error when communicating with the native messaging host.", false).state, "not_responding");
  assert.equal(classifyDisconnect("Native host has exited.", true).state, "disconnected");
});
