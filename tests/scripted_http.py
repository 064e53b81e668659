"""A real HTTP server on 127.0.0.1 that plays scripted provider replies and records each request.

Shared by the language-model and rerank tests: their conftests re-export ``provider_server``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass(frozen=True)
class Reply:
    """One scripted HTTP answer."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes | None = None


@dataclass(frozen=True)
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


class ProviderServer:
    """Serves scripted replies in order; the last one repeats when the script runs out."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self._replies: list[Reply] = []
        self._lock = threading.Lock()
        self.release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                reply = server.record(
                    Recorded(
                        method="POST",
                        path=self.path,
                        headers={k.lower(): v for k, v in self.headers.items()},
                        body=json.loads(raw) if raw else None,
                    )
                )
                if reply.delay:
                    # Wait like a slow provider, but let the fixture end the wait at teardown.
                    server.release.wait(reply.delay)
                payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (timeout tests): nothing to answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        host, port = self._httpd.server_address[:2]
        self.url = f"http://{host!s}:{port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

    def script(self, *replies: Reply | dict[str, Any]) -> None:
        """Set the replies for the next requests, in order (dicts are Reply keyword arguments)."""
        with self._lock:
            self._replies = [r if isinstance(r, Reply) else Reply(**r) for r in replies]

    def record(self, request: Recorded) -> Reply:
        with self._lock:
            self.requests.append(request)
            if not self._replies:
                return Reply(status=500, body={"error": {"message": "no reply scripted"}})
            return self._replies.pop(0) if len(self._replies) > 1 else self._replies[0]

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def provider_server() -> Iterator[ProviderServer]:
    """A started ProviderServer, stopped after the test."""
    server = ProviderServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
