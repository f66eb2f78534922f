// The options page's form logic: presets, the payload sent to the host, the key's status.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CATEGORIES, OPENAI_URL, PROVIDERS, entriesFromView, keyStatus, payloadFromEntries, providerFor, siteLines } from "../../extension/pages/options/settings_form.js";

const VIEW = {
  base_url: "http://localhost:11434/v1", model: "qwen2.5:7b", models: { scheduler: null, worker: null, verifier: "qwen2.5:14b" },
  tool_mode: "json", vision: true, confidence_threshold: 0.8,
  limits: { max_steps: 40, max_llm_calls: 12, max_retries: 3, max_replans: 6, max_failures: 3, task_timeout_s: 900 },
  sites: { never: ["mail.example"], ask: ["shop.example", "127.0.0.1:8080"], allow: [], categories_off: ["investing"] },
  api_key_set: true, file: "/x/config.json", from_environment: [],
};

test("a saved address picks its provider; none saved is OpenAI; another is Other", () => {
  assert.equal(providerFor(null).id, "openai");
  assert.equal(providerFor("http://localhost:11434/v1/").id, "ollama");
  assert.equal(providerFor("https://OpenRouter.ai/api/v1").id, "openrouter");
  assert.equal(providerFor("http://10.0.0.5:8080/v1").id, "custom");
  assert.deepEqual(PROVIDERS.map((p) => p.label), ["OpenAI", "OpenRouter", "Ollama", "LM Studio", "vLLM", "Other"]);
});

test("the form round-trips the saved settings; the key is sent only when replaced or cleared", () => {
  const e = entriesFromView(VIEW);
  assert.equal(e.per_role, true);
  const { payload, problems } = payloadFromEntries(e, { kind: "keep" });
  assert.deepEqual(problems, {});
  assert.deepEqual(payload, {
    base_url: "http://localhost:11434/v1", model: "qwen2.5:7b", models: { scheduler: null, worker: null, verifier: "qwen2.5:14b" },
    tool_mode: "json", vision: true, confidence_threshold: 0.8, limits: VIEW.limits, sites: VIEW.sites,
  });
  assert.equal(payloadFromEntries(e, { kind: "replace", key: " sk-1 " }).payload.api_key, "sk-1");
  assert.equal(payloadFromEntries(e, { kind: "clear" }).payload.clear_api_key, true);
  assert.ok(!("api_key" in payloadFromEntries(e, { kind: "replace", key: "  " }).payload));
});

test("per-role models count only while the choice is on; OpenAI's address is saved as the default", () => {
  const e = { ...entriesFromView(VIEW), per_role: false, base_url: `${OPENAI_URL}/` };
  const { payload } = payloadFromEntries(e, { kind: "keep" });
  assert.deepEqual(payload.models, { scheduler: null, worker: null, verifier: null });
  assert.equal(payload.base_url, null);
});

test("fields that are not numbers or addresses are named before anything is sent", () => {
  const e = { ...entriesFromView(VIEW), base_url: "localhost:11434", "limits.max_steps": "ten", "limits.max_retries": "2.5", confidence_threshold: "" };
  assert.deepEqual(Object.keys(payloadFromEntries(e, { kind: "keep" }).problems).sort(),
    ["base_url", "confidence_threshold", "limits.max_retries", "limits.max_steps"]);
});

test("the key row says set or not set, and what Save will do", () => {
  const openai = providerFor(null);
  const ollama = providerFor("http://localhost:11434/v1");
  assert.equal(keyStatus(true, { kind: "keep" }, openai).text, "Key set");
  assert.equal(keyStatus(false, { kind: "keep" }, openai).tone, "warn");
  assert.equal(keyStatus(false, { kind: "keep" }, ollama).text, "Key not set (not needed here)");
  assert.match(keyStatus(true, { kind: "clear" }, openai).text, /removed when you press Save/);
  assert.match(keyStatus(false, { kind: "replace", key: "sk" }, openai).text, /New key/);
});

test("site lists are read as the host reads them: pasted addresses become sites, nonsense is named", () => {
  assert.deepEqual(siteLines("https://www.Chase.com/login\n*.shop.example, shop.example\n\n127.0.0.1:8080"),
    { sites: ["chase.com", "shop.example", "127.0.0.1:8080"], bad: [] });
  const e = { ...entriesFromView(VIEW), "sites.never": "mail.example\nnot a site!" };
  const { problems } = payloadFromEntries(e, { kind: "keep" });
  assert.match(problems["sites.never"], /Not a site: not a site!\./);
});

test("a kind of site unticked is one heybro may work on; every kind is ticked by default", () => {
  const fresh = entriesFromView({ ...VIEW, sites: undefined });
  assert.ok(CATEGORIES.length >= 4 && CATEGORIES.every((c) => fresh[`sites.keep_off.${c.name}`] === true));
  const e = { ...fresh, "sites.keep_off.banking": false };
  assert.deepEqual(payloadFromEntries(e, { kind: "keep" }).payload.sites.categories_off, ["banking"]);
});
