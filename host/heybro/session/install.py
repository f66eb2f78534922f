"""Wiring the session into the native host: the task store, the command table on the native
channel, the watch over other hosts' tasks, and the local endpoint for the terminal (`serve`,
handed in by heybro.app: the endpoint serves the session, so the session does not import it)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable

from shared_schema import Envelope
from shared_schema.payload import Payload

from .. import logs
from ..endpoint.files import NO_ENDPOINT
from ..native.channel import Handler, NativeChannel
from ..store import StoreUnwritable, TaskStore, default_path
from ..store.errors import explain
from ..store.lease import is_owned
from .commands import COMMANDS, NATIVE, Command, Reply
from .core import Session

log = logs.get("heybro.session")

LEASE_CHECK_S = 2.0  # how often a host looks for tasks whose runner died, and for requests


def _open_store(channel: NativeChannel) -> TaskStore | None:
    """The task store, or None when it cannot be opened at all: every task command is then
    answered with the reason in words (the host keeps serving, so the panel can say it)."""
    path = default_path()
    try:
        store = TaskStore(path)
    except (sqlite3.Error, OSError) as err:
        why = explain(err, path) if isinstance(err, sqlite3.Error) else (err.strerror or str(err))
        failure = StoreUnwritable(path, why)
        log.error("store_unavailable", path=str(path), why=why, error=str(err))

        async def refuse(env: Envelope, payload: Payload) -> None:
            raise failure
        for type_ in COMMANDS:
            channel.on(type_, refuse)
        return None
    if store.moved_aside is not None:
        log.warning("store_damaged_moved_aside", path=str(path), moved_to=str(store.moved_aside))
    return store


def _native(session: Session | None, command: Command) -> Handler:
    """A command as the native channel calls it (the extension subscribes through the channel
    itself: it hears every event)."""
    async def handler(env: Envelope, payload: Payload) -> Reply:
        return await command(session, payload, None)  # type: ignore[arg-type]
    return handler


# Starts the terminal's endpoint for the session (inside the running loop).
Serve = Callable[[Session, NativeChannel], None]


def install(channel: NativeChannel, serve: Serve | None = None) -> None:
    store = _open_store(channel)
    if store is None:  # the task commands say why; the settings page still works
        for type_ in NATIVE.keys() - COMMANDS.keys():
            channel.on(type_, _native(None, NATIVE[type_]))
        return
    # Tasks cut off by a host that died (and not still run by another live host) come back paused.
    paused = store.pause_interrupted("interrupted: the heybro host stopped", skip=is_owned)
    if paused:
        log.info("tasks_paused_after_restart", tasks=paused)
    session = Session(channel, store)
    for type_, command in NATIVE.items():
        channel.on(type_, _native(session, command))
    channel.on_close(lambda: session.shutdown("the browser disconnected"))

    async def watch_leases() -> None:
        while not channel.ended:
            await asyncio.sleep(LEASE_CHECK_S)
            try:
                await session.check_leases()
            except Exception:  # noqa: BLE001 - checked again in a moment
                log.exception("lease_check_failed")

    session.lease_watch = asyncio.get_running_loop().create_task(watch_leases())
    channel.session = session  # type: ignore[attr-defined]
    # A host started only to be checked (`heybro doctor`) serves no endpoint: it would take the
    # endpoint file from the host of the user's running browser, and remove it as it ends.
    if serve is not None and os.environ.get(NO_ENDPOINT) != "1":
        serve(session, channel)
