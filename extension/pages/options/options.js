// @ts-check
/**
 * The options page: the model and agent settings the host keeps (read and written through the
 * coordinator as settings.get / set / test), and the extension's own preferences.
 * The key field is write-only: what is typed is sent once on Save (or Test) and the field is
 * emptied; the page learns only whether a key is saved.
 */
import { CoordinatorClient } from "../../shared/ui_protocol.js";
import { renderHostStatus } from "../common/host_status_view.js";
import { loadPrefs, savePrefs } from "../../shared/prefs.js";
import { CATEGORIES, PROVIDERS, entriesFromView, keyStatus, payloadFromEntries, providerFor } from "./settings_form.js";

/** @typedef {import("./settings_form.js").KeyAction} KeyAction */

const byId = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const form = /** @type {HTMLFormElement} */ (document.getElementById("settings"));
/** @type {Record<string, any> | null} the settings as saved */
let saved = null;
/** @type {KeyAction} */
let keyAction = { kind: "keep" };

const client = new CoordinatorClient("options", (push) => {
  if (push.kind !== "host_status") return;
  renderHostStatus(push.status, { pill: byId("host-pill"), banner: byId("host-banner") });
  if (push.status.state === "connected" && !saved) load();
});

/** @returns {import("./settings_form.js").Entries} */
function readEntries() {
  /** @type {import("./settings_form.js").Entries} */
  const e = {};
  for (const el of form.querySelectorAll("input[name], select[name], textarea[name]")) {
    const input = /** @type {HTMLInputElement} */ (el);
    e[input.name] = input.type === "checkbox" ? input.checked : input.value;
  }
  return e;
}

/** @param {import("./settings_form.js").Entries} e */
function writeEntries(e) {
  for (const [name, value] of Object.entries(e)) {
    const input = /** @type {HTMLInputElement | null} */ (form.querySelector(`[name="${name}"]`));
    if (!input) continue;
    if (input.type === "checkbox") input.checked = value === true;
    else input.value = String(value);
  }
  showProvider();
  showRoles();
}

function showRoles() { byId("role-models").hidden = !byId("per_role").checked; }

function showProvider() {
  const provider = providerFor(byId("base_url").value);
  for (const b of document.querySelectorAll("#providers button")) {
    const btn = /** @type {HTMLButtonElement} */ (b);
    btn.setAttribute("aria-checked", String(btn.dataset.id === provider.id));
    btn.tabIndex = btn.dataset.id === provider.id ? 0 : -1;
  }
  byId("provider-hint").textContent = provider.hint;
  byId("model").placeholder = `e.g. ${provider.example}`;
  showKey();
}

function showKey() {
  const provider = providerFor(byId("base_url").value);
  const status = keyStatus(!!saved?.api_key_set, keyAction, provider);
  const el = byId("key-status");
  el.textContent = status.text;
  el.dataset.tone = status.tone;
  byId("clear-key").hidden = !saved?.api_key_set || keyAction.kind === "clear";
}

/** Field errors from the page's own checks or the host's `invalid_settings` detail. @param {Record<string, string>} problems */
function showProblems(problems) {
  for (const p of form.querySelectorAll("[data-error-for]")) {
    const el = /** @type {HTMLElement} */ (p);
    const name = el.dataset.errorFor || "";
    el.textContent = problems[name] || "";
    form.querySelector(`[name="${name}"]`)?.setAttribute("aria-invalid", String(!!problems[name]));
  }
}

/** @param {string} text @param {"ok" | "bad" | "muted"} [tone] */
function say(text, tone = "muted") {
  const el = byId("save-status");
  el.textContent = text;
  el.dataset.tone = tone;
}

/** @param {Record<string, any>} view */
function showSaved(view) {
  saved = view;
  keyAction = { kind: "keep" };
  byId("api_key").value = "";
  writeEntries(entriesFromView(view));
  byId("file-line").textContent = `Saved by the heybro host in ${view.file} (readable only by you); \`heybro config\` edits the same file.`;
  const env = byId("env-note");
  env.hidden = !view.from_environment.length;
  env.textContent = view.from_environment.length
    ? `The host's environment overrides ${view.from_environment.join(", ")} (HEYBRO_* variables win over this page).` : "";
  showProblems({});
}

async function load() {
  try {
    showSaved(await client.call("settings_get"));
    byId("load-error").hidden = true;
  } catch (e) {
    const err = /** @type {Error} */ (e);
    byId("load-error").hidden = false;
    byId("load-error").textContent = `The settings could not be read: ${err.message}`;
  }
  const prefs = await loadPrefs();
  byId("notify").checked = prefs.notify;
}

/** @param {unknown} e */
function fieldsOf(e) {
  const detail = /** @type {any} */ (e).detail;
  return detail && typeof detail.fields === "object" ? /** @type {Record<string, string>} */ (detail.fields) : {};
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const { payload, problems } = payloadFromEntries(readEntries(), keyAction);
  showProblems(problems);
  if (Object.keys(problems).length) { say("Not saved: fix the fields marked in red.", "bad"); return; }
  await savePrefs({ notify: byId("notify").checked });
  say("Saving…");
  try {
    showSaved(await client.call("settings_set", payload));
    say("Saved. The next task uses these settings.", "ok");
  } catch (e) {
    showProblems(fieldsOf(e));
    say(`Not saved: ${/** @type {Error} */ (e).message}`, "bad");
  }
});

byId("revert").addEventListener("click", () => { if (saved) showSaved(saved); say(""); });

byId("api_key").addEventListener("input", () => {
  const key = byId("api_key").value;
  keyAction = key.trim() ? { kind: "replace", key } : { kind: "keep" };
  showKey();
});
byId("clear-key").addEventListener("click", () => {
  keyAction = { kind: "clear" };
  byId("api_key").value = "";
  showKey();
});
byId("base_url").addEventListener("input", showProvider);
byId("per_role").addEventListener("change", showRoles);

// The kinds of sites heybro stays off: a checkbox each, with a few of the sites it covers.
byId("site-categories").replaceChildren(...CATEGORIES.map((c) => {
  const label = document.createElement("label");
  label.className = "check";
  const box = Object.assign(document.createElement("input"), { type: "checkbox", name: `sites.keep_off.${c.name}`, checked: true });
  const words = document.createElement("span");
  const examples = c.patterns.filter((p) => !p.includes("*")).slice(0, 4).join(", ");
  words.append(c.label, Object.assign(document.createElement("span"), { className: "muted small", textContent: ` — e.g. ${examples}` }));
  label.append(box, words);
  return label;
}));

// Provider presets: a radio group of buttons (arrow keys move between them).
const group = byId("providers");
for (const p of PROVIDERS) {
  const b = document.createElement("button");
  b.type = "button";
  b.setAttribute("role", "radio");
  b.dataset.id = p.id;
  b.textContent = p.label;
  b.addEventListener("click", () => {
    if (p.url) byId("base_url").value = p.url;
    else { byId("base_url").value = ""; byId("base_url").focus(); }
    showProvider();
  });
  group.append(b);
}
group.addEventListener("keydown", (ev) => {
  const buttons = /** @type {HTMLButtonElement[]} */ ([...group.querySelectorAll("button")]);
  const i = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  const step = ev.key === "ArrowRight" || ev.key === "ArrowDown" ? 1 : ev.key === "ArrowLeft" || ev.key === "ArrowUp" ? -1 : 0;
  if (!step || i < 0) return;
  ev.preventDefault();
  const next = buttons[(i + step + buttons.length) % buttons.length];
  next.focus();
  next.click();
});

byId("test").addEventListener("click", async () => {
  const { payload, problems } = payloadFromEntries(readEntries(), keyAction);
  showProblems(problems);
  const summary = byId("test-summary");
  const list = byId("test-steps");
  if (Object.keys(problems).length) { summary.textContent = "Fix the fields marked in red first."; summary.dataset.tone = "bad"; return; }
  summary.textContent = "Testing…";
  summary.dataset.tone = "muted";
  list.hidden = true;
  byId("test").disabled = true;
  try {
    const r = await client.call("settings_test", payload);
    summary.textContent = r.summary;
    summary.dataset.tone = r.ok ? "ok" : "bad";
    list.replaceChildren(...r.steps.map((/** @type {any} */ s) => {
      const li = document.createElement("li");
      li.dataset.ok = String(s.ok);
      li.textContent = `${s.ok ? "✓" : "✗"} ${s.detail}`;
      return li;
    }));
    list.hidden = r.steps.length < 2;
    byId("model-list").replaceChildren(...r.models.map((/** @type {string} */ m) => Object.assign(document.createElement("option"), { value: m })));
  } catch (e) {
    showProblems(fieldsOf(e));
    summary.textContent = `The test could not run: ${/** @type {Error} */ (e).message}`;
    summary.dataset.tone = "bad";
  } finally {
    byId("test").disabled = false;
  }
});

byId("reconnect").addEventListener("click", () => { client.call("reconnect").catch(() => {}); });
byId("copy-fix").addEventListener("click", () => {
  navigator.clipboard.writeText(document.querySelector("[data-field=fix]")?.textContent || "").catch(() => {});
});

load();
Object.assign(globalThis, { heybroOptions: { client } });
