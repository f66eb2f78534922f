// @ts-check
/**
 * Browser dialogs while heybro acts. Runs in the page's own JavaScript world (manifest
 * `"world": "MAIN"`, at document_start, before the page's scripts), because `alert`, `confirm` and
 * `prompt` are the page's functions: one of them blocks the page until a person answers, and an
 * action that opens one would hang.
 *
 * While the DOM agent is working on this page it arms this script (an event carrying a deadline and
 * a policy); a dialog opened then is answered at once — alert: OK; confirm and prompt: the action's
 * own instruction, else dismissed (Cancel), the safe answer for a question nobody read — and
 * reported back to the agent, which puts it in the action's result. At any other time the page's
 * `alert`, `confirm` and `prompt` are the browser's own functions, untouched — a page cannot tell
 * heybro is installed while it is not at work there — and the browser's own dialog shows.
 *
 * The channel is two DOM events on the document, which the page can see and send too: the page can
 * only arm answers to its own dialogs or invent a report, whose words are page content anyway (the
 * agent treats them as such).
 */
(() => {
  const POLICY = "heybro-dialog-policy", SEEN = "heybro-dialog-seen";
  const native = { alert: window.alert, confirm: window.confirm, prompt: window.prompt };
  /** @type {{until: number, confirm: "accept" | "dismiss", prompt_text: string | null}} */
  let policy = { until: 0, confirm: "dismiss", prompt_text: null };

  /** @type {ReturnType<typeof setTimeout> | undefined} */ let disarm;
  document.addEventListener(POLICY, (e) => {
    try {
      const p = JSON.parse(String(/** @type {CustomEvent} */ (e).detail));
      policy = { until: Number(p.until) || 0, confirm: p.confirm === "accept" ? "accept" : "dismiss",
        prompt_text: typeof p.prompt_text === "string" ? p.prompt_text : null };
    } catch { return; /* not ours */ }
    // Ours only while armed: the browser's own functions again once the deadline has passed.
    clearTimeout(disarm);
    if (armed()) {
      install(true);
      disarm = setTimeout(() => { if (!armed()) install(false); }, policy.until - Date.now() + 50);
    } else install(false);
  });

  const armed = () => Date.now() < policy.until;
  /** @param {string} kind @param {unknown} message @param {"accepted" | "dismissed"} answer @param {string | null} [value] */
  const report = (kind, message, answer, value = null) => {
    const detail = JSON.stringify({ kind, message: message === undefined ? "" : String(message), answer, value });
    document.dispatchEvent(new CustomEvent(SEEN, { detail }));
  };

  /** @param {unknown} [message] */
  function alert(message) {
    if (!armed()) return native.alert.call(window, message);
    report("alert", message, "accepted");
  }
  /** @param {unknown} [message] */
  function confirm(message) {
    if (!armed()) return native.confirm.call(window, message);
    const yes = policy.confirm === "accept";
    report("confirm", message, yes ? "accepted" : "dismissed");
    return yes;
  }
  /** @param {unknown} [message] @param {unknown} [value] */
  function prompt(message, value) {
    if (!armed()) return native.prompt.call(window, message, value);
    const yes = policy.confirm === "accept" || policy.prompt_text !== null;
    const answer = yes ? policy.prompt_text ?? (value === undefined ? "" : String(value)) : null;
    report("prompt", message, yes ? "accepted" : "dismissed", answer);
    return answer;
  }
  /** @param {boolean} ours */
  function install(ours) {
    window.alert = ours ? alert : native.alert;
    window.confirm = ours ? confirm : native.confirm;
    window.prompt = ours ? prompt : native.prompt;
  }
})();
