// @ts-check
/**
 * Trusted input: the browser's own mouse and keyboard, through `chrome.debugger` (the DevTools
 * protocol's Input domain), for what a page refuses from script — a CSS `:hover` menu (no script
 * event can make an element `:hover`), a handler that checks `event.isTrusted`, a rich editor that
 * only takes text from real key presses or the input method.
 *
 * The DOM agent decides when (agent.js: the synthetic action first, this when it had no effect, or
 * always, as the user's setting says) and where: it scrolls the element into view and sends the
 * point a pointer would use, in its frame's viewport, with the steps to play. Here the tab's
 * debugger attachment (debugger_session.js) is held for those steps only. One tab's steps run one
 * batch at a time.
 *
 * When another debugger holds the tab (DevTools' own client on some Chrome versions, another
 * extension), attaching fails: that is the typed `debugger_busy` error, and nothing else changes —
 * the synthetic path keeps working.
 *
 * A click step presses `clicks` times in a row (default once): the browser counts them as a person's
 * (a second press is a double click, and the page hears `dblclick`), with its `button` (default the
 * left; the right one brings the page's `contextmenu`) and the keys held (`modifiers`: Alt 1,
 * Control 2, Meta 4, Shift 8, as the protocol counts them).
 *
 * A drag step presses the left button at `from`, carries it to `to` in small moves, and lets go
 * there: a pointer-driven sortable follows the moves; an HTML5 drag the browser starts is taken
 * over (`Input.setInterceptDrags`, as the protocol offers for drags it cannot run itself) and
 * dropped at `to` with the data the page put on it (`Input.dispatchDragEvent`).
 *
 * @typedef {{type: "move" | "click", x: number, y: number, clicks?: number, button?: "left" | "right", modifiers?: number}
 *   | {type: "drag", from: {x: number, y: number}, to: {x: number, y: number}}
 *   | {type: "text", text: string}
 *   | {type: "key", key: string, code: string, keyCode: number, modifiers: number, text?: string}} InputStep
 */

import { hold, letGo } from "./debugger_session.js";
import { dialogsOpenedSince } from "./dialog_answers.js";
import { requestsStartedSince } from "./page_requests.js";
import { pageReaction } from "./replay_gate.js";

/** chrome.storage.local key of the user's choice: "auto" (default), "always" or "off". */
export const TRUSTED_INPUT_SETTING = "heybro_trusted_input";

/** @param {unknown} v @returns {"auto" | "always" | "off"} */
const modeOf = (v) => (v === "always" || v === "off" ? v : "auto");

/**
 * The user's choice, read once per service worker and then kept current by storage's own change
 * events: every action asks for it, and a storage read queues behind the state's writes.
 * @type {Promise<"auto" | "always" | "off"> | null}
 */
let mode = null;
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && TRUSTED_INPUT_SETTING in changes) mode = Promise.resolve(modeOf(changes[TRUSTED_INPUT_SETTING].newValue));
});

/** @returns {Promise<"auto" | "always" | "off">} */
export function trustedInputMode() {
  mode ??= chrome.storage.local.get(TRUSTED_INPUT_SETTING).then((o) => modeOf(o[TRUSTED_INPUT_SETTING]), () => "auto");
  return mode;
}

/** @type {Map<number, Promise<unknown>>} one batch at a time per tab */
const queues = new Map();

/**
 * Runs `fn` with the tab's debugger attachment held (debugger_session.js), letting go after
 * whatever happens.
 * @template T @param {number} tabId
 * @param {(send: import("./debugger_session.js").Send) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export function withDebugger(tabId, fn) {
  const run = async () => {
    const send = await hold(tabId, "This page ignored heybro's synthetic input, and the browser's own input");
    try {
      return await fn(send);
    } finally {
      letGo(tabId);
    }
  };
  const prev = queues.get(tabId) || Promise.resolve();
  const next = prev.then(run, run);
  const settled = next.catch(() => undefined);
  queues.set(tabId, settled);
  settled.then(() => { if (queues.get(tabId) === settled) queues.delete(tabId); });
  return next;
}

/**
 * Plays the steps as the browser's own input. Points are in the top frame's viewport (CSS px).
 * @param {number} tabId @param {InputStep[]} steps
 */
export async function dispatchTrusted(tabId, steps) {
  await withDebugger(tabId, async (send) => {
    for (const s of steps) {
      if (s.type === "move" || s.type === "click") {
        const modifiers = s.type === "click" ? s.modifiers || 0 : 0;
        await send("Input.dispatchMouseEvent", { type: "mouseMoved", x: s.x, y: s.y, button: "none", modifiers });
        const button = s.type === "click" ? s.button || "left" : "left";
        for (let n = 1; s.type === "click" && n <= (s.clicks || 1); n++) {
          await send("Input.dispatchMouseEvent", { type: "mousePressed", x: s.x, y: s.y, button, buttons: button === "right" ? 2 : 1, clickCount: n, modifiers });
          await send("Input.dispatchMouseEvent", { type: "mouseReleased", x: s.x, y: s.y, button, buttons: 0, clickCount: n, modifiers });
        }
      } else if (s.type === "drag") {
        await dragBy(tabId, send, s.from, s.to);
      } else if (s.type === "text") {
        await send("Input.insertText", { text: s.text });
      } else if (s.type === "key") {
        const base = { key: s.key, code: s.code, windowsVirtualKeyCode: s.keyCode, nativeVirtualKeyCode: s.keyCode, modifiers: s.modifiers };
        await send("Input.dispatchKeyEvent", { type: s.text ? "keyDown" : "rawKeyDown", ...base, ...(s.text ? { text: s.text, unmodifiedText: s.text } : {}) });
        await send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
      }
    }
  });
}

/** Moves a drag is carried in (a sortable reorders as the pointer passes its rows). */
const DRAG_MOVES = 12;

/** @param {number} ms */
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A press at `from` carried to `to` and let go: an HTML5 drag the browser begins on the way is
 * intercepted and dropped at `to` with its data; else the moves and the release are the drag.
 * @param {number} tabId @param {import("./debugger_session.js").Send} send
 * @param {{x: number, y: number}} from @param {{x: number, y: number}} to
 */
async function dragBy(tabId, send, from, to) {
  /** @type {any} */ let data = null;
  /** @param {chrome.debugger.Debuggee} source @param {string} method @param {any} params */
  const heard = (source, method, params) => { if (source.tabId === tabId && method === "Input.dragIntercepted") data = params.data; };
  await send("Input.dispatchMouseEvent", { type: "mouseMoved", x: from.x, y: from.y, button: "none" });
  await send("Input.dispatchMouseEvent", { type: "mousePressed", x: from.x, y: from.y, button: "left", buttons: 1, clickCount: 1 });
  chrome.debugger.onEvent.addListener(heard);
  let at = from;
  try {
    await send("Input.setInterceptDrags", { enabled: true });
    for (let i = 1; i <= DRAG_MOVES && !data; i++) {
      at = { x: from.x + ((to.x - from.x) * i) / DRAG_MOVES, y: from.y + ((to.y - from.y) * i) / DRAG_MOVES };
      await send("Input.dispatchMouseEvent", { type: "mouseMoved", x: at.x, y: at.y, button: "left", buttons: 1 });
      await pause(16); // (a frame: the page follows the pointer, the browser says a drag began)
    }
  } finally {
    await send("Input.setInterceptDrags", { enabled: false }).catch(() => {});
    chrome.debugger.onEvent.removeListener(heard);
  }
  if (data) {
    for (const type of ["dragEnter", "dragOver"]) {
      await send("Input.dispatchDragEvent", { type, x: to.x, y: to.y, data });
      await pause(16);
    }
    await send("Input.dispatchDragEvent", { type: "drop", x: to.x, y: to.y, data });
  } else if (at.x !== to.x || at.y !== to.y) {
    await send("Input.dispatchMouseEvent", { type: "mouseMoved", x: to.x, y: to.y, button: "left", buttons: 1 });
  }
  await send("Input.dispatchMouseEvent", { type: "mouseReleased", x: to.x, y: to.y, button: "left", buttons: 0, clickCount: 1 });
}

// The DOM agent asks from the page (`trusted.input`, with the steps): only the top frame's agent,
// whose viewport is the one the browser's input points into. A replay of an action the page
// seemed to ignore says when the action began (`since`): refused (`reacted`, the reason its
// message) when the tab's pages started a request or opened a dialog since (replay_gate.js).
chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (msg?.kind !== "trusted.input") return false;
  const tabId = sender.tab?.id;
  if (tabId === undefined || sender.id !== chrome.runtime.id) return false;
  if (sender.frameId !== 0) {
    sendResponse({ ok: false, error: { code: "unsupported", message: "The browser's own input is only sent to elements the top page's agent reads (not inside a cross-origin frame)." } });
    return false;
  }
  if (typeof msg.since === "number") {
    const why = pageReaction({ requests: requestsStartedSince(tabId, msg.since), dialogs: dialogsOpenedSince(tabId, msg.since) }, msg.since);
    if (why) {
      sendResponse({ ok: false, error: { code: "reacted", message: why } });
      return false;
    }
  }
  dispatchTrusted(tabId, /** @type {import("./trusted_input.js").InputStep[]} */ (msg.steps || []))
    .then(() => sendResponse({ ok: true }), (e) => sendResponse({ ok: false, error: { code: e?.code || "internal", message: String(e?.message || e), ...(e?.detail ? { detail: e.detail } : {}) } }));
  return true;
});
