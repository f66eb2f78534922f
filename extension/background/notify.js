// @ts-check
/**
 * Tells the person when a task needs them: a desktop notification and the toolbar badge when a
 * task completes, fails, or waits paused for them (not a pause they asked for), with the result,
 * the reason or the question. Off when the person turned notifications off in the settings.
 * `alertFor` decides from two states (pure); `Notifier` shows what it decides, and a click on the
 * notification opens heybro's side panel.
 */
import { reasonText } from "../pages/panel/task_view.js";
import { awaitsUser, meaningOf } from "../shared/state.js";
import { STATUS } from "../shared/vocabulary.js";

/**
 * @typedef {import("../shared/state.js").TaskContext} TaskContext
 * @typedef {{kind: "completed" | "failed" | "waiting", id: string, title: string, message: string, badge: {text: string, color: string}}} Alert
 */

const BADGES = {
  completed: { text: "✓", color: "#137a3c" },
  failed: { text: "!", color: "#b42318" },
  waiting: { text: "?", color: "#9a5b00" },
};

/** @param {string} text @param {number} max */
const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The alert a change of the shown task calls for, or null.
 * @param {TaskContext | null | undefined} before @param {TaskContext | null | undefined} after
 * @returns {Alert | null}
 */
export function alertFor(before, after) {
  if (!after) return null;
  const same = before?.taskId === after.taskId;
  if (same && before?.status === after.status) return null;
  const goal = clip(after.goal, 80);
  /** @type {Alert["kind"] | null} */
  let kind = null;
  let message = "";
  // What the vocabulary says a status calls for; a pause needs the person unless they made it.
  const notice = meaningOf(after.status)?.notice || (awaitsUser(after) ? "needs_you" : null);
  if (notice === "completed") { kind = "completed"; message = after.result || after.reason || "Done."; }
  else if (notice === "failed") { kind = "failed"; message = reasonText(after.reason || after.error || "The task failed."); }
  else if (notice === "needs_you" && after.status === STATUS.waiting) {
    kind = "waiting";
    message = `${after.question?.text || reasonText(after.reason || "heybro has a question.")} Answer in heybro's side panel.`;
  }
  else if (notice === "needs_you") {
    kind = "waiting";
    message = `${reasonText(after.reason || "heybro needs you.")} Open heybro to resume or stop it.`;
  }
  if (!kind) return null;
  const title = kind === "completed" ? `heybro finished: ${goal}` : kind === "failed" ? `heybro failed: ${goal}` : `heybro needs you: ${goal}`;
  return { kind, id: `heybro-${after.taskId}`, title, message: clip(message, 300), badge: BADGES[kind] };
}

/** Whether the badge should be cleared: a task runs again, or none is shown. @param {TaskContext | null | undefined} ctx */
export function badgeCleared(ctx) {
  const meaning = meaningOf(ctx?.status);
  return !ctx || !(meaning?.notice || meaning?.resumable);
}

export class Notifier {
  /** @param {() => Promise<{notify: boolean}>} prefs */
  constructor(prefs) {
    this.prefs = prefs;
    /** @type {Map<string, number>} the window each notification opens heybro's panel in */
    this.windows = new Map();
    // A click on the notification is the user gesture the side panel needs to open: opened at
    // once, in the window that was in front when the notification was shown.
    chrome.notifications.onClicked.addListener((id) => {
      const windowId = this.windows.get(id);
      if (windowId !== undefined) chrome.sidePanel.open({ windowId }).catch((e) => console.warn("heybro: side panel", e));
      chrome.notifications.clear(id);
    });
    chrome.notifications.onClosed.addListener((id) => { this.windows.delete(id); });
  }

  /** @param {TaskContext | null | undefined} before @param {TaskContext | null | undefined} after */
  async changed(before, after) {
    // (Most changes are a task's steps: neither its status nor the task changed, nothing to tell.)
    if (before?.taskId === after?.taskId && before?.status === after?.status) return;
    const alert = alertFor(before, after);
    if (!alert) {
      if (badgeCleared(after)) await chrome.action.setBadgeText({ text: "" });
      return;
    }
    if (!(await this.prefs()).notify) return;
    await chrome.action.setBadgeBackgroundColor({ color: alert.badge.color });
    await chrome.action.setBadgeText({ text: alert.badge.text });
    const front = await chrome.windows.getLastFocused().catch(() => undefined);
    if (front?.id !== undefined) this.windows.set(alert.id, front.id);
    await chrome.notifications.create(alert.id, {
      type: "basic", iconUrl: chrome.runtime.getURL("extension/icons/icon128.png"),
      title: alert.title, message: alert.message, priority: alert.kind === "completed" ? 0 : 1,
    });
  }
}
