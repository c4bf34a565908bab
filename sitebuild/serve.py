"""Serving a built site on 127.0.0.1 under a sub-path (``python3 build.py --serve``, the tests)."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
from collections.abc import Iterator
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .paths import DIST

EXTRA_MIME_TYPES: dict[str, str] = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".py": "text/x-python; charset=utf-8",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".html": "text/html; charset=utf-8",
}


def normalize_prefix(prefix: str) -> str:
    """``gongzhu`` / ``/gongzhu`` / ``/gongzhu/`` -> ``/gongzhu/``; ``""`` or ``/`` -> ``/``."""
    stripped = prefix.strip("/")
    return f"/{stripped}/" if stripped else "/"


class _SubPathHandler(SimpleHTTPRequestHandler):
    """Serves ``directory`` under ``prefix`` only; everything else is a 404."""

    prefix = "/"

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return EXTRA_MIME_TYPES.get(Path(path).suffix.lower()) or super().guess_type(path)

    def do_GET(self) -> None:
        if self._route():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._route():
            super().do_HEAD()

    def _route(self) -> bool:
        """Redirect ``/prefix`` to ``/prefix/``; 404 outside the prefix. True: serve the file."""
        path = urlsplit(self.path).path
        if self.prefix != "/" and path == self.prefix.rstrip("/"):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", self.prefix)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if not path.startswith(self.prefix):
            self.send_error(HTTPStatus.NOT_FOUND, "outside the site's sub-path")
            return False
        return True

    def translate_path(self, path: str) -> str:
        clean = urlsplit(path).path
        return super().translate_path("/" + clean[len(self.prefix) :])

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class SiteServer(ThreadingHTTPServer):
    """An HTTP server for ``directory`` under ``prefix``, bound to 127.0.0.1."""

    daemon_threads = True

    def __init__(self, directory: Path, prefix: str = "/gongzhu/", port: int = 0, verbose: bool = False):
        self.directory = directory
        self.prefix = normalize_prefix(prefix)
        self.verbose = verbose
        handler_cls = type("Handler", (_SubPathHandler,), {"prefix": self.prefix})
        handler = functools.partial(handler_cls, directory=str(directory))
        super().__init__(("127.0.0.1", port), handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that cancels a download (page closed mid-load) is not an error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.prefix}"


def serve_in_thread(directory: Path = DIST, prefix: str = "/gongzhu/", port: int = 0) -> SiteServer:
    """Start serving ``directory`` in a daemon thread; call ``.shutdown()`` when done."""
    server = SiteServer(directory, prefix, port)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    return server


@contextlib.contextmanager
def serving(directory: Path = DIST, prefix: str = "/gongzhu/", port: int = 0) -> Iterator[SiteServer]:
    """:func:`serve_in_thread` for a ``with`` block: the server is stopped and closed after it."""
    server = serve_in_thread(directory, prefix, port)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
