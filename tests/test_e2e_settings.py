"""The options page in real Chromium with the real host over native messaging: a key and models
set in the page land in the host's 0600 settings file, which `heybro config` shows; the key is
never readable from the extension's storage, in any message to the page or in the host's log;
"Test connection" against the scripted server succeeds, and fails in words."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from support.browser import ExtBrowser, launch
from support.scripted_llm import ScriptedLLM

pytestmark = pytest.mark.browser
OPTIONS = "extension/pages/options/options.html"
SECRET = "sk-test-e2e-9f8e7d6c5b4a"

RECORD = """() => {
    // Every message the coordinator sends this page, as text, from now on.
    globalThis.seen = [];
    const port = globalThis.heybroOptions.client.port;
    port.onMessage.addListener((m) => globalThis.seen.push(JSON.stringify(m)));
}"""

STORAGE = """async () => JSON.stringify([
    await chrome.storage.local.get(null), await chrome.storage.sync.get(null),
    await chrome.storage.session.get(null)])"""


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLLM]:
    with ScriptedLLM({}, models=["qwen-small", "qwen-judge"], api_key=SECRET,
                     strict_models=True) as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[ExtBrowser]:
    with launch() as eb:
        yield eb


def open_options(eb: ExtBrowser) -> Page:
    page = eb.ctx.new_page()
    page.goto(eb.url(OPTIONS))
    expect(page.locator("#host-pill")).to_have_text("Host connected")
    expect(page.locator("#file-line")).to_contain_text("config.json")
    return page


def config_path(eb: ExtBrowser) -> Path:
    return eb.home / "config" / "config.json"


def test_settings_round_trip_keeps_the_key_with_the_host_only(browser: ExtBrowser,
                                                              llm: ScriptedLLM) -> None:
    page = open_options(browser)
    page.evaluate(RECORD)
    expect(page.locator("#key-status")).to_have_text("Key not set — this provider needs one")
    page.get_by_role("radio", name="Other").click()
    page.fill("#base_url", llm.base_url)
    page.fill("#model", "qwen-small")
    page.check("#per_role")
    page.fill("[name='models.verifier']", "qwen-judge")
    page.fill("#api_key", SECRET)
    page.fill("[name='limits.max_steps']", "25")
    page.click("#save")
    expect(page.locator("#save-status")).to_have_text("Saved. The next task uses these settings.")
    expect(page.locator("#key-status")).to_have_text("Key set")
    assert page.input_value("#api_key") == ""

    file = config_path(browser)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    saved = json.loads(file.read_text())
    assert saved["api_key"] == SECRET and saved["model"] == "qwen-small"
    assert saved["models"] == {"verifier": "qwen-judge"} and saved["limits"]["max_steps"] == 25

    # The key is nowhere the extension keeps things, nor in anything sent back to the page.
    assert SECRET not in browser.sw.evaluate(STORAGE)
    assert SECRET not in page.evaluate(STORAGE)
    seen = page.evaluate("globalThis.seen")
    assert any('"api_key_set":true' in m for m in seen), seen
    assert all(SECRET not in m for m in seen)
    logs = "".join(p.read_text(errors="replace") for p in (browser.home / "logs").rglob("*")
                   if p.is_file())
    assert SECRET not in logs

    # The terminal sees the same settings.
    cli = browser.heybro("config")
    assert cli.returncode == 0, cli.stderr
    assert "qwen-small" in cli.stdout and "qwen-judge" in cli.stdout
    assert SECRET not in cli.stdout and "***" in cli.stdout

    # A fresh page shows what was saved (and still not the key).
    page.close()
    page = open_options(browser)
    expect(page.locator("#model")).to_have_value("qwen-small")
    expect(page.locator("[name='models.verifier']")).to_have_value("qwen-judge")
    expect(page.locator("[name='limits.max_steps']")).to_have_value("25")
    expect(page.locator("#key-status")).to_have_text("Key set")
    assert SECRET not in page.content()
    page.close()


def test_heybro_config_and_the_page_edit_the_same_file(browser: ExtBrowser) -> None:
    r = browser.heybro("config", "--model", "from-terminal", "--tool-mode", "json")  # kept: per-role verifier
    assert r.returncode == 0, r.stderr
    page = open_options(browser)
    expect(page.locator("#model")).to_have_value("from-terminal")
    expect(page.locator("#tool_mode")).to_have_value("json")
    page.close()


def test_connection_test_succeeds_and_fails_in_words(browser: ExtBrowser,
                                                     llm: ScriptedLLM) -> None:
    browser.heybro("config", "--base-url", llm.base_url, "--model", "qwen-small",
                   "--api-key", SECRET)
    page = open_options(browser)
    summary = page.locator("#test-summary")
    page.click("#test")
    expect(summary).to_have_text(f"Connected: qwen-small, qwen-judge answered at {llm.base_url}.",
                                 timeout=30_000)
    # The models the server offers are suggested for the model fields.
    assert page.eval_on_selector_all("#model-list option", "os => os.map(o => o.value)") == \
        ["qwen-small", "qwen-judge"]

    page.fill("#model", "no-such-model")
    page.click("#test")
    expect(summary).to_contain_text('Model not found', timeout=30_000)
    expect(summary).to_contain_text('"no-such-model"')
    expect(summary).to_contain_text("It offers: qwen-small, qwen-judge.")

    page.fill("#model", "qwen-small")
    page.fill("#api_key", "sk-wrong")
    page.click("#test")
    expect(summary).to_contain_text("refused the API key (401 bad key)", timeout=30_000)
    # Testing did not save anything: the saved key is still the good one.
    assert json.loads(config_path(browser).read_text())["api_key"] == SECRET

    page.fill("#api_key", "")
    page.fill("#base_url", "http://127.0.0.1:9/v1")
    page.click("#test")
    expect(summary).to_contain_text("Cannot reach http://127.0.0.1:9/v1", timeout=30_000)
    expect(summary).to_contain_text("Is the server running")

    # A value out of range is refused at its field, and nothing is saved.
    before = config_path(browser).read_text()
    page.fill("#base_url", llm.base_url)
    page.fill("#confidence_threshold", "3")
    page.click("#save")
    expect(page.locator("[data-error-for=confidence_threshold]")).to_contain_text("less than or equal to 1")
    expect(page.locator("#save-status")).to_contain_text("Not saved")
    assert config_path(browser).read_text() == before
    page.close()


def test_the_panel_opens_the_settings(browser: ExtBrowser) -> None:
    panel = browser.open_panel()
    with browser.ctx.expect_page() as opened:
        panel.get_by_role("button", name="Settings").click()
    options = opened.value
    options.wait_for_load_state()
    assert options.url.endswith(OPTIONS)
    expect(options.locator("h1")).to_have_text("heybro settings")
    options.close()
    panel.close()


def test_sites_set_in_the_page_are_the_ones_heybro_config_shows(browser: ExtBrowser) -> None:
    page = open_options(browser)
    banking = page.get_by_role("checkbox", name="Banks and payments")
    expect(banking).to_be_checked()  # kept off by default
    banking.uncheck()
    page.fill("[name='sites.never']", "https://www.Mail.example/inbox\nnot a site")
    page.fill("[name='sites.ask']", "shop.example, 127.0.0.1:8080")
    page.click("#save")
    expect(page.locator("[data-error-for='sites.never']")).to_contain_text("Not a site: not a site")
    expect(page.locator("#save-status")).to_contain_text("Not saved")
    page.fill("[name='sites.never']", "https://www.Mail.example/inbox")
    page.click("#save")
    expect(page.locator("#save-status")).to_have_text("Saved. The next task uses these settings.")
    expect(page.locator("[name='sites.never']")).to_have_value("mail.example")  # as heybro reads it
    saved = json.loads(config_path(browser).read_text())["sites"]
    assert saved == {"never": ["mail.example"], "ask": ["shop.example", "127.0.0.1:8080"],
                     "allow": [], "categories_off": ["banking"]}
    cli = browser.heybro("config", "--allow-site", "mail.example", "--keep-off-kind", "banking")
    assert cli.returncode == 0, cli.stderr
    assert "always allowed        mail.example" in cli.stdout
    assert "kinds kept off        banking, investing" in cli.stdout
    page.reload()
    expect(page.locator("[name='sites.allow']")).to_have_value("mail.example")
    expect(page.locator("[name='sites.never']")).to_have_value("")
    expect(page.get_by_role("checkbox", name="Banks and payments")).to_be_checked()
    page.close()
