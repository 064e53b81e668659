"""Ctrl-C during a run exits 130 with no traceback, and leaves the home ready for the next command."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from ..conftest import GitRepo
from .conftest import SextantRunner


class StalledEmbeddings:
    """An OpenAI-compatible embeddings endpoint that takes requests and never answers them
    (until the test ends): a run that reaches it is certainly in progress."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.release = threading.Event()
        stalled = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", "0")))
                stalled.reached.set()
                stalled.release.wait()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()


@pytest.fixture
def stalled() -> Iterator[StalledEmbeddings]:
    server = StalledEmbeddings()
    try:
        yield server
    finally:
        server.stop()


def test_ctrl_c_exits_130_and_the_next_command_runs(
    sextant: SextantRunner, sextant_env: dict[str, str], git_repo: GitRepo, stalled: StalledEmbeddings
) -> None:
    git_repo.write("shop.py", 'def order(item):\n    """Place an order."""\n    return item\n')
    git_repo.commit("one")
    embeddings = {
        "EMBEDDINGS_PROVIDER": "openai",
        "EMBEDDINGS_BASE_URL": stalled.url,
        "EMBEDDINGS_MODEL": "stalled-test-model",
        "EMBEDDINGS_DIMENSION": "8",
        "EMBEDDINGS_MAX_ATTEMPTS": "1",
    }
    run = subprocess.Popen(
        [sys.executable, "-m", "sextant.cli", "index", str(git_repo.root)],
        env={**sextant_env, **embeddings}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        # The run is certainly in progress once its embedding request arrives (no clock involved).
        while not stalled.reached.wait(1.0):
            assert run.poll() is None, run.communicate()
        run.send_signal(signal.SIGINT)
        _, errors = run.communicate()
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130, errors
    assert "Traceback" not in errors
    home = Path(sextant_env["SEXTANT_HOME"])
    assert not (home / "runtime.json").exists()  # the runtime record went with the run
    # The home is free again: the embedded store and the bus open for the next command.
    after = sextant("select", str(git_repo.root), "--json", check=False, **embeddings)
    assert after.returncode in (0, 1), after.stderr
    assert "another sextant command" not in after.stderr
    assert "Traceback" not in after.stderr
