"""One runtime per SEXTANT_HOME: an exclusive lock held by whichever process hosts the embedded runtime.

Two nats-servers on one JetStream folder both acknowledge writes and then lose them, and the embedded
Qdrant engine takes its folder for itself, so a second command must attach to the running runtime or
stop with a clear message — never start a second one on the same folder. The lock is an OS file lock:
a process killed with SIGKILL releases it with its last file descriptor.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from types import TracebackType

from sextant.config import try_lock_file

LOCK_FILE = "runtime.lock"


class HomeBusyError(RuntimeError):
    """Another process hosts the embedded runtime of this SEXTANT_HOME."""


class HomeLock:
    """An exclusive, non-blocking lock on ``home/runtime.lock`` (use as a context manager).

    Args:
        home: The SEXTANT_HOME folder.
    """

    def __init__(self, home: Path) -> None:
        self.path = home / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock.

        Raises:
            HomeBusyError: when another process holds it.
        """
        fd = try_lock_file(self.path)  # not inherited: a child (nats-server) must not keep the home locked
        if fd is None:
            raise HomeBusyError(str(self.path.parent))
        self._fd = fd

    def release(self) -> None:
        """Let the lock go (idempotent)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> HomeLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
