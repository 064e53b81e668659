"""A loopback HTTP server answering git's smart-HTTP discovery request the way a test chooses.

It records the headers git sent (the token goes in one), so tests can check a credential was used
and then that it shows nowhere else.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class FakeForge:
    """A loopback HTTP server answering git's smart-HTTP discovery request the way we choose."""

    url: str
    status: int = 401
    body: bytes = b""
    content_type: str = "text/plain"
    delay: float = 0.0
    seen_headers: list[dict[str, str]] = field(default_factory=list)


@pytest.fixture
def fake_forge() -> Iterator[FakeForge]:
    """A smart-HTTP stand-in on 127.0.0.1: 401 by default; tests set status/body/delay."""
    forge = FakeForge(url="")
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            forge.seen_headers.append(dict(self.headers.items()))
            if forge.delay:
                stop.wait(forge.delay)
            try:
                self.send_response(forge.status)
                if forge.status == 401:
                    self.send_header("WWW-Authenticate", 'Basic realm="forge"')
                self.send_header("Content-Type", forge.content_type)
                self.send_header("Content-Length", str(len(forge.body)))
                self.end_headers()
                self.wfile.write(forge.body)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client (a git we timed out) is gone

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)  # shutdown() waits a poll
    thread.start()
    forge.url = f"http://127.0.0.1:{server.server_address[1]}/org/repo.git"
    yield forge
    stop.set()
    server.shutdown()
    server.server_close()
