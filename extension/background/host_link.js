// @ts-check
/**
 * The coordinator's line to the Python host: connects on demand, does the version handshake,
 * correlates requests with replies, joins chunked messages, checks every message against the shared
 * schema, and reconnects with backoff when the host dies while something still needs it.
 */
import { FIXES, FIX_NOTES, PROTOCOL, validator } from "../shared/schema_check.js";
import { makeMessage } from "../shared/messages.js";
import { isProblem } from "../shared/host_state.js";

export const HOST_NAME = "com.heybro.host";
const HANDSHAKE_TIMEOUT_MS = 5000;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000, 15000];
const CHUNK_TTL_MS = 30000;

/**
 * @typedef {"idle" | "connecting" | "connected" | "disconnected" | "not_installed" | "not_responding" | "wrong_version"} HostState
 * @typedef {{state: HostState, message: string, fix?: string}} HostProblem
 * @typedef {{state: HostState, message: string, fix?: string, hostVersion?: string, hostPid?: number, logFile?: string, since: number, retryInMs?: number, problem?: HostProblem}} HostStatus
 * @typedef {{v: number, id: string, type: string, re?: string, payload: Record<string, any>}} Message
 */

/** Where to run the update and what to do after it (the fix is the command alone, to copy). */
const UPDATE_HINT = FIX_NOTES.wrong_version;

/**
 * Maps Chrome's lastError text for a native port to a state a person can act on.
 * @param {string} text @param {boolean} wasConnected
 * @returns {{state: HostState, message: string}}
 */
export function classifyDisconnect(text, wasConnected) {
  if (/not found/i.test(text)) {
    return { state: "not_installed", message: "The heybro host is not installed for this browser." };
  }
  if (/forbidden/i.test(text)) {
    return { state: "not_installed", message: "The heybro host is installed, but not for this extension id." };
  }
  if (wasConnected) return { state: "disconnected", message: `The heybro host disconnected (${text || "it exited"}).` };
  if (/exited/i.test(text)) return { state: "not_responding", message: "The heybro host started and exited at once." };
  if (/communicating/i.test(text)) return { state: "not_responding", message: "The heybro host wrote something that is not a native-messaging frame." };
  return { state: "not_responding", message: `The heybro host could not be reached (${text || "no reason given"}).` };
}

export class HostLink {
  /**
   * @param {{
   *   extensionVersion: string,
   *   connectNative?: (name: string) => chrome.runtime.Port,
   *   onStatus?: (s: HostStatus) => void,
   *   onMessage?: (m: Message) => void,
   * }} opts
   */
  constructor(opts) {
    this.extensionVersion = opts.extensionVersion;
    this.connectNative = opts.connectNative || ((name) => chrome.runtime.connectNative(name));
    this.onStatus = opts.onStatus || (() => {});
    this.onMessage = opts.onMessage || (() => {});
    /** @type {chrome.runtime.Port | null} */
    this.port = null;
    /** @type {HostStatus} */
    this.status = { state: "idle", message: "Not connected yet.", since: Date.now() };
    /** @type {Map<string, {resolve: (m: Message) => void, reject: (e: Error) => void, timer: any}>} */
    this.pending = new Map();
    /** @type {Map<string, {parts: string[], got: number, timer: any}>} */
    this.chunks = new Map();
    /** @type {Set<string>} reasons something needs the host (open panel, running task) */
    this.demand = new Set();
    /** @type {Promise<HostStatus> | null} */
    this.connecting = null;
    this.attempt = 0;
    /** @type {any} */
    this.retryTimer = null;
    this.invalidFromHost = 0;
  }

  /** @param {Partial<HostStatus> & {state: HostState, message: string}} s */
  setStatus(s) {
    this.status = { ...s, since: Date.now() };
    if (s.state in FIXES && !s.fix) this.status.fix = FIXES[s.state];
    this.onStatus(this.status);
  }

  /** Something needs the host: connect now and reconnect after failures until `release`. @param {string} reason */
  want(reason) {
    this.demand.add(reason);
    if (!this.port && !this.connecting && !this.retryTimer) this.ensure().catch(() => {});
  }

  /** @param {string} reason */
  release(reason) {
    this.demand.delete(reason);
    if (this.demand.size === 0) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
  }

  /** Connects (if needed) and finishes the handshake. Rejects with the failed status. @returns {Promise<HostStatus>} */
  ensure() {
    if (this.port && this.status.state === "connected") return Promise.resolve(this.status);
    if (this.connecting) return this.connecting;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connecting = this.connectOnce().finally(() => { this.connecting = null; });
    return this.connecting;
  }

  /** @returns {Promise<HostStatus>} */
  connectOnce() {
    // While retrying, the last problem stays on show (with its fix) until the host answers.
    const last = this.status;
    const problem = isProblem(last.state) ? { state: last.state, message: last.message, fix: last.fix } : last.problem;
    this.setStatus({ state: "connecting", message: "Starting the heybro host…", ...(problem ? { problem } : {}) });
    return new Promise((resolve, reject) => {
      /** @type {chrome.runtime.Port} */
      let port;
      let settled = false;
      let handshook = false;
      const fail = (/** @type {HostState} */ state, /** @type {string} */ message) => {
        if (!settled) { settled = true; reject(Object.assign(new Error(message), { status: this.status })); }
      };
      try {
        port = this.connectNative(HOST_NAME);
      } catch (e) {
        this.setStatus({ state: "not_installed", message: `Chrome refused to start the host: ${/** @type {Error} */ (e).message}` });
        fail("not_installed", String(e));
        this.scheduleRetry();
        return;
      }
      this.port = port;
      port.onMessage.addListener((m) => this.receive(m));
      port.onDisconnect.addListener(() => {
        const text = chrome.runtime.lastError?.message || "";
        if (this.port !== port) return;
        this.port = null;
        const c = classifyDisconnect(text, handshook);
        if (!(handshook === false && this.status.state === "wrong_version")) this.setStatus(c);
        this.failPending(new Error(c.message));
        fail(c.state, c.message);
        this.scheduleRetry();
      });
      const hello = makeMessage("hello", { protocol: PROTOCOL, extension_version: this.extensionVersion });
      this.request(hello, HANDSHAKE_TIMEOUT_MS).then((reply) => {
        if (reply.type !== "hello_ok" || reply.payload.protocol !== PROTOCOL) {
          this.setStatus({ state: "wrong_version", message: `The heybro host speaks protocol ${reply.payload.protocol}; this extension speaks ${PROTOCOL}. ${UPDATE_HINT}` });
          this.drop();
          fail("wrong_version", this.status.message);
          return;
        }
        handshook = true;
        this.attempt = 0;
        this.setStatus({ state: "connected", message: `Connected to heybro host ${reply.payload.host_version}.`, hostVersion: reply.payload.host_version, hostPid: reply.payload.pid, logFile: reply.payload.log_file });
        settled = true;
        resolve(this.status);
      }, (/** @type {any} */ err) => {
        if (err.code === "version_mismatch") {
          const theirs = err.detail?.host_protocol ?? err.detail?.protocol;
          const said = theirs !== undefined ? `The heybro host speaks protocol ${theirs}; this extension speaks ${PROTOCOL}.` : err.message;
          this.setStatus({ state: "wrong_version", message: `${said} ${UPDATE_HINT}` });
        } else if (this.port === port) {
          this.setStatus({ state: "not_responding", message: `The heybro host started but did not answer the handshake (${err.message}).` });
        }
        this.drop();
        fail(this.status.state, this.status.message);
        this.scheduleRetry();
      });
    });
  }

  /** Closes the port on our side (Chrome then ends the host process). */
  drop() {
    const port = this.port;
    this.port = null;
    try { port?.disconnect(); } catch { /* already gone */ }
    this.failPending(new Error("disconnected"));
  }

  scheduleRetry() {
    if (this.demand.size === 0 || this.retryTimer) return;
    if (this.status.state === "wrong_version") return; // retrying cannot help; the user must update
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.status.retryInMs = delay;
    this.onStatus(this.status);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.demand.size) this.ensure().catch(() => {});
    }, delay);
  }

  /** @param {Error} err */
  failPending(err) {
    for (const [id, p] of this.pending) { clearTimeout(p.timer); p.reject(err); this.pending.delete(id); }
  }

  /**
   * Sends a checked message and resolves with the reply (an `error` reply rejects with its code).
   * @param {Message} message @param {number} timeoutMs @returns {Promise<Message>}
   */
  request(message, timeoutMs) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(message.id);
        reject(Object.assign(new Error(`The host did not answer ${message.type} within ${timeoutMs} ms.`), { code: "timeout" }));
      }, timeoutMs);
      this.pending.set(message.id, { resolve, reject, timer });
      try {
        this.post(message);
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(message.id);
        reject(e);
      }
    });
  }

  /** Connects if needed, then sends a request. @param {string} type @param {Record<string, any>} payload @param {number} [timeoutMs] */
  async call(type, payload, timeoutMs = 15000) {
    await this.ensure();
    return this.request(makeMessage(type, payload), timeoutMs);
  }

  /** @param {Message} message */
  post(message) {
    if (!this.port) throw Object.assign(new Error("The heybro host is not connected."), { code: "host_unavailable" });
    this.port.postMessage(message);
  }

  /** @param {any} raw */
  receive(raw) {
    if (raw && raw.type === "chunk") {
      const issues = validator.validateMessage(raw, "to_extension");
      if (issues.length) return this.rejectFromHost(raw, issues);
      const whole = this.joinChunk(raw.payload);
      if (whole === undefined) return;
      raw = whole;
    }
    const issues = validator.validateMessage(raw, "to_extension");
    if (issues.length) {
      // A reply in another protocol version that this side cannot read: the versions differ.
      const asked = raw?.v !== PROTOCOL && typeof raw?.re === "string" && this.pending.get(raw.re);
      if (asked) {
        clearTimeout(asked.timer);
        this.pending.delete(raw.re);
        asked.reject(Object.assign(new Error(`The host answered in protocol ${raw.v}; this extension speaks ${PROTOCOL}.`), { code: "version_mismatch", detail: { host_protocol: raw.v } }));
      }
      return this.rejectFromHost(raw, issues);
    }
    const waiter = raw.re && this.pending.get(raw.re);
    if (waiter) {
      clearTimeout(waiter.timer);
      this.pending.delete(raw.re);
      if (raw.type === "error") waiter.reject(Object.assign(new Error(raw.payload.message), { code: raw.payload.code, detail: raw.payload.detail }));
      else waiter.resolve(raw);
      return;
    }
    this.onMessage(raw);
  }

  /** @param {any} raw @param {import("../shared/schema_check.js").SchemaIssue[]} issues */
  rejectFromHost(raw, issues) {
    this.invalidFromHost += 1;
    console.warn("heybro: invalid message from host", issues, raw);
    const id = typeof raw?.id === "string" ? raw.id : undefined;
    try {
      this.post(makeMessage("error", { code: "schema_violation", message: "The extension rejected a host message that does not match the shared schema.", detail: { issues: issues.slice(0, 5) } }, id));
    } catch { /* host gone */ }
  }

  /** @param {{message_id: string, index: number, count: number, data: string}} c @returns {Message | undefined} */
  joinChunk(c) {
    let entry = this.chunks.get(c.message_id);
    if (!entry) {
      entry = { parts: new Array(c.count), got: 0, timer: setTimeout(() => this.chunks.delete(c.message_id), CHUNK_TTL_MS) };
      this.chunks.set(c.message_id, entry);
    }
    if (c.index >= entry.parts.length || entry.parts[c.index] !== undefined) return undefined;
    entry.parts[c.index] = c.data;
    entry.got += 1;
    if (entry.got < entry.parts.length) return undefined;
    clearTimeout(entry.timer);
    this.chunks.delete(c.message_id);
    const pieces = entry.parts.map((b64) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)));
    const all = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of pieces) { all.set(p, at); at += p.length; }
    try {
      return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(all));
    } catch (e) {
      console.warn("heybro: chunked message could not be joined", e);
      return undefined;
    }
  }
}
