// @ts-check
/**
 * The coordinator: the extension's state authority and message router (MV3 service worker).
 * It owns the line to the host, serves the side panel and popup over ports, answers the host's
 * tool calls, and opens the panel from the keyboard shortcut.
 */
import { HostLink } from "./host_link.js";
import { runTool } from "./tools.js";
import { makeMessage } from "../lib/messages.js";

/** @typedef {import("../lib/ui_protocol.js").UiRequest} UiRequest */

/** @type {Set<chrome.runtime.Port>} */
const uiPorts = new Set();

/** @param {import("../lib/ui_protocol.js").UiPush} push */
function broadcast(push) {
  for (const p of uiPorts) {
    try { p.postMessage(push); } catch { uiPorts.delete(p); }
  }
}

/** Recent host states, newest last (for the panel's history and for diagnosing). @type {import("./host_link.js").HostStatus[]} */
const statusLog = [];

const link = new HostLink({
  extensionVersion: chrome.runtime.getManifest().version,
  onStatus: (status) => {
    statusLog.push({ ...status });
    if (statusLog.length > 50) statusLog.shift();
    broadcast({ kind: "host_status", status });
  },
  onMessage: (message) => onHostMessage(message),
});

/** @param {import("./host_link.js").Message} message */
async function onHostMessage(message) {
  if (message.type === "tool.call") {
    const payload = /** @type {import("./tools.js").ToolCallPayload} */ (/** @type {unknown} */ (message.payload));
    const result = await runTool(payload);
    try { link.post(makeMessage("tool.result", result, message.id)); } catch (e) { console.warn("heybro: tool result lost", e); }
    return;
  }
  broadcast({ kind: "host_message", message });
}

/** Commands the extension's pages may send. @type {Record<string, (args: Record<string, any>) => Promise<any>>} */
const commands = {
  async host_status() { return link.status; },
  async reconnect() {
    link.drop();
    link.attempt = 0;
    return link.ensure();
  },
  async ping({ data = "" }) {
    const started = performance.now();
    const reply = await link.call("ping", { nonce: String(Date.now()), data });
    return { rtt_ms: performance.now() - started, host_pid: reply.payload.host_pid, echoed: reply.payload.data.length };
  },
  async start_task({ goal, url }) {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    const reply = await link.call("task.start", { goal, ...(url ? { url } : {}), ...(tab?.id !== undefined ? { tab_id: tab.id } : {}) });
    return reply.payload;
  },
};

chrome.runtime.onConnect.addListener((port) => {
  if (!port.name.startsWith("ui:")) return;
  const reason = `${port.name}#${Math.random().toString(36).slice(2)}`;
  uiPorts.add(port);
  port.postMessage({ kind: "host_status", status: link.status });
  link.want(reason);
  port.onDisconnect.addListener(() => { uiPorts.delete(port); link.release(reason); });
  port.onMessage.addListener(async (/** @type {UiRequest} */ req) => {
    const fn = commands[req.cmd];
    try {
      if (!fn) throw Object.assign(new Error(`Unknown command ${req.cmd}`), { code: "unsupported" });
      port.postMessage({ kind: "reply", id: req.id, ok: true, result: await fn(req.args || {}) });
    } catch (e) {
      const err = /** @type {any} */ (e);
      try { port.postMessage({ kind: "reply", id: req.id, ok: false, error: { code: err.code || "internal", message: err.message || String(err) } }); } catch { /* page closed */ }
    }
  });
});

// The shortcut: open the side panel on the current window (must run inside the user gesture).
chrome.commands.onCommand.addListener((command, tab) => {
  if (command !== "start-task") return;
  const windowId = tab?.windowId;
  if (windowId !== undefined) chrome.sidePanel.open({ windowId }).catch((e) => console.warn("heybro: side panel", e));
});

// Exposed for the end-to-end tests and benchmarks (service-worker evaluate), not for pages.
Object.assign(globalThis, { heybro: { link, commands, statusLog } });
