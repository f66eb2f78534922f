// @ts-check
/**
 * The options page's logic without the DOM: provider presets, the form's fields as flat
 * `name → value` entries (input names are the settings' dotted paths), and the payloads of
 * `settings.set` / `settings.test` built from them. The API key is never part of the entries:
 * it is only ever sent (replace) or forgotten (clear), as `keyAction` says.
 */
import { SITE_CATEGORIES } from "../../shared/schema_check.js";
import { patternOf } from "../../shared/site_rules.js";

/**
 * @typedef {{id: string, label: string, url: string, needsKey: boolean, example: string, hint: string}} Provider
 * @typedef {Record<string, string | boolean>} Entries
 * @typedef {{kind: "keep"} | {kind: "replace", key: string} | {kind: "clear"}} KeyAction
 */

export const OPENAI_URL = "https://api.openai.com/v1";

/** @type {Provider[]} */
export const PROVIDERS = [
  { id: "openai", label: "OpenAI", url: OPENAI_URL, needsKey: true, example: "gpt-4o-mini",
    hint: "Needs an API key from platform.openai.com." },
  { id: "openrouter", label: "OpenRouter", url: "https://openrouter.ai/api/v1", needsKey: true,
    example: "openai/gpt-4o-mini", hint: "Needs an OpenRouter key; models are named vendor/model." },
  { id: "ollama", label: "Ollama", url: "http://localhost:11434/v1", needsKey: false,
    example: "qwen2.5:7b", hint: "Runs on this machine; no key. Pull the model first (ollama pull …)." },
  { id: "lmstudio", label: "LM Studio", url: "http://localhost:1234/v1", needsKey: false,
    example: "the model loaded in LM Studio", hint: "Start LM Studio's local server; no key." },
  { id: "vllm", label: "vLLM", url: "http://localhost:8000/v1", needsKey: false,
    example: "the model vLLM serves", hint: "A key only if the server was started with --api-key." },
  { id: "custom", label: "Other", url: "", needsKey: false, example: "model name",
    hint: "Any OpenAI-compatible server: its address usually ends in /v1." },
];

export const ROLES = /** @type {const} */ (["scheduler", "worker", "verifier"]);
export const LIMITS = /** @type {const} */ (["max_steps", "max_llm_calls", "max_retries", "max_replans", "max_failures", "task_timeout_s"]);
/** The user's site lists (shared_schema/sites.py), one site per line in the form. */
export const SITE_LISTS = /** @type {const} */ (["never", "ask", "allow"]);
/** The kinds of sites heybro stays off unless the user lets it on: a checkbox each, checked = kept off. */
export const CATEGORIES = SITE_CATEGORIES;

/** @param {string} url */
const norm = (url) => url.trim().replace(/\/+$/, "").toLowerCase();

/**
 * The preset a base URL belongs to (none saved = OpenAI, the client's default).
 * @param {string | null | undefined} baseUrl @returns {Provider}
 */
export function providerFor(baseUrl) {
  if (!baseUrl || !baseUrl.trim()) return PROVIDERS[0];
  const found = PROVIDERS.find((p) => p.url && norm(p.url) === norm(baseUrl));
  return found || /** @type {Provider} */ (PROVIDERS.find((p) => p.id === "custom"));
}

/**
 * The saved settings (`settings.current`) as the form's entries.
 * @param {Record<string, any>} view @returns {Entries}
 */
export function entriesFromView(view) {
  /** @type {Entries} */
  const e = {
    base_url: view.base_url || OPENAI_URL,
    model: view.model || "",
    tool_mode: view.tool_mode || "auto",
    vision: !!view.vision,
    confidence_threshold: String(view.confidence_threshold ?? 0.7),
  };
  for (const r of ROLES) e[`models.${r}`] = view.models?.[r] || "";
  e.per_role = ROLES.some((r) => !!view.models?.[r]);
  for (const k of LIMITS) e[`limits.${k}`] = String(view.limits?.[k] ?? "");
  for (const k of SITE_LISTS) e[`sites.${k}`] = (view.sites?.[k] || []).join("\n");
  const off = new Set(view.sites?.categories_off || []);
  for (const c of CATEGORIES) e[`sites.keep_off.${c.name}`] = !off.has(c.name);
  return e;
}

/**
 * A site list from its text: one site per line (or separated by commas), each read as
 * the host reads it (a pasted address becomes its site), repeats dropped.
 * @param {string | boolean | undefined} v
 * @returns {{sites: string[], bad: string[]}}
 */
export function siteLines(v) {
  const words = text(v).split(/[\n,]+/).map((w) => w.trim()).filter(Boolean);
  /** @type {string[]} */ const sites = [];
  /** @type {string[]} */ const bad = [];
  for (const w of words) {
    const p = patternOf(w);
    if (!p || !/^[a-z0-9*[\]:.\-]+$/.test(p)) bad.push(w);
    else if (!sites.includes(p)) sites.push(p);
  }
  return { sites, bad };
}

/** @param {string | boolean | undefined} v */
const text = (v) => (typeof v === "string" ? v.trim() : "");

/**
 * A number from a field, or NaN when it is not one (the host then names the field).
 * @param {string | boolean | undefined} v
 */
function num(v) {
  const s = text(v);
  return s === "" ? NaN : Number(s);
}

/**
 * The `settings.set` / `settings.test` payload for the form's entries.
 * Per-role models count only while "a model per role" is on; blank ones use the model for all.
 * @param {Entries} e @param {KeyAction} key
 * @returns {{payload: Record<string, any>, problems: Record<string, string>}}
 */
export function payloadFromEntries(e, key) {
  /** @type {Record<string, string>} */
  const problems = {};
  const base = text(e.base_url);
  if (base && !/^https?:\/\/[^\s/]+/i.test(base)) problems.base_url = "An address starting with http:// or https://.";
  /** @type {Record<string, string | null>} */
  const models = {};
  for (const r of ROLES) models[r] = e.per_role ? text(e[`models.${r}`]) || null : null;
  /** @type {Record<string, number>} */
  const limits = {};
  for (const k of LIMITS) {
    limits[k] = num(e[`limits.${k}`]);
    if (!Number.isFinite(limits[k])) problems[`limits.${k}`] = "A number.";
    else if (k !== "task_timeout_s" && !Number.isInteger(limits[k])) problems[`limits.${k}`] = "A whole number.";
  }
  const threshold = num(e.confidence_threshold);
  if (!Number.isFinite(threshold)) problems.confidence_threshold = "A number between 0 and 1.";
  /** @type {Record<string, string[]>} */
  const sites = {};
  for (const k of SITE_LISTS) {
    const { sites: list, bad } = siteLines(e[`sites.${k}`]);
    sites[k] = list;
    if (bad.length) problems[`sites.${k}`] = `Not a site: ${bad.slice(0, 3).join(", ")}. Write a site like shop.example, *.shop.example or 127.0.0.1:8080.`;
  }
  /** @type {Record<string, any>} */
  const payload = {
    base_url: base && norm(base) !== norm(OPENAI_URL) ? base : null,
    model: text(e.model) || null,
    models,
    tool_mode: text(e.tool_mode) || "auto",
    vision: e.vision === true,
    confidence_threshold: threshold,
    limits,
    sites: { ...sites, categories_off: CATEGORIES.filter((c) => e[`sites.keep_off.${c.name}`] === false).map((c) => c.name) },
  };
  if (key.kind === "replace" && key.key.trim()) payload.api_key = key.key.trim();
  if (key.kind === "clear") payload.clear_api_key = true;
  return { payload, problems };
}

/**
 * What the key row says, from what is saved and what the person did with the field.
 * @param {boolean} saved @param {KeyAction} action @param {Provider} provider
 */
export function keyStatus(saved, action, provider) {
  if (action.kind === "replace" && action.key.trim()) return { tone: "pending", text: "New key — saved when you press Save" };
  if (action.kind === "clear") return { tone: "pending", text: "Will be removed when you press Save" };
  if (saved) return { tone: "ok", text: "Key set" };
  return provider.needsKey ? { tone: "warn", text: "Key not set — this provider needs one" } : { tone: "muted", text: "Key not set (not needed here)" };
}
