// The extension's validator against the generated schema and the golden examples.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Validator, validator } from "../../extension/lib/schema_check.js";

const examplesDir = fileURLToPath(new URL("../../shared_schema/examples/", import.meta.url));
const examples = readdirSync(examplesDir).filter((f) => f.endsWith(".json"))
  .map((f) => ({ file: f, msg: JSON.parse(readFileSync(examplesDir + f, "utf8")) }));

test("every message type has a golden example", () => {
  const have = new Set(examples.map((e) => e.msg.type));
  for (const type of Object.keys(validator.root.messages)) assert.ok(have.has(type), `no example for ${type}`);
});

for (const { file, msg } of examples) {
  test(`example ${file} is valid in its direction`, () => {
    const dir = validator.root.messages[msg.type].direction;
    const issues = validator.validateMessage(msg, dir === "both" ? undefined : dir);
    assert.deepEqual(issues, []);
    assert.equal(file, `${msg.type}.json`);
  });
}

const ping = () => structuredClone(examples.find((e) => e.msg.type === "ping").msg);

test("wrong field type is reported with its path", () => {
  const m = ping();
  m.payload.nonce = 7;
  const issues = validator.validateMessage(m);
  assert.equal(issues.length, 1);
  assert.equal(issues[0].path, "/payload/nonce");
});

test("unexpected fields are rejected (payloads are closed)", () => {
  const m = ping();
  m.payload.extra = true;
  assert.match(validator.validateMessage(m)[0].message, /unexpected field/);
});

test("unknown types, missing ids and other protocol versions are rejected", () => {
  assert.match(validator.validateMessage({ ...ping(), type: "nope" })[0].message, /unknown message type/);
  const noId = ping(); delete noId.id;
  assert.match(validator.validateMessage(noId)[0].message, /id/);
  assert.match(validator.validateMessage({ ...ping(), v: 2 })[0].message, /protocol 2/);
});

test("direction is enforced", () => {
  const start = examples.find((e) => e.msg.type === "task.start").msg;
  assert.deepEqual(validator.validateMessage(start, "to_host"), []);
  assert.match(validator.validateMessage(start, "to_extension")[0].message, /not sent to extension/);
});

test("enum, minimum and required are enforced", () => {
  const err = structuredClone(examples.find((e) => e.msg.type === "error").msg);
  err.payload.code = "made_up";
  assert.match(validator.validateMessage(err)[0].message, /one of/);
  const chunk = structuredClone(examples.find((e) => e.msg.type === "chunk").msg);
  chunk.payload.count = 0;
  assert.match(validator.validateMessage(chunk)[0].message, /≥ 1/);
  delete chunk.payload.data;
  assert.ok(validator.validateMessage(chunk).some((i) => /missing required field "data"/.test(i.message)));
});

test("a schema using a keyword outside the supported subset is refused up front", () => {
  const root = structuredClone(validator.root);
  root.$defs.Ping.properties.nonce = { if: { type: "string" } };
  assert.throws(() => new Validator(root), /unsupported JSON Schema keyword "if"/);
});
