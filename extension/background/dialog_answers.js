// @ts-check
/**
 * Browser dialogs (alert, confirm, prompt, "leave this page?") while heybro acts, answered through
 * the browser's DevTools protocol (`Page.javascriptDialogOpening`), so nothing of heybro runs in
 * the page: its `alert`, `confirm` and `prompt` stay the browser's own, and no event on its
 * document says heybro is there.
 *
 * The coordinator arms a tab for the length of an action with the action's own instruction
 * (`dialog: "accept"`, `dialog_text` for a prompt), then — and on every other request — for a
 * short while with the default (alert: OK; confirm, prompt and "leave?": Cancel, the safe answer
 * to a question nobody read), so a dialog the page opens a moment later neither hangs the agent
 * nor goes unreported. Each answer is kept for the action's result (or the next look at the page),
 * where the model reads what the box said and how heybro answered. A dialog at any other time is
 * the user's: the browser shows it, as usual.
 *
 * When each dialog opened is kept too, whoever answered it: a page that opened one since an action
 * began reacted to it, and the browser's own input does not do that action again (replay_gate.js).
 *
 * The debugger attachment (debugger_session.js) stays up while heybro works on the tab and a
 * while after (so Chrome's bar does not come and go between steps); a tab that another debugger
 * holds (DevTools) cannot be armed: its dialogs are the user's, and the results say so.
 *
 * @typedef {{name: string, text: string, kind: "alert" | "confirm" | "prompt" | "beforeunload", answer: "accepted" | "dismissed", value?: string}} BrowserDialog
 * @typedef {{dialog?: "accept" | "dismiss" | null, dialog_text?: string | null}} DialogInstruction
 */
import { attached, hold, letGo, letGoNow, linger, onDetached } from "./debugger_session.js";

/** After the agent's last request, how long dialogs are still answered for it. */
export const GRACE_MS = 10_000;
/** For an action's own instruction: long enough for any action (the coordinator's cap). */
const ACTION_MS = 120_000;
/** How long the attachment stays up after the last arming (one step's think time, about). */
const LINGER_MS = 60_000;
const KEEP = 10;

/** @typedef {{until: number, confirm: "accept" | "dismiss", prompt_text: string | null, answered: BrowserDialog[], send: import("./debugger_session.js").Send}} Armed */
/** @type {Map<number, Armed>} */
const armed = new Map();

/**
 * Arms the tab: its dialogs are answered for heybro until the instruction's time is up. Resolves
 * with null once armed, or with why it could not be (another debugger holds the tab).
 * @param {number} tabId @param {DialogInstruction} [instruction] an action's own; none: the default for a while
 * @returns {Promise<string | null>}
 */
export async function armDialogs(tabId, instruction) {
  let a = armed.get(tabId);
  if (!a || !attached(tabId)) {
    try {
      const send = await hold(tabId, "Answering the page's browser dialogs");
      await send("Page.enable");
      a = { until: 0, confirm: "dismiss", prompt_text: null, answered: a?.answered || [], send };
      armed.set(tabId, a);
      letGo(tabId, LINGER_MS);
    } catch (e) {
      return String(/** @type {any} */ (e)?.message || e);
    }
  } else {
    linger(tabId, LINGER_MS);
  }
  a.until = Date.now() + (instruction ? ACTION_MS : GRACE_MS);
  a.confirm = instruction?.dialog === "accept" ? "accept" : "dismiss";
  a.prompt_text = instruction?.dialog_text ?? null;
  return null;
}

/** When each tab's pages last opened dialogs, newest last (Date.now()): whoever answered them. @type {Map<number, Array<{at: number, kind: string}>>} */
const openedByTab = new Map();

/**
 * The dialogs the tab's pages opened at or after `since` (Date.now()) while heybro's attachment
 * was up: a page that opened one since an action began reacted to it (replay_gate.js).
 * @param {number} tabId @param {number} since
 */
export function dialogsOpenedSince(tabId, since) {
  return (openedByTab.get(tabId) || []).filter((d) => d.at >= since);
}

/** The dialogs answered on the tab since the last call, oldest first. @param {number} tabId @returns {BrowserDialog[]} */
export function takeDialogs(tabId) { return armed.get(tabId)?.answered.splice(0) || []; }

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (method !== "Page.javascriptDialogOpening" || source.tabId === undefined) return;
  const opened = [...(openedByTab.get(source.tabId) || []), { at: Date.now(), kind: String(/** @type {any} */ (params)?.type || "") }];
  openedByTab.set(source.tabId, opened.slice(-KEEP));
  const a = armed.get(source.tabId);
  if (!a || Date.now() > a.until) return; // the user's: the browser shows it
  const p = /** @type {{type: string, message?: string, defaultPrompt?: string}} */ (params);
  const kind = /** @type {BrowserDialog["kind"]} */ (["alert", "confirm", "prompt", "beforeunload"].includes(p.type) ? p.type : "confirm");
  const accept = kind === "alert" || a.confirm === "accept" || (kind === "prompt" && a.prompt_text !== null);
  const value = kind === "prompt" && accept ? (a.prompt_text ?? p.defaultPrompt ?? "") : undefined;
  const answered = a.answered;
  // Told only once it is answered: a box someone else closed first (the user) is not heybro's to report.
  a.send("Page.handleJavaScriptDialog", { accept, ...(value !== undefined ? { promptText: value } : {}) }).then(() => {
    if (answered.length < KEEP) {
      answered.push({ name: kind, text: String(p.message || "").slice(0, 500), kind, answer: accept ? "accepted" : "dismissed",
        ...(value !== undefined ? { value: value.slice(0, 200) } : {}) });
    }
  }, () => { /* closed meanwhile */ });
});

onDetached((tabId) => { const a = armed.get(tabId); if (a) a.until = 0; });

/** heybro stopped working on the tab (its task ended or paused): its dialogs are the user's again, and the debugger lets go. @param {number} tabId */
export function standDown(tabId) {
  const a = armed.get(tabId);
  if (!a) return;
  a.until = 0;
  letGoNow(tabId);
}
