"""Fixtures for gitsource tests: object counting, git trace2 capture, a local smart-HTTP stand-in."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest


def _count_objects(git_dir: Path, kind: str) -> int:
    # --batch-all-objects enumerates the local store only: it never triggers a lazy fetch.
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch-all-objects", "--batch-check=%(objecttype)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return sum(1 for line in out.splitlines() if line == kind)


@pytest.fixture
def count_objects() -> Callable[[Path, str], int]:
    """Count objects of one type ("blob", "tree", "commit") in a repository's local store."""
    return _count_objects


class Trace2:
    """Reads git's trace2 event stream: every git process (and child) our code started."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def events(self) -> list[dict[str, object]]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]

    def commands(self, *, top_level: bool = True) -> list[list[str]]:
        """argv (after "git" and global options) of each started git process, in order."""
        found = []
        for event in self.events():
            if event.get("event") != "start":
                continue
            if top_level and "/" in str(event.get("sid", "")):
                continue
            argv = [str(arg) for arg in event["argv"]]  # type: ignore[union-attr]
            found.append(_strip_global_options(argv[1:]))
        return found

    def text(self) -> str:
        return self.path.read_text() if self.path.exists() else ""

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def _strip_global_options(argv: list[str]) -> list[str]:
    while argv and argv[0] in {"--git-dir", "-c", "-C"}:
        argv = argv[2:]
    while argv and argv[0].startswith("--git-dir="):
        argv = argv[1:]
    return argv


@pytest.fixture
def trace2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Trace2:
    """Turn on git's trace2 event log (an environment variable git children inherit)."""
    path = tmp_path / "trace2.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(path))
    return Trace2(path)


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
