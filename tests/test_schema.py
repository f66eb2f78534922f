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


@pytest.mark.parametrize("missing", ["v", "id", "payload", "type"])
def test_envelope_fields_the_protocol_needs_are_required(missing: str) -> None:
    msg = {"v": 1, "id": "x", "type": "ping", "payload": {}}
    del msg[missing]
    with pytest.raises(ProtocolError) as err:
        parse(msg)
    assert err.value.code is ErrorCode.schema_violation
    assert missing in generate.build_schema()["envelope"]["required"]


def test_handshake_and_errors_are_read_in_any_protocol_version() -> None:
    newer = {"v": 2, "id": "h2", "type": "hello", "payload": {"protocol": 2, "extension_version": "9"}}
    env, payload = parse(newer, direction="to_host")
    assert env.v == 2 and payload.protocol == 2  # type: ignore[attr-defined]
    error = {"v": 2, "id": "e2", "re": "h1", "type": "error",
             "payload": {"code": "version_mismatch", "message": "old"}}
    assert parse(error)[0].v == 2
    # Anything else in another version is a version mismatch, answered in the sender's version.
    with pytest.raises(ProtocolError) as err:
        parse({"v": 2, "id": "p2", "type": "ping", "payload": {}})
    assert err.value.code is ErrorCode.version_mismatch and err.value.sender_v == 2
    # So is a handshake whose other-version payload this side cannot read.
    with pytest.raises(ProtocolError) as err:
        parse({**newer, "payload": {"protocol": 2, "extension_version": "9", "features": []}})
    assert err.value.code is ErrorCode.version_mismatch and err.value.sender_v == 2
    # The same fields in this version are just a schema violation.
    with pytest.raises(ProtocolError) as err:
        parse({**newer, "v": 1, "payload": {"protocol": 1, "extension_version": "9", "features": []}})
    assert err.value.code is ErrorCode.schema_violation and err.value.sender_v is None


def test_only_version_stable_messages_can_be_built_in_another_version() -> None:
    assert build("error", {"code": "version_mismatch", "message": "m"}, v=2)["v"] == 2
    with pytest.raises(ValueError):
        build("ping", {}, v=2)
    stable = {name for name, spec in MESSAGES.items() if spec.any_version}
    assert stable == {"hello", "hello_ok", "error"}
    assert {n for n, m in generate.build_schema()["messages"].items() if m["any_version"]} == stable


def test_the_fix_commands_in_the_readme_are_the_ones_the_panel_shows() -> None:
    from shared_schema.fixes import FIXES
    readme = (Path(generate.HERE).parent / "README.md").read_text()
    table = readme[readme.index("| the panel says |"):]
    for state, command in FIXES.items():
        assert f"`{command}`" in table, f"README's troubleshooting table lacks {state}'s fix"
    assert generate.build_schema()["fixes"] == FIXES


EVENT_EXAMPLES = sorted((Path(generate.HERE) / "examples" / "events").glob("*.json"))


def test_every_event_kind_has_an_example_that_parses_into_its_model() -> None:
    from shared_schema.events import EVENTS
    from shared_schema.messages import Event
    assert {p.stem for p in EVENT_EXAMPLES} == {k.value for k in EVENTS}
    for path in EVENT_EXAMPLES:
        _, payload = parse(json.loads(path.read_text()), direction="to_extension")
        assert isinstance(payload, Event) and isinstance(payload.data, EVENTS[payload.kind])


def test_an_events_data_must_be_the_shape_of_its_kind() -> None:
    plan = {"v": 1, "id": "x", "type": "event", "payload": {
        "task_id": "t", "seq": 0, "kind": "status", "at": 0,
        "data": {"subtasks": ["Find it"], "current": 0}}}
    with pytest.raises(ProtocolError) as err:
        parse(plan)
    assert err.value.code is ErrorCode.schema_violation
    assert "status event" in err.value.detail["errors"][0]["msg"]  # type: ignore[index]
    plan["payload"]["kind"] = "plan"  # type: ignore[index]
    parse(plan)


def test_an_old_rows_shape_reads_as_todays_event() -> None:
    from shared_schema.events import ControlData, MessageData, StatusData, from_stored
    # A control signal once rode on a chat message; now it is a kind of its own.
    assert from_stored("message", {"text": "Stopping…", "control": "stopping"}) == (
        "control", ControlData(what="stopping", text="Stopping…"))
    # A field a later version dropped is left out; a kind it does not know is not read.
    kind, data = from_stored("status", {"status": "paused", "reason": None, "gone": 1}) or ("", None)
    assert kind == "status" and data == StatusData(status="paused", reason=None)
    assert from_stored("message", {"text": "hi", "who": "user"}) == (
        "message", MessageData(text="hi", who="user"))
    assert from_stored("teleported", {"to": "mars"}) is None
