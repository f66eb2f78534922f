"""The settings the options page edits, on the host's side: the file `heybro config` reads, kept
0600, the key never sent back, bad values refused with the field named and the file untouched;
"Test connection" against the scripted server saying what failed in words."""

from __future__ import annotations

import asyncio
import os
import json
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from heybro import config, settings_file
from heybro.llm.probe import probe
from heybro.settings_channel import get_settings, set_settings, try_settings
from shared_schema import ProtocolError
from shared_schema.settings import LimitsForm, SettingsGet, SettingsSet, SettingsTest
from support.scripted_llm import ScriptedLLM

LIMITS = LimitsForm(max_steps=40, max_llm_calls=12, max_retries=3, max_replans=6, max_failures=3,
                    task_timeout_s=900)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for var in [v for v in os.environ if v.startswith("HEYBRO_") or v == "OPENAI_API_KEY"]:
        monkeypatch.delenv(var)
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path))
    return tmp_path


def form(**over: object) -> SettingsSet:
    base = {"base_url": "http://127.0.0.1:9/v1", "model": "m-all", "limits": LIMITS}
    return SettingsSet.model_validate({**base, **over})


def test_saved_settings_are_what_heybro_config_shows_and_the_key_never_comes_back(home: Path) -> None:
    secret = "sk-page-only-1234567890"
    shown = asyncio.run(set_settings(form(api_key=secret, models={"verifier": "m-judge"})))
    file = config.config_file()
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert json.loads(file.read_text())["api_key"] == secret
    assert shown.api_key_set and secret not in shown.model_dump_json()
    assert shown.models.verifier == "m-judge" and shown.model == "m-all"
    cli = subprocess.run([sys.executable, "-m", "heybro.cli", "config"], capture_output=True,
                         text=True, env={**os.environ}, timeout=60)
    assert cli.returncode == 0, cli.stderr
    assert "m-all" in cli.stdout and "m-judge" in cli.stdout and secret not in cli.stdout
    # Saving again without a key keeps it; clearing forgets it.
    assert asyncio.run(set_settings(form(model="m-two"))).api_key_set
    assert json.loads(file.read_text())["api_key"] == secret
    cleared = asyncio.run(set_settings(form(clear_api_key=True)))
    assert not cleared.api_key_set and "api_key" not in json.loads(file.read_text())


def test_keys_the_page_does_not_edit_are_kept(home: Path) -> None:
    settings_file.write({"prices": {"m-all": [1.0, 2.0]}, "limits": {"max_repairs": 1},
                         "timeout_s": 30})
    asyncio.run(set_settings(form()))
    data = json.loads(config.config_file().read_text())
    assert data["prices"] == {"m-all": [1.0, 2.0]} and data["timeout_s"] == 30
    assert data["limits"]["max_repairs"] == 1 and data["limits"]["max_steps"] == 40


def test_a_bad_value_is_refused_by_field_and_the_file_is_untouched(home: Path) -> None:
    asyncio.run(set_settings(form()))
    before = config.config_file().read_text()
    bad = form(confidence_threshold=1.5, limits=LIMITS.model_copy(update={"max_steps": 0}))
    with pytest.raises(ProtocolError) as err:
        asyncio.run(set_settings(bad))
    assert err.value.code.value == "invalid_settings"
    assert set(err.value.detail["fields"]) == {"confidence_threshold", "limits.max_steps"}
    assert config.config_file().read_text() == before


def test_a_hand_edited_file_that_is_not_json_is_never_overwritten(home: Path) -> None:
    file = config.config_file()
    file.parent.mkdir(parents=True)
    file.write_text('{"model": "x",')
    with pytest.raises(ProtocolError) as err:
        asyncio.run(set_settings(form()))
    assert "not valid JSON" in err.value.message
    assert file.read_text() == '{"model": "x",'
    with pytest.raises(ProtocolError):
        asyncio.run(get_settings(SettingsGet()))


def test_the_page_is_told_which_settings_the_environment_overrides(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEYBRO_MODEL", "env-model")
    monkeypatch.setenv("HEYBRO_MAX_STEPS", "5")
    shown = asyncio.run(get_settings(SettingsGet()))
    assert shown.from_environment == ["model", "limits.max_steps"]
    assert shown.file == str(config.config_file())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_probe(**settings: object) -> tuple[bool, str, list[tuple[str, bool]]]:
    r = asyncio.run(probe(config.Settings.model_validate(settings)))
    return r.ok, r.summary, [(s.name, s.ok) for s in r.steps]


def test_connection_test_passes_against_a_working_server() -> None:
    with ScriptedLLM({}, models=["small", "big"], api_key="k1") as llm:
        ok, summary, steps = run_probe(base_url=llm.base_url, api_key="k1", model="small",
                                       models={"verifier": "big"})
        assert ok, summary
        assert steps == [("list models", True), ("answer from small", True),
                         ("answer from big", True)]
        assert summary.startswith("Connected: small, big answered")
        assert [p["model"] for p in llm.probes] == ["small", "big"]
        assert llm.requests == []  # the task script is untouched


def test_connection_test_says_what_failed_in_words() -> None:
    with ScriptedLLM({}, models=["small"], api_key="right", strict_models=True) as llm:
        ok, summary, _ = run_probe(base_url=llm.base_url, api_key="wrong", model="small")
        assert not ok and "refused the API key (401 bad key)" in summary
        ok, summary, _ = run_probe(base_url=llm.base_url, model="small")
        assert not ok and "asks for an API key (401) and none is set" in summary
        ok, summary, steps = run_probe(base_url=llm.base_url, api_key="right", model="nope")
        assert not ok and summary.startswith('Model not found') and '"nope"' in summary
        assert "It offers: small." in summary and steps[0] == ("list models", True)
        ok, summary, _ = run_probe(base_url=llm.base_url, api_key="right")
        assert not ok and "No model is set" in summary
    port = free_port()
    ok, summary, steps = run_probe(base_url=f"http://127.0.0.1:{port}/v1", model="m")
    assert not ok and summary.startswith(f"Cannot reach http://127.0.0.1:{port}/v1")
    assert "Is the server running" in summary and steps == [("list models", False)]


def test_a_wrong_address_is_told_apart_from_a_missing_model() -> None:
    with ScriptedLLM({}) as llm:
        ok, summary, _ = run_probe(base_url=llm.base_url.removesuffix("/v1") + "/nothing",
                                   model="scripted")
        assert not ok and "usually ends in /v1" in summary


def test_the_form_is_tested_before_it_is_saved_with_the_saved_key(home: Path) -> None:
    with ScriptedLLM({}, api_key="saved-key") as llm:
        asyncio.run(set_settings(form(base_url=llm.base_url, api_key="saved-key")))
        unsaved = SettingsTest.model_validate({**form(base_url=llm.base_url,
                                                      model="scripted").model_dump()})
        assert asyncio.run(try_settings(unsaved)).ok
        assert json.loads(config.config_file().read_text())["model"] == "m-all"  # not saved
        with_new = unsaved.model_copy(update={"api_key": "typed-wrong"})
        assert "401 bad key" in asyncio.run(try_settings(with_new)).summary
