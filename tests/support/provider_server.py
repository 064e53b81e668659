"""A real HTTP server on 127.0.0.1 that plays scripted provider replies and records each request.

The one stand-in for every hosted provider API (language models, rerank, embeddings): tests script
what the provider answers in its real wire format and assert on what the client sent. Conftests
re-export the ``provider_server`` fixture by importing it.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

import pytest

Answer = Callable[[Any], Any]
"""Computes the answer to a request's decoded JSON (a provider that answers what it is asked): a success
body, or a whole ``Reply`` when the answer depends on the content (a 400 for one rejected input)."""


@dataclass(frozen=True)
class Reply:
    """One scripted HTTP answer (``body`` bytes are sent as they are, like ``raw``)."""

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
    """Serves scripted replies in order.

    Without an ``answer`` the last reply repeats when the script runs out (and an empty script is a
    500). With one, every reply is used once, then each request gets the computed answer, as does a
    scripted 200 reply without a body.
    """

    def __init__(self, answer: Answer | None = None) -> None:
        self.requests: list[Recorded] = []
        self._replies: list[Reply] = []
        self._answer = answer
        self._lock = threading.Lock()
        self.release = threading.Event()
        self.arrived = threading.Event()
        """Set when the first request arrives (for tests that wait without an event loop)."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                request = Recorded(
                    method="POST",
                    path=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=json.loads(raw) if raw else None,
                )
                reply = server.answered(server.record(request), request)
                if reply.delay:
                    # Wait like a slow provider, but let the fixture end the wait at teardown.
                    server.release.wait(reply.delay)
                payload = server.payload(reply)
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
        """Note a request and pick its reply."""
        with self._lock:
            self.requests.append(request)
            self.arrived.set()
            if not self._replies:
                if self._answer is not None:
                    return Reply()
                return Reply(status=500, body={"error": {"message": "no reply scripted"}})
            if self._answer is None and len(self._replies) == 1:
                return self._replies[0]
            return self._replies.pop(0)

    def answered(self, reply: Reply, request: Recorded) -> Reply:
        """The reply to send: a 200 without a body takes the ``answer`` function's body (or its Reply)."""
        if self._answer is None or reply.status != 200 or reply.body is not None or reply.raw is not None:
            return reply
        computed = self._answer(request.body)
        return computed if isinstance(computed, Reply) else replace(reply, body=computed)

    def payload(self, reply: Reply) -> bytes:
        """The bytes to send for a reply."""
        if reply.raw is not None:
            return reply.raw
        if isinstance(reply.body, bytes):
            return reply.body
        return json.dumps(reply.body).encode()

    async def requested(self, count: int = 1, *, within: float = 60.0) -> None:
        """Return once ``count`` requests have arrived (the call is in flight), failing after ``within`` s."""
        deadline = time.monotonic() + within
        while len(self.requests) < count:
            assert time.monotonic() < deadline, f"{len(self.requests)} of {count} requests arrived"
            await asyncio.sleep(0.01)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        """Start serving; leaving the ``with`` block stops the server (whatever the test did)."""
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


@pytest.fixture
def provider_server() -> Iterator[ProviderServer]:
    """A started ProviderServer, stopped after the test."""
    with ProviderServer() as server:
        yield server
