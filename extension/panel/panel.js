// @ts-check
/** The side panel: the chat with heybro and the live window on what it does. */
import { CoordinatorClient } from "../lib/ui_protocol.js";
import { renderHostStatus } from "../lib/host_status_view.js";

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const els = {
  pill: $("#host-pill"), banner: $("#host-banner"), log: $("#log"),
  form: /** @type {HTMLFormElement} */ ($("#goal-form")), goal: /** @type {HTMLTextAreaElement} */ ($("#goal")),
  ping: /** @type {HTMLButtonElement} */ ($("#ping")), pingResult: $("#ping-result"),
};

/** @param {string} text @param {"user" | "agent" | "error"} who */
function say(text, who) {
  const p = document.createElement("p");
  p.className = `msg ${who}`;
  p.textContent = text;
  els.log.append(p);
  els.log.scrollTop = els.log.scrollHeight;
}

const client = new CoordinatorClient("panel", (push) => {
  if (push.kind === "host_status") renderHostStatus(push.status, els);
  else if (push.kind === "host_message" && push.message.type === "event") {
    const e = push.message.payload;
    say(`${e.kind}: ${JSON.stringify(e.data)}`, "agent");
  }
});

els.ping.addEventListener("click", async () => {
  els.pingResult.textContent = "Measuring…";
  try {
    const r = await client.call("ping", {});
    els.pingResult.textContent = `Round trip ${r.rtt_ms.toFixed(1)} ms (host pid ${r.host_pid})`;
  } catch (e) {
    els.pingResult.textContent = `No answer: ${/** @type {Error} */ (e).message}`;
  }
});

$("#reconnect").addEventListener("click", () => { client.call("reconnect").catch(() => {}); });
$("#copy-fix").addEventListener("click", () => {
  navigator.clipboard.writeText($("[data-field=fix]").textContent || "").catch(() => {});
});

els.form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const goal = els.goal.value.trim();
  if (!goal) return;
  say(goal, "user");
  els.goal.value = "";
  try {
    const r = await client.call("start_task", { goal });
    say(`Task ${r.task_id} started (${r.status}).`, "agent");
  } catch (e) {
    say(/** @type {Error} */ (e).message, "error");
  }
});
els.goal.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); els.form.requestSubmit(); }
});
els.goal.focus();
Object.assign(globalThis, { heybroPanel: { client } });
