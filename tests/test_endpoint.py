"""The host's local websocket: token and Origin checks, 0600 token file, task start over it."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from shared_schema import build
from shared_schema.messages import TaskAccepted

from heybro.endpoint import files
from heybro.endpoint.server import run_endpoint


class StubSession:
    def __init__(self) -> None:
        self.started: list[Any] = []
        self.listener: Any = None

    async def start(self, payload: Any, listener: Any = None) -> TaskAccepted:
        self.started.append(payload)
        self.listener = listener
        return TaskAccepted(task_id="t1", status="planning")

    def unwatch(self, listener: Any) -> None:
        pass


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HEYBRO_HOME", str(tmp_path))
    return tmp_path


def test_endpoint_refuses_missing_token_and_web_origin(home: Path) -> None:
    async def main() -> None:
        closed = asyncio.Event()
        session = StubSession()
        ep = await run_endpoint(session, closed)
        info = files.read()
        assert info and info["url"].startswith("ws://127.0.0.1:") and info["pid"] == os.getpid()
        mode = stat.S_IMODE(files.endpoint_file().stat().st_mode)
        assert mode == 0o600
        with pytest.raises(InvalidStatus) as no_token:
            async with connect(info["url"]):
                pass
        assert no_token.value.response.status_code == 403
        with pytest.raises(InvalidStatus):
            async with connect(info["url"] + "?token=wrong"):
                pass
        with pytest.raises(InvalidStatus) as web:
            async with connect(info["url"], origin="https://evil.example",  # type: ignore[arg-type]
                               additional_headers={"Authorization": f"Bearer {info['token']}"}):
                pass
        assert web.value.response.status_code == 403
        assert session.started == []
        async with connect(info["url"], additional_headers={
                "Authorization": f"Bearer {info['token']}"}) as ws:
            msg = build("task.start", {"goal": "buy a kettle", "url": "http://127.0.0.1:1/"})
            await ws.send(json.dumps(msg))
            reply = json.loads(await ws.recv())
            assert reply["type"] == "task.accepted" and reply["re"] == msg["id"]
            await session.listener({"task_id": "t1", "seq": 0, "kind": "status", "at": 0.0,
                                    "data": {"status": "planning"}})
            event = json.loads(await ws.recv())
            assert event["type"] == "event" and event["payload"]["data"]["status"] == "planning"
            await ws.send("{not json")
            assert json.loads(await ws.recv())["type"] == "error"
            # A message nested past what can be read: a typed error, and the line stays open.
            deep = json.dumps(build("task.start", {"goal": "g"}))[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
            await ws.send(deep)
            err = json.loads(await ws.recv())
            assert err["type"] == "error" and err["payload"]["code"] == "invalid_json", err
            await ws.send(json.dumps(build("task.start", {"goal": "and another"})))
            assert json.loads(await ws.recv())["type"] == "task.accepted"
        assert session.started[0].goal == "buy a kettle"
        closed.set()
        await asyncio.sleep(0.05)
        assert files.read() is None
        ep.server.close()  # type: ignore[union-attr]
        await ep.server.wait_closed()  # type: ignore[union-attr]

    asyncio.run(main())
