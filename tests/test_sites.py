"""The user's per-site permissions as the host reads them — the same cases the coordinator's reading
is tested on (tests/js/site_rules.test.js), so a site refused on one side is refused on the other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared_schema.sites import CATEGORIES, SiteRules, matches, pattern_of, refusal, site_of, verdict

CASES = json.loads((Path(__file__).parent / "fixtures" / "site_rules_cases.json").read_text())


@pytest.mark.parametrize("url,want", CASES["sites"])
def test_a_pages_site_is_its_host_and_a_named_port(url: str, want: str) -> None:
    assert site_of(url) == want


@pytest.mark.parametrize("text,want", CASES["patterns"])
def test_a_pattern_is_read_as_the_user_means_it(text: str, want: str) -> None:
    assert pattern_of(text) == want


@pytest.mark.parametrize("pattern,site,want", CASES["matches"])
def test_a_pattern_covers_its_site_and_subdomains(pattern: str, site: str, want: bool) -> None:
    assert matches(pattern, site) is want


@pytest.mark.parametrize("case", CASES["verdicts"], ids=lambda c: f"{c['url']} {c['rules']}")
def test_the_first_rule_that_applies_decides(case: dict) -> None:
    v = verdict(case["url"], SiteRules.model_validate(case["rules"]), case.get("approved", []))
    assert (v.rule if v else None) == case["rule"]


def test_a_refusal_names_the_site_the_setting_and_the_way_to_change_it() -> None:
    v = verdict("https://secure.chase.com/x", SiteRules())
    assert v is not None
    text = refusal(v)
    assert "secure.chase.com" in text and "banks and payments" in text
    assert "heybro config --allow-site secure.chase.com" in text


def test_every_default_category_pattern_is_already_in_its_own_form() -> None:
    for c in CATEGORIES:
        assert [pattern_of(p) for p in c.patterns] == c.patterns, c.name
