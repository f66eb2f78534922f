// The content script's rules for page text, against the shared schema's and the host's cases
// (tests/test_page_text.py reads the same cases).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DELIMITERS, ELEMENT_BRACKET, LOOKALIKES, neutral, neutralPart, noDelimiters } from "../../extension/content/page_text.js";
import SCHEMA from "../../shared_schema/messages.schema.js";

const cases = JSON.parse(readFileSync(new URL("../fixtures/page_text_cases.json", import.meta.url), "utf8"));

test("the content script's rules are the shared schema's", () => {
  assert.deepEqual({ lookalikes: LOOKALIKES, delimiters: DELIMITERS, element_bracket: ELEMENT_BRACKET }, SCHEMA.page_text);
});

test("page text neither closes the fence nor reads as an element of the map", () => {
  for (const [input, want] of cases) assert.equal(neutral(input), want, JSON.stringify(input));
});

test("pieces joined into one line make no fence and no element either", () => {
  assert.equal(noDelimiters(neutralPart('""') + neutralPart('\u200b"')), "«");
  assert.equal(neutralPart("[") + neutralPart("e1] button Pay"), "(e1] button Pay");
  assert.equal(neutralPart("a [*") + "e1", "a (*e1");
});
