// The extension's validator against the generated schema and the golden examples.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Validator, validator } from "../../extension/shared/schema_check.js";

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

test("unknown types and other protocol versions are rejected", () => {
  assert.match(validator.validateMessage({ ...ping(), type: "nope" })[0].message, /unknown message type/);
  assert.match(validator.validateMessage({ ...ping(), v: 2 })[0].message, /protocol 2/);
});

for (const field of ["v", "id", "type", "payload"]) {
  test(`the generated envelope schema requires "${field}"`, () => {
    const m = ping(); delete m[field];
    const issues = validator.validateMessage(m);
    assert.deepEqual(issues, [{ path: "", message: `missing required field "${field}"` }]);
    assert.ok(validator.root.envelope.required.includes(field));
  });
}

test("the handshake and errors are read whatever their protocol version, nothing else is", () => {
  const byType = (t) => structuredClone(examples.find((e) => e.msg.type === t).msg);
  for (const type of ["error", "hello_ok"]) {
    for (const v of [2, 7]) assert.deepEqual(validator.validateMessage({ ...byType(type), v }, "to_extension"), [], `${type} v${v}`);
  }
  assert.deepEqual(validator.validateMessage({ ...byType("hello"), v: 2 }, "to_host"), []);
  for (const type of ["pong", "event", "chunk", "tool.call"]) {
    assert.equal(validator.validateMessage({ ...byType(type), v: 2 })[0].path, "/v", type);
  }
  const stable = Object.entries(validator.root.messages).filter(([, s]) => s.any_version).map(([n]) => n).sort();
  assert.deepEqual(stable, ["error", "hello", "hello_ok"]);
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

const eventsDir = fileURLToPath(new URL("../../shared_schema/examples/events/", import.meta.url));
const eventExamples = readdirSync(eventsDir).filter((f) => f.endsWith(".json"))
  .map((f) => ({ file: f, msg: JSON.parse(readFileSync(eventsDir + f, "utf8")) }));

test("every event kind has a golden example the extension accepts", () => {
  assert.deepEqual(eventExamples.map((e) => e.msg.payload.kind).sort(), Object.keys(validator.root.events).sort());
  for (const { file, msg } of eventExamples) {
    assert.deepEqual(validator.validateMessage(msg, "to_extension"), [], file);
    assert.equal(file, `${msg.payload.kind}.json`);
  }
});

test("an event's data is checked against its kind's model", () => {
  const plan = structuredClone(eventExamples.find((e) => e.msg.payload.kind === "plan").msg);
  plan.payload.kind = "status";
  assert.deepEqual(validator.validateMessage(plan, "to_extension")[0],
    { path: "/payload/data", message: 'missing required field "status"' });
  plan.payload.kind = "teleport";
  assert.match(validator.validateMessage(plan, "to_extension").map((i) => i.message).join(" "), /teleport/);
  const control = structuredClone(eventExamples.find((e) => e.msg.payload.kind === "control").msg);
  control.payload.data.what = "explode";
  assert.equal(validator.validateMessage(control, "to_extension")[0].path, "/payload/data/what");
});
