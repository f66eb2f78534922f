"""The native-messaging host process Chrome starts (`heybro-host <origin>`).

stdout is the frame channel and nothing else: at start the real stdout is moved to a private fd
and fd 1 is pointed at stderr, so a stray print from any library can never corrupt a frame.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
import threading
from collections.abc import Callable, Sequence

from shared_schema import PROTOCOL_VERSION, Envelope, ErrorCode, ProtocolError
from shared_schema.fixes import FIX_NOTES, FIXES
from shared_schema.messages import Hello, HelloOk, Ping, Pong

from .. import logs
from ..futures import settle
from ..version import HOST_VERSION
from .channel import NativeChannel
from .framing import MAX_OUTGOING
from .identity import origin_allowed

log = logs.get("heybro.host")

# What the host serves beyond the handshake (the agent session, settings): put together by
# heybro.app, handed in.
Installer = Callable[[NativeChannel], None]


def install_handshake(channel: NativeChannel, log_file: str) -> None:
    async def on_hello(env: Envelope, payload: Hello) -> tuple[str, HelloOk]:
        if env.v != PROTOCOL_VERSION or payload.protocol != PROTOCOL_VERSION:
            log.warning("version_mismatch", extension_protocol=payload.protocol,
                        envelope_v=env.v, extension_version=payload.extension_version)
            raise ProtocolError(
                ErrorCode.version_mismatch,
                f"The extension speaks protocol {payload.protocol} and this host (heybro "
                f"{HOST_VERSION}) speaks {PROTOCOL_VERSION}. {FIX_NOTES['wrong_version']} "
                f"Update: `{FIXES['wrong_version']}`",
                detail={"host_protocol": PROTOCOL_VERSION, "host_version": HOST_VERSION,
                        "fix": FIXES["wrong_version"]},
                sender_v=env.v if env.v != PROTOCOL_VERSION else None)
        log.info("hello", extension_version=payload.extension_version)
        return "hello_ok", HelloOk(protocol=PROTOCOL_VERSION, host_version=HOST_VERSION,
                                   pid=os.getpid(), log_file=log_file,
                                   max_message_bytes=MAX_OUTGOING)

    async def on_ping(env: Envelope, payload: Ping) -> tuple[str, Pong]:
        return "pong", Pong(nonce=payload.nonce, data=payload.data, host_pid=os.getpid())

    channel.on("hello", on_hello)
    channel.on("ping", on_ping)


def _pollable(fd: int) -> bool:
    """A pipe or socket (what Chrome gives the host) can be watched by the event loop itself;
    files and terminals cannot, and Windows pipes need threads."""
    if os.name != "posix":
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _stdin_reader(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamReader:
    """A StreamReader over Chrome's pipe. Read by the event loop when the fd allows it: a reader
    thread costs a thread hand-off (0.5-5 ms on a busy machine) for every message."""
    reader = asyncio.StreamReader(limit=1 << 20, loop=loop)
    if _pollable(fd):
        os.set_blocking(fd, False)

        def readable() -> None:
            try:
                while chunk := os.read(fd, 1 << 16):
                    reader.feed_data(chunk)
            except BlockingIOError:
                return  # drained; wait for more
            except OSError as err:
                log.warning("stdin_error", error=str(err))
            loop.remove_reader(fd)  # end of stream (or a dead pipe)
            reader.feed_eof()

        loop.add_reader(fd, readable)
        return reader

    def pump() -> None:
        try:
            while chunk := os.read(fd, 1 << 16):
                loop.call_soon_threadsafe(reader.feed_data, chunk)
        except OSError as err:
            log.warning("stdin_error", error=str(err))
        finally:
            loop.call_soon_threadsafe(reader.feed_eof)

    threading.Thread(target=pump, name="stdin", daemon=True).start()
    return reader


def _fd_writer(fd: int):  # type: ignore[no-untyped-def]
    """Writes whole frames. On a pipe: non-blocking writes from the loop, waiting for the pipe to
    drain only when Chrome is behind (no thread hop per frame); elsewhere a worker thread."""
    if _pollable(fd):
        os.set_blocking(fd, False)

        async def write_nonblocking(data: bytes) -> None:
            view = memoryview(data)
            while view:
                try:
                    view = view[os.write(fd, view):]
                except BlockingIOError:
                    loop = asyncio.get_running_loop()
                    ready = loop.create_future()
                    loop.add_writer(fd, settle, ready, None)
                    try:
                        await ready
                    finally:
                        loop.remove_writer(fd)

        return write_nonblocking

    def write_all(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]

    async def write(data: bytes) -> None:
        await asyncio.get_running_loop().run_in_executor(None, write_all, data)

    return write


async def serve_stdio(in_fd: int, out_fd: int, log_file: str,
                      installers: Sequence[Installer] = ()) -> None:
    loop = asyncio.get_running_loop()
    channel = NativeChannel(_stdin_reader(loop, in_fd), _fd_writer(out_fd))
    install_handshake(channel, log_file)
    for install in installers:
        install(channel)
    await channel.serve()


def main(argv: list[str] | None = None, installers: Sequence[Installer] = ()) -> int:
    """The host process: the handshake, and what `installers` add (heybro.app gives them)."""
    argv = sys.argv[1:] if argv is None else argv
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    log_target = logs.setup()  # falls back to stderr (never stdout) when the log folder is unusable
    origin = argv[0] if argv else None
    log.info("host_start", pid=os.getpid(), origin=origin, version=HOST_VERSION)
    if not origin_allowed(origin):
        log.error("origin_refused", origin=origin)
        print(f"heybro-host: refusing caller {origin!r}; only the heybro extension may start it.",
              file=sys.stderr)
        return 2
    try:
        asyncio.run(serve_stdio(0, out_fd, log_target.describe(), installers))
    except Exception:  # noqa: BLE001 - last words go to the log, not stdout
        log.exception("host_crashed")
        return 1
    log.info("host_exit")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
