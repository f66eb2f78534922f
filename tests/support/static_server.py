"""A quiet static HTTP server on 127.0.0.1 and a free port, stopped by its context manager."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _Quiet(SimpleHTTPRequestHandler):
    cors = False

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def end_headers(self) -> None:
        if self.cors:  # lets a page on another port import these files as modules
            self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class _QuietCors(_Quiet):
    cors = True


@contextmanager
def serve(root: Path, *, cors: bool = False) -> Iterator[str]:
    """Serves `root`; yields the base URL (no trailing slash)."""
    handler = functools.partial(_QuietCors if cors else _Quiet, directory=str(root))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
