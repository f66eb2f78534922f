"""The pydantic models are the single source; generated files and golden examples must agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared_schema import MESSAGES, ErrorCode, ProtocolError, build, parse
from shared_schema import generate

EXAMPLES = sorted((Path(generate.HERE) / "examples").glob("*.json"))


def test_generated_schema_matches_models() -> None:
    assert generate.main(["--check"]) == 0, "run `python -m shared_schema.generate` and commit"


def test_generated_js_module_carries_the_same_schema() -> None:
    js = generate.JS_PATH.read_text()
    body = js[js.index("(") + 1: js.rindex(")")]
    assert json.loads(body) == json.loads(generate.JSON_PATH.read_text())


def test_every_type_has_an_example() -> None:
    assert {p.stem for p in EXAMPLES} == set(MESSAGES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_parses(path: Path) -> None:
    env, payload = parse(json.loads(path.read_text()))
    assert env.type == path.stem
    # Re-building the message from the parsed payload gives the same message back.
    rebuilt = build(env.type, payload, re=env.re, msg_id=env.id)
    env2, payload2 = parse(rebuilt)
    assert (env2.id, env2.type, env2.re, payload2) == (env.id, env.type, env.re, payload)


def test_payloads_are_closed_and_typed() -> None:
    with pytest.raises(ProtocolError) as err:
        parse({"v": 1, "id": "x", "type": "ping", "payload": {"nonce": "a", "surprise": 1}})
    assert err.value.code is ErrorCode.schema_violation
    assert err.value.msg_id == "x"
    assert err.value.detail and err.value.detail["errors"][0]["loc"] == "surprise"


def test_unknown_type_direction_and_version() -> None:
    with pytest.raises(ProtocolError) as err:
        parse({"v": 1, "id": "x", "type": "teleport", "payload": {}})
    assert err.value.code is ErrorCode.unknown_type
    with pytest.raises(ProtocolError) as err:
        parse({"v": 1, "id": "x", "type": "event",
               "payload": {"task_id": "t", "seq": 0, "kind": "status", "at": 0}}, direction="to_host")
    assert err.value.code is ErrorCode.unknown_type
    with pytest.raises(ProtocolError) as err:
        parse({"v": 99, "id": "x", "type": "ping", "payload": {}})
    assert err.value.code is ErrorCode.version_mismatch


def test_build_refuses_an_invalid_payload() -> None:
    with pytest.raises(Exception):
        build("task.start", {"goal": ""})
