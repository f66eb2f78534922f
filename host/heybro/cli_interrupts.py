"""What a terminal command following a task does when it is interrupted.

- Ctrl-C asks "stop the task? [Y/n]": yes (or Enter, or no answer possible) stops the task, which
  ends as stopped; no lets it go on. A second Ctrl-C while asking means yes.
- SIGTERM and SIGHUP (the terminal closed) stop the task without asking.
- Before there is a task to stop, any of them ends the command at once.
In every case the command's own cleanup runs (it closes the Chromium it launched): the handlers
only ask for the stop or cancel the command's main task, they never exit the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Awaitable, Callable

from .futures import settle

STOP_GRACE_S = 20.0  # how long a stopped task may take to say it ended before we give up waiting
# SIGHUP does not exist on Windows; there asyncio takes no signal handlers at all, and Ctrl-C
# ends the command the plain way (KeyboardInterrupt, the task stopped by Watch on cancellation).
SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))
EXIT_CODES = {sig: 128 + int(sig) for sig in SIGNALS}  # 130, 143, 129: the shell's convention


class Interrupts:
    def __init__(self) -> None:
        self.received: int | None = None  # the signal that ended or stopped the command
        self._stop: Callable[[], Awaitable[None]] | None = None
        self._main: asyncio.Task[object] | None = None
        self._asking = False
        self._stopping = False

    def install(self) -> None:
        """Takes over the signals for the running loop's current task (the command's main)."""
        loop = asyncio.get_running_loop()
        self._main = asyncio.current_task()
        for sig in SIGNALS:
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, self._on, sig)

    def remove(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            with contextlib.suppress(Exception):
                loop.remove_signal_handler(sig)

    def following(self, stop: Callable[[], Awaitable[None]] | None) -> None:
        """From now on an interrupt stops the task with `stop` (None: there is no task)."""
        self._stop = stop

    def exit_code(self, default: int) -> int:
        return EXIT_CODES.get(self.received, default) if self.received is not None else default

    def _on(self, sig: int) -> None:
        if self._stop is None:
            self.received = sig
            self._cancel()
        elif sig == signal.SIGINT and not self._asking and not self._stopping:
            self._asking = True
            asyncio.get_running_loop().create_task(self._ask())
        elif not self._stopping:
            self._stop_now(sig)

    def _cancel(self) -> None:
        if self._main is not None and not self._main.done():
            self._main.cancel()

    async def _ask(self) -> None:
        answer = await _read_line("\nstop the task? [Y/n] ")
        self._asking = False
        if self._stopping:
            return
        if answer.strip().lower() in ("n", "no"):
            print("Going on.", file=sys.stderr, flush=True)
            return
        self._stop_now(signal.SIGINT)

    def _stop_now(self, sig: int) -> None:
        self._stopping, self.received = True, sig
        print("Stopping the task…", file=sys.stderr, flush=True)
        asyncio.get_running_loop().create_task(self._stop_or_give_up())

    async def _stop_or_give_up(self) -> None:
        """Asks for the stop; the command then sees the task end. If that cannot be asked (the
        host is gone) or the end does not come, the command ends anyway."""
        assert self._stop is not None
        try:
            await asyncio.wait_for(self._stop(), 10)
        except Exception:  # noqa: BLE001 - no host to ask: end the command
            self._cancel()
            return
        await asyncio.sleep(STOP_GRACE_S)
        self._cancel()


async def _read_line(prompt: str) -> str:
    """One line from stdin without blocking the loop: a daemon thread reads it, so a command
    that ends meanwhile never waits for the answer (asyncio's executor would). End of input
    reads as the default answer."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def read() -> None:
        try:
            line = sys.stdin.readline() if sys.stdin else ""
        except (OSError, ValueError):
            line = ""
        loop.call_soon_threadsafe(settle, answer, line)

    print(prompt, end="", file=sys.stderr, flush=True)
    threading.Thread(target=read, daemon=True).start()
    return await answer
