// @ts-check
/**
 * Messages between the extension's own pages (side panel, popup) and the coordinator, over
 * `chrome.runtime.connect({name: "ui:<page>"})` ports. These never leave the browser; host-bound
 * messages use the shared schema instead.
 *
 * @typedef {{id: string, cmd: string, args?: Record<string, any>}} UiRequest
 * @typedef {{kind: "reply", id: string, ok: true, result: any} | {kind: "reply", id: string, ok: false, error: {code: string, message: string, detail?: Record<string, any>}}} UiReply
 * @typedef {{kind: "host_status", status: import("../background/host_link.js").HostStatus}} UiHostStatus
 * @typedef {{kind: "state", state: import("./state.js").HeybroState}} UiState
 * @typedef {{kind: "draft", text: string}} UiDraft
 * @typedef {UiReply | UiHostStatus | UiState | UiDraft} UiPush
 */

/**
 * A page's connection to the coordinator, with request/reply and a stream of pushes.
 * Reconnects itself when the service worker restarts (the port then closes).
 */
export class CoordinatorClient {
  /** @param {string} page @param {(push: UiPush) => void} onPush */
  constructor(page, onPush) {
    this.page = page;
    this.onPush = onPush;
    /** @type {Map<string, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
    this.seq = 0;
    /** @type {chrome.runtime.Port | null} */
    this.port = null;
    this.connect();
  }

  connect() {
    const port = chrome.runtime.connect({ name: `ui:${this.page}` });
    this.port = port;
    port.onMessage.addListener((/** @type {UiPush} */ m) => {
      if (m.kind === "reply") {
        const w = this.waiting.get(m.id);
        if (!w) return;
        this.waiting.delete(m.id);
        if (m.ok === false) w.reject(Object.assign(new Error(m.error.message), { code: m.error.code, detail: m.error.detail }));
        else w.resolve(m.result);
        return;
      }
      this.onPush(m);
    });
    port.onDisconnect.addListener(() => {
      if (this.port !== port) return;
      this.port = null;
      for (const w of this.waiting.values()) w.reject(Object.assign(new Error("The extension restarted; try again."), { code: "restarted" }));
      this.waiting.clear();
      setTimeout(() => this.connect(), 100); // the service worker restarts on connect
    });
  }

  /** @param {string} cmd @param {Record<string, any>} [args] @returns {Promise<any>} */
  call(cmd, args = {}) {
    const id = `${this.page}-${++this.seq}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (!this.port) this.connect();
      /** @type {chrome.runtime.Port} */ (this.port).postMessage(/** @type {UiRequest} */ ({ id, cmd, args }));
    });
  }
}
