// The coordinator's rule for the addresses a task may open, against the host's (tests/test_reach.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { addressProblem } from "../../extension/shared/web_address.js";

const cases = JSON.parse(readFileSync(new URL("../fixtures/reach/addresses.json", import.meta.url), "utf8"));

test("addresses that are no web page are refused, with a reason", () => {
  for (const url of cases.refused) assert.ok(addressProblem(url), `allowed: ${url}`);
  assert.match(String(addressProblem("file:///etc/passwd")), /does not open file: addresses/);
});

test("web pages and a blank page may be opened", () => {
  for (const url of cases.allowed) assert.equal(addressProblem(url), null, url);
});
