"""One command table serves the extension (native messaging) and the terminal (the websocket):
every command answers the same on both, including a message, the task list and one task."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from shared_schema import build, parse

from heybro.endpoint import files
from heybro.endpoint.server import start_endpoint
from heybro.native.channel import NativeChannel
from heybro.session import COMMANDS, install
from heybro.store import TaskStore


@pytest.fixture
def paused_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEYBRO_DB", str(tmp_path / "tasks.sqlite3"))
    store = TaskStore(tmp_path / "tasks.sqlite3")
    row = store.create_task("Book a table for two", url="http://127.0.0.1:9/")
    store.set_status(row.id, "paused", "paused by the user")
    store.close()
    return row.id


def test_the_native_channel_and_the_websocket_answer_every_command_from_one_table(
        paused_task: str) -> None:
    async def main() -> None:
        channel = NativeChannel(asyncio.StreamReader(), lambda data: None)  # type: ignore[arg-type, return-value]
        install(channel, serve=start_endpoint)
        native = channel._handlers  # what the extension's messages are answered by
        assert set(COMMANDS) <= set(native)

        async def over_native(type_: str, payload: dict[str, Any]) -> tuple[str, Any]:
            env, parsed = parse(build(type_, payload))
            answer = await native[type_](env, parsed)
            assert answer is not None
            return answer

        for _ in range(100):  # the endpoint starts beside the channel
            if (info := files.read()):
                break
            await asyncio.sleep(0.02)
        assert info
        async with connect(info["url"], additional_headers={
                "Authorization": f"Bearer {info['token']}"}) as ws:
            async def over_ws(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
                msg = build(type_, payload)
                await ws.send(json.dumps(msg))
                reply: dict[str, Any] = json.loads(await ws.recv())
                assert reply["re"] == msg["id"]
                return reply

            said = await over_ws("task.message", {"task_id": paused_task, "text": "for three"})
            assert said["type"] == "ack"
            listed = await over_ws("task.list", {"limit": 5})
            assert [t["task_id"] for t in listed["payload"]["tasks"]] == [paused_task]
            got = await over_ws("task.get", {"task_id": paused_task})
            type_, detail = await over_native("task.get", {"task_id": paused_task})
            assert got["type"] == type_ == "task.detail"
            history = [(h["kind"], h["data"].get("who"), h["data"].get("text"))
                       for h in got["payload"]["history"]]
            assert ("message", "user", "for three") in history  # said over the websocket
            assert len(detail.history) == len(history)  # the same record on both
            missing = await over_ws("task.get", {"task_id": "nope"})
            assert missing["payload"]["code"] == "task_not_found"
            type_, _ = await over_native("task.list", {"limit": 5})
            assert type_ == "task.list_result"
        channel.ended = True
        channel.closed.set()
        session = channel.session  # type: ignore[attr-defined]
        if session.lease_watch:
            session.lease_watch.cancel()
        session.store.close()
        await asyncio.sleep(0.05)

    asyncio.run(main())


def test_the_extension_is_answered_from_one_table_and_its_settings_page_works_without_a_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Native messaging serves one table, NATIVE (the session's commands and the settings page's);
    a task store that cannot be opened refuses the task commands in words, while the settings page
    still reads and saves the settings (they live in their own file)."""
    from heybro.session.commands import NATIVE
    from heybro.store.errors import StoreUnwritable

    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path / "home"))
    (tmp_path / "tasks.sqlite3").mkdir()  # a folder where the store's file should be
    monkeypatch.setenv("HEYBRO_DB", str(tmp_path / "tasks.sqlite3"))
    assert {"settings.get", "settings.set", "settings.test"} <= set(NATIVE) and set(COMMANDS) <= set(NATIVE)

    async def main() -> None:
        channel = NativeChannel(asyncio.StreamReader(), lambda data: None)  # type: ignore[arg-type, return-value]
        install(channel)
        native = channel._handlers
        assert set(NATIVE) <= set(native)
        env, parsed = parse(build("task.list", {"limit": 5}))
        with pytest.raises(StoreUnwritable):
            await native["task.list"](env, parsed)
        env, parsed = parse(build("settings.get", {}))
        type_, view = await native["settings.get"](env, parsed)
        assert type_ == "settings.current" and view.api_key_set is False

    asyncio.run(main())
