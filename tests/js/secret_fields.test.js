// Which fields are secrets: a field is one by what it is (its type, autocomplete, a name or label
// that names it as a password, code or PIN), never because a word of its label mentions one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { secretLabel } from "../../extension/content/dom_secret.js";

test("a label that names the field itself as a password, code or PIN makes it secret", () => {
  for (const label of ["Password", "Confirm password", "Password (again)", "Password confirmation", "Enter your password *",
    "New passphrase", "PIN", "Your PIN:", "Pin code", "One-time code", "Security code", "Verification code"]) {
    assert.equal(secretLabel(label), true, label);
  }
});

test("a label that only mentions one does not: a setting about passwords is a setting", () => {
  for (const label of ["Minimum password length", "Password hint", "Password expires after (days)", "Spin speed",
    "Discount code", "Zip code", "Password must be at least 8 characters long", "Require a PIN for purchases"]) {
    assert.equal(secretLabel(label), false, label);
  }
});
