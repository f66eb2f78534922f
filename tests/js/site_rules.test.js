// The coordinator's reading of the user's per-site permissions, against the host's cases
// (tests/test_sites.py reads the same ones): a site the host refuses the coordinator refuses too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { matches, patternOf, siteOf, siteVerdict } from "../../extension/shared/site_rules.js";

const cases = JSON.parse(readFileSync(new URL("../fixtures/site_rules_cases.json", import.meta.url), "utf8"));

test("a page's site is its host, with a port only when the address names one", () => {
  for (const [url, want] of cases.sites) assert.equal(siteOf(url), want, url);
});

test("a pattern is read as the user means it", () => {
  for (const [text, want] of cases.patterns) assert.equal(patternOf(text), want, text);
});

test("a pattern covers its site and subdomains, a port only when it names one", () => {
  for (const [pattern, site, want] of cases.matches) assert.equal(matches(pattern, site), want, `${pattern} ~ ${site}`);
});

test("never beats ask and allowed; allowed beats a category; a yes opens an ask-first site", () => {
  for (const c of cases.verdicts) {
    const v = siteVerdict(c.url, { ...c.rules, approved: c.approved || [] });
    assert.equal(v ? v.rule : null, c.rule, JSON.stringify(c));
  }
});
