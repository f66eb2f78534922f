// @ts-check
/**
 * The agent's side of browser dialogs (alert / confirm / prompt): arms the page-world script
 * (extension/content/page_dialogs.js) of each document the agent acts in, with how to answer, and
 * collects what it answered.
 *
 * Armed for the length of an action with the action's own instruction (`dialog: "accept"`,
 * `dialog_text` for a prompt), then — and on every other request of the agent — for a short
 * while with the default (confirm and prompt dismissed), so that a dialog the page opens a moment
 * later, while the agent is still at work, neither hangs the agent nor goes unreported.
 */

const POLICY = "heybro-dialog-policy", SEEN = "heybro-dialog-seen";
/** After the agent's last request, how long dialogs are still answered for it. */
export const GRACE_MS = 10_000;
/** For an action's own instruction: long enough for any action (the coordinator's cap). */
const ACTION_MS = 120_000;
const KEEP = 10;

/**
 * @typedef {{name: string, text: string, kind: "alert" | "confirm" | "prompt", answer: "accepted" | "dismissed", value?: string}} BrowserDialog
 */

/** @type {BrowserDialog[]} */
const answered = [];
/** @type {WeakSet<Document>} */
const listening = new WeakSet();

/** @param {Document} doc */
function listen(doc) {
  if (listening.has(doc)) return;
  listening.add(doc);
  doc.addEventListener(SEEN, (e) => {
    try {
      const d = JSON.parse(String(/** @type {CustomEvent} */ (e).detail));
      if (!["alert", "confirm", "prompt"].includes(d.kind) || answered.length >= KEEP) return;
      answered.push({ name: d.kind, text: String(d.message || "").slice(0, 500), kind: d.kind,
        answer: d.answer === "accepted" ? "accepted" : "dismissed", ...(typeof d.value === "string" ? { value: d.value.slice(0, 200) } : {}) });
    } catch { /* not ours */ }
  });
}

/**
 * Arms the documents' page-world scripts.
 * @param {Document[]} docs the agent's document and its same-origin frames'
 * @param {{dialog?: "accept" | "dismiss" | null, dialog_text?: string | null}} [instruction] an action's own; none: the default for a while
 */
export function armDialogs(docs, instruction) {
  const detail = JSON.stringify({
    until: Date.now() + (instruction ? ACTION_MS : GRACE_MS),
    confirm: instruction?.dialog === "accept" ? "accept" : "dismiss",
    prompt_text: instruction?.dialog_text ?? null,
  });
  for (const d of docs) {
    listen(d);
    d.dispatchEvent(new CustomEvent(POLICY, { detail }));
  }
}

/** The dialogs answered since the last call, oldest first. @returns {BrowserDialog[]} */
export function takeDialogs() { return answered.splice(0); }
